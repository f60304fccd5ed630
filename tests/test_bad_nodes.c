/* bad-1.x: bad nodes (failures.bad_node_share, bad_node_mtbf_days,
 * bad_node_retire_after; docs/reference/simulation-semantics.md 5, docs/model.md
 * 3.19). Statistical checks: fixed seeds, tolerance 4 standard errors; the
 * estimator is a sample mean m of per-replica figures, se sqrt(v / n), and
 * for a variance the delta method se sqrt((m4 - v^2) / n).
 *
 * The runs never stop: restores, saves and detection are free and spares
 * unlimited, so a failure can strike at every instant of the wall time and
 * only the step it cuts is lost.
 *
 * bad-1.1 off is off: bad_node_share 0 given, or the other keys left out,
 *         gives every replica to the bit as without the keys.
 * bad-1.2 never retired (k = 0): the bad nodes held are B ~ Binomial(n, b)
 *         (mean n b, variance n b (1 - b)), and their faults a Poisson
 *         process of rate B lambda_b over the wall time W, a stopping time:
 *         by optional stopping E[N_bad - lambda_b B W] = 0, and the same
 *         for all failures at rate ceil(N / g) lambda_node + B lambda_b.
 *         The closed form's M is 1 / (n lambda_node + n b lambda_b).
 * bad-1.3 retired after k = 2 faults, every node bad (b = 1, so B = n): a
 *         node's faults are Poisson(lambda_b W) cut at k, so E[retirements]
 *         = n P(Poisson(lambda_b W) >= k) and E[N_bad] = n E[min(Poisson(
 *         lambda_b W), k)], by hand with GSL's Poisson distribution, W the
 *         mean wall time (steps of 6 s: the work a fault loses, 3 s on
 *         average, moves W by under 0.1 %, a bias of about 0.1 standard
 *         error). bad-1.1 and bad-1.2 take 60 s steps (exact whatever the
 *         loss). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "support.h"

#define TOL_SE 4.0
#define DAY 86400.0

/* 20 nodes of 8 cards; steps of 0.75 / eff s saved every step for free. */
#define JOB(steps, eff)                                                                \
    "{\"name\": \"bad\", \"job\": {\"steps\": " #steps ", \"cards\": 160, "           \
    "\"flop_per_step\": 1.2e14, \"peak_flops\": 1e12, \"efficiency\": " #eff ", "     \
    "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "                                   \
    "\"jitter\": {\"distribution\": \"normal\", \"cv\": 0}, "                         \
    "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "      \
    "\"deadline\": {\"days\": 1000, \"reserve_days\": 0}, "
#define NODES 20

/* Replicas 0 .. n - 1 of the experiment in text, seed 7. */
static tmc_replica *run_all(const char *text, int n)
{
    tmc_experiment x = test_parse(text);
    tmc_replica *out = malloc((size_t)n * sizeof *out);
    assert_non_null(out);
    test_replicas(&x, 7, out, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(out[i].failed, 0);
    return out;
}

/* |mean of d - want| within TOL_SE standard errors. */
static void mean_agrees(const double *d, int n, double want, const char *what)
{
    double m = gsl_stats_mean(d, 1, n), se = gsl_stats_sd(d, 1, n) / sqrt(n);
    print_message("%s: %.5g +- %.3g against %.5g (z = %.2f)\n", what, m, se, want,
                  (m - want) / se);
    if (!(fabs(m - want) <= TOL_SE * se))
        fail_msg("%s: %.6g is %.2f se from %.6g", what, m, (m - want) / se, want);
}

static void variance_agrees(const double *d, int n, double want, const char *what)
{
    double m = gsl_stats_mean(d, 1, n), v = gsl_stats_variance(d, 1, n), m4 = 0;
    for (int i = 0; i < n; i++)
        m4 += pow(d[i] - m, 4) / n;
    double se = sqrt((m4 - v * v) / n);
    print_message("%s: variance %.5g +- %.3g against %.5g (z = %.2f)\n", what, v, se, want,
                  (v - want) / se);
    if (!(fabs(v - want) <= TOL_SE * se))
        fail_msg("%s: variance %.6g is %.2f se from %.6g", what, v, (v - want) / se, want);
}

static void bad_1_1_off_is_off(void **state)
{
    (void)state;
    enum { N = 300 };
    const char *base = JOB(2000, 0.0125) "\"failures\": {\"distribution\": \"exponential\", "
        "\"per_node_mtbf_days\": 2, \"cards_per_node\": 8}, "
        "\"monte_carlo\": {\"replicas\": 300, \"seed\": 7}}";
    const char *zero = JOB(2000, 0.0125) "\"failures\": {\"distribution\": \"exponential\", "
        "\"per_node_mtbf_days\": 2, \"cards_per_node\": 8, \"bad_node_share\": 0, "
        "\"bad_node_retire_after\": 0}, \"monte_carlo\": {\"replicas\": 300, \"seed\": 7}}";
    tmc_replica *a = run_all(base, N), *b = run_all(zero, N);
    assert_memory_equal(a, b, N * sizeof *a);
    free(a);
    free(b);
}

static void bad_1_2_never_retired(void **state)
{
    (void)state;
    enum { N = 4000 };
    const double b = 0.3, mtbf_bad = 0.5, mtbf_node = 4;
    const char *text = JOB(2000, 0.0125) "\"failures\": {\"distribution\": \"exponential\", "
        "\"per_node_mtbf_days\": 4, \"cards_per_node\": 8, \"bad_node_share\": 0.3, "
        "\"bad_node_mtbf_days\": 0.5}, \"monte_carlo\": {\"replicas\": 4000, \"seed\": 7}}";
    tmc_experiment x = test_parse(text);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf); /* M: the mean rate at the start, by hand */
    double m_hand = DAY / (NODES / mtbf_node + NODES * b / mtbf_bad);
    if (!(fabs(cf.mtbf_s - m_hand) <= 1e-9 * m_hand))
        fail_msg("bad-1.2 closed form: M %.10g s, by hand %.10g s", cf.mtbf_s, m_hand);
    tmc_replica *r = run_all(text, N);
    double *bad = malloc(N * sizeof *bad), *d = malloc(N * sizeof *d),
           *all = malloc(N * sizeof *all);
    for (int i = 0; i < N; i++) {
        double w = r[i].wall_s / DAY, nb = r[i].bad_nodes_start;
        bad[i] = nb;
        d[i] = r[i].bad_node_faults - nb * w / mtbf_bad;
        all[i] = r[i].card_failures - (NODES / mtbf_node + nb / mtbf_bad) * w;
        assert_true(r[i].bad_node_retirements == 0);
    }
    mean_agrees(bad, N, NODES * b, "bad-1.2 bad nodes held");
    variance_agrees(bad, N, NODES * b * (1 - b), "bad-1.2 bad nodes held");
    mean_agrees(d, N, 0, "bad-1.2 bad-node faults less lambda_b B W");
    mean_agrees(all, N, 0, "bad-1.2 failures less (n lambda_node + B lambda_b) W");
    free(bad);
    free(d);
    free(all);
    free(r);
}

static void bad_1_3_retired_after_k(void **state)
{
    (void)state;
    enum { N = 2000 };
    const double mtbf_bad = 0.5;
    const unsigned k = 2;
    const char *text = JOB(20000, 0.125) "\"failures\": {\"distribution\": \"exponential\", "
        "\"per_node_mtbf_days\": 1e6, \"cards_per_node\": 8, \"bad_node_share\": 1, "
        "\"bad_node_mtbf_days\": 0.5, \"bad_node_retire_after\": 2}, "
        "\"monte_carlo\": {\"replicas\": 2000, \"seed\": 7}}";
    tmc_replica *r = run_all(text, N);
    double *ret = malloc(N * sizeof *ret), *faults = malloc(N * sizeof *faults), w = 0;
    for (int i = 0; i < N; i++) {
        assert_true(r[i].bad_nodes_start == NODES);
        ret[i] = r[i].bad_node_retirements;
        faults[i] = r[i].bad_node_faults;
        w += r[i].wall_s / DAY / N;
    }
    double mu = w / mtbf_bad, p_k = gsl_cdf_poisson_Q(k - 1, mu); /* P(X >= k) */
    double e_min = 0; /* E[min(X, k)] = sum_{j < k} P(X > j) */
    for (unsigned j = 0; j < k; j++)
        e_min += gsl_cdf_poisson_Q(j, mu);
    mean_agrees(ret, N, NODES * p_k, "bad-1.3 retirements: n P(Poisson(lambda W) >= k)");
    mean_agrees(faults, N, NODES * e_min, "bad-1.3 faults: n E[min(Poisson(lambda W), k)]");
    free(ret);
    free(faults);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_1_1_off_is_off),
        cmocka_unit_test(bad_1_2_never_retired),
        cmocka_unit_test(bad_1_3_retired_after_k),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
