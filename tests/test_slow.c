/* slow-1.x: persistently slow cards (issue 4).
 * slow-1.1 fraction 0 changes nothing, replica for replica;
 * slow-1.2 every card slow, no jitter: each step takes factor x mu, so the
 *          wall time is exactly S (factor mu + comm + input) + saves;
 * slow-1.3 every card slow, 5 % jitter: E[wall] = S (factor E[max] + comm +
 *          input) + saves within 4 standard errors (the slow group's maximum
 *          through the table at v^(n/m));
 * slow-1.4 detection after W steps: the cards are evicted at the first commit
 *          after W steps, which costs one eviction restore; the slow cards
 *          stayed until then (exact, no jitter, no failures);
 * slow-1.5 slow-min (issue 12): 512 cards, 5 % normal jitter, fraction
 *          0.002, factor 1.5 (a slow group of one card among many, where
 *          v^(N/m) underflows): the mean wall time against
 *          1000 sum_s P(S = s) E[max(max of 512 - s normal cards, 1.5 max of
 *          s)] by GSL quadrature (0.01607 d), within 4 standard errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "runner.h"
#include "support.h"

#define R 400

static double wa[R], wb[R];

static tmc_replica run(const char *const *sets, int n, double *wall, tmc_closed_form *cf,
                       tmc_experiment *xo)
{
    tmc_experiment x = test_load("design-48", sets, n);
    tmc_replica totals = test_run(&x, cf, R, 501, wall);
    if (xo)
        *xo = x;
    return totals;
}

static void test_fraction_zero(void **state)
{
    (void)state;
    const char *base[1] = {"jitter.cv=0.05"};
    const char *slow[2] = {"jitter.cv=0.05",
                           "slow_cards={\"fraction\": 0, \"factor\": 1.5}"};
    tmc_closed_form cf;
    run(base, 1, wa, &cf, NULL);
    run(slow, 2, wb, &cf, NULL);
    for (int k = 0; k < R; k++)
        if (wa[k] != wb[k])
            fail_msg("replica %d: %.6f s vs %.6f s with fraction 0", k, wa[k], wb[k]);
}

static void test_all_slow_exact(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null", "slow_cards={\"fraction\": 1, \"factor\": 1.1}"};
    tmc_closed_form cf;
    tmc_experiment x;
    tmc_replica t = run(sets, 2, wa, &cf, &x);
    double fixed = x.job.exposed_comm_s + x.job.input_wait_s;
    double exact = x.job.steps * (1.1 * cf.compute_s + fixed) + cf.segments * x.checkpoint.save_s;
    for (int k = 0; k < R; k++)
        if (fabs(wa[k] - exact) > 1e-9 * exact)
            fail_msg("replica %d: %.6f s, exact %.6f s", k, wa[k], exact);
    assert_true(t.slow_cards == 48.0 * R && t.evictions == 0);
}

static void test_all_slow_jitter(void **state)
{
    (void)state;
    const char *sets[3] = {"failures=null", "jitter.cv=0.05",
                           "slow_cards={\"fraction\": 1, \"factor\": 1.1}"};
    tmc_closed_form cf;
    tmc_experiment x;
    run(sets, 3, wa, &cf, &x);
    double fixed = x.job.exposed_comm_s + x.job.input_wait_s;
    double emax = tmc_dist_expected_max(&x.jitter, cf.compute_s, 48);
    double exact = x.job.steps * (1.1 * emax + fixed) + cf.segments * x.checkpoint.save_s;
    double mean = gsl_stats_mean(wa, 1, R), se = gsl_stats_sd(wa, 1, R) / sqrt(R);
    print_message("all cards slow, 5 %% jitter: %.1f s +- %.1f, exact %.1f s (%.2f se)\n", mean,
                  se, exact, (mean - exact) / se);
    assert_true(fabs(mean - exact) < 4 * se);
}

static void test_eviction(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null",
                           "slow_cards={\"fraction\": 1, \"factor\": 1.1, "
                           "\"detect_after_steps\": 100, \"eviction_restore_s\": 300}"};
    tmc_closed_form cf;
    tmc_experiment x;
    tmc_replica t = run(sets, 2, wa, &cf, &x);
    long k = cf.interval_steps, slow_steps = ((100 + k - 1) / k) * k; /* next commit */
    double fixed = x.job.exposed_comm_s + x.job.input_wait_s, mu = cf.compute_s;
    double before = slow_steps * (1.1 * mu + fixed) + (slow_steps / k) * x.checkpoint.save_s;
    double exact = before + 300 + (x.job.steps - slow_steps) * (mu + fixed) +
                   (cf.segments - slow_steps / k) * x.checkpoint.save_s;
    for (int i = 0; i < R; i++)
        if (fabs(wa[i] - exact) > 1e-9 * exact)
            fail_msg("replica %d: %.6f s, exact %.6f s", i, wa[i], exact);
    assert_true(t.evictions == R);
    assert_true(fabs(t.slow_survival_s / R - before) < 1e-6 * before);
    assert_true(fabs(t.eviction_s / R - 300) < 1e-9);
}

/* P(max > y) of a step with s slow cards among n (mu = 1, sd 0.05). */
typedef struct {
    long n, s;
} slow_group;

static double step_tail(double y, void *p)
{
    const slow_group *g = p;
    double fn = gsl_cdf_ugaussian_P((y - 1) / 0.05), fs = gsl_cdf_ugaussian_P((y / 1.5 - 1) / 0.05);
    return 1 - pow(fn, (double)(g->n - g->s)) * pow(fs, (double)g->s);
}

/* E[slowest time of a step] over S ~ Binomial(n, f), by quadrature of the
 * tail over [0, 4] (P(max > 4) < 1e-300 here; P(max < 0) < 1e-80). */
static double slow_step_mean(long n, double f)
{
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    double mean = 0;
    for (long s = 0; s <= 12; s++) { /* P(S > 12) < 1e-9 for n f = 1.02 */
        slow_group g = {n, s};
        gsl_function fn = {step_tail, &g};
        double v, err;
        assert_int_equal(gsl_integration_qags(&fn, 0, 4, 1e-12, 1e-10, 200, w, &v, &err), 0);
        mean += gsl_ran_binomial_pdf((unsigned)s, f, (unsigned)n) * v;
    }
    gsl_integration_workspace_free(w);
    return mean;
}

static void test_slow_min(void **state)
{
    (void)state;
    static const char json[] =
        "{\"name\":\"slow-min\",\"job\":{\"steps\":1000,\"cards\":512,\"flop_per_step\":512,"
        "\"peak_flops\":1,\"efficiency\":1},\"jitter\":{\"distribution\":\"normal\",\"cv\":0.05},"
        "\"slow_cards\":{\"fraction\":0.002,\"factor\":1.5},\"checkpoint\":{\"interval_steps\":100,"
        "\"save_s\":0,\"restore_s\":0},\"deadline\":{\"days\":1},\"monte_carlo\":{\"seed\":1}}";
    tmc_experiment x = test_parse(json);
    enum { N = 4000 };
    static double wall[N];
    tmc_closed_form cf;
    test_run(&x, &cf, N, 1, wall);
    double want = 1000 * slow_step_mean(512, 0.002); /* seconds */
    double mean = gsl_stats_mean(wall, 1, N), se = gsl_stats_sd(wall, 1, N) / sqrt((double)N);
    if (fabs(mean - want) > 4 * se)
        fail_msg("slow-min: %.6f d +- %.6f, quadrature %.6f d", mean / 86400, se / 86400,
                 want / 86400);
    printf("slow-min: simulated %.6f d +- %.6f, quadrature %.6f d\n", mean / 86400, se / 86400, want / 86400);
    assert_true(fabs(want / 86400 - 0.01607) < 1e-5); /* the figure */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fraction_zero),
        cmocka_unit_test(test_all_slow_exact),
        cmocka_unit_test(test_all_slow_jitter),
        cmocka_unit_test(test_eviction),
        cmocka_unit_test(test_slow_min),
    };
    return cmocka_run_group_tests_name("slow-1", tests, NULL, NULL);
}
