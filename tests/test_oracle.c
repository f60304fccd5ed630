/* oracle-1.x: the oracle (tests/oracle/oracle.c) on its own, against
 * figures that do not come from the real engine:
 * oracle-1.1 nothing strikes, no jitter: the wall time is S (mu + fixed) +
 *            ceil(S / K) save_s (sync), plus the writes left at the end
 *            (async), pauses added;
 * oracle-1.2 exponential failures only, no jitter: the mean wall time is
 *            Daly's closed form (exact under its assumptions), and the mean
 *            count of failures is the mean wall time / M;
 * oracle-1.3 one step, normal jitter: the mean slowest time is mu + c_N sigma
 *            (c_N by quadrature, tmc_dist_normal_emax);
 * oracle-1.4 hand-derived replays of failure, outage and spike traces,
 *            censoring, an eviction and a full write queue, to 1e-9 s on
 *            the wall time and on every row of the split. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "closed_form.h"
#include "config.h"
#include "dist.h"
#include "oracle.h"

#define EXACT 1e-9 /* s: hand-derived figures */
#define NEVER 1e15 /* s: a horizon no test reaches */

/* A small job: N = 4 cards, mu = 10 s (flop / (N peak eff)), fixed part
 * 1 s, K = 5 steps, save 2 s, restore 7 s; `steps` steps, nothing strikes.
 * Processes are then switched on by hand in the struct, so the tests do
 * not depend on how the loader spells the newest keys. */
static tmc_experiment *job(long steps)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"name\": \"oracle-test\","
             " \"job\": {\"steps\": %ld, \"cards\": 4, \"flop_per_step\": 4e13,"
             "  \"peak_flops\": 1e12, \"efficiency\": 1, \"exposed_comm_s\": 0.5,"
             "  \"input_wait_s\": 0.5},"
             " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1000},"
             " \"checkpoint\": {\"interval_steps\": 5, \"save_s\": 2, \"restore_s\": 7},"
             " \"deadline\": {\"days\": 30}}",
             steps);
    tmc_experiment *x = calloc(1, sizeof *x);
    assert_non_null(x);
    tmc_error err = {""};
    if (tmc_config_parse(text, "oracle-test.json", ".", NULL, 0, x, &err))
        fail_msg("%s", err.msg);
    x->failures.enabled = 0; /* loaded for its defaults (spares -1, no causes) */
    x->failures.spares = -1;
    x->failures.n_causes = 0;
    return x;
}

/* A trace of count times set by hand, on the heap as the loader's, so that
 * drop releases it (experiment.h). */
static void set_times(double **days, int *n, const double *seconds, int count)
{
    free(*days);
    assert_non_null(*days = malloc((size_t)count * sizeof **days));
    for (int i = 0; i < count; i++)
        (*days)[i] = seconds[i] / TMC_DAY_S;
    *n = count;
}

/* The end of job(x): its heap parts, then x. */
static void drop(tmc_experiment *x)
{
    tmc_experiment_release(x);
    free(x);
}

static void failure_trace(tmc_experiment *x, const double *seconds, int count)
{
    x->failures.enabled = 1;
    x->failures.distribution = TMC_LIFETIME_TRACE;
    set_times(&x->failures.trace_days, &x->failures.n_trace, seconds, count);
}

static void outage_trace(tmc_experiment *x, const double *seconds, int count, double down_s)
{
    x->outages.enabled = 1;
    x->outages.mean_interval_days = 0;
    x->outages.downtime_s = down_s;
    x->outages.downtime_cv = 0;
    set_times(&x->outages.trace_days, &x->outages.n_trace, seconds, count);
}

static void spike_trace(tmc_experiment *x, const double *seconds, int count, long rollback)
{
    x->loss_spikes.enabled = 1;
    x->loss_spikes.mean_interval_days = 0;
    x->loss_spikes.rollback_snapshots = rollback;
    set_times(&x->loss_spikes.trace_days, &x->loss_spikes.n_trace, seconds, count);
}

static oracle_result run1(const tmc_experiment *x, long k, double mu, double horizon)
{
    oracle_result r;
    assert_int_equal(oracle_run(x, k, mu, horizon, 7, 0, &r), 0);
    return r;
}

static double rows_sum(const oracle_result *r)
{
    return r->compute_s + r->straggler_s + r->pause_s + r->fixed_s + r->save_s + r->lost_s +
           r->restore_s + r->downtime_s + r->detection_s + r->spare_wait_s + r->eviction_s;
}

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, expected %.12g (+- %.3g)", what, got, want, tol);
}

/* The expected split of a replay, every row to 1e-9 s; rows left out are 0. */
typedef struct {
    double wall, compute, straggler, pause, fixed, save, lost, restore, downtime, detection,
        spare_wait, eviction;
} split;

static void check_split(const oracle_result *r, split e)
{
    near(r->wall_s, e.wall, EXACT, "wall");
    near(r->compute_s, e.compute, EXACT, "compute row");
    near(r->straggler_s, e.straggler, EXACT, "straggler row");
    near(r->pause_s, e.pause, EXACT, "pause row");
    near(r->fixed_s, e.fixed, EXACT, "fixed row");
    near(r->save_s, e.save, EXACT, "save row");
    near(r->lost_s, e.lost, EXACT, "lost row");
    near(r->restore_s, e.restore, EXACT, "restore row");
    near(r->downtime_s, e.downtime, EXACT, "downtime row");
    near(r->detection_s, e.detection, EXACT, "detection row");
    near(r->spare_wait_s, e.spare_wait, EXACT, "spare wait row");
    near(r->eviction_s, e.eviction, EXACT, "eviction row");
    near(rows_sum(r), r->wall_s, EXACT, "rows add to the wall time");
}

/* ---------- oracle-1.1 ---------- */

static void test_uninterrupted(void **state)
{
    (void)state;
    const double mu = 10, fixed = 1, save = 2;
    long cases[][2] = {{15, 5}, {17, 5}, {1, 5}, {40, 40}, {12, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        long s = cases[i][0], k = cases[i][1], segments = (s + k - 1) / k;
        tmc_experiment *x = job(s);
        oracle_result r = run1(x, k, mu, NEVER);
        check_split(&r, (split){.wall = s * (mu + fixed) + segments * save, .compute = s * mu,
                                .fixed = s * fixed, .save = segments * save});
        assert_int_equal(r.saves, segments);
        assert_int_equal(r.censored, 0);
        drop(x);
    }

    /* pauses every 2 steps of 3 s: steps 2, 4, ..., 14 of 15; "one" with no
     * jitter and no slow card costs the same as "all" */
    for (int cards = 0; cards < 2; cards++) {
        tmc_experiment *x = job(15);
        x->pauses = (tmc_pauses){.enabled = 1, .every_steps = 2, .duration_s = 3,
                                 .cards = cards ? TMC_PAUSE_ONE : TMC_PAUSE_ALL};
        oracle_result r = run1(x, 5, mu, NEVER);
        check_split(&r, (split){.wall = 171 + 21, .compute = 150, .pause = 21, .fixed = 15,
                                .save = 6});
        drop(x);
    }

    /* async, no backlog: copies of 1 s, writes of 30 s (shorter than a
     * segment): the job waits for the last write only */
    tmc_experiment *x = job(15);
    x->checkpoint.mode = TMC_SAVE_ASYNC;
    x->checkpoint.save_s = 1;
    x->checkpoint.write_s = 30;
    oracle_result r = run1(x, 5, mu, NEVER);
    check_split(&r, (split){.wall = 165 + 3 * 1 + 30, .compute = 150, .fixed = 15,
                            .save = 3 + 30});

    /* async with a backlog: K = 10 steps of 1.5 s, copies of 0.5 s, writes
     * of 40 s: writes run back to back from the first capture (15.5 s), so
     * the last commits at 15.5 + 10 x 40 */
    x->job.steps = 100;
    x->job.input_wait_s = 0; /* fixed part 0.5 s */
    x->checkpoint.save_s = 0.5;
    x->checkpoint.write_s = 40;
    r = run1(x, 10, 1.0, NEVER);
    check_split(&r, (split){.wall = 415.5, .compute = 100, .fixed = 50,
                            .save = 415.5 - 150});
    assert_int_equal(r.saves, 10);
    drop(x);
}

/* ---------- oracle-1.2 ---------- */

/* Estimator: the sample mean of the wall time over n = 4,000 replicas
 * (seed 2024); its standard error SE = sample sd / sqrt(n); tolerance
 * 4 SE (a false alarm about once in 16,000 runs of a correct oracle). The
 * run: 100 steps of 100 s, K = 10, save 50 s, restore 100 s, 8 cards with
 * exponential lifetimes of mean 8 M, M = 2,000 s: Daly's formula is exact
 * for this process (memoryless, failures strike saves and restores, a cut
 * restore starts again). Also: every arrival strikes (there is no down
 * phase), so by Wald's identity E[failures] = E[wall] / M; the mean of
 * failures - wall / M is checked against 0 the same way. */
static void test_daly(void **state)
{
    (void)state;
    const long n = 4000, steps = 100, k = 10, cards = 8;
    const double step_s = 100, save = 50, restore = 100, m = 2000;
    tmc_experiment *x = job(steps);
    x->job.cards = cards;
    x->job.exposed_comm_s = x->job.input_wait_s = 0;
    x->checkpoint.save_s = save;
    x->checkpoint.restore_s = restore;
    x->failures.enabled = 1;
    x->failures.distribution = TMC_LIFETIME_EXPONENTIAL;
    x->failures.per_card_mtbf_days = m * cards / TMC_DAY_S;
    double sum = 0, sum2 = 0, dsum = 0, dsum2 = 0;
    for (long i = 0; i < n; i++) {
        oracle_result r;
        assert_int_equal(oracle_run(x, k, step_s, NEVER, 2024, (uint64_t)i, &r), 0);
        assert_int_equal(r.censored, 0);
        near(rows_sum(&r), r.wall_s, 1e-6, "rows add to the wall time");
        sum += r.wall_s;
        sum2 += r.wall_s * r.wall_s;
        double d = r.card_failures - r.wall_s / m;
        dsum += d;
        dsum2 += d * d;
    }
    double mean = sum / n, se = sqrt((sum2 - n * mean * mean) / (n - 1) / n);
    double want = tmc_closed_form_daly_wall_s(steps, step_s, k, save, restore, m);
    double dmean = dsum / n, dse = sqrt((dsum2 - n * dmean * dmean) / (n - 1) / n);
    printf("oracle-1.2: mean wall %.2f s, SE %.2f, Daly %.2f (%+.2f SE); "
           "failures - wall/M %.4f, SE %.4f\n",
           mean, se, want, (mean - want) / se, dmean, dse);
    near(mean, want, 4 * se, "mean wall time vs Daly");
    near(dmean, 0, 4 * dse, "mean failures - wall / M");
    drop(x);
}

/* ---------- oracle-1.3 ---------- */

/* One step, no save, no fixed part: the wall time is the slowest card's
 * time. Estimator: the sample mean over n = 20,000 replicas (seed 99),
 * SE = sample sd / sqrt(n), tolerance 4 SE, against mu + c_N sigma with
 * sigma = cv mu; with correlation rho, E[max] = mu + sqrt(1 - rho) c_N
 * sigma (the shared part moves every card alike). */
static void emax_case(long cards, double rho)
{
    const long n = 20000;
    const double mu = 50, cv = 0.1;
    tmc_experiment *x = job(1);
    x->job.cards = cards;
    x->job.exposed_comm_s = x->job.input_wait_s = 0;
    x->checkpoint.save_s = 0;
    x->jitter.kind = TMC_JITTER_NORMAL;
    x->jitter.cv = cv;
    x->jitter.rho = rho;
    double sum = 0, sum2 = 0;
    for (long i = 0; i < n; i++) {
        oracle_result r;
        assert_int_equal(oracle_run(x, 1, mu, NEVER, 99, (uint64_t)i, &r), 0);
        sum += r.wall_s;
        sum2 += r.wall_s * r.wall_s;
        near(r.straggler_s, r.wall_s - mu, 1e-9, "straggler = slowest - mu");
    }
    double mean = sum / n, se = sqrt((sum2 - n * mean * mean) / (n - 1) / n);
    double want = mu + sqrt(1 - rho) * tmc_dist_normal_emax(cards, NULL) * cv * mu;
    printf("oracle-1.3: N = %ld, rho = %.1f: mean slowest %.4f s, SE %.4f, "
           "mu + c_N sigma %.4f (%+.2f SE)\n",
           cards, rho, mean, se, want, (mean - want) / se);
    near(mean, want, 4 * se, "mean slowest time vs mu + c_N sigma");
    drop(x);
}

static void test_emax(void **state)
{
    (void)state;
    emax_case(1, 0);
    emax_case(8, 0);
    emax_case(48, 0);
    emax_case(48, 0.5);
}

/* ---------- oracle-1.4 ---------- */

/* The timeline of the 15-step job with nothing striking: segment 1
 * [0, 55), save [55, 57), segment 2 [57, 112), save [112, 114), segment 3
 * [114, 169), save [169, 171). */
static void test_replays_sync(void **state)
{
    (void)state;
    tmc_experiment *x;
    oracle_result r;

    /* a failure at 80 s, in segment 2's compute, detected 3 s later:
     * 23 s lost, down [80, 83), restore [83, 90), then segment 2 [90, 145),
     * save to 147, segment 3 [147, 202), save to 204 */
    x = job(15);
    failure_trace(x, (double[]){80}, 1);
    x->failures.n_causes = 1;
    x->failures.causes[0] = (tmc_failure_cause){
        .name = "crash", .share = 1, .card_share = -1, .node_share = -1, .job_share = -1,
        .burst_share = -1,
        .part_share = {1, 1, 1, 1}, .detection_s = 3, .restore_s = -1, .takes_spare = 1,
        .detection_law = TMC_DETECTION_FIXED, .detection_cv = 1, .scope = TMC_CAUSE_CARD,
        .level = TMC_LEVEL_LOCAL};
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 204, .compute = 150, .fixed = 15, .save = 6, .lost = 23,
                            .restore = 7, .detection = 3});
    assert_int_equal(r.card_failures, 1);

    /* and a second failure at 86 s, during that restore [83, 90): 3 s of
     * restore spent, down [86, 89), the restore again [89, 96); the rest
     * 6 s later: wall 210 */
    failure_trace(x, (double[]){80, 86}, 2);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 210, .compute = 150, .fixed = 15, .save = 6, .lost = 23,
                            .restore = 3 + 7, .detection = 3 + 3});
    assert_int_equal(r.card_failures, 2);

    /* a failure at 56 s, in the first save [55, 57): all 56 s lost; one at
     * 58 s while the job is down [56, 59) is discarded; restore [59, 66),
     * then the whole job again: 66 + 171 */
    failure_trace(x, (double[]){56, 58}, 2);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 237, .compute = 150, .fixed = 15, .save = 6, .lost = 56,
                            .restore = 7, .detection = 3});
    assert_int_equal(r.card_failures, 1);

    /* no spare in the pool, repairs of exactly 36 s: the failure at 80 s is
     * repaired at 116 s; detected at 83, the job waits 33 s for it, restores
     * [116, 123), and ends 123 + 114 later */
    failure_trace(x, (double[]){80}, 1);
    x->failures.spares = 0;
    x->failures.repair_mean_hours = 0.01;
    x->failures.repair_distribution = TMC_REPAIR_FIXED;
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 237, .compute = 150, .fixed = 15, .save = 6, .lost = 23,
                            .restore = 7, .detection = 3, .spare_wait = 33});
    drop(x);

    /* an outage at 100 s with 20 s of downtime: 43 s of segment 2 lost,
     * down [100, 120), restore [120, 127), then 127 + 114 */
    x = job(15);
    outage_trace(x, (double[]){100}, 1, 20);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 241, .compute = 150, .fixed = 15, .save = 6, .lost = 43,
                            .restore = 7, .downtime = 20});
    assert_int_equal(r.outages, 1);
    drop(x);

    /* a spike at 150 s (segment 3) rolling back 2 snapshots: segment 3's
     * 36 s and the snapshot at step 10 (55 s of steps + 2 s of save) are
     * lost; restore [150, 157), resume after step 5: 157 + 114. A spike at
     * 56 s strikes a save: discarded. */
    x = job(15);
    spike_trace(x, (double[]){56, 150}, 2, 2);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 271, .compute = 150, .fixed = 15, .save = 6,
                            .lost = 36 + 57, .restore = 7});
    assert_int_equal(r.loss_spikes, 1);
    assert_int_equal(r.saves, 3);
    drop(x);

    /* censored at 100 s, in segment 2: snapshot 1 committed (50 + 5 + 2),
     * the 43 s of segment 2 lost */
    x = job(15);
    r = run1(x, 5, 10, 100);
    check_split(&r, (split){.wall = 100, .compute = 50, .fixed = 5, .save = 2, .lost = 43});
    assert_int_equal(r.censored, 1);
    assert_int_equal(r.saves, 1);
    drop(x);

    /* slow cards: fraction 1 makes both cards slow (x2: steps of 21 s);
     * detected after 3 steps, evicted after the first save (restore 4 s):
     * segment 1 [0, 105), save to 107, eviction to 111, then normal steps:
     * 111 + 114 */
    x = job(15);
    x->job.cards = 2;
    x->slow_cards = (tmc_slow_cards){.enabled = 1, .fraction = 1, .factor = 2,
                                     .detect_after_steps = 3, .eviction_restore_s = 4};
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 225, .compute = 150, .straggler = 50, .fixed = 15,
                            .save = 6, .eviction = 4});
    assert_int_equal(r.evictions, 1);
    assert_int_equal(r.slow_cards, 2);
    drop(x);
}

static void test_replays_async(void **state)
{
    (void)state;
    tmc_experiment *x = job(15);
    x->checkpoint.mode = TMC_SAVE_ASYNC;
    x->checkpoint.save_s = 1;
    x->checkpoint.write_s = 30;
    oracle_result r;

    /* captures at 56 (write to 86), 112 (to 142); a failure at 100 s finds
     * snapshot 1 committed: 44 s lost, restore [100, 107), segment 2
     * [107, 162), copy to 163, segment 3 [163, 218), copy to 219, its write
     * to 249 */
    failure_trace(x, (double[]){100}, 1);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 249, .compute = 150, .fixed = 15, .save = 3 + 30,
                            .lost = 44, .restore = 7});

    /* a failure at 80 s: snapshot 1's write (to 86) is abandoned, all 80 s
     * are lost; restore [80, 87), then the whole job: 87 + 198 */
    failure_trace(x, (double[]){80}, 1);
    r = run1(x, 5, 10, NEVER);
    check_split(&r, (split){.wall = 285, .compute = 150, .fixed = 15, .save = 3 + 30,
                            .lost = 80, .restore = 7});
    drop(x);

    /* The write queue's limit of 64. Steps of 1 s, K = 1, no copy time,
     * writes of 10 s, restore 0: snapshot k captures at k and commits at
     * 1 + 10 k until the queue is full: at 72 s, snapshots 8 .. 71 are
     * queued, so snapshot 72 waits to 81 s (snapshot 8's commit), and from
     * then snapshot k captures at 1 + 10 (k - 64): step 84 runs [191, 192).
     * A spike at 191.5 s strikes it (without the limit the job would be
     * waiting for its last writes and the spike discarded); snapshots up
     * to 19 have committed (191 s): 172.5 s lost. The job starts again
     * from step 19 at 191.5 s and its last write ends 1 + 10 x 81 later. */
    x = job(100);
    x->job.exposed_comm_s = x->job.input_wait_s = 0;
    x->checkpoint.mode = TMC_SAVE_ASYNC;
    x->checkpoint.save_s = 0;
    x->checkpoint.write_s = 10;
    x->checkpoint.restore_s = 0;
    spike_trace(x, (double[]){191.5}, 1, 1);
    r = run1(x, 1, 1.0, NEVER);
    check_split(&r, (split){.wall = 1002.5, .compute = 100, .save = 1002.5 - 191.5 - 81,
                            .lost = 172.5});
    assert_int_equal(r.loss_spikes, 1);
    drop(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uninterrupted),
        cmocka_unit_test(test_daly),
        cmocka_unit_test(test_emax),
        cmocka_unit_test(test_replays_sync),
        cmocka_unit_test(test_replays_async),
    };
    return cmocka_run_group_tests_name("oracle-1", tests, NULL, NULL);
}
