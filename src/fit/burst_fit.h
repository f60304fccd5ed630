/* burst_fit.h - bursts in a fault log (issue 36 part 1; docs/fit.md 5):
 * the groups of faults on different nodes that start together, as the
 * experiment's failures.burst_* read them (docs/model.md 3.24).
 *
 * A group is a chain of fault starts each within w of the previous one
 * (the simultaneous test's, dispersion.h) that involves at least 2
 * distinct nodes; its size is its distinct nodes. Each group is one burst;
 * its faults are counted there and not again as single-node faults. */
#ifndef TMC_BURST_FIT_H
#define TMC_BURST_FIT_H

#include "experiment.h"
#include "fault_log.h"

typedef struct {
    int groups;            /* bursts found */
    long grouped_faults;   /* the faults inside them */
    long singles;          /* the other faults: n_faults - grouped_faults */
    double sizes[TMC_MAX_BURST_NODES]; /* sizes[k - 1]: bursts of k nodes (the last
                                          also counts larger ones) */
    int n_sizes;           /* the largest size seen, capped at TMC_MAX_BURST_NODES */
    int largest;           /* the most distinct nodes in one group */
    double largest_at_days; /* the first start of the (first) largest group */
    double rate, lo, hi;   /* bursts per node-day up, with its Garwood interval */
    double single_rate, single_lo, single_hi; /* single-node faults per node-day up */
    char *in_group;        /* in_group[i]: fault i is part of a burst (n_faults, malloc'd) */
} tmc_burst_fit;

/* Find the bursts of `log` (sorted by start) within window_days, rates
 * over up_node_days of exposure at `confidence`. 0, or -1 with err (window
 * not > 0, no exposure, out of memory). Free with tmc_burst_fit_free. */
int tmc_burst_fit_compute(const tmc_fault_log *log, double window_days, double up_node_days,
                          double confidence, tmc_burst_fit *out, tmc_error *err);

void tmc_burst_fit_free(tmc_burst_fit *b);

#endif
