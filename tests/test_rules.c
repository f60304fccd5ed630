/* rules-1.x: the shared predicates of src/core/experiment_rules.h, by hand.
 * rules-1.1 nodes of a job, ceil(N / g): 1,024 cards of 8 are 128 nodes,
 *           1,025 are 129, 1 card is 1 node, 7 of 8 are 1; g = 0 (no nodes
 *           stated) is 0 nodes.
 * rules-1.2 outages are noticed in time to save when notice_s >= save_s
 *           with synchronous saves: 60 s before a 30 s or a 60 s save, yes;
 *           before a 61 s save, no; no notice, outages off, or asynchronous
 *           saves, no.
 * rules-1.3 a limit saves with at_limit "save" and synchronous saves, and
 *           with the limit on; "lose", asynchronous or no limit, no. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "experiment_rules.h"

static void test_job_nodes(void **state)
{
    (void)state;
    assert_int_equal(tmc_job_nodes(1024, 8), 128);
    assert_int_equal(tmc_job_nodes(1025, 8), 129);
    assert_int_equal(tmc_job_nodes(1, 8), 1);
    assert_int_equal(tmc_job_nodes(7, 8), 1);
    assert_int_equal(tmc_job_nodes(1024, 0), 0);
}

static void test_outages_noticed(void **state)
{
    (void)state;
    static tmc_experiment x; /* static: zeroed, and off the stack */
    x.outages.enabled = 1;
    x.outages.notice_s = 60;
    x.checkpoint.mode = TMC_SAVE_SYNC;
    x.checkpoint.save_s = 30;
    assert_true(tmc_outages_noticed(&x));
    x.checkpoint.save_s = 60;
    assert_true(tmc_outages_noticed(&x));
    x.checkpoint.save_s = 61;
    assert_false(tmc_outages_noticed(&x));
    x.checkpoint.save_s = 30;
    x.checkpoint.mode = TMC_SAVE_ASYNC;
    assert_false(tmc_outages_noticed(&x));
    x.checkpoint.mode = TMC_SAVE_SYNC;
    x.outages.notice_s = 0;
    assert_false(tmc_outages_noticed(&x));
    x.outages.notice_s = 60;
    x.outages.enabled = 0;
    assert_false(tmc_outages_noticed(&x));
}

static void test_limit_saves(void **state)
{
    (void)state;
    static tmc_experiment x;
    x.time_limit.enabled = 1;
    x.time_limit.at_limit = TMC_LIMIT_SAVE;
    x.checkpoint.mode = TMC_SAVE_SYNC;
    assert_true(tmc_limit_saves(&x));
    x.checkpoint.mode = TMC_SAVE_ASYNC;
    assert_false(tmc_limit_saves(&x));
    x.checkpoint.mode = TMC_SAVE_SYNC;
    x.time_limit.at_limit = TMC_LIMIT_LOSE;
    assert_false(tmc_limit_saves(&x));
    x.time_limit.at_limit = TMC_LIMIT_SAVE;
    x.time_limit.enabled = 0;
    assert_false(tmc_limit_saves(&x));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_nodes),
        cmocka_unit_test(test_outages_noticed),
        cmocka_unit_test(test_limit_saves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
