/* forecast_output.c - a forecast's lines (forecast_output.h). Times: the
 * run's T less the deadline's reserve and the elapsed time is the time
 * left; its quantiles are T's, shifted. */
#include "forecast_output.h"

#include <math.h>

#include "closed_form.h"
#include "config.h"
#include "error.h"
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

/* The observed step against the plan's, relative: step_s / plan - 1, or
 * 0 when the progress gives none. */
static double step_difference(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return x->observed.step_s > 0 ? x->observed.step_s / cf->observed_plan_step_s - 1 : 0;
}

static int step_warned(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return fabs(step_difference(x, cf)) >= TMC_FORECAST_PACE_WARN;
}

/* What the observed mean is known to; the simulation does not carry it. */
static void text_spread(FILE *f, const tmc_experiment *x)
{
    tmc_forecast_pace_spread sp;
    if (!tmc_forecast_pace_spread_of(x, &sp)) {
        fprintf(f, "            the observed mean's own uncertainty is not known: the progress "
                   "gives no spread of the step times (progress.step_sd_s); every replica "
                   "runs at the mean\n");
        return;
    }
    fprintf(f, "            the observed mean: sd %.4g s over %ld steps, se %.4g s (steps taken "
               "as independent), 95 %% [%.4f, %.4f] s: the work left %+.3f / %+.3f days at its "
               "ends; not simulated, every replica runs at the mean\n", sp.sd_s, sp.count,
            sp.se_s, sp.lo_s, sp.hi_s, sp.days_lo, sp.days_hi);
    if (sp.lo_clipped)
        fprintf(f, "            warning: the interval's lower end is clipped at %.4f s, the "
                   "step's part no efficiency shortens (job.exposed_comm_s + "
                   "job.input_wait_s + pauses' share): the spread is too wide for a "
                   "two-sided interval, and the mean is known only to be below %.4f s\n",
                sp.floor_s, sp.hi_s);
}

/* The efficiency that gives the observed step when one of job.efficiency's
 * range does (tmc_config_pace_step_range), else NAN: a number outside it
 * (above 1, negative, infinite) is not an efficiency to name. */
static double matching_efficiency(const tmc_experiment *x)
{
    double lo, hi, step = x->observed.step_s;
    tmc_config_pace_step_range(x, &lo, &hi);
    return step >= lo && step <= hi ? tmc_closed_form_efficiency_for_step(x, step) : NAN;
}

/* A number, or null when it is NAN. */
static void add_number_or_null(cJSON *o, const char *name, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, name);
    else
        cJSON_AddNumberToObject(o, name, v);
}

/* Which step time the steps left run at, the other one, and a warning when
 * the two differ by TMC_FORECAST_PACE_WARN or more. */
static void text_step(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_observed *p = &x->observed;
    if (!(p->step_s > 0)) {
        fprintf(f, "            step: the steps left run at the plan's %.3f s: the progress "
                   "gives no observed step time (progress.step_s)\n", cf->plan_step_s);
        return;
    }
    double d = 100 * step_difference(x, cf);
    long seen = p->cards > 0 ? p->cards : x->job.cards;
    if (tmc_closed_form_paced(x))
        fprintf(f, "            step: the steps left run at %.3f s, the observed pace (job.pace "
                   "= observed): %.3f s seen on %ld cards, the plan's %.3f s there (%+.2f %%); "
                   "job.efficiency %.4g -> %.4g, the one that gives it\n", cf->step_s,
                p->step_s, seen, cf->observed_plan_step_s, d, x->job.efficiency,
                cf->pace_efficiency);
    else {
        double e = matching_efficiency(x);
        char gives[96];
        if (isnan(e))
            snprintf(gives, sizeof gives, "no efficiency in job.efficiency's range gives it");
        else
            snprintf(gives, sizeof gives, "job.efficiency=%.4g gives it", e);
        fprintf(f, "            step: the steps left run at the plan's %.3f s (job.pace = "
                   "plan); %.3f s seen on %ld cards, the plan's %.3f s there (%+.2f %%; "
                   "%s)\n", cf->plan_step_s, p->step_s, seen, cf->observed_plan_step_s, d,
                gives);
    }
    if (step_warned(x, cf))
        fprintf(f, "            warning: the run steps %.1f %% %s than the plan; %s\n",
                fabs(d), d > 0 ? "slower" : "faster", tmc_closed_form_paced(x)
                    ? "the forecast is at the run's pace (job.pace = plan gives the plan's)"
                    : "the forecast is at the plan's (job.pace = plan): if the run keeps its "
                      "pace, it ends otherwise than forecast");
    text_spread(f, x);
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

/* The plan's steps a day without interruptions. */
static double plan_steps_a_day(const tmc_experiment *x)
{
    tmc_experiment y = *x; /* a view: the plan's pace, never released */
    tmc_closed_form plan_cf;
    y.job.pace = TMC_PACE_PLAN;
    tmc_closed_form_compute(&y, &plan_cf);
    return x->job.steps / (plan_cf.uninterrupted_s / TMC_DAY_S);
}

/* The deadline passed, or out of reach without any interruption, after
 * lead (an indent, or "Warning: "); nothing when neither. */
static void deadline_state(FILE *f, const char *lead, const tmc_experiment *x,
                           const tmc_closed_form *cf)
{
    const tmc_observed *p = &x->observed;
    double left_days = x->deadline.days - x->deadline.reserve_days - p->elapsed_days;
    double work_days = cf->remaining_free_s / TMC_DAY_S;
    if (left_days <= 0)
        fprintf(f, "%sthe deadline has passed: day %.3f of the %.3f days it leaves for "
                   "training\n", lead, p->elapsed_days, x->deadline.days - x->deadline.reserve_days);
    else if (work_days > left_days)
        fprintf(f, "%sthe deadline cannot be met: %.3f days of steps left without any "
                   "interruption, %.3f days before it\n", lead, work_days, left_days);
}

/* The steps a day so far (interruptions included) against the plan's
 * without interruptions, warned of from TMC_FORECAST_PACE_WARN slower, and
 * a deadline that can no longer be met at the pace the steps left run at. */
static void text_pace(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_observed *p = &x->observed;
    double plan = plan_steps_a_day(x);
    if (p->steps_done > 0) {
        double pace = p->steps_done / p->elapsed_days;
        char a[TMC_ERROR_NUMBER_CHARS], b[TMC_ERROR_NUMBER_CHARS];
        fprintf(f, "            pace: %s steps a day so far, interruptions included; %s "
                   "in the plan without them", tmc_error_format_whole(a, pace),
                tmc_error_format_whole(b, plan));
        if (pace <= (1 - TMC_FORECAST_PACE_WARN) * plan)
            fprintf(f, " (%.0f %% slower: warning, the run is behind the plan)",
                    100 * (1 - pace / plan));
        fputc('\n', f);
    }
    deadline_state(f, "            ", x, cf);
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

/* The observed mean's spread as pace's "uncertainty": carried false (every
 * replica runs at the mean), and what is known of it, null when not. */
static void json_spread(cJSON *pace, const tmc_experiment *x)
{
    tmc_forecast_pace_spread sp;
    cJSON *u = cJSON_AddObjectToObject(pace, "uncertainty");
    cJSON_AddBoolToObject(u, "simulated", 0);
    cJSON_AddBoolToObject(u, "known", tmc_forecast_pace_spread_of(x, &sp));
    if (!sp.known) {
        cJSON_AddNullToObject(u, "se_s");
        return;
    }
    cJSON_AddNumberToObject(u, "sd_s", sp.sd_s);
    cJSON_AddNumberToObject(u, "count", (double)sp.count);
    cJSON_AddNumberToObject(u, "se_s", sp.se_s);
    double ci[2] = {sp.lo_s, sp.hi_s}, days[2] = {sp.days_lo, sp.days_hi};
    cJSON_AddItemToObject(u, "ci95_s", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddItemToObject(u, "work_left_days_at_ci", cJSON_CreateDoubleArray(days, 2));
    /* the lower end at F, the step's fixed part: the interval is one-sided */
    cJSON_AddBoolToObject(u, "ci95_clipped_at_fixed", sp.lo_clipped);
    cJSON_AddNumberToObject(u, "fixed_s", sp.floor_s);
}

/* The pace the steps left run at, as the forecast object's "pace". */
static void json_pace(cJSON *o, const tmc_experiment *x, const tmc_closed_form *cf)
{
    cJSON *pace = cJSON_AddObjectToObject(o, "pace");
    int paced = tmc_closed_form_paced(x), given = x->observed.step_s > 0;
    cJSON_AddStringToObject(pace, "used", paced ? "observed" : "plan");
    cJSON_AddNumberToObject(pace, "step_s", cf->step_s);
    cJSON_AddNumberToObject(pace, "efficiency", paced ? cf->pace_efficiency
                                                      : x->job.efficiency);
    if (given)
        cJSON_AddNumberToObject(pace, "observed_step_s", x->observed.step_s);
    else
        cJSON_AddNullToObject(pace, "observed_step_s");
    cJSON_AddNumberToObject(pace, "plan_step_s", cf->plan_step_s);
    cJSON_AddNumberToObject(pace, "observed_plan_step_s", cf->observed_plan_step_s);
    cJSON_AddNumberToObject(pace, "plan_efficiency", x->job.efficiency);
    if (given) {
        add_number_or_null(pace, "observed_efficiency",
                           paced ? cf->pace_efficiency : matching_efficiency(x));
        cJSON_AddNumberToObject(pace, "difference", step_difference(x, cf));
    } else {
        cJSON_AddNullToObject(pace, "observed_efficiency");
        cJSON_AddNullToObject(pace, "difference");
    }
    cJSON_AddNumberToObject(pace, "warn_from", TMC_FORECAST_PACE_WARN);
    cJSON_AddBoolToObject(pace, "warning", step_warned(x, cf));
    json_spread(pace, x);
    if (given) { /* the object before "pace": JSON keeps every field it had */
        cJSON *step = cJSON_AddObjectToObject(o, "step_s");
        cJSON_AddNumberToObject(step, "observed", x->observed.step_s);
        cJSON_AddNumberToObject(step, "planned", cf->plan_step_s);
        add_number_or_null(step, "matching_efficiency", matching_efficiency(x));
    }
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
    json_pace(o, x, r->cf);
    cJSON *left = cJSON_AddObjectToObject(o, "days_left");
    cJSON_AddNumberToObject(left, "mean", d->mean - spent);
    cJSON_AddNumberToObject(left, "se", d->se);
    cJSON_AddItemToObject(left, "quantiles", cJSON_CreateDoubleArray(q, TMC_STATS_NQ));
    return left ? 0 : -1;
}

/* ---------- the brief report (brief.h) ---------- */

/* One rate's posterior in a few words after "; " unless *first. */
static void brief_rate(FILE *f, const tmc_forecast_rate *post, const char *what,
                       const char *key, int *first)
{
    if (post->base_rate <= 0)
        return;
    fprintf(f, "%s%s", *first ? "" : "; ", what);
    *first = 0;
    if (post->exact)
        fprintf(f, " x 1 (taken as exact, %s = 0)", key);
    else
        fprintf(f, " x %.4f [%.4f, %.4f] 95 %% posterior mean", post->mean, post->lo, post->hi);
    fprintf(f, ": %ld seen in %.3f days, %.3f expected", post->observed,
            post->exposure_s / TMC_DAY_S, post->observed_rate * post->exposure_s);
}

void tmc_forecast_output_brief(FILE *f, const tmc_report *r, const char *closed_t)
{
    const tmc_experiment *x = r->x;
    const tmc_observed *p = &x->observed;
    const tmc_closed_form *cf = r->cf;
    if (!p->enabled)
        return;
    const tmc_summary *d = r->days;
    double spent = spent_days(x);
    fprintf(f, "%-20s mean %.4f +- %.4f, p05 %.4f, p50 %.4f, p95 %.4f   (T %.4f; %s)\n",
            "time left (days)", d->mean - spent, d->se, d->quantile[1] - spent,
            d->quantile[2] - spent, d->quantile[3] - spent, d->mean, closed_t);
    double diff = 100 * step_difference(x, cf);
    if (!(p->step_s > 0))
        fprintf(f, "%-20s the steps left at the plan's %.3f s (the progress gives no observed "
                   "step, progress.step_s)", "pace", cf->plan_step_s);
    else if (tmc_closed_form_paced(x))
        fprintf(f, "%-20s the steps left at %.3f s, the observed (job.pace = observed); the "
                   "plan's %.3f s, %+.2f %%", "pace", cf->step_s, cf->observed_plan_step_s, diff);
    else
        fprintf(f, "%-20s the steps left at the plan's %.3f s (job.pace = plan); %.3f s "
                   "observed, %+.2f %%", "pace", cf->plan_step_s, p->step_s, diff);
    /* the step's warning on the pace's line */
    if (step_warned(x, cf))
        fprintf(f, ": WARNING, %.1f %% %s than the plan%s", fabs(diff),
                diff > 0 ? "slower" : "faster", tmc_closed_form_paced(x)
                    ? " (job.pace = plan gives the plan's)"
                    : ": if the run keeps its pace, it ends otherwise than forecast");
    fputc('\n', f);
    tmc_forecast_rate post;
    int first = 1;
    fprintf(f, "%-20s ", "rates");
    tmc_forecast_failure_rate(x, &post);
    brief_rate(f, &post, "failures", "failures.mtbf_events", &first);
    tmc_forecast_outage_rate(x, &post);
    brief_rate(f, &post, "outages", "outages.mtbf_events", &first);
    fprintf(f, "%s\n", first ? "none" : "");
    /* the other warnings, only those that fire */
    double plan = plan_steps_a_day(x);
    char a[TMC_ERROR_NUMBER_CHARS], b[TMC_ERROR_NUMBER_CHARS];
    if (p->steps_done > 0 && p->steps_done / p->elapsed_days <= (1 - TMC_FORECAST_PACE_WARN) * plan)
        fprintf(f, "Warning: the run is behind the plan: %s steps a day so far, "
                   "interruptions included, %.0f %% below the plan's %s without them\n",
                tmc_error_format_whole(a, p->steps_done / p->elapsed_days),
                100 * (1 - p->steps_done / p->elapsed_days / plan),
                tmc_error_format_whole(b, plan));
    deadline_state(f, "Warning: ", x, cf);
}
