/* burst_fit.c - bursts in a fault log (burst_fit.h). */
#include "burst_fit.h"

#include <stdlib.h>
#include <string.h>

#include "poisson_ci.h"

/* The distinct nodes among faults i .. j - 1, stamping seen[] with `stamp`. */
static int distinct_nodes(const tmc_fault *f, int i, int j, int *seen, int stamp)
{
    int distinct = 0;
    for (int k = i; k < j; k++)
        if (seen[f[k].node] != stamp)
            seen[f[k].node] = stamp, distinct++;
    return distinct;
}

int tmc_burst_fit_compute(const tmc_fault_log *log, double window_days, double up_node_days,
                          double confidence, tmc_burst_fit *out, tmc_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(window_days > 0) || !(up_node_days > 0))
        return tmc_error_set(err, "bursts: window %g days, exposure %g node-days: both must "
                                  "be > 0", window_days, up_node_days);
    int n = log->n_faults;
    int *seen = calloc((size_t)log->n_nodes + 1, sizeof *seen);
    out->in_group = calloc((size_t)n + 1, 1);
    if (!seen || !out->in_group) {
        free(seen);
        tmc_burst_fit_free(out);
        return tmc_error_set(err, "out of memory");
    }
    const tmc_fault *f = log->faults;
    for (int i = 0, stamp = 1; i < n; stamp++) {
        int j = i + 1;
        while (j < n && f[j].start_days - f[j - 1].start_days <= window_days)
            j++;
        int k = distinct_nodes(f, i, j, seen, stamp);
        if (k >= 2) {
            out->groups++;
            out->grouped_faults += j - i;
            int at = k < TMC_MAX_BURST_NODES ? k : TMC_MAX_BURST_NODES;
            out->sizes[at - 1]++;
            out->n_sizes = at > out->n_sizes ? at : out->n_sizes;
            memset(out->in_group + i, 1, (size_t)(j - i));
            if (k > out->largest)
                out->largest = k, out->largest_at_days = f[i].start_days;
        }
        i = j;
    }
    free(seen);
    out->singles = n - out->grouped_faults;
    tmc_poisson_ci_rate(out->groups, up_node_days, confidence, &out->rate, &out->lo, &out->hi);
    tmc_poisson_ci_rate(out->singles, up_node_days, confidence, &out->single_rate,
                        &out->single_lo, &out->single_hi);
    return 0;
}

void tmc_burst_fit_free(tmc_burst_fit *b)
{
    free(b->in_group);
    b->in_group = NULL;
}
