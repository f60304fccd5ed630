/* restarts.c - restarts per run and the restart budget (restarts.h). */
#include "restarts.h"
#include "forecast.h"
#include "laws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

int tmc_restarts_met(double days, double restarts, const tmc_deadline *d)
{
    return days <= d->days && (d->max_restarts < 0 || restarts <= (double)d->max_restarts);
}

/* The closed form: Poisson with mean W / M over the time the job is up,
 * W / (1 + D / M), W Daly's wall (Young's first-order one undercounts
 * where tau + c is not small beside M; Young's with elastic groups)
 * (nothing strikes during the delays D: downtime,
 * detection, spare waits; nor, immune, during the restores r: D + r),
 * M over failures, outages and spikes (time-limit
 * requeues are planned: not restarts), plus the save timeouts' mean (not
 * Poisson: a first-order count, docs/model.md 3.12). A forecast: the
 * restarts seen before its start, plus those after it at the posterior
 * mean rates (docs/model.md 3.15) and the save timeouts of the work left. */
static void poisson(const tmc_experiment *x, const tmc_closed_form *cf, tmc_restarts *out)
{
    tmc_forecast_rate f, o;
    tmc_forecast_failure_rate(x, &f);
    tmc_forecast_outage_rate(x, &o);
    /* elastic groups: Daly's checkpoint-restart wall is not theirs (its
     * failures restart no job; output.c's text_elastic) */
    double days = x->elastic.enabled || !isfinite(cf->completion_days_daly)
                      ? cf->completion_days : cf->completion_days_daly;
    double wall_s = (days - x->deadline.reserve_days) * TMC_DAY_S - cf->before_s;
    double rate = cf->rate_failures * f.mean + cf->rate_outages * o.mean + cf->rate_spikes;
    double timeouts = cf->save_timeouts_mean;
    if (x->observed.enabled) /* the work left's */
        timeouts *= cf->remaining_free_s / cf->failure_free_s;
    if (tmc_window_on(x)) { /* a calendar window: its length, cut from a longer job */
        wall_s = x->window.days * TMC_DAY_S;
        timeouts *= wall_s / cf->uninterrupted_s;
    }
    double past = x->observed.enabled ? (double)(x->observed.failures + x->observed.outages) : 0;
    out->poisson_mean = past + wall_s * rate / (1 + rate * tmc_closed_form_down_s(x, cf)) +
                        timeouts;
    out->poisson_p_over = out->budget < 0 ? NAN
        : tmc_laws_poisson_over((unsigned)fmin((double)out->budget, 4e9), out->poisson_mean);
}

int tmc_restarts_summarize(const double *restarts, const double *days, long n,
                           const tmc_experiment *x, const tmc_closed_form *cf,
                           tmc_summary *days_summary, tmc_restarts *out, tmc_error *err)
{
    const tmc_deadline *d = &x->deadline;
    memset(out, 0, sizeof *out);
    out->budget = d->max_restarts;
    /* threshold: the budget, so count.met is the runs within it */
    if (tmc_stats_summarize(restarts, n,
                            d->max_restarts < 0 ? INFINITY : (double)d->max_restarts,
                            &out->count))
        return tmc_error_set(err, "out of memory for %ld restart counts", n);
    out->over = n - out->count.met;
    out->p_over = (double)out->over / n;
    tmc_stats_wilson(out->over, n, 0.95, &out->ci_lo, &out->ci_hi);
    poisson(x, cf, out);
    if (d->max_restarts >= 0) {
        long met = 0;
        for (long k = 0; k < n; k++)
            met += tmc_restarts_met(days[k], restarts[k], d);
        days_summary->met = met;
        days_summary->p_met = (double)met / n;
        tmc_stats_wilson(met, n, 0.95, &days_summary->ci_lo, &days_summary->ci_hi);
    }
    return 0;
}
