/* forecast_output.c - a forecast's lines (forecast_output.h). Times: the
 * run's T less the deadline's reserve and the elapsed time is the time
 * left; its quantiles are T's, shifted. */
#include "forecast_output.h"

#include "forecast.h"
#include "stats.h"

/* The days already spent before the forecast, reserve included: T minus
 * this is the time left. */
static double spent_days(const tmc_experiment *x)
{
    return x->deadline.reserve_days + x->observed.elapsed_days;
}

/* The count seen, what the experiment's rate expected, and the rate's
 * prior and posterior multiplier; `what` names the events ("failures"),
 * `one` one of them, `key` the prior's strength. */
static void text_rate(FILE *f, const tmc_forecast_rate *post, const char *what,
                      const char *one, const char *on, const char *key)
{
    if (post->base_rate <= 0)
        return;
    fprintf(f, "            %s: %ld observed over %.3f days%s, %.3f expected at the "
               "experiment's rate\n", what, post->observed, post->exposure_s / TMC_DAY_S,
            on, post->observed_rate * post->exposure_s);
    if (post->exact) {
        fprintf(f, "            %s rate taken as exact (%s = 0): the run's %s do not "
                   "move it\n", one, key, what);
        return;
    }
    fprintf(f, "            %s rate x prior Gamma(%.4g, %.4g) -> posterior Gamma(%.4g, "
               "%.4g): x %.4f [%.4f, %.4f] 95 %%\n", one, post->prior_shape,
            post->prior_rate, post->shape, post->rate, post->mean, post->lo, post->hi);
}

static void text_rates(FILE *f, const tmc_experiment *x)
{
    tmc_forecast_rate post;
    char on[48];
    tmc_forecast_failure_rate(x, &post);
    snprintf(on, sizeof on, " on %ld cards",
             x->observed.cards > 0 ? x->observed.cards : x->job.cards);
    text_rate(f, &post, "failures", "failure", on, "failures.mtbf_events");
    tmc_forecast_outage_rate(x, &post);
    text_rate(f, &post, "outages", "outage", "", "outages.mtbf_events");
}

/* The observed step against the planned one, and the efficiency at which
 * the plan's step would be the observed one (compute and jitter scale
 * with 1 / efficiency; communication, input waits and pauses do not). */
static double matching_efficiency(const tmc_experiment *x, const tmc_closed_form *cf)
{
    double fixed = x->job.exposed_comm_s + x->job.input_wait_s + cf->pause_per_step_s;
    return x->job.efficiency * (cf->step_s - fixed) / (x->observed.step_s - fixed);
}

static void text_step(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    if (x->observed.step_s <= 0)
        return;
    double e = matching_efficiency(x, cf);
    fprintf(f, "            step: %.3f s observed against %.3f s planned (%+.2f %%); the "
               "rest of the run uses the plan's", x->observed.step_s, cf->step_s,
            100 * (x->observed.step_s / cf->step_s - 1));
    if (e > 0 && e <= 1)
        fprintf(f, " (--set job.efficiency=%.4g gives the observed)", e);
    fputc('\n', f);
}

/* How far the run's own failures moved the forecast: the same replicas
 * with the prior (nothing observed) against the posterior. */
static void text_moved(FILE *f, const tmc_report *r)
{
    const tmc_summary *a = r->prior, *b = r->days;
    if (!a)
        return;
    fprintf(f, "            moved by what the run saw: mean T %.4f -> %.4f days, "
               "P(T <= %g days) %.4f [%.4f, %.4f] -> %.4f [%.4f, %.4f] (%+.4f)\n", a->mean,
            b->mean, r->x->deadline.days, a->p_met, a->ci_lo, a->ci_hi, b->p_met, b->ci_lo,
            b->ci_hi, b->p_met - a->p_met);
}

/* The pace so far against the plan's, and a deadline that can no longer
 * be met: the simulation runs the rest at the plan's step time, so a run
 * that has been slower than that for other reasons (start-up, a slow input
 * pipeline, waits the model does not hold) finishes later than forecast. */
static void text_pace(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_observed *p = &x->observed;
    double plan = x->job.steps / (cf->uninterrupted_s / TMC_DAY_S);
    if (p->steps_done > 0) {
        double pace = p->steps_done / p->elapsed_days;
        fprintf(f, "            pace: %.0f steps a day so far, %.0f in the plan without "
                   "interruptions", pace, plan);
        if (pace < 0.9 * plan)
            fprintf(f, " (%.0f %% slower: the rest is simulated at the plan's step time; "
                       "if the run keeps its pace, it ends later)", 100 * (1 - pace / plan));
        fputc('\n', f);
    }
    double left_days = x->deadline.days - x->deadline.reserve_days - p->elapsed_days;
    double work_days = cf->remaining_free_s / TMC_DAY_S;
    if (left_days <= 0)
        fprintf(f, "            the deadline has passed: day %.3f of the %.3f days it leaves "
                   "for training\n", p->elapsed_days, x->deadline.days - x->deadline.reserve_days);
    else if (work_days > left_days)
        fprintf(f, "            the deadline cannot be met: %.3f days of steps left without "
                   "any interruption, %.3f days before it\n", work_days, left_days);
}

void tmc_forecast_output_text(FILE *f, const tmc_report *r)
{
    const tmc_experiment *x = r->x;
    const tmc_observed *p = &x->observed;
    if (!p->enabled)
        return;
    fprintf(f, "\nForecast    from day %.3f at step %ld of %ld, last commit at step %ld",
            p->elapsed_days, p->steps_done, x->job.steps, p->committed_step);
    if (p->cards_in_repair > 0)
        fprintf(f, "; %ld of %ld spare cards in repair", p->cards_in_repair,
                x->failures.spares);
    if (p->standbys_used > 0)
        fprintf(f, "; %ld of %ld standbys used%s", p->standbys_used, x->failures.standbys,
                x->failures.standby_refill_hours > 0 ? " (warm again after the refill)" : "");
    fputc('\n', f);
    text_rates(f, x);
    text_moved(f, r);
    text_step(f, x, r->cf);
    text_pace(f, x, r->cf);
    const tmc_summary *d = r->days;
    double spent = spent_days(x);
    fprintf(f, "            time left (days): mean %.4f +- %.4f", d->mean - spent, d->se);
    for (int i = 0; i < TMC_STATS_NQ; i++)
        fprintf(f, "%s p%02.0f %.4f", i ? "," : ";", 100 * tmc_stats_levels[i],
                d->quantile[i] - spent);
    fputc('\n', f);
}

/* A rate's update as the forecast object's `key`. */
static void json_rate(cJSON *o, const char *key, const tmc_forecast_rate *post)
{
    cJSON *rate = cJSON_AddObjectToObject(o, key);
    cJSON_AddBoolToObject(rate, "exact", post->exact);
    cJSON_AddNumberToObject(rate, "base_per_day", post->base_rate * TMC_DAY_S);
    cJSON_AddNumberToObject(rate, "observed_per_day", post->observed_rate * TMC_DAY_S);
    cJSON_AddNumberToObject(rate, "observed", (double)post->observed);
    cJSON_AddNumberToObject(rate, "exposure_days", post->exposure_s / TMC_DAY_S);
    double prior[2] = {post->prior_shape, post->prior_rate};
    double posterior[2] = {post->shape, post->rate}, ci[2] = {post->lo, post->hi};
    cJSON_AddItemToObject(rate, "prior_gamma", cJSON_CreateDoubleArray(prior, 2));
    cJSON_AddItemToObject(rate, "posterior_gamma", cJSON_CreateDoubleArray(posterior, 2));
    cJSON_AddNumberToObject(rate, "posterior_mean", post->mean);
    cJSON_AddItemToObject(rate, "posterior_ci95", cJSON_CreateDoubleArray(ci, 2));
}

int tmc_forecast_output_json(cJSON *root, const tmc_report *r)
{
    const tmc_experiment *x = r->x;
    if (!x->observed.enabled)
        return cJSON_AddNullToObject(root, "forecast") ? 0 : -1;
    cJSON *o = cJSON_AddObjectToObject(root, "forecast");
    if (!o)
        return -1;
    tmc_forecast_rate post;
    tmc_forecast_failure_rate(x, &post);
    json_rate(o, "failure_rate", &post);
    tmc_forecast_outage_rate(x, &post);
    json_rate(o, "outage_rate", &post);
    const tmc_summary *d = r->days;
    double spent = spent_days(x), q[TMC_STATS_NQ];
    for (int i = 0; i < TMC_STATS_NQ; i++)
        q[i] = d->quantile[i] - spent;
    if (r->prior) {
        cJSON *prior = cJSON_AddObjectToObject(o, "prior");
        cJSON_AddNumberToObject(prior, "completion_days_mean", r->prior->mean);
        cJSON_AddNumberToObject(prior, "probability", r->prior->p_met);
        double pci[2] = {r->prior->ci_lo, r->prior->ci_hi};
        cJSON_AddItemToObject(prior, "ci95", cJSON_CreateDoubleArray(pci, 2));
    }
    if (x->observed.step_s > 0) {
        cJSON *step = cJSON_AddObjectToObject(o, "step_s");
        cJSON_AddNumberToObject(step, "observed", x->observed.step_s);
        cJSON_AddNumberToObject(step, "planned", r->cf->step_s);
        cJSON_AddNumberToObject(step, "matching_efficiency", matching_efficiency(x, r->cf));
    }
    cJSON *left = cJSON_AddObjectToObject(o, "days_left");
    cJSON_AddNumberToObject(left, "mean", d->mean - spent);
    cJSON_AddNumberToObject(left, "se", d->se);
    cJSON_AddItemToObject(left, "quantiles", cJSON_CreateDoubleArray(q, TMC_STATS_NQ));
    return left ? 0 : -1;
}
