/* window.c - goodput over a calendar window (window.h). */
#include "window.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int tmc_window_summarize(const tmc_experiment *x, const tmc_closed_form *cf,
                         const double *steps, long n, const tmc_replica *totals,
                         tmc_window_summary *w)
{
    memset(w, 0, sizeof *w);
    double window_s = x->window.days * TMC_DAY_S;
    double *g = malloc((size_t)n * sizeof *g);
    if (!g)
        return -1;
    for (long k = 0; k < n; k++)
        g[k] = steps[k] * cf->step_s / window_s;
    w->days = x->window.days;
    w->n = n;
    w->steps_mean = gsl_stats_mean(steps, 1, (size_t)n);
    w->steps_se = n > 1 ? gsl_stats_sd_m(steps, 1, (size_t)n, w->steps_mean) / sqrt((double)n)
                        : 0;
    w->goodput_mean = w->steps_mean * cf->step_s / window_s;
    w->goodput_se = w->steps_se * cf->step_s / window_s;
    double z = gsl_cdf_ugaussian_Pinv(0.975); /* a normal 95 % interval */
    w->ci_lo = w->goodput_mean - z * w->goodput_se;
    w->ci_hi = w->goodput_mean + z * w->goodput_se;
    w->compute_mean = w->steps_mean * cf->compute_s / window_s;
    w->compute_se = w->steps_se * cf->compute_s / window_s;
    gsl_sort(g, 1, (size_t)n);
    w->p10 = gsl_stats_quantile_from_sorted_data(g, 1, (size_t)n, 0.10);
    w->p50 = gsl_stats_quantile_from_sorted_data(g, 1, (size_t)n, 0.50);
    w->p90 = gsl_stats_quantile_from_sorted_data(g, 1, (size_t)n, 0.90);
    free(g);
    w->closed_young = 1 / (1 + cf->overhead_young);
    w->closed_daly = 1 / (1 + cf->overhead_daly);
    w->edge = cf->interval_s / window_s;
    w->finished = n - (long)totals->censored;
    w->open_days = totals->window_open_s / n / TMC_DAY_S;
    return 0;
}
