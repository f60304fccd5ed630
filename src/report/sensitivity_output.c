/* sensitivity_output.c - `trainmc sensitivity` text and JSON
 * (sensitivity_output.h); the chart is sensitivity_svg.c's. */
#include "sensitivity_output.h"
#include "sweep_output.h"
#include "assumed_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- text ---------- */

/* "+8.1887 +- 0.0001" (sign when signed) of a difference d, 4 decimals. */
static const char *diff_text(const tmc_sweep_diff *d, int signed_, char *buf, size_t n)
{
    snprintf(buf, n, signed_ ? "%+.4f +- %.4f" : "%.4f +- %.4f", d->mean + 0.0, d->se);
    return buf;
}

static int name_width(const tmc_sensitivity *s)
{
    int w = 5;
    for (int i = 0; i < s->n_inputs; i++)
        if ((int)strlen(s->inputs[i].key.name) > w)
            w = (int)strlen(s->inputs[i].key.name);
    return w;
}

static void text_heading(FILE *f, const tmc_sensitivity_report *r)
{
    const tmc_sensitivity *s = r->s;
    const tmc_experiment *x = &s->base.setting.x;
    fprintf(f, "trainmc sensitivity: %s (%s%s%s)\n", x->name, x->path,
            x->source[0] ? "; source: " : "", x->source);
    fprintf(f, "  %d inputs%s, %d settings of %ld replicas, seed %llu, %d thread%s, %.2f s\n",
            s->n_ranked, s->compound_text ? " and a compound case" : "",
            s->n_runs, x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed, r->threads, r->threads == 1 ? "" : "s",
            r->elapsed_s);
    fprintf(f, "  common random numbers: replica k draws the streams of (seed, k) at every "
               "setting\n\n");
}

/* 1 when P(deadline) is the base's at both ends of input in. */
static int p_still(const tmc_sensitivity *s, const tmc_sensitivity_input *in)
{
    double p = s->base.result.days.p_met;
    return in->end[0].result.days.p_met == p && in->end[1].result.days.p_met == p;
}

/* The answer first (issue 32): the input of the largest swing of T, the one
 * of P's (from the rankings), and what the base assumes. */
static void text_answer(FILE *f, const tmc_sensitivity *s)
{
    tmc_sensitivity_output_answer_text(f, s);
    tmc_assumed_output_text(f, &s->base.setting.x, &s->base.setting.cf);
    fprintf(f, "\n");
}

void tmc_sensitivity_output_answer_text(FILE *f, const tmc_sensitivity *s)
{
    const tmc_experiment *x = &s->base.setting.x;
    if (s->n_ranked > 0) {
        const tmc_sensitivity_input *t = &s->inputs[s->by_days[0]];
        const tmc_sensitivity_input *p = &s->inputs[s->by_met[0]];
        fprintf(f, "Answer: the input that moves T most is %s (swing %.4f days); ",
                t->key.name, t->swing_days.mean);
        if (p_still(s, p))
            fprintf(f, "P(T <= %g days) does not move (%.4f at both ends of every input)\n",
                    x->deadline.days, s->base.result.days.p_met);
        else {
            fprintf(f, "P(T <= %g days) moves most with %s (swing %.4f", x->deadline.days,
                    p->key.name, p->swing_met.mean);
            for (int j = 1; j < s->n_ranked; j++)
                if (s->inputs[s->by_met[j]].swing_met.mean == p->swing_met.mean)
                    fprintf(f, "%s%s", j == 1 ? "; as much: " : ", ",
                            s->inputs[s->by_met[j]].key.name);
            fprintf(f, ")\n");
        }
    }
}

static void text_base(FILE *f, const tmc_sensitivity *s)
{
    const tmc_experiment *x = &s->base.setting.x;
    const tmc_summary *b = &s->base.result.days;
    fprintf(f, "Base (the experiment as it stands): mean T %.4f +- %.4f days, P(T <= %g days) "
               "%.4f [%.4f, %.4f]\n\n", b->mean, b->se, x->deadline.days, b->p_met, b->ci_lo,
            b->ci_hi);
}

static void text_days(FILE *f, const tmc_sensitivity *s, int w)
{
    char a[48], b[48], c[48];
    fprintf(f, "Mean completion time T, ranked by the swing (the span of T over the base and "
               "both ends):\n");
    fprintf(f, "%-*s %9s %9s  %-19s %-19s %s\n", w, "input", "low", "high", "T(low) - T (d)",
            "T(high) - T (d)", "swing (d)");
    for (int j = 0; j < s->n_ranked; j++) {
        const tmc_sensitivity_input *in = &s->inputs[s->by_days[j]];
        fprintf(f, "%-*s %9.4g %9.4g  %-19s %-19s %s\n", w, in->key.name, in->low, in->high,
                diff_text(&in->days[0], 1, a, sizeof a), diff_text(&in->days[1], 1, b, sizeof b),
                diff_text(&in->swing_days, 0, c, sizeof c));
    }
}

/* The rows of inputs that move P; those that leave it at the base's at both
 * ends in one line after them. */
static void text_met(FILE *f, const tmc_sensitivity *s, int w)
{
    char a[48], b[48], c[48];
    double days = s->base.setting.x.deadline.days;
    int still = 0;
    for (int j = 0; j < s->n_ranked; j++)
        still += p_still(s, &s->inputs[s->by_met[j]]);
    if (still == s->n_ranked) {
        fprintf(f, "\nP(T <= %g days) is %.4f at both ends of every input.\n", days,
                s->base.result.days.p_met);
        return;
    }
    fprintf(f, "\nP(T <= %g days), ranked by its swing:\n", days);
    fprintf(f, "%-*s %7s %7s  %-19s %-19s %s\n", w, "input", "P(low)", "P(high)",
            "P(low) - P", "P(high) - P", "swing");
    for (int j = 0; j < s->n_ranked; j++) {
        const tmc_sensitivity_input *in = &s->inputs[s->by_met[j]];
        if (p_still(s, in))
            continue;
        fprintf(f, "%-*s %7.4f %7.4f  %-19s %-19s %s\n", w, in->key.name,
                in->end[0].result.days.p_met, in->end[1].result.days.p_met,
                diff_text(&in->met[0], 1, a, sizeof a), diff_text(&in->met[1], 1, b, sizeof b),
                diff_text(&in->swing_met, 0, c, sizeof c));
    }
    if (still)
        fprintf(f, "P(T <= %g days) is %.4f at both ends of every other input.\n", days,
                s->base.result.days.p_met);
}

/* Per input: its range, base and source; the link's exposed communication. */
static void text_ranges(FILE *f, const tmc_sensitivity *s)
{
    fprintf(f, "\nT(end) - T and P(end) - P: the mean over replicas of each replica's "
               "difference from the base, +- its\nstandard error under common random numbers. "
               "Ranges (low .. high; base) and where they come from:\n");
    for (int i = 0; i < s->n_inputs; i++) {
        const tmc_sensitivity_input *in = &s->inputs[i];
        if (in->skipped[0])
            continue;
        fprintf(f, "  %s %.6g .. %.6g (base %.6g): %s\n", in->key.name, in->low, in->high,
                in->key.base, in->source);
        if (in->key.kind != TMC_SENSITIVITY_KEY)
            fprintf(f, "    job.exposed_comm_s %.6g .. %.6g s (base %.6g s)\n",
                    in->end[0].setting.value[1], in->end[1].setting.value[1], in->key.e0);
    }
    for (int i = 0; i < s->n_inputs; i++)
        if (s->inputs[i].skipped[0])
            fprintf(f, "  not varied: %s\n", s->inputs[i].skipped);
}

/* The label of degradation d: "NAME=VALUE". */
static const char *degradation_label(const tmc_sensitivity_degradation *d, char *buf, size_t n)
{
    snprintf(buf, n, "%s=%.6g", d->key.name, d->value);
    return buf;
}

/* The degradations in the order of the gain in T from fixing each, largest
 * first (ties keep their order), into order[s->n_degradations]. */
static void order_gains(const tmc_sensitivity *s, int *order)
{
    for (int i = 0; i < s->n_degradations; i++) {
        int j = i;
        for (; j > 0 && s->degradations[i].gain_days.mean >
                            s->degradations[order[j - 1]].gain_days.mean; j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
}

static void text_compound(FILE *f, const tmc_sensitivity *s)
{
    const tmc_summary *c = &s->compound.result.days;
    int order[TMC_SENSITIVITY_MAX_COMPOUND], w = 10;
    char a[48], b[48], label[TMC_SWEEP_KEY_LEN + 32];
    double sum = 0;
    fprintf(f, "\nCompound case --compound %s: every degradation at once\n", s->compound_text);
    fprintf(f, "  mean T %.4f +- %.4f days (%s against the base), P(T <= %g days) %.4f "
               "[%.4f, %.4f]\n\n", c->mean, c->se, diff_text(&s->compound_days, 1, a, sizeof a),
            s->compound.setting.x.deadline.days, c->p_met, c->ci_lo, c->ci_hi);
    for (int i = 0; i < s->n_degradations; i++) {
        int len = (int)strlen(degradation_label(&s->degradations[i], label, sizeof label));
        w = len > w ? len : w;
    }
    order_gains(s, order);
    fprintf(f, "%-*s  %-19s %8s   %-19s %8s  %s\n", w, "degradation", "alone: T - T(base)",
            "P(alone)", "fixed alone: gain", "P(fixed)", "P gain");
    for (int j = 0; j < s->n_degradations; j++) {
        const tmc_sensitivity_degradation *d = &s->degradations[order[j]];
        char g[48];
        sum += d->gain_days.mean;
        fprintf(f, "%-*s  %-19s %8.4f   %-19s %8.4f  %s\n", w,
                degradation_label(d, label, sizeof label),
                diff_text(&d->alone_days, 1, a, sizeof a), d->alone.result.days.p_met,
                diff_text(&d->gain_days, 1, b, sizeof b), d->fixed.result.days.p_met,
                diff_text(&d->gain_met, 1, g, sizeof g));
    }
    fprintf(f, "\nalone: the base with that degradation only; fixed alone: the compound with "
               "that one restored\nto the base, its gain T(compound) - T(fixed) in days and "
               "P(fixed) - P(compound), +- CRN se.\n");
    fprintf(f, "Fixing all of them gains %.4f +- %.4f days (back to the base); fixing each "
               "alone gains %.4f days in sum.\n", s->compound_days.mean, s->compound_days.se,
            sum);
}

void tmc_sensitivity_output_text(FILE *f, const tmc_sensitivity_report *r)
{
    const tmc_sensitivity *s = r->s;
    text_heading(f, r);
    text_answer(f, s);
    tmc_sensitivity_output_tables_text(f, r);
}

void tmc_sensitivity_output_tables_text(FILE *f, const tmc_sensitivity_report *r)
{
    const tmc_sensitivity *s = r->s;
    int w = name_width(s);
    text_base(f, s);
    text_days(f, s, w);
    text_met(f, s, w);
    text_ranges(f, s);
    if (s->compound_text)
        text_compound(f, s);
}

/* ---------- JSON ---------- */

/* A setting's figures: its overrides beyond the user's, step, K, mean T
 * with se, P(deadline) with its Wilson interval. */
static cJSON *json_run(const tmc_sensitivity_run *r)
{
    const tmc_summary *t = &r->result.days;
    cJSON *o = cJSON_CreateObject(), *sets = cJSON_AddArrayToObject(o, "overrides");
    for (int i = 0; i < r->base.n_keys; i++)
        cJSON_AddItemToArray(sets, cJSON_CreateString(r->setting.assign[i]));
    cJSON_AddNumberToObject(o, "step_s", r->setting.cf.step_s);
    cJSON_AddNumberToObject(o, "interval_steps", (double)r->setting.cf.interval_steps);
    cJSON_AddNumberToObject(o, "mean_days", t->mean);
    cJSON_AddNumberToObject(o, "se_days", t->se);
    cJSON_AddNumberToObject(o, "p_deadline", t->p_met);
    double ci[2] = {t->ci_lo, t->ci_hi};
    cJSON_AddItemToObject(o, "p_deadline_ci95", cJSON_CreateDoubleArray(ci, 2));
    return o;
}

/* An end of input in (e: 0 low, 1 high). */
static cJSON *json_end(const tmc_sensitivity_input *in, int e)
{
    cJSON *o = json_run(&in->end[e]);
    cJSON_AddNumberToObject(o, "value", e ? in->high : in->low);
    cJSON_AddItemToObject(o, "difference_days", tmc_sweep_output_json_diff(&in->days[e]));
    cJSON_AddItemToObject(o, "difference_p", tmc_sweep_output_json_diff(&in->met[e]));
    return o;
}

static const char *kind_name(tmc_sensitivity_kind k)
{
    return k == TMC_SENSITIVITY_KEY ? "key"
         : k == TMC_SENSITIVITY_LINK_HIDDEN ? "link_prefetch_working" : "link_prefetch_failed";
}

static cJSON *json_input(const tmc_sensitivity *s, int i)
{
    const tmc_sensitivity_input *in = &s->inputs[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", in->key.name);
    cJSON_AddStringToObject(o, "kind", kind_name(in->key.kind));
    cJSON_AddNumberToObject(o, "base", in->key.base);
    cJSON_AddNumberToObject(o, "low", in->low);
    cJSON_AddNumberToObject(o, "high", in->high);
    cJSON_AddStringToObject(o, "range_source", in->source);
    if (in->skipped[0]) {
        cJSON_AddStringToObject(o, "skipped", in->skipped);
        return o;
    }
    cJSON_AddNullToObject(o, "skipped");
    for (int j = 0; j < s->n_ranked; j++) {
        if (s->by_days[j] == i)
            cJSON_AddNumberToObject(o, "rank_days", j + 1);
        if (s->by_met[j] == i)
            cJSON_AddNumberToObject(o, "rank_p", j + 1);
    }
    cJSON_AddItemToObject(o, "low_end", json_end(in, 0));
    cJSON_AddItemToObject(o, "high_end", json_end(in, 1));
    cJSON_AddItemToObject(o, "swing_days", tmc_sweep_output_json_diff(&in->swing_days));
    cJSON_AddItemToObject(o, "swing_p", tmc_sweep_output_json_diff(&in->swing_met));
    return o;
}

static cJSON *json_ranking(const tmc_sensitivity *s, const int *order)
{
    cJSON *a = cJSON_CreateArray();
    for (int j = 0; j < s->n_ranked; j++)
        cJSON_AddItemToArray(a, cJSON_CreateString(s->inputs[order[j]].key.name));
    return a;
}

static cJSON *json_compound(const tmc_sensitivity *s)
{
    cJSON *o = json_run(&s->compound), *list;
    cJSON_AddStringToObject(o, "text", s->compound_text);
    cJSON_AddItemToObject(o, "difference_days", tmc_sweep_output_json_diff(&s->compound_days));
    cJSON_AddItemToObject(o, "difference_p", tmc_sweep_output_json_diff(&s->compound_met));
    list = cJSON_AddArrayToObject(o, "degradations");
    for (int i = 0; i < s->n_degradations; i++) {
        const tmc_sensitivity_degradation *d = &s->degradations[i];
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "name", d->key.name);
        cJSON_AddNumberToObject(g, "value", d->value);
        cJSON_AddNumberToObject(g, "base", d->key.base);
        cJSON *alone = json_run(&d->alone), *fixed = json_run(&d->fixed);
        cJSON_AddItemToObject(alone, "difference_days", tmc_sweep_output_json_diff(&d->alone_days));
        cJSON_AddItemToObject(alone, "difference_p", tmc_sweep_output_json_diff(&d->alone_met));
        cJSON_AddItemToObject(fixed, "gain_days", tmc_sweep_output_json_diff(&d->gain_days));
        cJSON_AddItemToObject(fixed, "gain_p", tmc_sweep_output_json_diff(&d->gain_met));
        cJSON_AddItemToObject(g, "alone", alone);
        cJSON_AddItemToObject(g, "fixed", fixed);
        cJSON_AddItemToArray(list, g);
    }
    return o;
}

cJSON *tmc_sensitivity_output_json(const tmc_sensitivity_report *r)
{
    const tmc_sensitivity *s = r->s;
    const tmc_experiment *x = &s->base.setting.x;
    cJSON *root = cJSON_CreateObject();
    tmc_sweep_output_json_heading(root, "sensitivity", x);
    cJSON_AddNumberToObject(root, "deadline_days", x->deadline.days);
    cJSON_AddItemToObject(root, "base", json_run(&s->base));
    cJSON *list = cJSON_AddArrayToObject(root, "inputs");
    for (int i = 0; i < s->n_inputs; i++)
        cJSON_AddItemToArray(list, json_input(s, i));
    cJSON_AddItemToObject(root, "ranking_days", json_ranking(s, s->by_days));
    cJSON_AddItemToObject(root, "ranking_p", json_ranking(s, s->by_met));
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(x, &s->base.setting.cf));
    if (s->compound_text)
        cJSON_AddItemToObject(root, "compound", json_compound(s));
    else
        cJSON_AddNullToObject(root, "compound");
    return root;
}
