/* stats.h - statistics of a run's completion times (GSL underneath). */
#ifndef TMC_STATS_H
#define TMC_STATS_H

#define TMC_STATS_BINS 20
#define TMC_STATS_NQ 5

/* Quantile levels reported: 1, 5, 50, 95, 99 %. */
extern const double tmc_stats_levels[TMC_STATS_NQ];

typedef struct {
    long n;                       /* replicas */
    double mean, sd, se;          /* sample mean, sd (n - 1), sd / sqrt(n) */
    double min, max;
    double quantile[TMC_STATS_NQ]; /* at tmc_stats_levels, as gsl_stats_quantile_from_sorted_data */
    long met;                     /* replicas with value <= threshold */
    double p_met;                 /* met / n */
    double ci_lo, ci_hi;          /* Wilson 95 % interval of p_met */
    double bin_lo[TMC_STATS_BINS + 1]; /* histogram edges, uniform over [min, max] */
    long bin_count[TMC_STATS_BINS];
} tmc_summary;

/* Summarise x[n] (n >= 1, any unit, no NaN) against `threshold` (same
 * unit): P(x <= threshold). The quantiles are found by selection on a copy
 * (x is left as it is). Returns 0, or -1 if memory for the copy runs out. */
int tmc_stats_summarize(const double *x, long n, double threshold, tmc_summary *out);

/* Wilson score interval (E. B. Wilson, JASA 22, 1927) for k successes in n
 * trials at confidence `conf` (e.g. 0.95); z from gsl_cdf_ugaussian_Pinv. */
void tmc_stats_wilson(long k, long n, double conf, double *lo, double *hi);

#endif
