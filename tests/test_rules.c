/* rules-1.x: the shared predicates of src/core/experiment_rules.h, by hand.
 * rules-1.1 nodes of a job, ceil(N / g): 1,024 cards of 8 are 128 nodes,
 *           1,025 are 129, 1 card is 1 node, 7 of 8 are 1; g = 0 (no nodes
 *           stated) is 0 nodes.
 * rules-1.2 outages are noticed in time to save when notice_s >= save_s
 *           with synchronous saves: 60 s before a 30 s or a 60 s save, yes;
 *           before a 61 s save, no; no notice, outages off, or asynchronous
 *           saves, no.
 * rules-1.3 a limit saves with at_limit "save" and synchronous saves, and
 *           with the limit on; "lose", asynchronous or no limit, no.
 * rules-1.4 the unit a pool of spares or standbys counts in: g = 8 when
 *           every failure that takes hardware takes a node (per-node rates
 *           alone; card failures whose only spare-taking cause has scope
 *           node), 1 when some take one card (a per-card part without
 *           causes or with a card-scope cause that takes a spare), 1 with
 *           g = 1, failures off or none taking hardware. */
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

static void test_pool_unit_cards(void **state)
{
    (void)state;
    static tmc_experiment x; /* static: zeroed, and off the stack */
    tmc_failures *f = &x.failures;
    f->enabled = 1;
    f->cards_per_node = 8;
    f->per_node_mtbf_days = 40; /* node failures alone */
    assert_int_equal(tmc_pool_unit_cards(f), 8);
    f->per_card_mtbf_days = 300; /* and card failures: mixed */
    assert_int_equal(tmc_pool_unit_cards(f), 1);
    f->n_causes = 2; /* the card part's causes: a node's host, a hang */
    f->causes[0].scope = TMC_CAUSE_NODE;
    f->causes[0].takes_spare = 1;
    f->causes[1].scope = TMC_CAUSE_CARD;
    f->causes[1].takes_spare = 0;
    assert_int_equal(tmc_pool_unit_cards(f), 8);
    f->per_node_mtbf_days = 0; /* the node-scope cause alone */
    assert_int_equal(tmc_pool_unit_cards(f), 8);
    f->causes[1].takes_spare = 1; /* a card-scope cause that takes a spare */
    assert_int_equal(tmc_pool_unit_cards(f), 1);
    f->causes[0].takes_spare = f->causes[1].takes_spare = 0; /* none takes hardware */
    f->per_node_mtbf_days = 40;
    assert_int_equal(tmc_pool_unit_cards(f), 1);
    f->n_causes = 0;
    f->per_card_mtbf_days = 0;
    f->cards_per_node = 1; /* nodes of one card */
    assert_int_equal(tmc_pool_unit_cards(f), 1);
    f->cards_per_node = 8;
    f->enabled = 0;
    assert_int_equal(tmc_pool_unit_cards(f), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_nodes),
        cmocka_unit_test(test_outages_noticed),
        cmocka_unit_test(test_limit_saves),
        cmocka_unit_test(test_pool_unit_cards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
