/* sweep_output.c - `trainmc sweep` text and JSON (sweep_output.h). */
#include "sweep_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assumed_output.h"
#include "cost.h"
#include "csv.h"
#include "output.h"

/* "every step drawn", "segment draws (exact)" or both. */
static const char *modes_text(const tmc_sweep_result *r, int n)
{
    int seg = 0;
    for (int i = 0; i < n; i++)
        seg += r[i].mode == TMC_MODE_SEGMENTS;
    return seg == 0 ? "every step drawn" : seg == n ? "segment draws (exact)"
                                                    : "segment draws and every step drawn";
}

static void text_heading(FILE *f, const tmc_experiment *x, const char *what, long replicas,
                         int threads, double elapsed_s, const char *modes)
{
    fprintf(f, "trainmc sweep: %s (%s%s%s)\n", x->name, x->path,
            x->source[0] ? "; source: " : "", x->source);
    fprintf(f, "  %s, %ld replicas each, seed %llu, %d thread%s, %s, %.2f s\n", what,
            replicas, (unsigned long long)x->monte_carlo.seed, threads,
            threads == 1 ? "" : "s", modes, elapsed_s);
    fprintf(f, "  common random numbers: replica k draws the streams of (seed, k) at every "
               "setting\n\n");
}

static int key_width(const char *key)
{
    int w = (int)strlen(key);
    return w < 8 ? 8 : w;
}

int tmc_sweep_output_best_p(const tmc_sweep_report *r)
{
    int best = r->reference;
    for (int i = 0; i < r->n; i++) {
        const tmc_summary *d = &r->results[i].days, *b = &r->results[best].days;
        if (d->p_met > b->p_met || (d->p_met == b->p_met && d->mean < b->mean))
            best = i;
    }
    return best;
}

/* A setting's T and P on one line, after `what`. */
static void text_setting(FILE *f, const tmc_sweep_report *r, const char *what, int i)
{
    const tmc_summary *d = &r->results[i].days;
    fprintf(f, "%s %s: T %.4f +- %.4f days, P(T <= %g days) %.3f [%.3f, %.3f]\n", what,
            r->settings[i].label, d->mean, d->se, r->settings[i].x.deadline.days, d->p_met,
            d->ci_lo, d->ci_hi);
}

/* The answer first (issue 32): the lowest mean T, the highest P when another
 * setting has it, and what the best setting assumes. */
static void text_answer(FILE *f, const tmc_sweep_report *r)
{
    text_setting(f, r, "Answer: the lowest mean T at", r->reference);
    int p = tmc_sweep_output_best_p(r);
    if (p != r->reference)
        text_setting(f, r, "        the highest P at", p);
    const tmc_sweep_setting *s = &r->settings[r->reference];
    tmc_assumed_output_text(f, &s->x, &s->cf);
    fprintf(f, "\n");
}

/* ---------- the grid's table ---------- */

/* A swept key's column heading: its last name (the heading line above the
 * table names it whole), or the whole key when two axes share a last name. */
static const char *column_name(const tmc_sweep_report *r, int a)
{
    const char *dot = strrchr(r->axes[a].key, '.'), *name = dot ? dot + 1 : r->axes[a].key;
    for (int b = 0; b < r->n_axes; b++) {
        const char *other = strrchr(r->axes[b].key, '.');
        if (b != a && !strcmp(other ? other + 1 : r->axes[b].key, name))
            return r->axes[a].key;
    }
    return name;
}

/* The table fits 100 columns for one key whose last name has up to 12
 * characters: the simulated figures with their standard errors, Daly's
 * closed form beside them; the step time, Young's L, the variance reduction
 * and the quantiles are in --csv and --json. */
/* 1 when some setting has two levels of snapshots: the closed-form column
 * is then theirs where they apply (docs/model.md 3.23). */
static int any_levels(const tmc_sweep_report *r)
{
    for (int i = 0; i < r->n; i++)
        if (r->settings[i].x.checkpoint.persistent_every > 1)
            return 1;
    return 0;
}

/* The closed form's overhead beside setting s: Daly's, or with two levels
 * the two-level first-order one. */
static double closed_overhead(const tmc_sweep_setting *s)
{
    tmc_levels_form lf;
    tmc_closed_form_levels(&s->x, &s->cf, &lf);
    return lf.enabled ? lf.overhead : s->cf.overhead_daly;
}

static void text_columns(FILE *f, const tmc_sweep_report *r)
{
    for (int a = 0; a < r->n_axes; a++)
        fprintf(f, "%*s ", key_width(column_name(r, a)), column_name(r, a));
    fprintf(f, "%5s %-15s %6s %-18s %-21s %s\n", "K", "overhead %",
            any_levels(r) ? "form %" : "Daly %", "mean T (days)", "P(T <= deadline)",
            "T - T(ref) (days)");
}

static void text_row(FILE *f, const tmc_sweep_report *r, int i)
{
    const tmc_sweep_setting *s = &r->settings[i];
    const tmc_sweep_result *res = &r->results[i];
    const tmc_sweep_diff *d = &r->diffs[i];
    char ov[32], t[32], p[40], diff[40];
    for (int a = 0; a < r->n_axes; a++)
        fprintf(f, "%*.10g ", key_width(column_name(r, a)), s->value[a]);
    if (isnan(res->overhead)) /* a forecast with no compute left */
        snprintf(ov, sizeof ov, "n/a");
    else
        snprintf(ov, sizeof ov, "%.3f +- %.3f", 100 * res->overhead, 100 * res->overhead_se);
    snprintf(t, sizeof t, "%.4f +- %.4f", res->days.mean, res->days.se);
    snprintf(p, sizeof p, "%.3f [%.3f, %.3f]", res->days.p_met, res->days.ci_lo,
             res->days.ci_hi);
    if (i == r->reference)
        snprintf(diff, sizeof diff, "reference");
    else
        snprintf(diff, sizeof diff, "%+.4f +- %.4f", d->mean, d->se);
    fprintf(f, "%5ld %-15s %6.3f %-18s %-21s %s\n", s->cf.interval_steps, ov,
            100 * closed_overhead(s), t, p, diff);
}

static void text_legend(FILE *f, const tmc_sweep_report *r)
{
    fprintf(f, "\nK: steps per checkpoint interval. +- one standard error; P(T <= deadline) "
               "with its\nWilson 95 %% interval. T - T(ref): the mean over replicas of each "
               "replica's difference\nin completion time from the reference; replica k meets "
               "the same interruptions at\nevery setting (common random numbers). --csv and "
               "--json add the step time, Young's L,\nquantiles and the variance reduction.\n"
               "Reference (the lowest mean T): %s\n",
            r->settings[r->reference].label);
    if (any_levels(r))
        fprintf(f, "form %%: Daly's overhead with one level of snapshots, the two-level "
                   "first-order one (docs/model.md 3.23) with persistent_every above 1.\n");
    long budget = r->base->x.deadline.max_restarts;
    if (budget >= 0)
        fprintf(f, "P(T <= deadline) counts a run with more than %ld restart%s as a miss "
                   "(deadline.max_restarts).\n", budget, budget == 1 ? "" : "s");
}

/* The values of axis a within 2 se of the best on line `idx`. */
static void text_within(FILE *f, const tmc_sweep_report *r, const int *idx, int a)
{
    const tmc_sweep_axis *ax = &r->axes[a];
    int count = 0;
    for (int v = 0; v < ax->n; v++)
        count += r->within[idx[v]];
    if (count == 1) {
        fprintf(f, "; no other setting within %.0f se (CRN) of it\n", TMC_SWEEP_WITHIN_SE);
        return;
    }
    fprintf(f, "; within %.0f se (CRN) of it: ", TMC_SWEEP_WITHIN_SE);
    const char *sep = "";
    for (int v = 0; v < ax->n; v++)
        if (r->within[idx[v]]) {
            fprintf(f, "%s%.10g", sep, ax->values[v]);
            sep = ", ";
        }
    fprintf(f, "\n");
}

static void text_optimum(FILE *f, const tmc_sweep_report *r)
{
    int a = r->interval_axis, n_lines = tmc_sweep_count_lines(r->axes, r->n_axes, a);
    int *idx = malloc((size_t)r->axes[a].n * sizeof *idx);
    if (!idx)
        return;
    fprintf(f, "\nOptimum interval (docs/model.md 3.4, 3.5%s):\n", any_levels(r) ? ", 3.23" : "");
    for (int j = 0; j < n_lines; j++) {
        tmc_sweep_get_line(r->axes, r->n_axes, a, j, idx);
        const tmc_sweep_setting *best = &r->settings[r->line_best[idx[0]]];
        if (r->n_axes == 2)
            fprintf(f, "  %s=%.10g:", r->axes[1 - a].key, best->value[1 - a]);
        double t_s = best->cf.step_s;
        tmc_levels_form lf;
        tmc_closed_form_levels(&best->x, &best->cf, &lf);
        double tau = lf.enabled ? tmc_closed_form_levels_interval(&lf, lf.m) : 0;
        if (lf.enabled)
            fprintf(f, "  two-level tau* %.0f s (%.0f steps); best pair %.0f s with one "
                       "snapshot in %ld persistent (docs/model.md 3.23)\n", tau, tau / t_s,
                    lf.best_interval_s, lf.best_m);
        else
            fprintf(f, "  Young tau* %.0f s (%.0f steps), Daly tau_opt %.0f s (%.0f steps)\n",
                    best->cf.young_interval_s, best->cf.young_interval_s / t_s,
                    best->cf.daly_interval_s, best->cf.daly_interval_s / t_s);
        fprintf(f, "  %*ssimulated: lowest mean T at %s=%.10g", r->n_axes == 2 ? 2 : 0,
                "", r->axes[a].key, best->value[a]);
        text_within(f, r, idx, a);
    }
    free(idx);
}

/* With --importance: each setting's P(miss) by importance sampling. */
static void text_importance(FILE *f, const tmc_sweep_report *r)
{
    if (!r->n || !r->results[0].has_importance)
        return;
    fprintf(f, "\nRare misses, importance sampling (P(T > deadline); tilt of the rates of "
               "failures, outages, spikes and the means of repairs, downtimes):\n");
    for (int i = 0; i < r->n; i++) {
        const tmc_importance *is = &r->results[i].importance;
        fprintf(f, " ");
        for (int a = 0; a < r->n_axes; a++)
            fprintf(f, " %s=%.10g", r->axes[a].key, r->settings[i].value[a]);
        fprintf(f, ": %.4g +- %.2g (relative error %.2g %%, Pareto k-hat %.2f", is->p_miss,
                is->se, is->p_miss > 0 ? 100 * is->se / is->p_miss : 0, is->pareto_k);
        if (is->plain_replicas)
            fprintf(f, " > 0.5: not used; plain Monte Carlo %.4g [%.4g, %.4g] 95 %% over %ld "
                       "replicas", is->plain_p, is->plain_lo, is->plain_hi, is->plain_replicas);
        else if (!(is->p_miss > 0))
            fprintf(f, ": NO ESTIMATE, no tilted replica missed");
        else if (!tmc_importance_trusted(is))
            fprintf(f, " > 0.5: NO INTERVAL; plain Monte Carlo needs %ld replicas, above "
                       "--importance-plain-max %ld", is->plain_needed, is->plain_max);
        fprintf(f, "), tilt %.3g, %.3g, %.3g, %.3g, %.3g\n", is->theta[TMC_TILT_FAILURES],
                is->theta[TMC_TILT_OUTAGES],
                is->theta[TMC_TILT_SPIKES], is->theta[TMC_TILT_REPAIRS],
                is->theta[TMC_TILT_DOWNTIMES]);
    }
}

/* Each setting's card-hours per run (cards held x wall time) and, with a
 * cost section, money, beside Young's (cost.h; issue 20): the mean, as in
 * the JSON's per-setting cost object. */
static void text_cost(FILE *f, const tmc_sweep_report *r)
{
    fprintf(f, "\nCost per run, mean (Young): card-hours%s\n",
            r->base->x.cost.enabled ? "; money" : "");
    for (int i = 0; i < r->n; i++) {
        const tmc_sweep_setting *s = &r->settings[i];
        const tmc_cost_summary c = r->results[i].cost;
        for (int a = 0; a < r->n_axes; a++)
            fprintf(f, "%*.10g ", key_width(column_name(r, a)), s->value[a]);
        fprintf(f, "%.6g (%.6g), %ld cards held", c.mean, c.closed_form, c.cards_held);
        if (c.priced)
            fprintf(f, "; %.6g (%.6g)", c.money_mean, c.money_closed_form);
        fputc('\n', f);
    }
}

void tmc_sweep_output_text(FILE *f, const tmc_sweep_report *r)
{
    char what[300];
    if (r->n_axes == 1)
        snprintf(what, sizeof what, "%d settings of %s", r->n, r->axes[0].key);
    else
        snprintf(what, sizeof what, "%d x %d settings of %s x %s", r->axes[0].n,
                 r->axes[1].n, r->axes[0].key, r->axes[1].key);
    const tmc_experiment *x = &r->base->x;
    text_heading(f, x, what, x->monte_carlo.replicas, r->threads, r->elapsed_s,
                 modes_text(r->results, r->n));
    text_answer(f, r);
    tmc_sweep_output_table_text(f, r);
}

void tmc_sweep_output_table_text(FILE *f, const tmc_sweep_report *r)
{
    text_columns(f, r);
    for (int i = 0; i < r->n; i++)
        text_row(f, r, i);
    text_legend(f, r);
    text_cost(f, r);
    if (r->interval_axis >= 0)
        text_optimum(f, r);
    text_importance(f, r);
}

/* ---------- CSV ---------- */

static void csv_header(FILE *f, const tmc_sweep_report *r)
{
    fputs("setting", f);
    for (int a = 0; a < r->n_axes; a++)
        fprintf(f, ",%s", r->axes[a].key);
    fputs(",interval_steps,step_s,young_overhead,daly_overhead,overhead,overhead_se,"
          "mean_days,se_days,sd_days", f);
    for (int q = 0; q < TMC_STATS_NQ; q++)
        fprintf(f, ",p%02.0f_days", 100 * tmc_stats_levels[q]);
    fputs(",p_deadline,p_deadline_lo,p_deadline_hi,difference_days,difference_se,"
          "variance_reduction,replicas\n", f);
}

static void csv_row(FILE *f, const tmc_sweep_report *r, int i)
{
    const tmc_sweep_setting *s = &r->settings[i];
    const tmc_sweep_result *res = &r->results[i];
    const tmc_sweep_diff *d = &r->diffs[i];
    fprintf(f, "%d", i + 1);
    for (int a = 0; a < r->n_axes; a++)
        tmc_csv_number(f, s->value[a]);
    fprintf(f, ",%ld", s->cf.interval_steps);
    double v[] = {s->cf.step_s, s->cf.overhead_young, s->cf.overhead_daly, res->overhead,
                  res->overhead_se, res->days.mean, res->days.se, res->days.sd};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++)
        tmc_csv_number(f, v[k]);
    for (int q = 0; q < TMC_STATS_NQ; q++)
        tmc_csv_number(f, res->days.quantile[q]);
    double w[] = {res->days.p_met, res->days.ci_lo, res->days.ci_hi, d->mean, d->se,
                  d->reduction};
    for (size_t k = 0; k < sizeof w / sizeof *w; k++)
        tmc_csv_number(f, w[k]);
    fprintf(f, ",%ld\n", res->days.n);
}

char *tmc_sweep_output_csv(const tmc_sweep_report *r)
{
    tmc_csv c;
    if (tmc_csv_open(&c))
        return NULL;
    csv_header(c.f, r);
    for (int i = 0; i < r->n; i++)
        csv_row(c.f, r, i);
    return tmc_csv_close(&c);
}

/* ---------- JSON ---------- */

/* `trainmc run --json`'s object for one setting, plus its values. */
static cJSON *json_setting(const tmc_sweep_base *b, const tmc_sweep_setting *s,
                           const tmc_sweep_result *res)
{
    const char **sets = malloc((size_t)(b->n_sets + 1 + b->n_keys) * sizeof *sets);
    if (!sets)
        return NULL;
    tmc_report rep = {.x = &s->x, .cf = &s->cf, .days = &res->days, .totals = &res->totals,
                      .replicas = s->x.monte_carlo.replicas, .seed = s->x.monte_carlo.seed,
                      .mode = res->mode, .table_error = res->table_error,
                      .horizon_s = res->horizon_s, .overrides = sets,
                      .restarts = &res->restarts, .cost = &res->cost,
                      .importance = res->has_importance ? &res->importance : NULL,
                      .n_overrides = tmc_sweep_list_overrides(b, s, sets)};
    cJSON *o = tmc_output_json(&rep);
    free(sets);
    cJSON *values = cJSON_CreateObject();
    for (int a = 0; a < b->n_keys; a++)
        cJSON_AddNumberToObject(values, b->keys[a], s->value[a]);
    cJSON_AddItemToObject(o, "values", values);
    return o;
}

cJSON *tmc_sweep_output_json_diff(const tmc_sweep_diff *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mean", d->mean);
    cJSON_AddNumberToObject(o, "se", d->se);
    cJSON_AddNumberToObject(o, "se_independent", d->se_independent);
    if (isnan(d->reduction))
        cJSON_AddNullToObject(o, "variance_reduction");
    else
        cJSON_AddNumberToObject(o, "variance_reduction", d->reduction);
    return o;
}

void tmc_sweep_output_json_heading(cJSON *root, const char *command, const tmc_experiment *x)
{
    cJSON_AddStringToObject(root, "command", command);
    cJSON_AddStringToObject(root, "experiment", x->name);
    cJSON_AddStringToObject(root, "source", x->source);
    cJSON_AddStringToObject(root, "experiment_path", x->path);
    cJSON_AddNumberToObject(root, "replicas", (double)x->monte_carlo.replicas);
    char seed[24]; /* raw: cJSON rounds integers near 2^53 */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)x->monte_carlo.seed);
    cJSON_AddRawToObject(root, "seed", seed);
}

static cJSON *json_optimum(const tmc_sweep_report *r)
{
    int a = r->interval_axis, n_lines = tmc_sweep_count_lines(r->axes, r->n_axes, a);
    int *idx = malloc((size_t)r->axes[a].n * sizeof *idx);
    cJSON *list = cJSON_CreateArray();
    for (int j = 0; idx && j < n_lines; j++) {
        tmc_sweep_get_line(r->axes, r->n_axes, a, j, idx);
        const tmc_sweep_setting *best = &r->settings[r->line_best[idx[0]]];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", r->axes[a].key);
        if (r->n_axes == 2)
            cJSON_AddNumberToObject(o, r->axes[1 - a].key, best->value[1 - a]);
        cJSON_AddNumberToObject(o, "young_interval_s", best->cf.young_interval_s);
        cJSON_AddNumberToObject(o, "daly_interval_s", best->cf.daly_interval_s);
        cJSON_AddNumberToObject(o, "best", best->value[a]);
        cJSON *within = cJSON_AddArrayToObject(o, "within_2se");
        for (int v = 0; v < r->axes[a].n; v++)
            if (r->within[idx[v]])
                cJSON_AddItemToArray(within, cJSON_CreateNumber(r->axes[a].values[v]));
        cJSON_AddItemToArray(list, o);
    }
    free(idx);
    return list;
}

cJSON *tmc_sweep_output_json(const tmc_sweep_report *r)
{
    cJSON *root = cJSON_CreateObject();
    tmc_sweep_output_json_heading(root, "sweep", &r->base->x);
    cJSON *vary = cJSON_AddArrayToObject(root, "vary");
    for (int a = 0; a < r->n_axes; a++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", r->axes[a].key);
        cJSON_AddItemToObject(o, "values", cJSON_CreateDoubleArray(r->axes[a].values,
                                                                   r->axes[a].n));
        cJSON_AddItemToArray(vary, o);
    }
    cJSON_AddStringToObject(root, "reference", r->settings[r->reference].label);
    cJSON_AddStringToObject(root, "highest_probability",
                            r->settings[tmc_sweep_output_best_p(r)].label);
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(&r->settings[r->reference].x,
                                                                   &r->settings[r->reference].cf));
    cJSON *list = cJSON_AddArrayToObject(root, "settings");
    for (int i = 0; i < r->n; i++) {
        cJSON *o = json_setting(r->base, &r->settings[i], &r->results[i]);
        if (!o) {
            cJSON_Delete(root);
            return NULL;
        }
        cJSON_AddItemToObject(o, "difference_days", tmc_sweep_output_json_diff(&r->diffs[i]));
        cJSON_AddItemToArray(list, o);
    }
    if (r->interval_axis >= 0)
        cJSON_AddItemToObject(root, "optimum", json_optimum(r));
    else
        cJSON_AddNullToObject(root, "optimum");
    return root;
}

/* ---------- --target ---------- */

void tmc_sweep_output_metric_text(tmc_sweep_metric metric, const tmc_sweep_result *res,
                                  char *buf, size_t n)
{
    double v, lo, hi;
    tmc_sweep_estimate_metric(res, metric, &v, &lo, &hi);
    /* fractions near 0 or 1 need more digits than probabilities and days: a
     * goodput found and its neighbour can differ in the sixth */
    if (metric == TMC_SWEEP_GOODPUT)
        snprintf(buf, n, "%.6f [%.6f, %.6f]", v, lo, hi);
    else if (metric == TMC_SWEEP_OVERHEAD)
        snprintf(buf, n, "%.5f [%.5f, %.5f]", v, lo, hi);
    else
        snprintf(buf, n, "%.4f [%.4f, %.4f]", v, lo, hi);
}

/* "VALUE [LO, HI]" of the metric at evaluation i. */
static void metric_text(const tmc_sweep_target_report *r, int i, char *buf, size_t n)
{
    tmc_sweep_output_metric_text(r->target->metric, &r->results[i], buf, n);
}

static int target_inside(const tmc_sweep_target_report *r, int i)
{
    double v, lo, hi;
    tmc_sweep_estimate_metric(&r->results[i], r->target->metric, &v, &lo, &hi);
    return lo <= r->target->value && r->target->value <= hi;
}

/* 1 when the target lies inside the 95 % interval of the metric at the
 * value found or at its neighbour: the boundary is not resolved. */
static int target_uncertain(const tmc_sweep_target_report *r)
{
    return target_inside(r, r->found) || target_inside(r, r->neighbour);
}

static void text_evaluations(FILE *f, const tmc_sweep_target_report *r)
{
    const char *key = r->bracket->key;
    int w = key_width(key);
    const char *interval = r->target->metric == TMC_SWEEP_PROBABILITY
                               ? "[Wilson 95 %]" : "[95 %: +- 1.96 se]";
    fprintf(f, "%*s %7s %9s   %s %-20s meets\n", w, key, "K", "step (s)",
            tmc_sweep_name_metric(r->target->metric), interval);
    for (int i = 0; i < r->n; i++) {
        const tmc_sweep_setting *s = &r->settings[i];
        double v, lo, hi;
        char m[80];
        tmc_sweep_estimate_metric(&r->results[i], r->target->metric, &v, &lo, &hi);
        metric_text(r, i, m, sizeof m);
        fprintf(f, "%*.10g %7ld %9.3f   %-42s %s\n", w, s->value[0], s->cf.interval_steps,
                s->cf.step_s, m, tmc_sweep_meets_target(r->target, v) ? "yes" : "no");
    }
}

void tmc_sweep_output_target_text(FILE *f, const tmc_sweep_target_report *r)
{
    const tmc_sweep_bisection *b = r->bisection;
    const char *key = r->bracket->key;
    char what[512], found[80], neighbour[80];
    snprintf(what, sizeof what, "target %s on %s in [%.10g, %.10g]: %d evaluations by "
             "bisection", r->target->text, key, r->bracket->lo, r->bracket->hi, r->n);
    text_heading(f, &r->base->x, what, r->base->x.monte_carlo.replicas, r->threads,
                 r->elapsed_s, modes_text(r->results, r->n));
    text_evaluations(f, r);
    metric_text(r, r->found, found, sizeof found);
    metric_text(r, r->neighbour, neighbour, sizeof neighbour);
    fprintf(f, "\nFound: %s=%.10g, the %s value meeting %s: %s;\n       %s=%.10g gives %s and "
               "does not.\n", key, b->found, b->smallest ? "smallest" : "largest",
            r->target->text, found, key, b->neighbour, neighbour);
    if (target_uncertain(r))
        fprintf(f, "Uncertain: the target %.10g lies inside the 95 %% interval at %s=%.10g: "
                   "at %ld replicas the boundary\nis not resolved; more replicas narrow the "
                   "intervals.\n", r->target->value, key,
                target_inside(r, r->found) ? b->found : b->neighbour,
                r->base->x.monte_carlo.replicas);
}

static cJSON *json_metric(const tmc_sweep_target_report *r, int i)
{
    double v, ci[2];
    tmc_sweep_estimate_metric(&r->results[i], r->target->metric, &v, &ci[0], &ci[1]);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", v);
    cJSON_AddItemToObject(o, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddBoolToObject(o, "meets", tmc_sweep_meets_target(r->target, v));
    return o;
}

static cJSON *json_target(const tmc_sweep_target_report *r)
{
    const tmc_sweep_target *t = r->target;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "text", t->text);
    cJSON_AddStringToObject(o, "metric", tmc_sweep_name_metric(t->metric));
    cJSON_AddStringToObject(o, "op", t->at_least ? ">=" : "<=");
    cJSON_AddNumberToObject(o, "value", t->value);
    cJSON_AddStringToObject(o, "key", r->bracket->key);
    double bracket[3] = {r->bracket->lo, r->bracket->hi, r->bracket->tol};
    cJSON_AddItemToObject(o, "bracket", cJSON_CreateDoubleArray(bracket, 3));
    cJSON_AddStringToObject(o, "direction", r->bisection->smallest ? "smallest" : "largest");
    cJSON_AddNumberToObject(o, "found", r->bisection->found);
    cJSON_AddItemToObject(o, "found_metric", json_metric(r, r->found));
    cJSON_AddNumberToObject(o, "neighbour", r->bisection->neighbour);
    cJSON_AddItemToObject(o, "neighbour_metric", json_metric(r, r->neighbour));
    cJSON_AddBoolToObject(o, "uncertain", target_uncertain(r));
    return o;
}

cJSON *tmc_sweep_output_target_json(const tmc_sweep_target_report *r)
{
    cJSON *root = cJSON_CreateObject();
    tmc_sweep_output_json_heading(root, "sweep", &r->base->x);
    cJSON_AddItemToObject(root, "target", json_target(r));
    cJSON *list = cJSON_AddArrayToObject(root, "evaluations");
    for (int i = 0; i < r->n; i++) {
        cJSON *o = json_setting(r->base, &r->settings[i], &r->results[i]);
        if (!o) {
            cJSON_Delete(root);
            return NULL;
        }
        cJSON_AddItemToObject(o, "metric", json_metric(r, i));
        cJSON_AddItemToArray(list, o);
    }
    return root;
}
