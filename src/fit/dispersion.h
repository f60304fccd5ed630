/* dispersion.h - what a fault log says against the Poisson assumption
 * (docs/fit.md 5): the dispersion of counts per node and per time window,
 * and faults that start on several nodes at once. */
#ifndef TMC_DISPERSION_H
#define TMC_DISPERSION_H

#include "error.h"
#include "fault_log.h"

/* Counts against a Poisson law with one mean (Fisher's index of
 * dispersion; Cochran 1954, Biometrics 10:417): D = s^2 / mean (s^2 with
 * n - 1), chi2 = sum (c - mean)^2 / mean = (n - 1) D on n - 1 degrees of
 * freedom, p = P(chi-square > chi2) (gsl_cdf_chisq_Q): D > 1 with small p
 * means overdispersion. max: the largest count (first index argmax), and
 * p_max = 1 - P(X <= max - 1)^n, X Poisson(mean): the chance that any of n
 * Poisson counts reaches it. */
typedef struct {
    int n;           /* counts */
    long total;
    double mean, var, index, chi2, p;
    long max;
    int argmax;
    double p_max;
} tmc_dispersion;

/* 0, or -1 with err (n < 2, or all counts 0). */
int tmc_dispersion_compute_index(const long *counts, int n, tmc_dispersion *out,
                                 tmc_error *err);

/* Faults per node over n_nodes nodes (the log's first, then zeros for the
 * nodes that never failed); counts: n_nodes longs. */
void tmc_dispersion_count_nodes(const tmc_fault_log *log, int n_nodes, long *counts);

/* Fault starts per window [j w, (j+1) w) of the n = floor(span / w) whole
 * windows (the rest of the span is left out); counts: n longs (malloc'd).
 * Returns n, or -1 with err (no whole window, or out of memory). */
int tmc_dispersion_count_windows(const tmc_fault_log *log, double span_days,
                                 double window_days, long **counts, tmc_error *err);

/* Simultaneous faults: pairs of fault starts on different nodes at most
 * window_days apart, against the number expected if the nodes failed
 * independently with their own counts at uniform times over the span:
 *   expected = (2 w / S - (w / S)^2) * sum_{a < b} n_a n_b
 * (two independent uniform times on [0, S] fall within w with that
 * probability). p = P(X >= pairs), X Poisson(expected) (gsl_cdf_poisson_Q;
 * an approximation: the pairs are rare but not independent). The groups
 * such pairs form are burst_fit.h's. */
typedef struct {
    double window_days;
    long pairs;
    double expected, ratio, p;
} tmc_simultaneous;

/* 0, or -1 with err (window or span not > 0, out of memory). */
int tmc_dispersion_count_simultaneous(const tmc_fault_log *log, double span_days,
                                      double window_days, tmc_simultaneous *out,
                                      tmc_error *err);

#endif
