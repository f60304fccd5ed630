/* config_bad_nodes.c - the checks of failures.bad_node_* (issue 19): bad
 * nodes are nodes of g = cards_per_node cards that fail at an extra rate,
 * drawn per replica and retired after k faults (failures.h).
 *
 * Invariants: with bad_node_share > 0 the experiment has exponential
 * lifetimes (the job's failures stay one Poisson process whose rate changes
 * only at a retirement), a node size and a bad node's MTBF; no forecast
 * (which cannot say which of the nodes held are bad) and no elastic groups
 * (whose failures take a group, not a node). At share 0 the other two keys
 * have no effect and are accepted, so that a sweep of the share can start
 * from none.
 *
 * Placement "fleet" (issue 36 part 3): bad nodes move between the job, the
 * pool and repair as whole nodes, so every failure that takes spares takes
 * a whole node from a finite pool of whole nodes. What follows a node's own
 * history through the pool as a count of bad faults (bad_node_retire_after;
 * the fleet's own is retire_after_failures, node_history.h), a repair that
 * fails silently, and what takes loose cards (warm standby cards) are
 * refused beside it, each with its reason. A fleet of good nodes is one
 * with retirement and no bad nodes. */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"

/* A refusal of bad nodes, named by the key that makes them: the share,
 * aging when it alone does, or retirement or a reserve for a fleet of good
 * nodes. */
static int refuse(tmc_error *err, const char *label, const tmc_failures *f, const char *why)
{
    if (f->bad_node_share > 0)
        return tmc_error_set(err, "%s: failures.bad_node_share: %.10g: %s", label,
                             f->bad_node_share, why);
    if (f->node_aging_days > 0)
        return tmc_error_set(err, "%s: failures.node_aging_days: %.10g (aging makes bad "
                                  "nodes): %s", label, f->node_aging_days, why);
    if (f->retire_after_failures > 0)
        return tmc_error_set(err, "%s: failures.retire_after_failures: %ld (a fleet whose "
                                  "nodes carry their failures): %s", label,
                             f->retire_after_failures, why);
    return tmc_error_set(err, "%s: failures.reserve_nodes: %ld (a fleet of whole nodes): %s",
                         label, f->reserve_nodes, why);
}

/* The fleet's own keys (issue 36 part 3): retirement after k failures
 * within w days follows each node through repair and the pool; the pool's
 * order and a reserve of nodes exist only there. */
static int check_fleet_keys(const tmc_failures *f, const char *label, tmc_error *err)
{
    if (f->retire_window_days > 0 && f->retire_after_failures == 0)
        return tmc_error_set(err, "%s: failures.retire_window_days: %.10g, but "
                                  "retire_after_failures is 0 (never retired): give the "
                                  "failures k that retire a node within it, or leave it out",
                             label, f->retire_window_days);
    if (f->spare_order == TMC_SPARE_FIFO && f->bad_node_placement != TMC_BAD_IN_FLEET)
        return tmc_error_set(err, "%s: failures.spare_order: \"fifo\", but the pool's order "
                                  "is followed only in a fleet; give bad_node_placement "
                                  "\"fleet\", or spare_order \"random\"", label);
    if (f->spare_order == TMC_SPARE_FIFO && f->bad_node_known)
        return tmc_error_set(err, "%s: failures.spare_order: \"fifo\", but "
                                  "failures.bad_node_known true takes good nodes first, "
                                  "whatever the order; give one of them", label);
    if (f->reserve_nodes > 0 && f->bad_node_placement != TMC_BAD_IN_FLEET)
        return tmc_error_set(err, "%s: failures.reserve_nodes: %ld, but a reserve of whole "
                                  "nodes is drawn only in a fleet; give bad_node_placement "
                                  "\"fleet\", or 0", label, f->reserve_nodes);
    if (f->reserve_nodes > 0 && f->bad_node_known)
        return tmc_error_set(err, "%s: failures.reserve_nodes: %ld, but failures.bad_node_known "
                                  "true takes good nodes first, which a reserve fetched in "
                                  "its own order cannot; give one of them",
                             label, f->reserve_nodes);
    if (f->retire_after_failures > 0 && f->bad_node_placement != TMC_BAD_IN_FLEET)
        return tmc_error_set(err, "%s: failures.retire_after_failures: %ld, but a node's "
                                  "failures are followed through repair and the pool only "
                                  "in a fleet; give bad_node_placement \"fleet\" (with "
                                  "bad_node_share 0 for a fleet of good nodes), or for bad "
                                  "nodes that stay in the job bad_node_retire_after",
                             label, f->retire_after_failures);
    return 0;
}

static int refuse_fleet(tmc_error *err, const char *label, const char *key, const char *why)
{
    return tmc_error_set(err, "%s: failures.%s: refused with failures.bad_node_placement "
                              "\"fleet\" (bad nodes that move between the job, the pool "
                              "and repair as whole nodes): %s", label, key, why);
}

/* 1 when some failure of the per-card part takes a single card to repair:
 * a card carries no node's cohort. */
static int card_takes_card(const tmc_failures *f)
{
    if (!(f->per_card_mtbf_days > 0))
        return 0;
    if (f->n_causes == 0)
        return 1;
    for (int i = 0; i < f->n_causes; i++) {
        const tmc_failure_cause *c = &f->causes[i];
        if (c->part_share[TMC_PART_CARD] > 0 && c->takes_spare && c->scope == TMC_CAUSE_CARD)
            return 1;
    }
    return 0;
}

static int check_fleet(const tmc_failures *f, const char *label, tmc_error *err)
{
    long g = f->cards_per_node;
    if (f->spares < 0 || f->spares % g != 0)
        return tmc_error_set(err, "%s: failures.spares: %ld; with failures.bad_node_placement "
                                  "\"fleet\" the pool is whole nodes: a multiple of "
                                  "cards_per_node (%ld) >= 0, not unlimited (-1)",
                             label, f->spares, g);
    if (card_takes_card(f))
        return refuse_fleet(err, label, "per_card_mtbf_days",
                            "a card failure takes one card to repair, and a card carries "
                            "no node's kind; give the per-card part's "
                            "causes scope \"node\" or takes_spare false, or the rate as "
                            "per_node_mtbf_days");
    if (f->bad_node_retire_after > 0)
        return refuse_fleet(err, label, "bad_node_retire_after",
                            "it counts a bad node's faults in the job; in a fleet give "
                            "retire_after_failures (and retire_window_days), which "
                            "follow every node's failures, or leave it 0");
    if (f->repair_fail_share > 0)
        return refuse_fleet(err, label, "repair_fail_share",
                            "a node would carry its kind and a failed repair at once; "
                            "leave it 0");
    if (f->standbys > 0)
        return refuse_fleet(err, label, "standbys",
                            "warm standbys are cards, not nodes; leave them 0");
    return 0;
}

int tmc_cfg_check_bad_nodes(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        return 0;
    if (check_fleet_keys(f, label, err))
        return -1;
    int bad = f->bad_node_share > 0 || f->node_aging_days > 0; /* aging makes bad nodes */
    if (!bad && f->retire_after_failures == 0 && f->reserve_nodes == 0) /* the other keys */
        return 0; /* have no effect: a sweep of the share may start from none */
    if (bad && f->bad_node_mtbf_days == 0)
        return tmc_error_set(err, "%s: failures.bad_node_mtbf_days: missing required key (%s, "
                                  "a bad node's extra MTBF in days; required with "
                                  "failures.bad_node_share or node_aging_days)",
                             label, tmc_cfg_range_of("failures", "bad_node_mtbf_days").s);
    if (f->cards_per_node == 0)
        return tmc_error_set(err, "%s: failures.cards_per_node: missing required key (%s, "
                                  "the cards of a node; required with "
                                  "failures.bad_node_share, node_aging_days or "
                                  "retire_after_failures)",
                             label, tmc_cfg_range_of("failures", "cards_per_node").s);
    if (!tmc_laws_lifetime_memoryless(f->distribution) || f->renewal == TMC_RENEWAL_JOB)
        return refuse(err, label, f, "bad nodes need exponential lifetimes renewed per card "
                                  "(distribution \"exponential\", renewal \"card\"), so that "
                                  "the job's failures are one Poisson process");
    if (x->observed.enabled && !bad)
        return refuse(err, label, f, f->retire_after_failures > 0
                                         ? "a forecast (progress) cannot tell how often each "
                                           "node has failed; leave retirement out of a forecast"
                                         : "a forecast (progress) cannot tell how many of the "
                                           "reserve's nodes were fetched; leave the reserve "
                                           "out of a forecast");
    if (x->observed.enabled)
        return refuse(err, label, f, "a forecast (progress) cannot tell which of the nodes held "
                                  "are bad nor how often each has failed; leave bad nodes "
                                  "out of a forecast (a file of `trainmc fit --write` holds "
                                  "them when two rates fit its log better: for one rate, "
                                  "bad_node_share 0 and per_node_mtbf_days the node MTBF "
                                  "its description gives)");
    if (x->elastic.enabled)
        return refuse(err, label, f, "elastic groups lose a group, not a node; leave one of "
                                  "them out");
    if (f->bad_node_placement != TMC_BAD_IN_FLEET && f->bad_node_known)
        return tmc_error_set(err, "%s: failures.bad_node_known: true, but bad nodes in the "
                                  "job (failures.bad_node_placement \"job\", the default) are "
                                  "never taken from a pool; give bad_node_placement "
                                  "\"fleet\", or false", label);
    if (f->bad_node_placement != TMC_BAD_IN_FLEET && f->node_aging_days > 0)
        return tmc_error_set(err, "%s: failures.node_aging_days: %.10g, but aging turns nodes "
                                  "bad wherever they are, which needs bad nodes in the fleet; "
                                  "give bad_node_placement \"fleet\", or leave it out",
                             label, f->node_aging_days);
    if (f->bad_node_placement != TMC_BAD_IN_FLEET && f->misdiagnosis_share > 0)
        return tmc_error_set(err, "%s: failures.misdiagnosis_share: %.10g, but nodes that "
                                  "stay in the job (failures.bad_node_placement \"job\", the "
                                  "default) differ in nothing a wrong repair could move; give "
                                  "bad_node_placement \"fleet\", or 0",
                             label, f->misdiagnosis_share);
    if (f->bad_node_placement != TMC_BAD_IN_FLEET && f->bad_node_cure_share > 0)
        return tmc_error_set(err, "%s: failures.bad_node_cure_share: %.10g, but bad nodes in "
                                  "the job (failures.bad_node_placement \"job\", the default) "
                                  "are rebooted in place, never repaired; give "
                                  "bad_node_placement \"fleet\", or 0",
                             label, f->bad_node_cure_share);
    return f->bad_node_placement == TMC_BAD_IN_FLEET ? check_fleet(f, label, err) : 0;
}
