/* forecast_history_output.c - `trainmc forecast` text and JSON
 * (forecast_history_output.h). Times are days: T from the job's start
 * (reserve included, as `trainmc run` prints it), the time left T less the
 * reserve and the elapsed time (forecast_output.c's). */
#include "forecast_history_output.h"

#include <math.h>

#include "assumed_output.h"
#include "closed_form.h"

/* ---------- text ---------- */

static void text_heading(FILE *f, const tmc_forecast_history_report *r)
{
    const tmc_forecast_history *h = r->h;
    const tmc_experiment *x = h->base;
    fprintf(f, "trainmc forecast: %s (%s%s%s)\n", x->name, x->path,
            x->source[0] ? "; source: " : "", x->source);
    fprintf(f, "  history %s: %d snapshot%s; %ld replicas each, seed %llu, the same at "
               "every snapshot (common random numbers); %d thread%s, %.2f s\n",
            h->path, h->n, h->n == 1 ? "" : "s", x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed, r->threads, r->threads == 1 ? "" : "s",
            r->elapsed_s);
    const char *sets[TMC_OVERRIDES_BYTES / 2];
    int n = tmc_config_list_overrides(x, sets, TMC_OVERRIDES_BYTES / 2);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s%s", i ? ", " : "  overrides: ", sets[i], i == n - 1 ? "\n" : "");
}

/* The base experiment at the latest snapshot, its closed form into *cf. */
static tmc_experiment latest(const tmc_forecast_history *h, tmc_closed_form *cf)
{
    tmc_experiment x = *h->base; /* a view; its progress alone changes */
    if (h->n > 0)
        x.observed = h->points[h->n - 1].snap.observed;
    tmc_closed_form_compute(&x, cf);
    return x;
}

/* "+- se" of a change in P, or why it has none (one replica: no spread). */
static const char *change_se(const tmc_forecast_point *p, char *buf, size_t n)
{
    if (isfinite(p->change_se))
        snprintf(buf, n, "+- %.4f", p->change_se);
    else
        snprintf(buf, n, "(no se: 1 replica)");
    return buf;
}

/* The answer first (issue 32): P(deadline) at the latest snapshot, its
 * interval and its change since the one before; what that run assumes. */
static void text_answer(FILE *f, const tmc_forecast_history *h)
{
    if (h->n == 0)
        return;
    const tmc_forecast_point *p = &h->points[h->n - 1];
    const tmc_observed *s = &p->snap.observed;
    char se[32];
    fprintf(f, "\nAnswer: at the latest snapshot (line %ld, day %.3f, step %ld): "
               "P(T <= %g days) %.4f [%.4f, %.4f], ", p->snap.line, s->elapsed_days,
            s->steps_done, h->base->deadline.days, p->days.p_met, p->days.ci_lo,
            p->days.ci_hi);
    if (isnan(p->change))
        fprintf(f, "the only snapshot");
    else
        fprintf(f, "%+.4f %s since line %ld", p->change, change_se(p, se, sizeof se),
                h->points[h->n - 2].snap.line);
    fprintf(f, "; mean T %.4f +- %.4f days, %.4f left\n", p->days.mean, p->days.se,
            p->left_mean);
    tmc_forecast_history_output_assumed_text(f, h);
}

void tmc_forecast_history_output_assumed_text(FILE *f, const tmc_forecast_history *h)
{
    tmc_closed_form cf;
    tmc_experiment x = latest(h, &cf);
    tmc_assumed_output_text(f, &x, &cf);
}

static void text_legend(FILE *f, const tmc_forecast_history_report *r)
{
    const tmc_experiment *x = r->h->base;
    fprintf(f, "\n  T: completion, days from the job's start (reserve %.4g days included); "
               "left: T - reserve - day\n", x->deadline.reserve_days);
    fprintf(f, "  step left: the mean step time the steps left run at: a snapshot's "
               "progress.step_s (seen; job.pace = observed), else the plan's%s\n\n",
            x->job.pace == TMC_PACE_PLAN ? " (job.pace = plan: the plan's at every snapshot)"
                                         : "");
}

/* The step time snapshot s's steps left run at (closed_form.h: the
 * observed one at job.pace observed, else the plan's), s; *paced 1 when
 * it is the observed pace. scratch: a view of the base, its progress
 * replaced. */
static double snapshot_step_s(tmc_experiment *scratch, const tmc_observed *s, int *paced)
{
    tmc_closed_form cf;
    scratch->observed = *s;
    tmc_closed_form_compute(scratch, &cf);
    *paced = tmc_closed_form_paced(scratch);
    return cf.step_s;
}

/* "+0.0123 +- 0.0004", or "-" for the first row. */
static void text_change(FILE *f, const tmc_forecast_point *p)
{
    if (isnan(p->change))
        fprintf(f, "  -\n");
    else
    {
        char se[32];
        fprintf(f, "  %+.4f %s\n", p->change, change_se(p, se, sizeof se));
    }
}

void tmc_forecast_history_output_text(FILE *f, const tmc_forecast_history_report *r)
{
    const tmc_forecast_history *h = r->h;
    text_heading(f, r);
    text_answer(f, h);
    tmc_forecast_history_output_table_text(f, r);
}

void tmc_forecast_history_output_table_text(FILE *f, const tmc_forecast_history_report *r)
{
    const tmc_forecast_history *h = r->h;
    char p_head[64];
    snprintf(p_head, sizeof p_head, "P(T <= %g d)", h->base->deadline.days);
    text_legend(f, r);
    tmc_experiment scratch = *h->base; /* a view; its progress alone changes */
    fprintf(f, "%5s %8s %9s %9s %8s  %-16s %-19s %8s  %-12s %-16s  %s\n", "line", "day",
            "step", "commit", "failures", "step left (s)", "mean T (days)", "left", p_head,
            "Wilson 95 %", "change in P");
    for (int i = 0; i < h->n; i++) {
        const tmc_forecast_point *p = &h->points[i];
        const tmc_observed *s = &p->snap.observed;
        int paced;
        double step = snapshot_step_s(&scratch, s, &paced);
        fprintf(f, "%5ld %8.3f %9ld %9ld %8ld  %8.3f %-7s %8.4f +- %-7.4f %8.4f  %-12.4f "
                   "[%.4f, %.4f]", p->snap.line, s->elapsed_days, s->steps_done,
                s->committed_step, s->failures, step, paced ? "seen" : "plan", p->days.mean,
                p->days.se, p->left_mean, p->days.p_met, p->days.ci_lo, p->days.ci_hi);
        text_change(f, p);
    }
}

/* ---------- JSON ---------- */

/* The snapshot's state as the experiment's progress section is written back
 * (config_to_json.c: every key, defaults included), from a scratch copy of
 * the base experiment. */
static cJSON *progress_json(tmc_experiment *scratch, const tmc_observed *s)
{
    scratch->observed = *s;
    cJSON *all = tmc_config_to_json(scratch);
    cJSON *p = all ? cJSON_DetachItemFromObjectCaseSensitive(all, "progress") : NULL;
    cJSON_Delete(all);
    return p;
}

static cJSON *point_json(tmc_experiment *scratch, const tmc_forecast_point *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", (double)p->snap.line);
    cJSON_AddItemToObject(o, "progress", progress_json(scratch, &p->snap.observed));
    int paced;
    double step = snapshot_step_s(scratch, &p->snap.observed, &paced);
    cJSON *pace = cJSON_AddObjectToObject(o, "pace");
    cJSON_AddStringToObject(pace, "used", paced ? "observed" : "plan");
    cJSON_AddNumberToObject(pace, "step_s", step);
    cJSON *t = cJSON_AddObjectToObject(o, "completion_days");
    cJSON_AddNumberToObject(t, "mean", p->days.mean);
    cJSON_AddNumberToObject(t, "se", p->days.se);
    cJSON_AddItemToObject(t, "quantiles", cJSON_CreateDoubleArray(p->days.quantile,
                                                                  TMC_STATS_NQ));
    cJSON *left = cJSON_AddObjectToObject(o, "days_left");
    cJSON_AddNumberToObject(left, "mean", p->left_mean);
    cJSON *dl = cJSON_AddObjectToObject(o, "deadline");
    cJSON_AddNumberToObject(dl, "probability", p->days.p_met);
    double ci[2] = {p->days.ci_lo, p->days.ci_hi};
    cJSON_AddItemToObject(dl, "ci95", cJSON_CreateDoubleArray(ci, 2));
    if (isnan(p->change)) {
        cJSON_AddNullToObject(o, "change");
        return o;
    }
    cJSON *ch = cJSON_AddObjectToObject(o, "change");
    cJSON_AddNumberToObject(ch, "probability", p->change);
    cJSON_AddNumberToObject(ch, "se", p->change_se);
    return o;
}

static void json_heading(cJSON *root, const tmc_forecast_history *h)
{
    const tmc_experiment *x = h->base;
    cJSON_AddStringToObject(root, "command", "forecast");
    cJSON_AddStringToObject(root, "experiment", x->name);
    cJSON_AddStringToObject(root, "source", x->source);
    cJSON_AddStringToObject(root, "experiment_path", x->path);
    cJSON_AddStringToObject(root, "history", h->path);
    cJSON_AddNumberToObject(root, "replicas", (double)x->monte_carlo.replicas);
    char seed[24]; /* raw: cJSON rounds integers near 2^53 */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)x->monte_carlo.seed);
    cJSON_AddRawToObject(root, "seed", seed);
    const char *sets[TMC_OVERRIDES_BYTES / 2];
    int n = tmc_config_list_overrides(x, sets, TMC_OVERRIDES_BYTES / 2);
    cJSON_AddItemToObject(root, "overrides", cJSON_CreateStringArray(sets, n));
    cJSON *dl = cJSON_AddObjectToObject(root, "deadline");
    cJSON_AddNumberToObject(dl, "days", x->deadline.days);
    cJSON_AddNumberToObject(dl, "reserve_days", x->deadline.reserve_days);
}

cJSON *tmc_forecast_history_output_json(const tmc_forecast_history_report *r)
{
    const tmc_forecast_history *h = r->h;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    tmc_experiment scratch = *h->base; /* a view; its progress alone changes */
    json_heading(root, h);
    cJSON *points = cJSON_AddArrayToObject(root, "snapshots");
    for (int i = 0; i < h->n; i++)
        cJSON_AddItemToArray(points, point_json(&scratch, &h->points[i]));
    tmc_closed_form cf;
    tmc_experiment x = latest(h, &cf);
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(&x, &cf));
    return root;
}
