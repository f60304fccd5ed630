/* renewal.h - the renewal function of the job's failures, for job renewal
 * timed at the failure (failures.renewal_at "failure"). */
#ifndef TMC_RENEWAL_H
#define TMC_RENEWAL_H

#include "laws.h"

/* A renewal process whose gaps are the minimum of n lifetimes of a law,
 * begun at 0: its forward time at d, the mean time from d to its first
 * renewal after d, E[S_(N(d)+1)] - d = mu (1 + m(d)) - d by Wald's
 * identity (mu the gap's mean, m(d) the renewal function: the mean number
 * of renewals in (0, d]), tabulated for d in [0, t_max]. m solves
 * m(t) = F(t) + the integral of m(t - x) dF(x) over (0, t], solved on the
 * grid by the trapezoid rule (error O(h^2)): TMC_RENEWAL_GRID steps, or
 * TMC_RENEWAL_PER_GAP per mean gap up to TMC_RENEWAL_GRID_MAX (O(k^2)
 * work). Sources: W. Feller, An Introduction to Probability Theory and Its
 * Applications, vol. 2, XI.1 (the renewal equation); S. M. Ross, Stochastic
 * Processes, 2nd ed., 3.3 (Wald's identity) and 3.4 (the forward time's
 * limit E[X^2] / (2 E[X])). */
typedef struct {
    double mu;    /* the mean gap, s */
    double h;     /* the grid's step, s (0: t_max was 0) */
    int k;        /* grid steps */
    double *fwd;  /* k + 1 forward times, s */
} tmc_renewal_table;

/* Builds the table for gaps the minimum of n lifetimes of `life` (of type
 * `law`, which needs cdf and min_mean), up to t_max s. Returns 0, or -1
 * (NAN-free table not built: no cdf, a failed mean, or no memory). */
int tmc_renewal_build(tmc_renewal_table *t, const tmc_law_type *law, const tmc_law *life,
                      double n, double t_max);

/* The forward time at d, s: linear between grid points; d <= 0 gives mu,
 * d past t_max the value at t_max (the caller's t_max covers its d). */
double tmc_renewal_forward_at(const tmc_renewal_table *t, double d);

/* Its mean over d = shift + X, X of `law` (prepared as `l`): the midpoint
 * rule over TMC_RENEWAL_QUANTILES quantiles, or at X's mean for a law with
 * no quantile (fixed). The largest d it reads is tmc_renewal_reach. */
double tmc_renewal_forward_mean(const tmc_renewal_table *t, const tmc_law_type *law,
                                const tmc_law *l, double shift);
double tmc_renewal_reach(const tmc_law_type *law, const tmc_law *l, double shift);

void tmc_renewal_free(tmc_renewal_table *t);

#define TMC_RENEWAL_GRID 512
#define TMC_RENEWAL_PER_GAP 64
#define TMC_RENEWAL_GRID_MAX 8192
#define TMC_RENEWAL_QUANTILES 256

#endif
