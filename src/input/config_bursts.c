/* config_bursts.c - the checks of failures.burst_* (issue 36 part 1):
 * bursts are failures that take k of the job's nodes at once, k drawn
 * from a size law (failures.h, docs/model.md 3.24).
 *
 * Invariants: with burst_per_node_mtbf_days > 0 the experiment has a node
 * size, exponential lifetimes renewed per card (the job's failures stay one
 * Poisson process of summed rate, whose part is drawn by rate), no replayed
 * trace (which holds every failure already) and no elastic groups (whose
 * failures take a group); the size law has its own key in range: an
 * integer for fixed, a mean above 2 for geometric (its support starts at
 * 2), a weight table for table and only then. Without bursts the size keys
 * have no effect and are accepted (as bad nodes' are at share 0), so that
 * `--set failures.burst_per_node_mtbf_days=null` turns bursts off. */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"

#include <math.h>

static int refuse(tmc_error *err, const char *label, const char *why)
{
    return tmc_error_set(err, "%s: failures.burst_per_node_mtbf_days: %s", label, why);
}

/* The size law's own key. */
static int check_size(const tmc_failures *f, const char *label, tmc_error *err)
{
    if (f->burst_size == TMC_BURST_TABLE && f->n_burst_weights == 0)
        return tmc_error_set(err, "%s: failures.burst_weights: missing required key (an "
                                  "array of 1 to %d weights, burst_weights[i] for bursts of "
                                  "i + 1 nodes; required with burst_size \"table\")",
                             label, TMC_MAX_BURST_NODES);
    if (f->burst_size != TMC_BURST_TABLE && f->n_burst_weights > 0)
        return tmc_error_set(err, "%s: failures.burst_weights: a table is read only with "
                                  "failures.burst_size \"table\" (here \"%s\"); set it, or "
                                  "leave the weights out", label,
                             f->burst_size == TMC_BURST_FIXED ? "fixed" : "geometric");
    if (f->burst_size == TMC_BURST_FIXED && f->burst_nodes != floor(f->burst_nodes))
        return tmc_error_set(err, "%s: failures.burst_nodes: %.10g is not an integer; a "
                                  "fixed burst takes whole nodes (a mean: burst_size "
                                  "\"geometric\")", label, f->burst_nodes);
    if (f->burst_size == TMC_BURST_GEOMETRIC && !(f->burst_nodes > 2))
        return tmc_error_set(err, "%s: failures.burst_nodes: %.10g is out of range for "
                                  "burst_size \"geometric\", whose sizes are 2, 3, ...; "
                                  "expected a mean in (2, 1e6]", label, f->burst_nodes);
    return 0;
}

int tmc_cfg_check_bursts(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        return 0;
    if (f->burst_per_node_mtbf_days == 0) /* the size keys have no effect: a */
        return 0;                             /* --set ...=null turns bursts off */
    if (f->cards_per_node == 0)
        return tmc_error_set(err, "%s: failures.cards_per_node: missing required key (%s, "
                                  "the cards of a node; required with "
                                  "failures.burst_per_node_mtbf_days)",
                             label, tmc_cfg_range_of("failures", "cards_per_node").s);
    if (tmc_failures_replayed(f))
        return refuse(err, label, "a replayed trace holds the job's every failure already; "
                                  "give rates or a trace, not both");
    if (!tmc_laws_lifetime_memoryless(f->distribution) || f->renewal == TMC_RENEWAL_JOB)
        return refuse(err, label, "bursts need exponential lifetimes renewed per card "
                                  "(distribution \"exponential\", renewal \"card\"), so that "
                                  "the job's failures are one Poisson process");
    if (x->elastic.enabled)
        return refuse(err, label, "elastic groups lose a group, not nodes; leave one of "
                                  "them out");
    return check_size(f, label, err);
}
