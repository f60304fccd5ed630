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
 * from none. */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"

static int refuse(tmc_error *err, const char *label, const char *why)
{
    return tmc_error_set(err, "%s: failures.bad_node_share: %s", label, why);
}

int tmc_cfg_check_bad_nodes(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        return 0;
    if (f->bad_node_share == 0) /* the other two keys have no effect: a sweep of */
        return 0;                  /* the share may start from none */
    if (f->bad_node_mtbf_days == 0)
        return tmc_error_set(err, "%s: failures.bad_node_mtbf_days: missing required key (%s, "
                                  "a bad node's extra MTBF in days; required with "
                                  "failures.bad_node_share)",
                             label, tmc_cfg_range_of("failures", "bad_node_mtbf_days").s);
    if (f->cards_per_node == 0)
        return tmc_error_set(err, "%s: failures.cards_per_node: missing required key (%s, "
                                  "the cards of a node; required with "
                                  "failures.bad_node_share)",
                             label, tmc_cfg_range_of("failures", "cards_per_node").s);
    if (!tmc_laws_lifetime_memoryless(f->distribution) || f->renewal == TMC_RENEWAL_JOB)
        return refuse(err, label, "bad nodes need exponential lifetimes renewed per card "
                                  "(distribution \"exponential\", renewal \"card\"), so that "
                                  "the job's failures are one Poisson process");
    if (x->observed.enabled)
        return refuse(err, label, "a forecast (progress) cannot tell which of the nodes held "
                                  "are bad nor how often each has failed; leave bad nodes "
                                  "out of a forecast (a file of `trainmc fit --write` holds "
                                  "them when two rates fit its log better: for one rate, "
                                  "bad_node_share 0 and per_node_mtbf_days the node MTBF "
                                  "its description gives)");
    if (x->elastic.enabled)
        return refuse(err, label, "elastic groups lose a group, not a node; leave one of "
                                  "them out");
    return 0;
}
