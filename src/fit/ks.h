/* ks.h - the one-sample Kolmogorov-Smirnov statistic and its p-value
 * (docs/fit.md 4). */
#ifndef TMC_KS_H
#define TMC_KS_H

/* D = sup_x |F_n(x) - F(x)| of the n values x (sorted ascending), ties
 * handled (the empirical CDF jumps once per distinct value): the maximum of
 * F(v) - F_n(v-) and F_n(v) - F(v) over distinct values v. cdf(x, ctx) is
 * the law's CDF. Unitless in [0, 1]; NAN for n < 1. */
double tmc_ks_compute_statistic(const double *sorted, int n, double (*cdf)(double, void *),
                                void *ctx);

/* Kolmogorov's limiting distribution: Q(x) = P(sqrt(n) D > x) as n -> inf
 * = 2 sum_{j>=1} (-1)^{j-1} exp(-2 j^2 x^2) (Kolmogorov 1933), for x < 1.18
 * from 1 - sqrt(2 pi)/x sum_{j>=1} exp(-(2j-1)^2 pi^2 / (8 x^2)), the
 * same function by Jacobi's theta identity, which converges there
 * (Marsaglia, Tsang and Wang 2003, J. Stat. Softw. 8(18), eq. (2)).
 * 1 for x <= 0. */
double tmc_ks_kolmogorov_q(double x);

/* The p-value of D from n values: Q((sqrt(n) + 0.12 + 0.11 / sqrt(n)) D)
 * (Stephens 1970, JRSS B 32:115, the finite-n correction; Numerical
 * Recipes 3rd ed. 14.3.3). For a law whose parameters were fitted to the
 * same values the p-value is too large (conservative; Lilliefors 1967).
 * NAN for n < 1. */
double tmc_ks_pvalue(double d, int n);

#endif
