/* poisson_ci.h - the exact (Garwood) confidence interval of a Poisson mean,
 * and of a rate per unit of exposure (docs/fit.md 2). */
#ifndef TMC_POISSON_CI_H
#define TMC_POISSON_CI_H

/* The two-sided exact interval of a Poisson mean from n observed events
 * (Garwood 1936, Biometrika 28:437): lower = chi2_quantile(a/2, 2n) / 2
 * (0 for n = 0), upper = chi2_quantile(1 - a/2, 2n + 2) / 2, a = 1 -
 * confidence; quantiles by tmc_law_gamma_quantile (GSL's chi-square inverse
 * fails above about 16,000 events). Events, unitless; divide by
 * the exposure for a rate (tmc_poisson_ci_rate). Returns 0, or -1 (lo, hi
 * set to NAN) for n < 0 or confidence outside (0, 1). */
int tmc_poisson_ci_compute(long n, double confidence, double *lo, double *hi);

/* A rate: n events over `exposure` (any unit, > 0): *rate = n / exposure
 * and its Garwood interval in events per that unit. 0, or -1 (all NAN) for
 * a bad n, confidence or exposure. */
int tmc_poisson_ci_rate(long n, double exposure, double confidence, double *rate, double *lo,
                        double *hi);

#endif
