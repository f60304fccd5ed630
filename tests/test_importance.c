/* importance-1.x: importance sampling of small miss probabilities (issue 8),
 * on a case whose answer is a Poisson tail. No jitter, no card failures:
 * 5,000 one-second steps, each saved at once (save 0, restore 0), and
 * outages at rate 1 / 2,500 s that keep the job down a day each. A run then
 * misses a deadline set at W0 + (k0 - 1/2) days iff it meets k0 or more
 * outages in its 5,000 s of work: P(miss) = P(Poisson(2) >= k0), up to the
 * work an outage loses (under 1 s each, a bias of about 0.0001 k0 in the
 * Poisson mean: 1.7 % at k0 = 14, inside the tolerance below).
 * importance-1.1 the cross-entropy tilt and the weighted estimate agree with
 *                the Poisson tail within 4 standard errors at k0 = 8, 11, 14
 *                (P = 1.1e-3, 8.3e-6, 4.7e-8);
 * importance-1.2 plain Monte Carlo agrees at 1.1e-3, and needs many times
 *                the replicas importance sampling needs for the same relative
 *                error (printed);
 * importance-1.3 no tilt: the weights are 1 and the estimate is the plain
 *                miss fraction;
 * importance-1.4 tilted waits (repair times x2, outage downtimes x2, rates
 *                unchanged) on design-48-rare-misses at a 30-day deadline
 *                agree with plain Monte Carlo within 4 standard errors of
 *                their difference: the duration likelihood ratios are right;
 * importance-1.5 an absurd tilt (failure rate x 1e20 on design-48: 6e-15 s
 *                between failures, below a double's resolution of the
 *                clock) ends the replica with TMC_REPLICA_STALLED after
 *                TMC_STALL_LIMIT struck restores, instead of looping for
 *                ever (issue 13);
 * importance-1.6 the --importance text: three or five positive numbers
 *                separated by commas and nothing else ("1,4,1xyz" refused);
 * importance-1.7 the Zhang-Stephens GPD fit (PSIS's k-hat, issue 35): on
 *                200 samples of 2,000 draws of a GPD with k = 0.2, 0.5, 0.9
 *                (sigma 1), the mean k-hat is within 4 standard errors of
 *                the mean (SE printed) of the true k; and
 *                tmc_importance_pareto_k on exact Pareto values (k 0.8)
 *                with zeros among them finds k within 0.15. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>
#include <stdio.h>

#include "closed_form.h"
#include "engine.h"
#include "importance.h"
#include "runner.h"
#include "support.h"

#define W0_S 5000.0

static tmc_experiment poisson_case(int k0)
{
    char deadline[128];
    snprintf(deadline, sizeof deadline, "deadline={\"days\": %.17g, \"reserve_days\": 0}",
             W0_S / TMC_DAY_S + k0 - 0.5);
    const char *sets[7] = {
        "failures=null", "job.steps=5000",
        "job.flop_per_step=1.3321728e15", /* mu = 0.42 s: a 1.00 s step with 0.58 s */
        "checkpoint={\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}",
        "outages={\"mean_interval_days\": 0.028935185185185185, \"downtime_s\": 86400}",
        deadline, "monte_carlo.mode=\"steps\""};
    return test_load("design-48", sets, 7);
}

static void engine_for(const tmc_experiment *x, tmc_engine *e)
{
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    assert_true(fabs(cf.step_s - 1.0) < 1e-9);
    assert_int_equal(tmc_engine_init(e, x, &cf), 0);
}

/* importance-1.1 */
static void test_poisson_tails(void **state)
{
    (void)state;
    static const int k0s[3] = {8, 11, 14};
    for (int i = 0; i < 3; i++) {
        tmc_experiment x = poisson_case(k0s[i]);
        tmc_engine e;
        engine_for(&x, &e);
        tmc_importance is;
        tmc_error err = {""};
        if (tmc_importance_choose(&e, 1000, 11, 2, &is, &err) ||
            tmc_importance_estimate(&e, 20000, 12, 2, &is, &err))
            fail_msg("%s", err.msg);
        double exact = gsl_cdf_poisson_Q((unsigned)(k0s[i] - 1), 2.0);
        double z = (is.p_miss - exact) / is.se, rel = is.se / is.p_miss;
        /* plain Monte Carlo needs (1 - p) / (p rel^2) replicas for this error */
        double plain = (1 - exact) / (exact * rel * rel);
        print_message("k0 %2d: IS %.4g +- %.2g (rel %.1f %%, ESS %.0f, tilt outages x%.2f, "
                      "%d levels), Poisson tail %.4g (%.2f se); plain MC would need %.3g "
                      "replicas, %.0fx more\n", k0s[i], is.p_miss, is.se, 100 * rel, is.ess,
                      is.theta[TMC_TILT_OUTAGES], is.levels, exact, z, plain, plain / 20000);
        if (!(fabs(z) <= 4))
            fail_msg("k0 %d: %.2f standard errors from the Poisson tail", k0s[i], z);
        tmc_engine_free(&e);
    }
}

/* importance-1.2 and 1.3: plain Monte Carlo is the untilted estimate. */
static void test_plain(void **state)
{
    (void)state;
    tmc_experiment x = poisson_case(8);
    tmc_engine e;
    engine_for(&x, &e);
    tmc_importance is = {.theta = {1, 1, 1, 1, 1}};
    tmc_error err = {""};
    long n = 40000;
    if (tmc_importance_estimate(&e, n, 13, 2, &is, &err))
        fail_msg("%s", err.msg);
    assert_true(fabs(is.ess - n) < 1e-6); /* every weight is 1 */
    double exact = gsl_cdf_poisson_Q(7, 2.0), se = sqrt(exact * (1 - exact) / n);
    double z = (is.p_miss - exact) / se;
    print_message("plain MC: %.4g (%ld misses in %ld), Poisson tail %.4g (%.2f se)\n",
                  is.p_miss, lround(is.p_miss * n), n, exact, z);
    assert_true(fabs(z) <= 4);
    tmc_engine_free(&e);
}

/* importance-1.4 */
static void test_tilted_waits(void **state)
{
    (void)state;
    const char *sets[1] = {"deadline.days=30"};
    tmc_experiment x = test_load("design-48-rare-misses", sets, 1);
    tmc_error err = {""};
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    tmc_importance plain = {.theta = {1, 1, 1, 1, 1}}, tilted = {.theta = {1, 1, 1, 2, 2}};
    if (tmc_importance_estimate(&e, 20000, 21, 2, &plain, &err) ||
        tmc_importance_estimate(&e, 20000, 22, 2, &tilted, &err))
        fail_msg("%s", err.msg);
    double z = (tilted.p_miss - plain.p_miss) / hypot(tilted.se, plain.se);
    print_message("waits x2: %.4g +- %.2g; plain %.4g +- %.2g (%.2f se)\n", tilted.p_miss,
                  tilted.se, plain.p_miss, plain.se, z);
    assert_true(fabs(z) <= 4);
    tmc_engine_free(&e);
}

/* importance-1.5 */
static void test_absurd_tilt(void **state)
{
    (void)state;
    tmc_experiment x = test_load("design-48", NULL, 0);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    const double theta[TMC_TILTS] = {1e20, 1, 1, 1, 1};
    assert_int_equal(tmc_engine_tilt(&e, theta, e.deadline_wall_s), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    tmc_replica r;
    tmc_engine_run(&e, 1, 0, rng, &r);
    assert_int_equal(r.failed, TMC_REPLICA_STALLED);
    test_rngs_free(rng);
    tmc_engine_free(&e);
}

static void test_parse_tilt(void **state)
{
    (void)state;
    static const char *const good[] = {"1,4,1", "2,1,1,0.5,3", "1e-3,1,1"};
    static const char *const bad[] = {"1,4,1xyz", "1,1,1,", "1,1,1,x", "1,1,1;rm", "1,1",
                                      "1,1,1,1", "1,1,1,1,1,1", "1,1,1,1,1x", ",1,1,1",
                                      "1,,1,1", "", "1,0,1", "1,nan,1", "1,inf,1"};
    double theta[TMC_TILTS];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (tmc_importance_parse_tilt(good[i], theta))
            fail_msg("'%s' refused", good[i]);
    assert_true(theta[TMC_TILT_FAILURES] == 1e-3 && theta[TMC_TILT_OUTAGES] == 1 &&
                theta[TMC_TILT_REPAIRS] == 1 && theta[TMC_TILT_DOWNTIMES] == 1);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (!tmc_importance_parse_tilt(bad[i], theta))
            fail_msg("'%s' accepted", bad[i]);
}

static void test_gpd_fit(void **state)
{
    (void)state;
    enum { SAMPLES = 200, N = 2000 };
    static double x[N];
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 35);
    const double ks[] = {0.2, 0.5, 0.9};
    for (int t = 0; t < 3; t++) {
        double sum = 0, sum2 = 0, k = ks[t];
        for (int s = 0; s < SAMPLES; s++) {
            for (int i = 0; i < N; i++) /* the inverse CDF, sigma 1 */
                x[i] = (pow(gsl_rng_uniform_pos(r), -k) - 1) / k;
            gsl_sort(x, 1, N);
            double kh, sigma;
            assert_int_equal(tmc_gpd_fit(x, N, 1, &kh, &sigma), 0);
            sum += kh;
            sum2 += kh * kh;
        }
        double mean = sum / SAMPLES, sd = sqrt((sum2 - sum * sum / SAMPLES) / (SAMPLES - 1)),
               se = sd / sqrt(SAMPLES);
        printf("importance-1.7 k %.1f: mean k-hat %.4f, SE %.4f (sd %.3f), %.2f SE off\n", k,
               mean, se, sd, (mean - k) / se);
        assert_true(fabs(mean - k) < 4 * se);
    }
    /* PSIS's tail choice over values with zeros (the non-misses): Pareto
     * values with tail index 1/0.8 */
    enum { M = 20000 };
    static double v[M];
    for (int i = 0; i < M; i++)
        v[i] = i % 3 ? pow(gsl_rng_uniform_pos(r), -0.8) : 0;
    double kh = tmc_importance_pareto_k(v, M);
    printf("importance-1.7 Pareto k 0.8 with a third zeros: k-hat %.3f\n", kh);
    assert_true(fabs(kh - 0.8) < 0.15);
    double none[10] = {0};
    assert_true(isnan(tmc_importance_pareto_k(none, 10)));
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poisson_tails),
        cmocka_unit_test(test_plain),
        cmocka_unit_test(test_tilted_waits),
        cmocka_unit_test(test_absurd_tilt),
        cmocka_unit_test(test_parse_tilt),
        cmocka_unit_test(test_gpd_fit),
    };
    return cmocka_run_group_tests_name("importance-1", tests, NULL, NULL);
}
