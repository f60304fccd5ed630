/* stats.c - mean, sd, quantiles, Wilson interval, histogram. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_statistics_double.h>

const double tmc_stats_levels[TMC_STATS_NQ] = {0.01, 0.05, 0.50, 0.95, 0.99};

void tmc_stats_wilson(long k, long n, double conf, double *lo, double *hi)
{
    double z = gsl_cdf_ugaussian_Pinv(1 - (1 - conf) / 2);
    double p = (double)k / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    *lo = fmax(0, centre - half);
    *hi = fmin(1, centre + half);
}

static void histogram(const double *x, long n, tmc_summary *out)
{
    double lo = out->min, hi = out->max;
    if (hi <= lo)
        hi = lo + fmax(fabs(lo) * 1e-9, 1e-12);
    /* gsl bins are [lo, hi): nudge hi so the maximum lands in the last bin */
    hi = nextafter(hi, INFINITY);
    gsl_histogram *h = gsl_histogram_alloc(TMC_STATS_BINS);
    gsl_histogram_set_ranges_uniform(h, lo, hi);
    for (long i = 0; i < n; i++)
        gsl_histogram_increment(h, x[i]);
    for (size_t b = 0; b <= TMC_STATS_BINS; b++)
        out->bin_lo[b] = h->range[b];
    for (size_t b = 0; b < TMC_STATS_BINS; b++)
        out->bin_count[b] = (long)gsl_histogram_get(h, b);
    gsl_histogram_free(h);
}

/* gsl_stats_quantile_from_sorted_data's value at level f, from the two
 * order statistics it interpolates, each found by GSL's selection (O(n);
 * a heapsort of 10^6 completion times took 0.22 s of a run's serial tail,
 * ten selections 0.05 s). x is reordered (a scratch copy). */
static double quantile(double *x, long n, double f)
{
    double index = f * (double)(n - 1);
    size_t lhs = (size_t)index;
    double delta = index - (double)lhs;
    double a = gsl_stats_select(x, 1, (size_t)n, lhs);
    if (lhs == (size_t)n - 1)
        return a;
    return (1 - delta) * a + delta * gsl_stats_select(x, 1, (size_t)n, lhs + 1);
}

int tmc_stats_summarize(const double *x, long n, double threshold, tmc_summary *out)
{
    double *scratch = malloc((size_t)n * sizeof *scratch);
    if (!scratch)
        return -1;
    out->n = n;
    out->mean = gsl_stats_mean(x, 1, (size_t)n);
    out->sd = n > 1 ? gsl_stats_sd_m(x, 1, (size_t)n, out->mean) : 0;
    out->se = out->sd / sqrt((double)n);
    gsl_stats_minmax(&out->min, &out->max, x, 1, (size_t)n);
    long met = 0;
    for (long i = 0; i < n; i++)
        met += x[i] <= threshold;
    out->met = met;
    out->p_met = (double)met / n;
    tmc_stats_wilson(met, n, 0.95, &out->ci_lo, &out->ci_hi);
    histogram(x, n, out);
    memcpy(scratch, x, (size_t)n * sizeof *scratch);
    for (int i = 0; i < TMC_STATS_NQ; i++)
        out->quantile[i] = quantile(scratch, n, tmc_stats_levels[i]);
    free(scratch);
    return 0;
}
