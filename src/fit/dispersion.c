/* dispersion.c - overdispersion and simultaneous faults (dispersion.h). */
#include "dispersion.h"
#include "laws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

int tmc_dispersion_compute_index(const long *counts, int n, tmc_dispersion *out,
                                 tmc_error *err)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n < 2)
        return tmc_error_set(err, "%d count%s: a dispersion index needs at least 2", n,
                             n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        out->total += counts[i];
        if (counts[i] > out->max)
            out->max = counts[i], out->argmax = i;
    }
    if (out->total == 0)
        return tmc_error_set(err, "every count is 0: no dispersion index");
    out->mean = (double)out->total / n;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (counts[i] - out->mean) * (counts[i] - out->mean);
    out->var = ss / (n - 1);
    out->index = out->var / out->mean;
    out->chi2 = ss / out->mean;
    out->p = gsl_cdf_chisq_Q(out->chi2, n - 1.0);
    double below = out->max > 0 ? gsl_cdf_poisson_P((unsigned)(out->max - 1), out->mean) : 0;
    out->p_max = -expm1(n * log(below));
    return 0;
}

void tmc_dispersion_count_nodes(const tmc_fault_log *log, int n_nodes, long *counts)
{
    memset(counts, 0, sizeof *counts * (size_t)n_nodes);
    for (int i = 0; i < log->n_faults; i++)
        if (log->faults[i].node < n_nodes)
            counts[log->faults[i].node]++;
}

int tmc_dispersion_count_windows(const tmc_fault_log *log, double span_days,
                                 double window_days, long **counts, tmc_error *err)
{
    *counts = NULL;
    if (!(window_days > 0) || !(span_days >= window_days))
        return tmc_error_set(err, "a window of %g days does not fit in the span of %g days",
                             window_days, span_days);
    double nw = floor(span_days / window_days);
    char count[TMC_ERROR_NUMBER_CHARS];
    if (nw > 1e7)
        return tmc_error_set(err, "%s windows of %g days in the span of %.6g days; at most "
                             "1e7 (a window of at least %.3g days)",
                             tmc_error_format_whole(count, nw), window_days, span_days,
                             span_days / 1e7);
    int n = (int)nw;
    *counts = calloc((size_t)n, sizeof **counts);
    if (!*counts)
        return tmc_error_set(err, "out of memory");
    for (int i = 0; i < log->n_faults; i++) {
        double j = floor(log->faults[i].start_days / window_days);
        if (j >= 0 && j < n)
            (*counts)[(int)j]++;
    }
    return n;
}

int tmc_dispersion_count_simultaneous(const tmc_fault_log *log, double span_days,
                                      double window_days, tmc_simultaneous *out,
                                      tmc_error *err)
{
    memset(out, 0, sizeof *out);
    out->window_days = window_days;
    if (!(window_days > 0) || !(span_days > 0))
        return tmc_error_set(err, "window %g days, span %g days: both must be > 0",
                             window_days, span_days);
    long *per_node = calloc((size_t)log->n_nodes + 1, sizeof *per_node);
    int *seen = calloc((size_t)log->n_nodes + 1, sizeof *seen);
    if (!per_node || !seen) {
        free(per_node);
        free(seen);
        return tmc_error_set(err, "out of memory");
    }
    const tmc_fault *f = log->faults; /* sorted by start */
    int n = log->n_faults;
    /* pairs (i, j > i) within w on different nodes: the window (i, hi) of
     * starts within w after i, less its faults on i's node, counted per node
     * as the window slides (O(n), not O(n x faults per window): 200 a window
     * on 10M rows). seen counts the window's faults per node here. */
    for (int i = 0, hi = 0; i < n; i++) {
        per_node[f[i].node]++;
        if (hi > i)
            seen[f[i].node]--; /* i leaves the window it was in */
        else
            hi = i + 1;
        for (; hi < n && f[hi].start_days - f[i].start_days <= window_days; hi++)
            seen[f[hi].node]++;
        out->pairs += (long)(hi - i - 1) - seen[f[i].node];
    }
    double sum = 0, sum_sq = 0;
    for (int a = 0; a < log->n_nodes; a++)
        sum += per_node[a], sum_sq += (double)per_node[a] * per_node[a];
    double q = window_days / span_days, prob = q < 1 ? 2 * q - q * q : 1;
    out->expected = prob * 0.5 * (sum * sum - sum_sq);
    out->ratio = out->expected > 0 ? out->pairs / out->expected : NAN;
    out->p = out->pairs > 0 ? tmc_laws_poisson_over((unsigned)(out->pairs - 1), out->expected) : 1;
    free(per_node);
    free(seen);
    return 0;
}
