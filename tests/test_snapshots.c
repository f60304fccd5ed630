/* snapshots-1.x: asynchronous checkpoint commits (docs/model.md 3.3).
 * snapshots-1.1 the reference design's example: captures at 20 s and 40 s
 *               (0.5 s copies), 16 s writes at 7 GB/s: a failure at 50 s
 *               finds only the 20 s snapshot committed (30 s of redo); with
 *               storage fast enough to commit the 40 s one (8 s writes),
 *               10 s of redo;
 * snapshots-1.2 writes queue one after another: a write starts when the
 *               previous one ends, and a full queue refuses a capture; after
 *               an abort the next write starts at its capture;
 * snapshots-1.3 the engine with a zero write time is the synchronous engine,
 *               replica for replica (issue 4's limiting case). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "closed_form.h"
#include "engine.h"
#include "runner.h"
#include "support.h"
#include "snapshots.h"

/* The step of the newest snapshot committed by time t (0: none). */
static long restorable_at(tmc_snapshots *q, double t)
{
    tmc_snapshot s;
    long step = 0;
    while (tmc_snapshots_commit(q, t, &s))
        step = s.step;
    return step;
}

static void example(double write_s, double failure_s, long expect_step, double expect_redo)
{
    tmc_snapshots q;
    tmc_snapshots_reset(&q);
    /* steps are seconds of work here: the snapshot at 20 s holds step 20 */
    tmc_snapshot a = {.step = 20, .capture_s = 20}, b = {.step = 40, .capture_s = 40};
    assert_int_equal(tmc_snapshots_capture(&q, &a, write_s), 0);
    assert_int_equal(tmc_snapshots_capture(&q, &b, write_s), 0);
    long step = restorable_at(&q, failure_s);
    assert_int_equal(step, expect_step);
    assert_true(fabs((failure_s - step) - expect_redo) < 1e-12);
}

static void test_model_example(void **state)
{
    (void)state;
    example(16, 50, 20, 30); /* 40 s snapshot commits at 56 s: too late */
    example(8, 50, 40, 10);  /* commits at 48 s */
}

static void test_queue(void **state)
{
    (void)state;
    tmc_snapshots q;
    tmc_snapshots_reset(&q);
    tmc_snapshot s = {.step = 1, .capture_s = 0};
    assert_int_equal(tmc_snapshots_capture(&q, &s, 10), 0);
    assert_true(s.commit_s == 10);
    s.step = 2, s.capture_s = 1; /* storage busy until 10 */
    assert_int_equal(tmc_snapshots_capture(&q, &s, 10), 0);
    assert_true(s.commit_s == 20);
    for (int i = 2; i < TMC_SNAPSHOTS_MAX; i++)
        assert_int_equal(tmc_snapshots_capture(&q, &s, 10), 0);
    assert_int_equal(tmc_snapshots_capture(&q, &s, 10), -1); /* the storage cannot keep up */
    assert_int_equal(q.max_count, TMC_SNAPSHOTS_MAX);
    tmc_snapshots_abort(&q);
    assert_int_equal(restorable_at(&q, 1e9), 0);
    /* the abandoned writes free the storage: the next write starts at its
     * capture (5 s), not when the abandoned ones would have ended (640 s) */
    s.step = 3, s.capture_s = 5;
    assert_int_equal(tmc_snapshots_capture(&q, &s, 10), 0);
    assert_true(s.commit_s == 15);
}

static double walls[2][500];

static void run(const char *const *sets, int n, double *wall)
{
    tmc_experiment x = test_load("design-48-stress", sets, n);
    tmc_closed_form cf;
    test_run(&x, &cf, 500, 401, wall);
}

static void test_zero_write_is_sync(void **state)
{
    (void)state;
    /* steps mode: synchronous saves in segments mode draw runs of commits
     * as blocks (one draw for several segments), which asynchronous saves
     * do not, so the two draw the same law but not the same numbers */
    const char *sync[2] = {"failures.per_card_mtbf_days=30", "monte_carlo.mode=\"steps\""};
    const char *async[4] = {"failures.per_card_mtbf_days=30", "checkpoint.mode=\"async\"",
                            "checkpoint.write_s=0", "monte_carlo.mode=\"steps\""};
    run(sync, 2, walls[0]);
    run(async, 4, walls[1]);
    for (int k = 0; k < 500; k++)
        if (walls[0][k] != walls[1][k])
            fail_msg("replica %d: sync %.6f s, async with no write %.6f s", k, walls[0][k],
                     walls[1][k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_example),
        cmocka_unit_test(test_queue),
        cmocka_unit_test(test_zero_write_is_sync),
    };
    return cmocka_run_group_tests_name("snapshots-1", tests, NULL, NULL);
}
