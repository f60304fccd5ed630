/* node_mixture.h - bad nodes in a fault log (docs/fit.md 5): the faults
 * per node as a two-type Poisson mixture, good nodes at rate lambda_g and a
 * share p of bad ones at lambda_b > lambda_g, over the same exposure T:
 *   P(c) = (1 - p) Pois(c; lambda_g T) + p Pois(c; lambda_b T),
 * fitted by maximum likelihood with the EM algorithm (Dempster, Laird and
 * Rubin 1977, J. R. Stat. Soc. B 39:1; McLachlan and Peel, "Finite Mixture
 * Models", Wiley 2000, 1.5), whose steps are closed forms for Poisson
 * components. The test against one Poisson rate is the likelihood ratio
 * LR = 2 (l_mix - l_one), whose null law is not chi-square (p = 0 lies on
 * the boundary): its p-value is a parametric bootstrap (McLachlan 1987,
 * Appl. Stat. 36:318), LR refitted on counts drawn from the one-rate fit.
 * An experiment takes the result as failures.bad_node_share = p and
 * bad_node_mtbf_days = 1 / (lambda_b - lambda_g) on top of a node MTBF of
 * 1 / lambda_g (docs/model.md 3.19). */
#ifndef TMC_NODE_MIXTURE_H
#define TMC_NODE_MIXTURE_H

typedef struct {
    double share;          /* p: the share of bad nodes */
    double good_per_day;   /* lambda_g, faults per node-day */
    double bad_per_day;    /* lambda_b, faults per node-day */
    double loglik, loglik_one; /* at the mixture's and the one rate's maximum */
    double lr;             /* 2 (loglik - loglik_one) */
    double p;              /* bootstrap p-value of lr (NAN without bootstrap) */
    int bootstrap;         /* sets drawn for p */
    int iterations;        /* EM steps of the fit */
} tmc_node_mixture;

/* Fit counts[n] (faults per node, each over exposure_days) and, with
 * bootstrap > 0, draw that many sets from the one-rate fit (seed `seed`) for
 * p. Returns 0, or -1 when no mixture can be fitted (n < 2, no fault, or
 * exposure_days not > 0); then *out holds NANs. */
int tmc_node_mixture_fit(const long *counts, int n, double exposure_days, int bootstrap,
                         unsigned long seed, tmc_node_mixture *out);

#endif
