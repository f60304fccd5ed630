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
 * history through the pool (retirement after k faults, a repair that
 * fails silently) and what takes loose cards (warm standby cards) is
 * refused beside it, each with its reason. */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"

/* A refusal of bad nodes, named by the key that makes them: the share, or
 * aging when it alone does. */
static int refuse(tmc_error *err, const char *label, const tmc_failures *f, const char *why)
{
    if (f->bad_node_share > 0)
        return tmc_error_set(err, "%s: failures.bad_node_share: %.10g: %s", label,
                             f->bad_node_share, why);
    return tmc_error_set(err, "%s: failures.node_aging_days: %.10g (aging makes bad nodes): "
                              "%s", label, f->node_aging_days, why);
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
                            "retirement would follow each node's faults through the pool "
                            "and repair; leave it 0");
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
    if (f->bad_node_share == 0 && !(f->node_aging_days > 0)) /* the other keys have no */
        return 0; /* effect: a sweep of the share may start from none (aging makes bad nodes) */
    if (f->bad_node_mtbf_days == 0)
        return tmc_error_set(err, "%s: failures.bad_node_mtbf_days: missing required key (%s, "
                                  "a bad node's extra MTBF in days; required with "
                                  "failures.bad_node_share or node_aging_days)",
                             label, tmc_cfg_range_of("failures", "bad_node_mtbf_days").s);
    if (f->cards_per_node == 0)
        return tmc_error_set(err, "%s: failures.cards_per_node: missing required key (%s, "
                                  "the cards of a node; required with "
                                  "failures.bad_node_share or node_aging_days)",
                             label, tmc_cfg_range_of("failures", "cards_per_node").s);
    if (!tmc_laws_lifetime_memoryless(f->distribution) || f->renewal == TMC_RENEWAL_JOB)
        return refuse(err, label, f, "bad nodes need exponential lifetimes renewed per card "
                                  "(distribution \"exponential\", renewal \"card\"), so that "
                                  "the job's failures are one Poisson process");
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
