/* replays-1.x: exact replays. With no jitter (cv 0) and every interruption
 * replayed from a trace, a replica is deterministic, so its wall time, every
 * row of its wall-time split (docs/reference/simulation-semantics.md, section 8) and
 * its event counts are known exactly. Every expected number below is derived
 * BY HAND from docs/reference/simulation-semantics.md (the arithmetic is in the comment
 * above each case), never taken from the engine's output; the engine (and the
 * oracle, tests/oracle/, when it is built) must agree to 1e-9 s.
 *
 * The experiments are tests/replays/NN-NAME/experiment.json with their trace
 * files (CSV, header time_days). Common to all (unless a case says otherwise):
 * flop_per_step = 10 x cards, peak_flops = 1, efficiency = 1, so
 * mu = 10 s (section 1); jitter cv 0, so every card's X_i = mu (section 2);
 * no fixed part; checkpoint.interval_steps K = 2; sync saves of c = 5 s;
 * restore r = 20 s; spares unlimited; no detection delay (one cause).
 * Trace times are picked so that their day values are exact in decimal and
 * t x 86,400 is the number of seconds written in the comment (to 1e-13 s).
 *
 * id          test function                         checks
 * replays-1.1  replay_1_failure_compute              failure while computing (fixed part included)
 * replays-1.2  replay_2_failure_sync_save            failure during a sync save
 * replays-1.3  replay_3_failure_async_copy           failure during an async blocking copy
 * replays-1.4  replay_4_failure_async_write          failure during a background write: older snapshot restored
 * replays-1.5  replay_5_failure_async_final_write    failure during the final write (wait for the last writes)
 * replays-1.6  replay_6_failure_restore              failure during a restore: the restore starts again
 * replays-1.7  replay_7_two_failures_restore         two failures in one restore
 * replays-1.8  replay_8_spike_rollback_1             loss spike, rollback_snapshots 1
 * replays-1.9  replay_9_spike_rollback_3             loss spike, rollback_snapshots 3
 * replays-1.10 replay_10_spike_rollback_3_fewer      rollback 3 with only 1 committed snapshot
 * replays-1.11 replay_11_spare_pool                  pool of 1 spare, 2nd failure inside the (fixed) repair time
 * replays-1.12 replay_12_outage_downtime             outage with a 30 s downtime
 * replays-1.13 replay_13_outage_in_restore           outage striking a failure's restore
 * replays-1.14 replay_14_detection_delay             one failure cause with detection_s and its own restore_s
 * replays-1.15 replay_15_eviction                    all cards slow (factor 2), detected after 3 steps, evicted
 * replays-1.16 replay_16_eviction_struck             the eviction restore struck by a failure
 * replays-1.17 replay_17_pause_redone                a paused step lost to a failure is paused again when redone
 * replays-1.18 replay_18_discarded_while_down        failure and spike in outage downtime, spikes in a save and a restore
 * replays-1.19 replay_19_discarded_in_detection      failure during another failure's detection delay
 * replays-1.20 replay_20_async_write_queue           async writes longer than a segment queue up; failure
 *                                                    in the final wait; a spike in a copy is discarded
 * replays-1.21 replay_21_pause_slow_cards            pause "one" when every card is slow: straggler vs pause rows
 * replays-1.22 replay_22_no_spare_detection          spares 0: after the detection delay, wait for the failed
 *                                                    card's own (fixed) repair
 * replays-1.23 replay_23_notice_emergency_save       outage with notice >= the save: emergency save, then
 *                                                    segments end on multiples of K; a later failure
 * replays-1.24 replay_24_notice_too_short            notice shorter than the save: the work is lost
 * replays-1.25 replay_25_notice_save_struck          a failure strikes the emergency save
 * replays-1.26 replay_26_notice_during_save          the notice falls in a save: too late, work lost; a spike
 *                                                    in the compute before the outage strikes
 * replays-1.27 replay_27_limit_save                  time limits with a save before them, requeue wait; an
 *                                                    emergency save with no step to save
 * replays-1.28 replay_28_limit_lose                  time limits that lose the work since the last commit
 * replays-1.29 replay_29_limit_new_allocation        a failure's restart starts a new allocation
 * replays-1.30 replay_30_limit_same_allocation       the same failure inside the allocation: its limit counts on
 * replays-1.31 replay_31_limit_while_down            the limit passes during an outage's downtime: it strikes
 *                                                    when the job is up again, before the restore
 * replays-1.32 replay_32_limit_cuts_long_restore     the limit cuts a cause's long restore: after the requeue
 *                                                    that restore is redone in full
 * replays-1.33 replay_33_block_save_struck           a run of whole segments drawn at once (section 2's blocks)
 *                                                    only when its longest time, saves and fixed part
 *                                                    included, ends before the next arrival
 * replays-1.34 replay_34_block_pauses                the same with pauses of every card inside the block
 * replays-1.35 replay_35_limit_notice_early          a warning longer than the save: the job saves at the
 *                                                    warning and ends its allocation (time_limit.notice_s)
 * replays-1.36 replay_36_limit_notice_short          a warning shorter than the save: every limit loses the
 *                                                    work since the last commit, as at_limit "lose"
 *
 * Each case also checks that its hand rows add up to its hand wall time
 * (section 8: "T is the sum of these rows"), and runs three replicas under
 * two seeds: a trace replays in every replica, so all must be identical. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "rng_pcg.h"

#ifdef TMC_HAVE_ORACLE
#include "oracle/oracle.h"
#endif

#define TOL 1e-9

/* One hand-derived case: the folder under tests/replays/ and the expected
 * wall time, split rows (s) and counts. */
typedef struct {
    const char *dir;
    double wall, compute, straggler, pause, fixed, save, lost, restore, downtime, detection,
        spare_wait, eviction, requeue;
    double card_failures, outages, loss_spikes, saves, evictions, requeues;
    double steps; /* steps simulated (accounting.h), checked when > 0: without
                     jitter a segment is simulated whole, interrupted or not */
} replay;

/* The result of one run in the same shape, from the engine or the oracle. */
typedef replay result;

static int check_row(const char *dir, const char *who, const char *row, double got,
                     double want)
{
    if (fabs(got - want) <= TOL)
        return 0;
    print_error("%s: %s: %s = %.12f, hand-derived %.12f (difference %.3g)\n", dir, who, row,
                got, want, got - want);
    return 1;
}

/* Every row and count of `got` against the hand values; fails the test after
 * printing every row that differs. */
static void compare(const replay *want, const result *got, const char *who)
{
    int bad = 0;
#define ROW(f) bad += check_row(want->dir, who, #f, got->f, want->f)
    ROW(wall);
    ROW(compute);
    ROW(straggler);
    ROW(pause);
    ROW(fixed);
    ROW(save);
    ROW(lost);
    ROW(restore);
    ROW(downtime);
    ROW(detection);
    ROW(spare_wait);
    ROW(eviction);
    ROW(requeue);
    ROW(card_failures);
    ROW(outages);
    ROW(loss_spikes);
    ROW(saves);
    ROW(evictions);
    ROW(requeues);
    if (want->steps > 0)
        ROW(steps);
#undef ROW
    if (bad)
        fail_msg("%s: %s disagrees with the hand derivation in %d row(s)", want->dir, who, bad);
}

static tmc_experiment x; /* the replay's; zeroed, so owning nothing, until loaded */

static void load(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/replays/%s/experiment.json", TMC_SOURCE_DIR, dir);
    tmc_error err = {""};
    tmc_experiment_release(&x); /* the previous replay's */
    if (tmc_config_load(path, NULL, 0, &x, &err))
        fail_msg("%s", err.msg);
}

static void engine_replica(const tmc_engine *e, uint64_t seed, uint64_t replica, result *r)
{
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int k = 0; k < TMC_STREAM_COUNT; k++)
        assert_non_null(rng[k] = gsl_rng_alloc(tmc_rng_pcg32));
    tmc_replica o;
    tmc_engine_run(e, seed, replica, rng, &o);
    for (int k = 0; k < TMC_STREAM_COUNT; k++)
        gsl_rng_free(rng[k]);
    assert_int_equal(o.stopped, 0);
    assert_true(o.censored == 0);
    *r = (result){.wall = o.wall_s, .compute = o.compute_s, .straggler = o.straggler_s,
                  .pause = o.pause_s, .fixed = o.fixed_s, .save = o.save_s, .lost = o.lost_s,
                  .restore = o.restore_s, .downtime = o.downtime_s,
                  .detection = o.detection_s, .spare_wait = o.spare_wait_s,
                  .eviction = o.eviction_s, .requeue = o.requeue_s,
                  .card_failures = o.card_failures, .outages = o.outages,
                  .loss_spikes = o.loss_spikes, .saves = o.saves, .evictions = o.evictions,
                  .requeues = o.requeues, .steps = o.steps_simulated};
}

static void check(const replay *want)
{
    /* the hand arithmetic itself: the rows add up to the wall time */
    double sum = want->compute + want->straggler + want->pause + want->fixed + want->save +
                 want->lost + want->restore + want->downtime + want->detection +
                 want->spare_wait + want->eviction + want->requeue;
    assert_true(fabs(sum - want->wall) <= TOL);

    load(want->dir);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_int_equal(cf.interval_steps, x.checkpoint.interval_steps);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    double horizon_s = tmc_engine_horizon_s(&x, &cf);
    assert_true(horizon_s > 10 * want->wall);

    result got;
    engine_replica(&e, x.monte_carlo.seed, 0, &got);
    /* deterministic: another replica and another seed give the same run */
    static const uint64_t others[][2] = {{1, 1}, {12345, 7}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        result again;
        engine_replica(&e, others[i][0], others[i][1], &again);
        compare(&got, &again, "engine (other replica)");
    }
    tmc_engine_free(&e);
    compare(want, &got, "engine");

#ifdef TMC_HAVE_ORACLE
    oracle_result o;
    assert_int_equal(oracle_run(&x, cf.interval_steps, cf.compute_s, horizon_s,
                                x.monte_carlo.seed, 0, &o), 0);
    assert_int_equal(o.censored, 0);
    result r = {.wall = o.wall_s, .compute = o.compute_s, .straggler = o.straggler_s,
                .pause = o.pause_s, .fixed = o.fixed_s, .save = o.save_s, .lost = o.lost_s,
                .restore = o.restore_s, .downtime = o.downtime_s, .detection = o.detection_s,
                .spare_wait = o.spare_wait_s, .eviction = o.eviction_s,
                .requeue = o.requeue_s, .card_failures = o.card_failures,
                .outages = o.outages, .loss_spikes = o.loss_spikes, .saves = o.saves,
                .evictions = o.evictions, .requeues = o.requeues,
                .steps = want->steps}; /* the oracle does not count steps simulated */
    compare(want, &r, "oracle");
#endif
}

/* ------------------------------------------------------------------------ */

/* replays-1.1 failure while computing. S = 4 steps, K = 2; fixed part
 * exposed_comm_s 1.5 + input_wait_s 0.5 = 2 s (section 2), so a step lasts
 * 10 + 2 = 12 s. Failure at 0.00046875 d = 40.5 s.
 *   seg 1 (steps 1-2): 0 - 24; save 24 - 29, commits (snapshot @ step 2).
 *   seg 2: step 3 runs 29 - 41: the failure at 40.5 strikes it.
 *   lost (5.1): 40.5 - 29 = 11.5 (the 12 s step 3, cut at 11.5).
 *   detection 0 (no causes), spares unlimited: restore 40.5 - 60.5.
 *   seg 2 again: 60.5 - 84.5; save 84.5 - 89.5 commits: T = 89.5.
 * Split: compute 10 x 4 = 40; fixed 2 x 4 = 8; save 5 x 2 = 10; lost 11.5;
 *   restore 20. 40 + 8 + 10 + 11.5 + 20 = 89.5. Counts: 1 failure, 2 saves.
 * Steps simulated: seg 1, seg 2 (whole: no jitter), seg 2 again: 2 + 2 + 2. */
static void replay_1_failure_compute(void **state)
{
    (void)state;
    check(&(replay){.dir = "01-failure-compute", .wall = 89.5,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 8, .save = 10,
                    .lost = 11.5, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0, .steps = 6});
}

/* replays-1.2 failure during a sync save. S = 4, K = 2, step 10 s.
 * Failure at 0.000546875 d = 47.25 s.
 *   seg 1: 0 - 20; save 20 - 25 commits (@ step 2).
 *   seg 2: 25 - 45; save 45 - 50: the failure at 47.25 strikes the save.
 *   lost: 47.25 - 25 = 22.25 (compute 20 + the save in progress 2.25).
 *   restore 47.25 - 67.25; seg 2 again 67.25 - 87.25; save 87.25 - 92.25.
 *   T = 92.25.
 * Split: compute 40; save 10; lost 22.25; restore 20.
 *   40 + 10 + 22.25 + 20 = 92.25. Counts: 1 failure, 2 saves.
 * Steps simulated: 2 + 2 (its compute was done) + 2 = 6. */
static void replay_2_failure_sync_save(void **state)
{
    (void)state;
    check(&(replay){.dir = "02-failure-sync-save", .wall = 92.25,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 22.25, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0, .steps = 6});
}

/* Cases 3-5 are asynchronous (section 3): S = 6, K = 2 (3 segments), copy
 * save_s = 2 s, write_s = 15 s, restore 20 s. Without interruptions:
 *   seg 1: 0 - 20; copy 20 - 22, s1 captured at 22, written 22 - 37.
 *   seg 2: 22 - 42; copy 42 - 44, s2 captured at 44, written 44 - 59.
 *   seg 3: 44 - 64; copy 64 - 66, s3 captured at 66, written 66 - 81;
 *   the job waits for the last write 66 - 81; T = 81
 *   (= compute 60 + copies 3 x 2 + last wait 15).
 * Work "after" a committed snapshot (5.1) starts at its capture (the end of
 * its copy), so lost = t - capture time of the newest snapshot committed by t
 * (t - time of the last resume when that is later). */

/* replays-1.3 failure during an async copy. Failure at 0.0005 d = 43.2 s,
 * inside seg 2's copy (42 - 44).
 *   committed by 43.2: s1 (commit 37). lost: 43.2 - 22 = 21.2
 *   (seg 2 compute 20 + copy in progress 1.2).
 *   restore 43.2 - 63.2; resume at step 3:
 *   seg 2: 63.2 - 83.2; copy 83.2 - 85.2; s2 written 85.2 - 100.2.
 *   seg 3: 85.2 - 105.2; copy 105.2 - 107.2; s3 written from
 *   max(107.2, 100.2) = 107.2 to 122.2; wait for it 107.2 - 122.2. T = 122.2.
 * Split: compute 60; save: copies 3 x 2 = 6 + last wait 15 = 21; lost 21.2;
 *   restore 20. 60 + 21 + 21.2 + 20 = 122.2. Counts: 1 failure, 3 saves. */
static void replay_3_failure_async_copy(void **state)
{
    (void)state;
    check(&(replay){.dir = "03-failure-async-copy", .wall = 122.2,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 21,
                    .lost = 21.2, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 0});
}

/* replays-1.4 failure during a background write. Failure at 0.000625 d =
 * 54 s: s2 is being written (44 - 59), seg 3 computing (44 - 64).
 *   committed by 54: s1 only (37); s2's write is abandoned.
 *   lost: 54 - 22 = 32 (seg 2 compute 20 + copy 2 + seg 3 compute 10).
 *   restore 54 - 74; resume at step 3:
 *   seg 2: 74 - 94; copy 94 - 96; s2 written 96 - 111.
 *   seg 3: 96 - 116; copy 116 - 118; s3 written 118 - 133; wait 118 - 133.
 *   T = 133.
 * Split: compute 60; save 6 + 15 = 21; lost 32; restore 20.
 *   60 + 21 + 32 + 20 = 133. Counts: 1 failure, 3 saves. */
static void replay_4_failure_async_write(void **state)
{
    (void)state;
    check(&(replay){.dir = "04-failure-async-write", .wall = 133,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 21,
                    .lost = 32, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 0});
}

/* replays-1.5 failure during the final write. Failure at 0.000875 d = 75.6 s,
 * while the job waits for s3's write (66 - 81).
 *   committed by 75.6: s1 (37) and s2 (59); s3's write is abandoned.
 *   lost: 75.6 - 44 (s2's capture) = 31.6 (seg 3 compute 20 + copy 2 + the
 *   wait for the last write 9.6).
 *   restore 75.6 - 95.6; resume at step 5:
 *   seg 3: 95.6 - 115.6; copy 115.6 - 117.6; s3 written 117.6 - 132.6;
 *   wait 117.6 - 132.6. T = 132.6.
 * Split: compute 60; save 3 x 2 + 15 = 21; lost 31.6; restore 20.
 *   60 + 21 + 31.6 + 20 = 132.6. Counts: 1 failure, 3 saves. */
static void replay_5_failure_async_final_write(void **state)
{
    (void)state;
    check(&(replay){.dir = "05-failure-async-final-write", .wall = 132.6,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 21,
                    .lost = 31.6, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 0});
}

/* replays-1.6 failure during a restore. S = 4, K = 2 (sync). Failures at
 * 0.000390625 d = 33.75 s and 0.00046875 d = 40.5 s.
 *   seg 1: 0 - 20; save 20 - 25 commits. seg 2 from 25.
 *   33.75: lost 33.75 - 25 = 8.75; restore 33.75 - 53.75.
 *   40.5 strikes the restore (5.3): the 6.75 s done count as restore
 *   ("restores, including those started again"); nothing more is lost.
 *   The recovery starts again: restore 40.5 - 60.5 (from the beginning).
 *   seg 2: 60.5 - 80.5; save 80.5 - 85.5. T = 85.5.
 * Split: compute 40; save 10; lost 8.75; restore 6.75 + 20 = 26.75.
 *   40 + 10 + 8.75 + 26.75 = 85.5. Counts: 2 failures, 2 saves. */
static void replay_6_failure_restore(void **state)
{
    (void)state;
    check(&(replay){.dir = "06-failure-restore", .wall = 85.5,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 26.75, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 2, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.7 two failures in one restore. As 1.6 plus a third failure at
 * 0.000546875 d = 47.25 s (all three inside the first restore's 33.75 - 53.75).
 *   33.75: lost 8.75; restore 33.75 -> cut at 40.5 (6.75 s).
 *   40.5: restore 40.5 -> cut at 47.25 (6.75 s).
 *   47.25: restore 47.25 - 67.25 (full 20 s).
 *   seg 2: 67.25 - 87.25; save 87.25 - 92.25. T = 92.25.
 * Split: compute 40; save 10; lost 8.75; restore 6.75 + 6.75 + 20 = 33.5.
 *   40 + 10 + 8.75 + 33.5 = 92.25. Counts: 3 failures, 2 saves. */
static void replay_7_two_failures_restore(void **state)
{
    (void)state;
    check(&(replay){.dir = "07-two-failures-restore", .wall = 92.25,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 33.5, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 3, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.8 loss spike, rollback 1. S = 6, K = 2 (sync): seg k computes
 * from 25 (k - 1) to 25 (k - 1) + 20 and commits at 25 k. Spike at
 * 0.000625 d = 54 s, in seg 3's compute (50 - 70).
 *   lost: 54 - 50 = 4; no downtime (5.2); restore 54 - 74; resume at step 5.
 *   seg 3: 74 - 94; save 94 - 99. T = 99.
 * Split: compute 60; save 15; lost 4; restore 20. 60 + 15 + 4 + 20 = 99.
 * Counts: 1 spike, 3 saves. */
static void replay_8_spike_rollback_1(void **state)
{
    (void)state;
    check(&(replay){.dir = "08-spike-rollback-1", .wall = 99,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 4, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 0, .loss_spikes = 1, .saves = 3,
                    .evictions = 0});
}

/* replays-1.9 loss spike, rollback 3. S = 8, K = 2 (sync): commits at 25,
 * 50, 75 (s1, s2, s3); seg 4 computes 75 - 95. Spike at 0.0009375 d = 81 s.
 *   lost since s3: 81 - 75 = 6; rollback 3 also discards the 2 newest
 *   committed snapshots s3 and s2: their work (20 compute + 5 save each)
 *   moves to lost: 6 + 25 + 25 = 56. Restored: s1 (@ step 2).
 *   restore 81 - 101; seg 2: 101 - 121, save - 126; seg 3: 126 - 146,
 *   save - 151; seg 4: 151 - 171, save - 176. T = 176.
 * Split: compute 10 x 8 = 80; save 4 x 5 = 20; lost 56; restore 20.
 *   80 + 20 + 56 + 20 = 176. Counts: 1 spike, 4 saves (net of the 2 rolled
 *   back). */
static void replay_9_spike_rollback_3(void **state)
{
    (void)state;
    check(&(replay){.dir = "09-spike-rollback-3", .wall = 176,
                    .compute = 80, .straggler = 0, .pause = 0, .fixed = 0, .save = 20,
                    .lost = 56, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 0, .loss_spikes = 1, .saves = 4,
                    .evictions = 0});
}

/* replays-1.10 rollback 3 when fewer snapshots exist. S = 4, K = 2 (sync):
 * s1 commits at 25. Spike at 0.000390625 d = 33.75 s (seg 2 compute).
 *   lost since s1: 8.75; rollback 3 discards up to 2 more committed
 *   snapshots: only s1 exists, so it goes (its 25 s move to lost, "fewer if
 *   fewer exist"): lost 8.75 + 25 = 33.75; the run restarts from step 1.
 *   restore 33.75 - 53.75 (section 5.3 restores in every case);
 *   seg 1: 53.75 - 73.75, save - 78.75; seg 2: 78.75 - 98.75, save - 103.75.
 *   T = 103.75.
 * Split: compute 40; save 10; lost 33.75; restore 20.
 *   40 + 10 + 33.75 + 20 = 103.75. Counts: 1 spike, 2 saves. */
static void replay_10_spike_rollback_3_fewer(void **state)
{
    (void)state;
    check(&(replay){.dir = "10-spike-rollback-3-fewer", .wall = 103.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 33.75, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 0, .loss_spikes = 1, .saves = 2,
                    .evictions = 0});
}

/* replays-1.11 a pool of 1 spare. spares 1, repair_distribution fixed,
 * repair_mean_hours 0.025 = 90 s. S = 4, K = 2 (sync). Failures at
 * 0.000390625 d = 33.75 s and 0.00078125 d = 67.5 s.
 *   33.75: lost 33.75 - 25 = 8.75; the failed card goes to repair until
 *   33.75 + 90 = 123.75; the pool has 1: taken, no wait (pool 0);
 *   restore 33.75 - 53.75. seg 2 from 53.75.
 *   67.5: lost 67.5 - 53.75 = 13.75 (s1 is the newest commit; 25 - 53.75 was
 *   already counted as lost and restore); this card goes to repair until
 *   157.5; the pool is empty: wait for the earliest repair in progress,
 *   123.75: spare wait 123.75 - 67.5 = 56.25. restore 123.75 - 143.75.
 *   seg 2: 143.75 - 163.75; save 163.75 - 168.75. T = 168.75.
 * Split: compute 40; save 10; lost 8.75 + 13.75 = 22.5; restore 2 x 20 =
 *   40; spare wait 56.25. 40 + 10 + 22.5 + 40 + 56.25 = 168.75.
 * Counts: 2 failures, 2 saves. */
static void replay_11_spare_pool(void **state)
{
    (void)state;
    check(&(replay){.dir = "11-spare-pool", .wall = 168.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 22.5, .restore = 40, .downtime = 0, .detection = 0,
                    .spare_wait = 56.25, .eviction = 0,
                    .card_failures = 2, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.12 an outage with downtime. downtime_s 30 (cv 0). S = 4, K = 2
 * (sync). Outage at 0.000390625 d = 33.75 s (seg 2 compute, 25 - 45).
 *   lost 33.75 - 25 = 8.75; down 33.75 - 63.75 (30); restore 63.75 - 83.75;
 *   seg 2: 83.75 - 103.75; save 103.75 - 108.75. T = 108.75.
 * Split: compute 40; save 10; lost 8.75; downtime 30; restore 20.
 *   40 + 10 + 8.75 + 30 + 20 = 108.75. Counts: 1 outage, 2 saves. */
static void replay_12_outage_downtime(void **state)
{
    (void)state;
    check(&(replay){.dir = "12-outage-downtime", .wall = 108.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 20, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 1, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.13 an outage striking a restore. Failure at 0.000390625 d =
 * 33.75 s; outage (downtime 30) at 0.00046875 d = 40.5 s. S = 4, K = 2.
 *   33.75: lost 8.75; restore 33.75 - 53.75, cut at 40.5 (6.75 s of restore).
 *   40.5: recovery again from 5.2 for the outage: down 40.5 - 70.5 (30);
 *   restore 70.5 - 90.5. seg 2: 90.5 - 110.5; save 110.5 - 115.5. T = 115.5.
 * Split: compute 40; save 10; lost 8.75; restore 6.75 + 20 = 26.75;
 *   downtime 30. 40 + 10 + 8.75 + 26.75 + 30 = 115.5.
 * Counts: 1 failure, 1 outage, 2 saves. */
static void replay_13_outage_in_restore(void **state)
{
    (void)state;
    check(&(replay){.dir = "13-outage-in-restore", .wall = 115.5,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 26.75, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 1, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.14 a detection delay. One cause "hang", share 1, detection_s 30,
 * its own restore_s 25. S = 4, K = 2 (sync). Failure at 0.000390625 d =
 * 33.75 s.
 *   lost 8.75; detection 33.75 - 63.75 (30); restore (the cause's) 63.75 -
 *   88.75 (25); seg 2: 88.75 - 108.75; save 108.75 - 113.75. T = 113.75.
 * Split: compute 40; save 10; lost 8.75; detection 30; restore 25.
 *   40 + 10 + 8.75 + 30 + 25 = 113.75. Counts: 1 failure, 2 saves. */
static void replay_14_detection_delay(void **state)
{
    (void)state;
    check(&(replay){.dir = "14-detection-delay", .wall = 113.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 25, .downtime = 0, .detection = 30,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* Cases 15-16: 2 cards (flop_per_step 20, so mu = 10), slow_cards fraction 1
 * (S_slow ~ Binomial(2, 1) = 2: both slow), factor 2 (a slow step lasts
 * 2 x 10 = 20 s; straggler 20 - 10 = 10 s per step), detect_after_steps 3,
 * eviction_restore_s 15. S = 6, K = 2 (sync).
 *   seg 1: steps 1-2, 0 - 40; save 40 - 45 commits (2 steps completed).
 *   seg 2: step 3 45 - 65 (3 completed: detected at 65), step 4 65 - 85;
 *   save 85 - 90 commits; not the final save: eviction 90 - 105 (section 6). */

/* replays-1.15 eviction.
 *   From 90 every card is normal: seg 3: steps 5-6 105 - 125 (10 s each);
 *   save 125 - 130 commits (final). T = 130.
 * Split: compute 6 x 10 = 60; straggler 4 slow steps x 10 = 40; save 3 x 5 =
 *   15; eviction 15. 60 + 40 + 15 + 15 = 130. Counts: 3 saves, 1 eviction. */
static void replay_15_eviction(void **state)
{
    (void)state;
    check(&(replay){.dir = "15-eviction", .wall = 130,
                    .compute = 60, .straggler = 40, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 0, .restore = 0, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 15,
                    .card_failures = 0, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 1});
}

/* replays-1.16 the eviction restore struck by a failure at 0.001125 d = 97.2 s
 * (inside the eviction 90 - 105).
 *   The eviction ran 90 - 97.2: 7.2 s in the eviction row (as a struck restore
 *   stays in the restore row); nothing after s2 (committed at 90) but the
 *   eviction itself: lost 0. Every card is normal from 90 on (section 6).
 *   Normal recovery: restore 97.2 - 117.2; resume at step 5: seg 3 117.2 -
 *   137.2 (normal cards); save 137.2 - 142.2. T = 142.2.
 * Split: compute 60; straggler 40; save 15; eviction 7.2; restore 20.
 *   60 + 40 + 15 + 7.2 + 20 = 142.2. Counts: 1 failure, 3 saves, 1 eviction. */
static void replay_16_eviction_struck(void **state)
{
    (void)state;
    check(&(replay){.dir = "16-eviction-struck", .wall = 142.2,
                    .compute = 60, .straggler = 40, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 0, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 7.2,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 1});
}

/* replays-1.17 a paused step redone. 2 cards (mu 10), pauses every_steps 2,
 * duration_s 3, cards "one": steps 2 and 4 have one card at 10 + 3 = 13 s,
 * the other at 10 s, so they last 13 s (straggler 13 - 10 - 3 = 0).
 * S = 4, K = 2 (sync). Failure at 0.0005625 d = 48.6 s.
 *   seg 1: step 1 0 - 10, step 2 10 - 23; save 23 - 28 commits.
 *   seg 2: step 3 28 - 38, step 4 38 - 51: the failure at 48.6 cuts it.
 *   lost 48.6 - 28 = 20.6; restore 48.6 - 68.6.
 *   seg 2 again: step 3 68.6 - 78.6; step 4 keeps its index 4, so it is
 *   paused again: 78.6 - 91.6; save 91.6 - 96.6. T = 96.6.
 * Split: compute 40; pause 2 committed paused steps x 3 = 6; save 10;
 *   lost 20.6; restore 20. 40 + 6 + 10 + 20.6 + 20 = 96.6.
 * Counts: 1 failure, 2 saves. */
static void replay_17_pause_redone(void **state)
{
    (void)state;
    check(&(replay){.dir = "17-pause-redone", .wall = 96.6,
                    .compute = 40, .straggler = 0, .pause = 6, .fixed = 0, .save = 10,
                    .lost = 20.6, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.18 arrivals discarded (section 4's table). S = 4, K = 2 (sync).
 * Outage (downtime 30) at 0.000390625 d = 33.75 s; failure at 0.000546875 d
 * = 47.25 s; spikes at 0.00025 d = 21.6 s, 0.000625 d = 54 s and
 * 0.00078125 d = 67.5 s.
 *   seg 1: 0 - 20; save 20 - 25: the spike at 21.6 falls in a save:
 *   discarded. Commits at 25.
 *   33.75: the outage strikes seg 2: lost 8.75; down 33.75 - 63.75.
 *   47.25 (failure) and 54 (spike) fall in the downtime: discarded.
 *   restore 63.75 - 83.75: the spike at 67.5 falls in a restore: discarded.
 *   seg 2: 83.75 - 103.75; save 103.75 - 108.75. T = 108.75 (as 1.12).
 * Split: compute 40; save 10; lost 8.75; downtime 30; restore 20.
 *   40 + 10 + 8.75 + 30 + 20 = 108.75.
 * Counts: 1 outage; 0 failures and 0 spikes (discarded ones do not count);
 *   2 saves. */
static void replay_18_discarded_while_down(void **state)
{
    (void)state;
    check(&(replay){.dir = "18-discarded-while-down", .wall = 108.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 20, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 1, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.19 a failure during a detection delay. One cause, detection_s 30
 * (restore: checkpoint's 20). S = 4, K = 2 (sync). Failures at 0.000390625 d
 * = 33.75 s and 0.000546875 d = 47.25 s.
 *   33.75: lost 8.75; detection 33.75 - 63.75; 47.25 falls in it: the job is
 *   down, discarded. restore 63.75 - 83.75; seg 2: 83.75 - 103.75; save
 *   103.75 - 108.75. T = 108.75.
 * Split: compute 40; save 10; lost 8.75; detection 30; restore 20.
 *   40 + 10 + 8.75 + 30 + 20 = 108.75. Counts: 1 failure, 2 saves. */
static void replay_19_discarded_in_detection(void **state)
{
    (void)state;
    check(&(replay){.dir = "19-discarded-in-detection", .wall = 108.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 20, .downtime = 0, .detection = 30,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* replays-1.20 writes queue up (section 3). Async, S = 6, K = 2, copy 2 s,
 * write_s 30 s (longer than a segment's 22 s), restore 20. Failure at
 * 0.000875 d = 75.6 s; spike at 0.0005 d = 43.2 s.
 *   seg 1: 0 - 20; copy 20 - 22; s1 written 22 - 52.
 *   seg 2: 22 - 42; copy 42 - 44: the spike at 43.2 falls in a copy:
 *   discarded (section 4's table). s2 captured at 44, written from
 *   max(44, 52) = 52 to 82.
 *   seg 3: 44 - 64; copy 64 - 66; s3 captured at 66, queued (write 82 - 112);
 *   the job waits for the last writes from 66.
 *   75.6 strikes that wait: committed by 75.6: s1 only (52); s2's write is
 *   abandoned and s3 never written. lost: 75.6 - 22 = 53.6.
 *   restore 75.6 - 95.6; resume at step 3:
 *   seg 2: 95.6 - 115.6; copy 115.6 - 117.6; s2 written 117.6 - 147.6.
 *   seg 3: 117.6 - 137.6; copy 137.6 - 139.6; s3 written from
 *   max(139.6, 147.6) = 147.6 to 177.6; wait for the last writes
 *   139.6 - 177.6 = 38. T = 177.6.
 * Split: compute 60; save: copies 3 x 2 = 6 + last wait 38 = 44 (no copy
 *   waited for the queue: at most 2 snapshots were ever queued, far from 64);
 *   lost 53.6; restore 20. 60 + 44 + 53.6 + 20 = 177.6.
 * Counts: 1 failure, 0 spikes, 3 saves. */
static void replay_20_async_write_queue(void **state)
{
    (void)state;
    check(&(replay){.dir = "20-async-write-queue", .wall = 177.6,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 44,
                    .lost = 53.6, .restore = 20, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 3,
                    .evictions = 0});
}

/* replays-1.21 a pause when every card is slow. 2 cards (mu 10), slow_cards
 * fraction 1 (both slow), factor 2, never detected; pauses every_steps 2,
 * duration_s 3, cards "one". S = 2, K = 2 (sync).
 *   step 1: both cards 2 x 10 = 20: lasts 20.
 *   step 2 (paused): no normal card remains, so a slow one pauses:
 *   2 x 10 + 3 = 23; the other 20: lasts 23.
 *   seg 1: 0 - 43; save 43 - 48 (final). T = 48.
 * Split: compute 2 x 10 = 20; straggler (20 - 10 - 0) + (23 - 10 - 3) = 20;
 *   pause 1 x 3 = 3; save 5. 20 + 20 + 3 + 5 = 48. Counts: 1 save. */
static void replay_21_pause_slow_cards(void **state)
{
    (void)state;
    check(&(replay){.dir = "21-pause-slow-cards", .wall = 48,
                    .compute = 20, .straggler = 20, .pause = 3, .fixed = 0, .save = 5,
                    .lost = 0, .restore = 0, .downtime = 0, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 0, .loss_spikes = 0, .saves = 1,
                    .evictions = 0});
}

/* replays-1.22 no spare at all. spares 0, repair fixed 0.025 h = 90 s; one
 * cause with detection_s 30 (restore: checkpoint's 20). S = 4, K = 2 (sync).
 * Failure at 0.000390625 d = 33.75 s.
 *   lost 33.75 - 25 = 8.75; the card goes to repair until 33.75 + 90 =
 *   123.75; detection 33.75 - 63.75; at 63.75 the job needs the card and the
 *   pool is empty: it waits for the earliest repair in progress, the failed
 *   card's own: spare wait 123.75 - 63.75 = 60. restore 123.75 - 143.75;
 *   seg 2: 143.75 - 163.75; save 163.75 - 168.75. T = 168.75.
 * Split: compute 40; save 10; lost 8.75; detection 30; spare wait 60;
 *   restore 20. 40 + 10 + 8.75 + 30 + 60 + 20 = 168.75.
 * Counts: 1 failure, 2 saves. */
static void replay_22_no_spare_detection(void **state)
{
    (void)state;
    check(&(replay){.dir = "22-no-spare-detection", .wall = 168.75,
                    .compute = 40, .straggler = 0, .pause = 0, .fixed = 0, .save = 10,
                    .lost = 8.75, .restore = 20, .downtime = 0, .detection = 30,
                    .spare_wait = 60, .eviction = 0,
                    .card_failures = 1, .outages = 0, .loss_spikes = 0, .saves = 2,
                    .evictions = 0});
}

/* Cases 23-26: outages with notice (section 3). K = 2, downtime 30 s.
 * Without interruptions: seg 1 0 - 20, save 20 - 25; seg 2 25 - 45, save
 * 45 - 50; seg 3 50 - 70, save 70 - 75 (S = 6 in 24 - 26).
 *
 * replays-1.23 S = 8, notice 10 s >= save 5 s. Outage at 0.0008 d =
 * 69.12 s, so the emergency save starts at 69.12 - 5 = 64.12, inside step 6
 * (60 - 70); a failure at 0.0016 d = 138.24 s.
 *   step 5 ended at 60; step 6 cut at 64.12: lost 4.12.
 *   emergency save 64.12 - 69.12 commits step 5 (save row 5).
 *   outage at 69.12: down 69.12 - 99.12; restore 99.12 - 119.12.
 *   segments end on multiples of K: step 6 alone, 119.12 - 129.12; save
 *   129.12 - 134.12 (commits step 6); steps 7 - 8 from 134.12: the failure
 *   at 138.24 strikes step 7: lost 4.12; restore 138.24 - 158.24; steps
 *   7 - 8 158.24 - 178.24; save 178.24 - 183.24. T = 183.24.
 *   (Segments of K from step 5 would put the failure in steps 6 - 7,
 *   119.12 - 139.12, and lose 19.12.)
 * Split: compute 80; save 5 x 5 = 25; lost 8.24; downtime 30; restore 40.
 *   80 + 25 + 8.24 + 30 + 40 = 183.24. Counts: 1 failure, 1 outage, 5 saves.
 * Steps simulated (no jitter: a segment whole): 2 + 2 + 2 + 1 + 2 + 2 = 11. */
static void replay_23_notice_emergency_save(void **state)
{
    (void)state;
    check(&(replay){.dir = "23-notice-emergency-save", .wall = 183.24,
                    .compute = 80, .straggler = 0, .pause = 0, .fixed = 0, .save = 25,
                    .lost = 8.24, .restore = 40, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 1, .loss_spikes = 0, .saves = 5,
                    .evictions = 0, .steps = 11});
}

/* replays-1.24 notice 3 s < save 5 s: no emergency save. Outage at 69.12 s
 * strikes seg 3 (50 - 70): lost 19.12; down 69.12 - 99.12; restore
 * 99.12 - 119.12; seg 3 again 119.12 - 139.12; save 139.12 - 144.12.
 * Split: compute 60; save 15; lost 19.12; downtime 30; restore 20.
 *   60 + 15 + 19.12 + 30 + 20 = 144.12. Counts: 1 outage, 3 saves.
 * Steps: 2 + 2 + 2 + 2 = 8. */
static void replay_24_notice_too_short(void **state)
{
    (void)state;
    check(&(replay){.dir = "24-notice-too-short", .wall = 144.12,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 19.12, .restore = 20, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 1, .loss_spikes = 0, .saves = 3,
                    .evictions = 0, .steps = 8});
}

/* replays-1.25 as 1.23, plus a failure at 0.00075 d = 64.8 s, inside the
 * emergency save (64.12 - 69.12): the save is lost.
 *   lost 64.8 - 50 = 14.8 (steps 5, 6 in part, 0.68 s of save).
 *   restore 64.8 - 84.8, cut by the outage at 69.12 (4.32 s of restore);
 *   down 69.12 - 99.12; restore 99.12 - 119.12; seg 3 again from step 4:
 *   119.12 - 139.12; save 139.12 - 144.12. T = 144.12.
 * Split: compute 60; save 15; lost 14.8; restore 24.32; downtime 30.
 *   60 + 15 + 14.8 + 24.32 + 30 = 144.12. Counts: 1 failure, 1 outage,
 *   3 saves. Steps: 2 + 2 + 2 + 2 = 8. */
static void replay_25_notice_save_struck(void **state)
{
    (void)state;
    check(&(replay){.dir = "25-notice-save-struck", .wall = 144.12,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 14.8, .restore = 24.32, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 1, .outages = 1, .loss_spikes = 0, .saves = 3,
                    .evictions = 0, .steps = 8});
}

/* replays-1.26 notice 10 s, outage at 0.0006 d = 51.84 s: the emergency save
 * would start at 46.84, inside seg 2's save (45 - 50). Too late: that save
 * commits step 4 at 50, seg 3 starts and the outage strikes like any other.
 * A loss spike at 0.00059 d = 50.976 s strikes seg 3's compute first.
 *   lost 50.976 - 50 = 0.976; restore 50.976 - 70.976, struck by the
 *   outage at 51.84 (0.864 s of restore); down 51.84 - 81.84; restore
 *   81.84 - 101.84; seg 3 101.84 - 121.84; save 121.84 - 126.84.
 *   T = 126.84.
 * Split: compute 60; save 15; lost 0.976; restore 20.864; downtime 30.
 *   60 + 15 + 0.976 + 20.864 + 30 = 126.84. Counts: 1 outage, 1 spike,
 *   3 saves. Steps: 2 + 2 + 2 + 2 = 8. */
static void replay_26_notice_during_save(void **state)
{
    (void)state;
    check(&(replay){.dir = "26-notice-during-save", .wall = 126.84,
                    .compute = 60, .straggler = 0, .pause = 0, .fixed = 0, .save = 15,
                    .lost = 0.976, .restore = 20.864, .downtime = 30, .detection = 0,
                    .spare_wait = 0, .eviction = 0,
                    .card_failures = 0, .outages = 1, .loss_spikes = 1, .saves = 3,
                    .evictions = 0, .steps = 8});
}

/* Cases 27-30: time limits (section 4). S = 6, K = 2, an allocation of
 * 0.0135 h = 48.6 s, then 41 s in the queue; no outages.
 *
 * replays-1.27 at_limit "save": an emergency save from 48.6 - 5 = 43.6.
 *   seg 1 0 - 20, save 20 - 25 (commits step 2). seg 2 from 25: step 3
 *   25 - 35; step 4 cut at 43.6: lost 8.6; emergency save 43.6 - 48.6
 *   commits step 3. Limit at 48.6: queue 48.6 - 89.6; the new allocation's
 *   limit at 89.6 + 48.6 = 138.2; restore 89.6 - 109.6. Step 4 alone (to
 *   the multiple of K) 109.6 - 119.6; save 119.6 - 124.6 (step 4). Seg 3
 *   from 124.6: the save point 133.2 falls in step 5 (124.6 - 134.6), with
 *   no step done: the save time is lost too, 124.6 - 138.2: lost 13.6.
 *   Queue 138.2 - 179.2; limit at 227.8; restore 179.2 - 199.2; seg 3
 *   199.2 - 219.2; save 219.2 - 224.2. T = 224.2.
 * Split: compute 60; save 20 (4 saves); lost 22.2; restore 40; requeue 82.
 *   60 + 20 + 22.2 + 40 + 82 = 224.2. Counts: 2 requeues, 4 saves.
 * Steps: a segment with an arrival with notice inside it is gone through
 *   step by step even without jitter (the save needs the steps done), up
 *   to the step the notice cuts: 2 + 2 (steps 3, 4) + 1 + 1 (step 5) + 2 = 8. */
static void replay_27_limit_save(void **state)
{
    (void)state;
    check(&(replay){.dir = "27-limit-save", .wall = 224.2, .compute = 60, .save = 20,
                    .lost = 22.2, .restore = 40, .requeue = 82, .saves = 4, .requeues = 2,
                    .steps = 8});
}

/* replays-1.28 at_limit "lose". Seg 1 0 - 25 (commits 2). Seg 2 25 - 45,
 * its save 45 - 50 struck by the limit at 48.6: lost 23.6. Queue
 * 48.6 - 89.6 (limit at 138.2); restore 89.6 - 109.6; seg 2 109.6 - 129.6;
 * save 129.6 - 134.6 (commits 4). Seg 3 from 134.6 struck at 138.2: lost
 * 3.6. Queue 138.2 - 179.2 (limit at 227.8); restore 179.2 - 199.2; seg 3
 * 199.2 - 219.2; save 219.2 - 224.2. T = 224.2.
 * Split: compute 60; save 15; lost 27.2; restore 40; requeue 82.
 *   60 + 15 + 27.2 + 40 + 82 = 224.2. Counts: 2 requeues, 3 saves.
 * Steps: 2 + 2 + 2 + 2 + 2 = 10. */
static void replay_28_limit_lose(void **state)
{
    (void)state;
    check(&(replay){.dir = "28-limit-lose", .wall = 224.2, .compute = 60, .save = 15,
                    .lost = 27.2, .restore = 40, .requeue = 82, .saves = 3, .requeues = 2,
                    .steps = 10});
}

/* replays-1.29 at_limit "save", restarts "new_allocation", a failure at
 * 0.0003 d = 25.92 s. Seg 1 0 - 25 (commits 2). Seg 2 from 25: the failure
 * strikes at 25.92 (before the save point 43.6): lost 0.92; restore
 * 25.92 - 45.92, a new allocation from 25.92: its limit at 74.52. Seg 2
 * 45.92 - 65.92 (save point 69.52 not reached); save 65.92 - 70.92 (commits
 * 4). Seg 3 from 70.92: the save point 69.52 has passed, so the limit at
 * 74.52 strikes compute: lost 3.6; queue 74.52 - 115.52 (limit at 164.12);
 * restore 115.52 - 135.52; seg 3 135.52 - 155.52; save 155.52 - 160.52.
 * T = 160.52. Split: compute 60; save 15; lost 4.52; restore 40; requeue
 * 41. 60 + 15 + 4.52 + 40 + 41 = 160.52. Counts: 1 failure, 1 requeue,
 * 3 saves. Steps: 2 + 2 + 2 + 2 + 2 = 10. */
static void replay_29_limit_new_allocation(void **state)
{
    (void)state;
    check(&(replay){.dir = "29-limit-new-allocation", .wall = 160.52, .compute = 60,
                    .save = 15, .lost = 4.52, .restore = 40, .requeue = 41,
                    .card_failures = 1, .saves = 3, .requeues = 1, .steps = 10});
}

/* replays-1.30 as 1.29 with restarts "same_allocation" (the default): the
 * limit stays at 48.6. Failure at 25.92: lost 0.92; restore 25.92 - 45.92.
 * Seg 2 from 45.92 (save point 43.6 passed): the limit strikes at 48.6:
 * lost 2.68; queue 48.6 - 89.6 (limit at 138.2); restore 89.6 - 109.6;
 * seg 2 109.6 - 129.6; save 129.6 - 134.6 (commits 4; the save point 133.2
 * fell in it). Seg 3 from 134.6 struck at 138.2: lost 3.6; queue
 * 138.2 - 179.2; restore 179.2 - 199.2; seg 3 199.2 - 219.2; save
 * 219.2 - 224.2. T = 224.2. Split: compute 60; save 15; lost 7.2; restore
 * 60; requeue 82. 60 + 15 + 7.2 + 60 + 82 = 224.2. Counts: 1 failure,
 * 2 requeues, 3 saves. Steps: 2 + 2 + 2 + 2 + 2 + 2 = 12. */
static void replay_30_limit_same_allocation(void **state)
{
    (void)state;
    check(&(replay){.dir = "30-limit-same-allocation", .wall = 224.2, .compute = 60,
                    .save = 15, .lost = 7.2, .restore = 60, .requeue = 82,
                    .card_failures = 1, .saves = 3, .requeues = 2, .steps = 12});
}

/* replays-1.31 as 1.27 (save), plus an outage at 0.0004 d = 34.56 s with
 * 30 s of downtime. Seg 1 0 - 25 (commits 2). Seg 2 from 25: the outage
 * strikes before the save point 43.6: lost 9.56; down 34.56 - 64.56, during
 * which the limit at 48.6 passes. Up at 64.56: the limit strikes at once
 * (a restore of 0 s): queue 64.56 - 105.56, limit at 154.16; restore
 * 105.56 - 125.56; seg 2 125.56 - 145.56; save 145.56 - 150.56 (commits 4).
 * Seg 3 from 150.56 (its save point 149.16 passed): the limit strikes at
 * 154.16: lost 3.6; queue 154.16 - 195.16; restore 195.16 - 215.16; seg 3
 * 215.16 - 235.16; save 235.16 - 240.16. T = 240.16.
 * Split: compute 60; save 15; lost 13.16; restore 40; downtime 30; requeue
 * 82. 60 + 15 + 13.16 + 40 + 30 + 82 = 240.16. Counts: 1 outage, 2
 * requeues, 3 saves. Steps: 2 + 2 + 2 + 2 + 2 = 10. */
static void replay_31_limit_while_down(void **state)
{
    (void)state;
    check(&(replay){.dir = "31-limit-while-down", .wall = 240.16, .compute = 60,
                    .save = 15, .lost = 13.16, .restore = 40, .downtime = 30, .requeue = 82,
                    .outages = 1, .saves = 3, .requeues = 2, .steps = 10});
}

/* replays-1.32 as 1.30 (save, same allocation, limit at 48.6, 41 s in the
 * queue), the failure's cause restoring for 40 s. Seg 1 0 - 25 (commits
 * 2). The failure at 25.92: lost 0.92; its restore 25.92 - 65.92 is cut by
 * the limit at 48.6 (22.68 s of restore); queue 48.6 - 89.6 (limit at
 * 138.2); the cut restore again in full, 89.6 - 129.6. Seg 2 from 129.6:
 * the save point 133.2 falls in step 3 with no step done: lost 8.6 to the
 * limit at 138.2; queue 138.2 - 179.2 (limit at 227.8); restore (the
 * limit's own) 179.2 - 199.2; seg 2 199.2 - 219.2; save 219.2 - 224.2
 * (commits 4). Seg 3 from 224.2 (save point 222.8 passed): the limit at
 * 227.8: lost 3.6; queue 227.8 - 268.8; restore 268.8 - 288.8; seg 3
 * 288.8 - 308.8; save 308.8 - 313.8. T = 313.8.
 * Split: compute 60; save 15; lost 13.12; restore 102.68; requeue 123.
 *   60 + 15 + 13.12 + 102.68 + 123 = 313.8. Counts: 1 failure, 3
 *   requeues, 3 saves. Steps: 2 + 2 + 1 (step 3, cut by the notice: gone
 *   through step by step) + 2 + 2 + 2 = 11. */
static void replay_32_limit_cuts_long_restore(void **state)
{
    (void)state;
    check(&(replay){.dir = "32-limit-cuts-long-restore", .wall = 313.8, .compute = 60,
                    .save = 15, .lost = 13.12, .restore = 102.68, .requeue = 123,
                    .card_failures = 1, .saves = 3, .requeues = 3, .steps = 11});
}

/* replays-1.33 a block of whole segments only when it cannot be struck
 * (section 2). S = 8, K = 2; fixed part 1.5 + 0.5 = 2 s, so a step is 12 s,
 * a segment 24 s and its save 5 s: 29 s. Failure at 0.0013125 d = 113.4 s,
 * inside the 4th save (111 - 116).
 *   t = 0: the block of 4 segments would take 4 x 29 = 116 > 113.4: not
 *   drawn at once; the block of 2 takes 58 <= 113.4: steps 1-4 commit at 58.
 *   t = 58: 2 segments take 58 > 55.4 left: one at a time.
 *   seg 3: 58 - 82, save 82 - 87 commits (@ step 6).
 *   seg 4: 87 - 111, save 111 - 116: struck at 113.4; lost 113.4 - 87 = 26.4.
 *   restore 113.4 - 133.4; seg 4 again 133.4 - 157.4; save - 162.4. T = 162.4.
 * Split: compute 10 x 8 = 80; fixed 2 x 8 = 16; save 5 x 4 = 20; lost 26.4;
 *   restore 20. 80 + 16 + 20 + 26.4 + 20 = 162.4. Counts: 1 failure, 4
 *   saves. Steps simulated: 8 + 2 (seg 4's lost try) = 10. A block that
 *   left out the saves (96 s), the fixed part (100 s) or one save (111 s)
 *   would fit before 113.4 and commit all 8 steps at 116. */
static void replay_33_block_save_struck(void **state)
{
    (void)state;
    check(&(replay){.dir = "33-block-save-struck", .wall = 162.4, .compute = 80, .fixed = 16,
                    .save = 20, .lost = 26.4, .restore = 20, .card_failures = 1, .saves = 4,
                    .steps = 10});
}

/* replays-1.34 pauses inside a block. S = 8, K = 2, step 10 s, save 5 s;
 * every card pauses 6 s on steps 3 and 6 (pauses.cards "all"). Segments:
 * seg 1 20 + 5, seg 2 26 + 5, seg 3 26 + 5, seg 4 20 + 5. Failure at
 * 0.00125 d = 108 s.
 *   t = 0: the block of 4 would take 80 + 2 x 6 + 4 x 5 = 112 > 108: no;
 *   the block of 2 (steps 1-4, one pause) takes 40 + 6 + 10 = 56: commits.
 *   t = 56: steps 5-8 (one pause) would take 56 > 52 left: one at a time.
 *   seg 3: 56 - 82, save 82 - 87 commits.
 *   seg 4: 87 - 107, save 107 - 112: struck at 108; lost 108 - 87 = 21.
 *   restore 108 - 128; seg 4 again 128 - 148; save 148 - 153. T = 153.
 * Split: compute 80; pause 12; save 20; lost 21; restore 20.
 *   80 + 12 + 20 + 21 + 20 = 153. Counts: 1 failure, 4 saves. Steps: 10.
 *   A block that left out its pauses (100 s) would commit all 8 at 112. */
static void replay_34_block_pauses(void **state)
{
    (void)state;
    check(&(replay){.dir = "34-block-pauses", .wall = 153, .compute = 80, .pause = 12,
                    .save = 20, .lost = 21, .restore = 20, .card_failures = 1, .saves = 4,
                    .steps = 10});
}

/* replays-1.35 as 1.27 (at_limit "save", limit 48.6 s, 41 s in the queue)
 * with a warning 7.6 s before the limit (notice_s 7.6 > c = 5): the job
 * saves at the warning, 48.6 - 7.6 = 41, and its allocation ends with the
 * save, at 46: every allocation lasts 48.6 - (7.6 - 5) = 46 s.
 *   seg 1 0 - 20, save 20 - 25 (commits 2). Seg 2 from 25: step 3 25 - 35;
 *   step 4 cut at 41: lost 6; emergency save 41 - 46 commits 3. Queue
 *   46 - 87; the new allocation ends at 87 + 46 = 133; restore 87 - 107.
 *   Step 4 alone 107 - 117; save 117 - 122 (commits 4). Seg 3 from 122: the
 *   save point 133 - 5 = 128 falls in step 5 (122 - 132) with no step done:
 *   lost 122 - 133 = 11. Queue 133 - 174 (ends at 174 + 46 = 220); restore
 *   174 - 194; seg 3 194 - 214; save 214 - 219 (its save point 215 falls in
 *   this save, which ends before the limit, as in 1.27). T = 219.
 * Split: compute 60; save 20 (4 saves); lost 17; restore 40; requeue 82.
 *   60 + 20 + 17 + 40 + 82 = 219. Counts: 2 requeues, 4 saves.
 * Steps: 2 + 2 + 1 + 1 + 2 = 8, as in 1.27. */
static void replay_35_limit_notice_early(void **state)
{
    (void)state;
    check(&(replay){.dir = "35-limit-notice-early", .wall = 219, .compute = 60, .save = 20,
                    .lost = 17, .restore = 40, .requeue = 82, .saves = 4, .requeues = 2,
                    .steps = 8});
}

/* replays-1.36 as 1.27 with a warning 3 s before the limit (notice_s 3 <
 * c = 5): the save cannot finish before the limit, so at_limit "save" loses
 * the work since the last commit at every limit: the run is 1.28's
 * (at_limit "lose") to the last row. T = 224.2. */
static void replay_36_limit_notice_short(void **state)
{
    (void)state;
    check(&(replay){.dir = "36-limit-notice-short", .wall = 224.2, .compute = 60, .save = 15,
                    .lost = 27.2, .restore = 40, .requeue = 82, .saves = 3, .requeues = 2,
                    .steps = 10});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_1_failure_compute),
        cmocka_unit_test(replay_2_failure_sync_save),
        cmocka_unit_test(replay_3_failure_async_copy),
        cmocka_unit_test(replay_4_failure_async_write),
        cmocka_unit_test(replay_5_failure_async_final_write),
        cmocka_unit_test(replay_6_failure_restore),
        cmocka_unit_test(replay_7_two_failures_restore),
        cmocka_unit_test(replay_8_spike_rollback_1),
        cmocka_unit_test(replay_9_spike_rollback_3),
        cmocka_unit_test(replay_10_spike_rollback_3_fewer),
        cmocka_unit_test(replay_11_spare_pool),
        cmocka_unit_test(replay_12_outage_downtime),
        cmocka_unit_test(replay_13_outage_in_restore),
        cmocka_unit_test(replay_14_detection_delay),
        cmocka_unit_test(replay_15_eviction),
        cmocka_unit_test(replay_16_eviction_struck),
        cmocka_unit_test(replay_17_pause_redone),
        cmocka_unit_test(replay_18_discarded_while_down),
        cmocka_unit_test(replay_19_discarded_in_detection),
        cmocka_unit_test(replay_20_async_write_queue),
        cmocka_unit_test(replay_21_pause_slow_cards),
        cmocka_unit_test(replay_22_no_spare_detection),
        cmocka_unit_test(replay_23_notice_emergency_save),
        cmocka_unit_test(replay_24_notice_too_short),
        cmocka_unit_test(replay_25_notice_save_struck),
        cmocka_unit_test(replay_26_notice_during_save),
        cmocka_unit_test(replay_27_limit_save),
        cmocka_unit_test(replay_28_limit_lose),
        cmocka_unit_test(replay_29_limit_new_allocation),
        cmocka_unit_test(replay_30_limit_same_allocation),
        cmocka_unit_test(replay_31_limit_while_down),
        cmocka_unit_test(replay_32_limit_cuts_long_restore),
        cmocka_unit_test(replay_33_block_save_struck),
        cmocka_unit_test(replay_34_block_pauses),
        cmocka_unit_test(replay_35_limit_notice_early),
        cmocka_unit_test(replay_36_limit_notice_short),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
