/* lifetime_fit.h - the lifetime law of a node from its fault log:
 * exponential against Weibull by maximum likelihood with right-censoring,
 * and the likelihood-ratio test of Weibull shape = 1 (docs/fit.md 3). */
#ifndef TMC_LIFETIME_FIT_H
#define TMC_LIFETIME_FIT_H

#include "error.h"
#include "fault_log.h"

/* A node's up times, days: from the start of the observation (time 0) or
 * the end of its previous repair to its next fault (observed), and from its
 * last repair to the end of the span (right-censored); every node of the
 * exposure that never failed is censored for the whole span. A fault that
 * starts while its node is still down from another (or the instant that
 * one ends) has no up time before it: counted in n_overlapping and left
 * out. A fault never repaired keeps its node down to the end. */
typedef struct {
    double *obs, *cens; /* malloc'd; cens holds only the positive times */
    int n_obs, n_cens;
    int n_overlapping;
    double exposure_days; /* sum of obs and cens */
} tmc_lifetime_sample;

/* Build the sample of log over n_nodes nodes (>= log->n_nodes) watched from
 * 0 to span_days (>= every fault start). 0, or -1 with err. */
int tmc_lifetime_collect_intervals(const tmc_fault_log *log, int n_nodes, double span_days,
                                   tmc_lifetime_sample *s, tmc_error *err);

void tmc_lifetime_sample_free(tmc_lifetime_sample *s);

/* A Weibull fit: F(t) = 1 - exp(-(t/scale)^shape). */
typedef struct {
    double shape;    /* k */
    double scale;    /* lambda, in the unit of the times */
    double shape_se; /* from the observed information matrix (Lawless 2003, 5.2.2) */
    double mean;     /* lambda Gamma(1 + 1/k) */
    double loglik;   /* at the maximum, times in their own unit */
} tmc_weibull_fit;

/* Censored Weibull maximum likelihood (Lawless, Statistical Models and
 * Methods for Lifetime Data, 2nd ed. 2003, 5.2.2): the shape solves the
 * profile equation
 *   sum_all t^k ln t / sum_all t^k - 1/k - (1/r) sum_obs ln t = 0
 * (r observed, all = observed and censored; gsl_root_fsolver_brent on a
 * bracket, the left side increasing in k), then scale^k = sum_all t^k / r.
 * obs: n_obs > 0 observed times (> 0); cens: n_cens censoring times (> 0;
 * may be NULL with 0). 0, or -1 with err (fewer than 2 observed times, a
 * time <= 0, or times that fix no finite shape, e.g. all equal). */
int tmc_lifetime_fit_weibull(const double *obs, int n_obs, const double *cens, int n_cens,
                             tmc_weibull_fit *out, tmc_error *err);

/* Censored exponential maximum likelihood: rate = r / (total time), events
 * per unit of time, exactly; loglik = r ln(rate) - r. 0, or -1 with err
 * (no observed time, a negative time). */
int tmc_lifetime_fit_exponential(const double *obs, int n_obs, const double *cens,
                                 int n_cens, double *rate, double *loglik, tmc_error *err);

/* Both fits and the likelihood-ratio test of shape = 1 (the exponential is
 * the Weibull with k = 1): lr = 2 (loglik_weibull - loglik_exponential),
 * p = P(chi-square, 1 dof > lr) (Wilks 1938; gsl_cdf_chisq_Q). */
typedef struct {
    int n_events;
    double exposure;          /* sum of all times */
    double rate, rate_lo, rate_hi; /* exponential ML rate, Garwood interval */
    double exp_loglik;
    tmc_weibull_fit weibull;
    double lr, lr_p;
} tmc_lifetime_fit;

/* 0, or -1 with err (as tmc_lifetime_fit_weibull). */
int tmc_lifetime_fit_compare(const tmc_lifetime_sample *s, double confidence,
                             tmc_lifetime_fit *out, tmc_error *err);

#endif
