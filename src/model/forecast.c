/* forecast.c - the Gamma-Poisson update of the failure and outage rates
 * (forecast.h). */
#include "forecast.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "closed_form.h"
#include "experiment_rules.h"
#include "laws.h"

/* The observed count k and its exposure E from the progress section. */
static void exposure(const tmc_observed *p, long k, tmc_forecast_rate *out)
{
    if (!p->enabled)
        return;
    out->observed = k;
    out->exposure_s = (p->exposure_days >= 0 ? p->exposure_days : p->elapsed_days) * TMC_DAY_S;
}

/* The prior Gamma(n, n) of the multiplier and its posterior after out's
 * count and exposure; n = 0: exact, nothing to update. */
static void update(double n, tmc_forecast_rate *out)
{
    if (n <= 0)
        return;
    out->exact = 0;
    out->prior_shape = out->prior_rate = n;
    out->shape = n + (double)out->observed;
    out->rate = n + out->observed_rate * out->exposure_s;
    out->mean = out->shape / out->rate;
    out->lo = tmc_law_gamma_quantile(0.025, out->shape, 1 / out->rate);
    out->hi = tmc_law_gamma_quantile(0.975, out->shape, 1 / out->rate);
}

int tmc_forecast_failure_rate(const tmc_experiment *x, tmc_forecast_rate *out)
{
    const tmc_observed *p = &x->observed;
    const tmc_failures *f = &x->failures;
    *out = (tmc_forecast_rate){.exact = 1, .mean = 1, .lo = 1, .hi = 1};
    if (!f->enabled || tmc_failures_replayed(f))
        return 0;
    out->base_rate = 1 / tmc_closed_form_job_mtbf_s(f, x->job.cards);
    out->observed_rate = p->enabled && p->cards > 0
        ? 1 / tmc_closed_form_job_mtbf_s(f, p->cards) : out->base_rate;
    exposure(p, p->failures, out);
    update(f->mtbf_events, out);
    return 0;
}

int tmc_forecast_outage_rate(const tmc_experiment *x, tmc_forecast_rate *out)
{
    const tmc_observed *p = &x->observed;
    const tmc_outages *o = &x->outages;
    *out = (tmc_forecast_rate){.exact = 1, .mean = 1, .lo = 1, .hi = 1};
    if (!o->enabled || o->n_trace > 0 || !(o->mean_interval_days > 0))
        return 0;
    out->base_rate = out->observed_rate = 1 / (o->mean_interval_days * TMC_DAY_S);
    exposure(p, p->outages, out);
    update(o->mtbf_events, out);
    return 0;
}

double tmc_forecast_count_pmf(const tmc_forecast_rate *r, double f_s, unsigned k)
{
    double mu = r->base_rate * f_s;
    if (mu == 0) /* GSL: 0 x log(0) = NaN at k = 0 */
        return k == 0 ? 1 : 0;
    if (r->exact)
        return gsl_ran_poisson_pdf(k, mu);
    return gsl_ran_negative_binomial_pdf(k, r->rate / (r->rate + mu), r->shape);
}

int tmc_forecast_pace_spread_of(const tmc_experiment *x, tmc_forecast_pace_spread *out)
{
    const tmc_observed *p = &x->observed;
    memset(out, 0, sizeof *out);
    if (!(p->enabled && p->step_s > 0 && p->step_sd_s > 0))
        return 0;
    out->known = 1;
    out->sd_s = p->step_sd_s;
    out->count = p->step_count > 0 ? p->step_count : p->steps_done;
    if (out->count < 2)
        out->count = 2; /* the loader refuses fewer (config_progress.c) */
    out->se_s = p->step_sd_s / sqrt((double)out->count);
    double z = gsl_cdf_ugaussian_Pinv(0.975);
    out->floor_s = tmc_closed_form_step_floor_s(x);
    out->lo_s = p->step_s - z * out->se_s;
    out->lo_clipped = out->lo_s < out->floor_s; /* no pace is faster than F */
    if (out->lo_clipped)
        out->lo_s = fmin(out->floor_s, p->step_s);
    out->hi_s = p->step_s + z * out->se_s;
    double left = (double)(x->job.steps - p->steps_done);
    out->days_lo = left * (out->lo_s - p->step_s) / TMC_DAY_S;
    out->days_hi = left * (out->hi_s - p->step_s) / TMC_DAY_S;
    return 1;
}

void tmc_forecast_scale_failure_rates(tmc_failures *f, double mean)
{
    f->per_card_mtbf_days /= mean;
    f->per_node_mtbf_days /= mean;
    f->per_job_mtbf_days /= mean;
    f->burst_per_node_mtbf_days /= mean;
}
