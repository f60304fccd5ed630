/* forecast.h - what a run's own progress says about its failure and outage
 * rates (issue 18; docs/model.md 3.15).
 *
 * The experiment's failure rate lambda_0 (per second, all failures: per
 * card, node and job; closed_form.h) is known from failures.mtbf_events = n
 * events, so its multiplier u has the prior Gamma(shape n, rate n) (mean
 * 1; docs/model.md 3.11). The run then saw k failures (progress.failures)
 * over an exposure of E seconds (progress.exposure_days, default the
 * elapsed time) on the cards it held (progress.cards, default job.cards),
 * whose rate is lambda_1: a Poisson count of mean u lambda_1 E. The
 * posterior is Gamma(n + k, n + lambda_1 E) [Gelman et al., Bayesian Data
 * Analysis, 3rd ed., 2.6, the conjugate Poisson-gamma model], and the count
 * of failures over a further exposure F on job.cards is negative binomial
 * with size n + k and success probability b / (b + lambda_0 F), b the
 * posterior's rate.
 * With n = 0 the rate is taken as exact and the run's failures do not
 * move it. Outages are updated alike (tmc_forecast_outage_rate). */
#ifndef TMC_FORECAST_H
#define TMC_FORECAST_H

#include "experiment.h"

typedef struct {
    int exact;          /* 1: failures.mtbf_events = 0, the multiplier is 1 */
    double base_rate;   /* lambda_0: failures per second of the experiment, 1/s */
    double observed_rate; /* lambda_1: the same on the cards held so far, 1/s */
    double exposure_s;  /* E: the time the observed failures were watched over, s */
    long observed;      /* k: failures observed */
    double prior_shape, prior_rate; /* n, n */
    double shape, rate; /* the posterior of u: n + k, n + lambda_1 E */
    double mean;        /* shape / rate: the posterior mean multiplier */
    double lo, hi;      /* its 95 % equal-tailed interval (GSL's gamma quantiles) */
} tmc_forecast_rate;

/* The failure-rate multiplier's prior and posterior for experiment x (its
 * progress section, or no observations when it has none). Without failures
 * base_rate is 0 and exact 1. Returns 0. */
int tmc_forecast_failure_rate(const tmc_experiment *x, tmc_forecast_rate *out);

/* Every failure rate of f (its per-card, per-node, per-job and burst parts)
 * multiplied by `mean`, the posterior mean multiplier of the failure rate:
 * each MTBF divided by it (0, "none", stays 0). */
void tmc_forecast_scale_failure_rates(tmc_failures *f, double mean);

/* The same for the outage rate (outages.mean_interval_days; a cluster's,
 * whatever the cards): its prior strength outages.mtbf_events, the
 * outages seen progress.outages over the same exposure. Without Poisson
 * outages (none, or a replayed trace) base_rate is 0 and exact 1.
 * Returns 0. */
int tmc_forecast_outage_rate(const tmc_experiment *x, tmc_forecast_rate *out);

/* The negative binomial probability of k failures over a further exposure
 * of f_s seconds under the posterior r (the predictive count); a
 * Poisson(lambda_0 f_s) probability when r->exact. With no rate or no
 * exposure (mean 0) the count is 0 surely: 1 for k = 0, else 0 (GSL's
 * Poisson and negative binomial give NaN at k = 0 there). */
double tmc_forecast_count_pmf(const tmc_forecast_rate *r, double f_s, unsigned k);

/* What the observed mean step (progress.step_s) is known to (issue 32 item
 * 4, item 2): with the sd of the step times it averages (progress.step_sd_s)
 * over n steps (progress.step_count, 0: steps_done), the standard error
 * sd / sqrt(n), the steps taken as independent (correlated steps make it
 * larger), its normal 95 % interval, and what the interval's ends change in
 * the work left, (S - steps done) x (end - step_s), days, interruptions
 * left out. Its lower end is clipped at F, the step's part no efficiency
 * shortens: a wide spread gives no step faster than any efficiency does,
 * nor negative work left. n is in [2, steps_done] (config_progress.c). The
 * simulation runs every replica at the mean: the report says so. */
typedef struct {
    int known;          /* 1: step_sd_s given (and step_s), 0: not */
    double sd_s;        /* step_sd_s, s */
    long count;         /* n, steps */
    double se_s;        /* sd / sqrt(n), s */
    double lo_s, hi_s;  /* step_s -+ 1.96 se, s; lo at least F (below) */
    double floor_s;     /* F, the step's part no efficiency shortens
                           (tmc_closed_form_step_floor_s), s */
    int lo_clipped;     /* 1: step_s - 1.96 se fell below F and lo_s is F: the
                           interval is one-sided below (no step is faster
                           than F, and the work left never goes negative) */
    double days_lo, days_hi; /* the work left's change at lo_s and hi_s, days */
} tmc_forecast_pace_spread;

/* The spread of x's observed mean step (all 0 and known 0 without
 * step_sd_s). Returns known. */
int tmc_forecast_pace_spread_of(const tmc_experiment *x, tmc_forecast_pace_spread *out);

#endif
