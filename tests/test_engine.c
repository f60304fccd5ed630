/* engine-1.x: the simulation against exact expectations.
 * engine-1.1 Daly's T_wall, no jitter, S a multiple of K, M >> tau (48 cards);
 * engine-1.2 the same where M is comparable to tau (16,384 cards);
 * engine-1.3 no interruptions, 5 % jitter: E[wall] = S (mu + c_N sigma +
 *            comm + input) + segments x save;
 * engine-1.4 loss spikes only (compute-time Poisson, restore never hit):
 *            E[wall] = segments x [(e^(lambda a) - 1)(1/lambda + r) + c];
 * engine-1.5 every replica's wall-time split adds up to its wall time, and
 *            E[failures] = rate x E[wall - downtime] (the compensator of a
 *            Poisson process stopped at the run's end).
 * engine-1.7 correlation 1 (every card equal): E[wall] = S (mu + comm + input)
 *            + segments x save, no straggler term; and the closed form's step
 *            time drops c_N sigma accordingly;
 * engine-1.8 pauses on all cards, no jitter: the wall time is exactly
 *            S t_s + floor(S / k) p + saves, and t_s in the closed form
 *            grows by p / k;
 * engine-1.9 pauses on one card, 5 % jitter, in both modes: E[wall] against
 *            S (mu + fixed) + S c_N sigma + floor(S/k) (E[paused step] -
 *            E[step]) + saves, E[paused step] by quadrature (dist.h);
 * engine-1.6 censoring: with common random numbers, replica k run with a
 *            horizon H either is censored (wall = H, and its uncensored run
 *            was still going at H) or equals its uncensored run exactly;
 *            a one-segment run that passes H inside its segment is censored.
 * engine-1.10 the runner's totals add up and equal the replicas' sums;
 * engine-1.11 the default censoring horizon;
 * engine-1.12 a batch from replica F is replicas F.. of the plain run.
 * Estimator: the mean over R replicas; SE = sample sd / sqrt(R); tolerance
 * 4 SE; fixed seeds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "runner.h"
#include "support.h"

#define TOL_SE 4.0


typedef struct {
    double mean, se;
    tmc_replica totals;
} sim_result;

static sim_result simulate(const tmc_experiment *x, long n, uint64_t seed)
{
    double *wall = malloc((size_t)n * sizeof *wall);
    tmc_closed_form used;
    sim_result r;
    r.totals = test_run(x, &used, n, seed, wall);
    r.mean = gsl_stats_mean(wall, 1, (size_t)n);
    r.se = gsl_stats_sd(wall, 1, (size_t)n) / sqrt((double)n);
    free(wall);
    return r;
}

static void agree(sim_result r, double exact, const char *what)
{
    double z = (r.mean - exact) / r.se;
    print_message("%s: simulated %.2f s +- %.2f, exact %.2f s (%.2f se)\n", what, r.mean,
                  r.se, exact, z);
    if (!(fabs(z) <= TOL_SE))
        fail_msg("%s: %.2f standard errors", what, z);
}

/* engine-1.1: design-48 has S = 31,790 = 935 x 34 = 935 K. */
static void test_daly_48(void **state)
{
    (void)state;
    tmc_experiment x = test_load("design-48", NULL, 0);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_int_equal(x.job.steps % cf.interval_steps, 0);
    assert_true(cf.daly_exact);
    agree(simulate(&x, 20000, 101), cf.daly_wall_s, "48 cards vs Daly");
}

/* engine-1.2: 16,384 cards, M = 1,777 s against tau = 1,800 s; S = 10 K. */
static void test_daly_16384(void **state)
{
    (void)state;
    const char *sets[2] = {"job.cards=16384", "job.steps=1000000"}; /* K not capped */
    tmc_experiment x = test_load("design-48", sets, 2);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    x.job.steps = 10 * cf.interval_steps;
    tmc_closed_form_compute(&x, &cf);
    assert_true(cf.mtbf_s < 1800 && cf.mtbf_s > 1700);
    sim_result r = simulate(&x, 20000, 102);
    agree(r, cf.daly_wall_s, "16,384 cards vs Daly");
    /* Young's first order is visibly wrong here (docs/model.md 3.5) */
    double young_wall = cf.failure_free_s * (1 + cf.overhead_young);
    assert_true(fabs(r.mean - young_wall) > 20 * r.se);
}

/* engine-1.3 */
static void test_jitter_no_interruptions(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null", "jitter={\"distribution\":\"normal\",\"cv\":0.05}"};
    tmc_experiment x = test_load("design-48", sets, 2);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double exact = x.job.steps * cf.step_s + cf.segments * x.checkpoint.save_s;
    sim_result r = simulate(&x, 4000, 103);
    agree(r, exact, "5 % jitter, no interruptions");
    assert_true(r.totals.straggler_s > 0);
}

/* engine-1.4: each compute phase of a = K t_s seconds is retried until no
 * spike hits it; each hit costs the time to it plus r; saves are immune. */
static void test_spikes_only(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null", "loss_spikes={\"mean_interval_days\":0.05}"};
    tmc_experiment x = test_load("design-48", sets, 2);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double lambda = cf.rate_spikes, a = cf.interval_s;
    double exact = cf.segments * (expm1(lambda * a) * (1 / lambda + x.checkpoint.restore_s) +
                                  x.checkpoint.save_s);
    agree(simulate(&x, 4000, 104), exact, "loss spikes only");
}

/* engine-1.5: split identity per replica (with a spike rolling back three
 * snapshots, slow cards evicted, pauses), and the failure-count compensator. */
static void test_split_and_counts(void **state)
{
    (void)state;
    const char *sets[5] = {"outages.downtime_s=600", "failures.per_card_mtbf_days=30",
                           "loss_spikes={\"mean_interval_days\": 2, \"rollback_snapshots\": 3}",
                           "slow_cards={\"fraction\": 0.05, \"factor\": 1.2, "
                           "\"detect_after_steps\": 3000}",
                           "pauses={\"every_steps\": 50, \"duration_s\": 5, \"cards\": \"one\"}"};
    tmc_experiment x = test_load("design-48-stress", sets, 5);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
    enum { R = 300 };
    double fail[R];
    for (int k = 0; k < R; k++) {
        tmc_replica o;
        tmc_engine_run(&e, 105, (uint64_t)k, rng, &o);
        double parts = tmc_accounting_split_sum(&o);
        if (fabs(parts - o.wall_s) > 1e-9 * o.wall_s)
            fail_msg("replica %d: split adds to %.6f s, wall %.6f s", k, parts, o.wall_s);
        assert_true(o.saves == (double)cf.segments);
        /* N(T) - lambda (T - downtime) has mean 0 */
        fail[k] = o.card_failures - cf.rate_failures * (o.wall_s - o.downtime_s);
    }
    double mean = gsl_stats_mean(fail, 1, R), se = gsl_stats_sd(fail, 1, R) / sqrt(R);
    if (fabs(mean) > TOL_SE * se)
        fail_msg("failures minus compensator: mean %.3f, se %.3f", mean, se);
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
    tmc_engine_free(&e);
}

/* engine-1.7 */
static void test_full_correlation(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null",
                           "jitter={\"distribution\":\"normal\",\"cv\":0.05,\"correlation\":1}"};
    tmc_experiment x = test_load("design-48", sets, 2);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double fixed = x.job.exposed_comm_s + x.job.input_wait_s;
    assert_true(fabs(cf.step_s - (cf.compute_s + fixed)) < 1e-12);
    double exact = x.job.steps * (cf.compute_s + fixed) + cf.segments * x.checkpoint.save_s;
    agree(simulate(&x, 2000, 108), exact, "correlation 1, no interruptions");
}

/* engine-1.8 */
static void test_pauses_all(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null",
                           "pauses={\"every_steps\":100,\"duration_s\":30,\"cards\":\"all\"}"};
    tmc_experiment x = test_load("design-48", sets, 2);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double fixed = x.job.exposed_comm_s + x.job.input_wait_s;
    assert_true(fabs(cf.step_s - (cf.compute_s + fixed + 0.3)) < 1e-12);
    sim_result r = simulate(&x, 16, 109);
    double exact = x.job.steps * (cf.compute_s + fixed) + (x.job.steps / 100) * 30.0 +
                   cf.segments * x.checkpoint.save_s;
    if (fabs(r.mean - exact) > 1e-9 * exact)
        fail_msg("pauses on all cards: %.6f s, exact %.6f s", r.mean, exact);
    assert_true(fabs(r.totals.pause_s / 16 - (x.job.steps / 100) * 30.0) < 1e-6);
}

/* engine-1.9 */
static void check_pauses_one(const char *mode, uint64_t seed)
{
    const char *sets[4] = {"failures=null", "jitter=\"../distributions/jitter/normal-cv5.json\"",
                           "pauses={\"every_steps\":10,\"duration_s\":5,\"cards\":\"one\"}",
                           mode};
    tmc_experiment x = test_load("design-48", sets, 4);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double mu = cf.compute_s, fixed = x.job.exposed_comm_s + x.job.input_wait_s;
    double step = tmc_dist_expected_max(&x.jitter, mu, 48);
    double paused = mu * tmc_dist_paused_max_mean(&x.jitter, 48, 5 / mu);
    assert_true(paused > step && paused < step + 5);
    double exact = x.job.steps * (step + fixed) + (x.job.steps / 10) * (paused - step) +
                   cf.segments * x.checkpoint.save_s;
    assert_true(fabs(cf.failure_free_s - (exact - cf.segments * x.checkpoint.save_s)) <
                1e-6 * exact);
    agree(simulate(&x, 2000, seed), exact, mode);
}

static void test_pauses_one(void **state)
{
    (void)state;
    check_pauses_one("monte_carlo.mode=\"steps\"", 110);
    check_pauses_one("monte_carlo.mode=\"segments\"", 111);
}

/* engine-1.6 */
static void test_censoring(void **state)
{
    (void)state;
    const char *sets[2] = {"deadline.days=26.5", "monte_carlo.horizon_days=22.05"};
    tmc_experiment x = test_load("design-48-stress", sets, 2), free_x = x;
    free_x.monte_carlo.horizon_days = 0;
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_engine capped, uncapped;
    assert_int_equal(tmc_engine_init(&capped, &x, &cf), 0);
    assert_int_equal(tmc_engine_init(&uncapped, &free_x, &cf), 0);
    assert_true(capped.horizon_s == 22.05 * TMC_DAY_S);
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
    int censored = 0;
    for (int k = 0; k < 200; k++) {
        tmc_replica a, b;
        tmc_engine_run(&capped, 107, (uint64_t)k, rng, &a);
        tmc_engine_run(&uncapped, 107, (uint64_t)k, rng, &b);
        if (a.censored) {
            censored++;
            assert_true(a.wall_s == capped.horizon_s && b.wall_s > capped.horizon_s);
        } else {
            assert_true(a.wall_s == b.wall_s && b.censored == 0 && a.wall_s <= capped.horizon_s);
        }
    }
    print_message("censored %d of 200 at 22.05 days\n", censored);
    assert_true(censored > 20 && censored < 180); /* both branches were taken */
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
    tmc_engine_free(&capped);
    tmc_engine_free(&uncapped);
    /* one segment of 10 steps of 10 s that passes a 43.2 s horizon inside
     * it (issue 12: it was reported as a 100 s run, not censored) */
    static const char one[] =
        "{\"name\":\"h\",\"job\":{\"steps\":10,\"cards\":1,\"flop_per_step\":10,"
        "\"peak_flops\":1,\"efficiency\":1},\"jitter\":{\"distribution\":\"normal\","
        "\"cv\":0},\"checkpoint\":{\"interval_steps\":10,\"save_s\":0,\"restore_s\":0},"
        "\"deadline\":{\"days\":0.0001},\"monte_carlo\":{\"horizon_days\":0.0005}}";
    x = test_parse(one);
    tmc_closed_form_compute(&x, &cf);
    assert_int_equal(tmc_engine_init(&capped, &x, &cf), 0);
    tmc_replica r;
    test_rngs_alloc(rng);
    tmc_engine_run(&capped, 1, 0, rng, &r);
    assert_true(r.censored == 1 && r.wall_s == 0.0005 * TMC_DAY_S);
    test_rngs_free(rng);
    tmc_engine_free(&capped);
}

/* engine-1.10 the runner's totals: every row of the split and every count
 * summed over replicas (tmc_accounting_accumulate) adds up to the summed wall
 * time and equals the sum of the replicas run one by one; on an experiment
 * where every row is non-zero (spares that run out, a detection delay,
 * outages with downtime, spikes, evicted slow cards, pauses). */
static void test_totals(void **state)
{
    (void)state;
    const char *sets[5] = {
        "failures={\"per_card_mtbf_days\": 20, \"spares\": 1, \"repair_mean_hours\": 48, "
        "\"causes\": [{\"name\": \"crash\", \"share\": 0.5}, "
        "{\"name\": \"hang\", \"share\": 0.5, \"detection_s\": 600}]}",
        "outages.downtime_s=600",
        "loss_spikes={\"mean_interval_days\": 2, \"rollback_snapshots\": 2}",
        "slow_cards={\"fraction\": 0.05, \"factor\": 1.2, \"detect_after_steps\": 3000}",
        "pauses={\"every_steps\": 50, \"duration_s\": 5, \"cards\": \"one\"}"};
    tmc_experiment x = test_load("design-48-stress", sets, 5);
    enum { R = 64 };
    static double wall[R];
    tmc_closed_form cf;
    tmc_replica totals = test_run(&x, &cf, R, 110, wall), one, sum;
    memset(&sum, 0, sizeof sum);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    for (int k = 0; k < R; k++) {
        tmc_engine_run(&e, 110, (uint64_t)k, rng, &one);
        sum.wall_s += one.wall_s, sum.spare_wait_s += one.spare_wait_s;
        sum.detection_s += one.detection_s, sum.card_failures += one.card_failures;
        sum.outages += one.outages, sum.loss_spikes += one.loss_spikes;
        sum.saves += one.saves, sum.evictions += one.evictions;
    }
    double rows = tmc_accounting_split_sum(&totals);
    assert_true(fabs(rows - totals.wall_s) <= 1e-9 * totals.wall_s);
    assert_true(totals.spare_wait_s > 0 && totals.detection_s > 0 && totals.eviction_s > 0 &&
                totals.downtime_s > 0 && totals.pause_s > 0 && totals.lost_s > 0);
    assert_true(fabs(totals.wall_s - sum.wall_s) <= 1e-9 * sum.wall_s);
    assert_true(totals.spare_wait_s == sum.spare_wait_s || fabs(totals.spare_wait_s -
                sum.spare_wait_s) <= 1e-9 * sum.spare_wait_s);
    assert_true(totals.card_failures == sum.card_failures && totals.outages == sum.outages &&
                totals.loss_spikes == sum.loss_spikes && totals.saves == sum.saves &&
                totals.evictions == sum.evictions);
    test_rngs_free(rng);
    tmc_engine_free(&e);
}

/* engine-1.11 the default censoring horizon: 1000 x the uninterrupted wall
 * time, at least twice the deadline's budget (engine.h) */
static void test_default_horizon(void **state)
{
    (void)state;
    tmc_experiment x = test_load("design-48", NULL, 0);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_true(tmc_engine_horizon_s(&x, &cf) == 1000 * cf.uninterrupted_s);
    const char *few[1] = {"job.steps=10"}; /* 10 steps: 2 x 25 days is longer */
    x = test_load("design-48", few, 1);
    tmc_closed_form_compute(&x, &cf);
    assert_true(tmc_engine_horizon_s(&x, &cf) == 2 * 25 * TMC_DAY_S);
}

/* engine-1.12 a batch from replica F runs replicas F, F + 1, ... of the
 * plain run (precision batches and importance pilots rely on it) */
static void test_replica_offset(void **state)
{
    (void)state;
    tmc_experiment x = test_load("design-48-stress", NULL, 0);
    enum { N = 48, F = 20, M = 17 };
    static double all[N], part[M];
    tmc_closed_form cf;
    test_run(&x, &cf, N, 3, all);
    tmc_engine e;
    tmc_replica t;
    tmc_error err = {""};
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    assert_int_equal(tmc_runner_run_from(&e, F, M, 3, 2, NULL, NULL, part, &t, &err), 0);
    for (int k = 0; k < M; k++)
        assert_true(part[k] == all[F + k]);
    tmc_engine_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_daly_48),
        cmocka_unit_test(test_daly_16384),
        cmocka_unit_test(test_jitter_no_interruptions),
        cmocka_unit_test(test_spikes_only),
        cmocka_unit_test(test_split_and_counts),
        cmocka_unit_test(test_censoring),
        cmocka_unit_test(test_full_correlation),
        cmocka_unit_test(test_pauses_all),
        cmocka_unit_test(test_pauses_one),
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_default_horizon),
        cmocka_unit_test(test_replica_offset),
    };
    return cmocka_run_group_tests_name("engine-1", tests, NULL, NULL);
}
