/* rescue_output.c - `trainmc rescue` text and JSON (rescue_output.h). */
#include "rescue_output.h"
#include "sweep_output.h"
#include "assumed_output.h"

#include <string.h>

/* ---------- shared ---------- */

int tmc_rescue_output_simulations(const tmc_rescue *r)
{
    int n = 1;
    for (int i = 0; i < r->n_levers; i++)
        n += r->levers[i].search.n > 0 ? r->levers[i].search.n - 1 : 0;
    return n;
}

static int meets(const tmc_sweep_target *t, const tmc_sweep_result *res)
{
    double v, lo, hi;
    tmc_sweep_estimate_metric(res, t->metric, &v, &lo, &hi);
    return tmc_sweep_meets_target(t, v);
}

static double change(const tmc_rescue_lever *l, int i)
{
    return l->search.settings[i].value[0] / l->current - 1;
}

/* ---------- text ---------- */

static void text_heading(FILE *f, const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    const tmc_experiment *x = &r->plan.x;
    fprintf(f, "trainmc rescue: %s (%s%s%s)\n", x->name, x->path,
            x->source[0] ? "; source: " : "", x->source);
    int sims = tmc_rescue_output_simulations(r);
    fprintf(f, "  target %s; %d simulation%s of %ld replica%s, seed %llu, %d thread%s, "
            "%.2f s\n", r->target.text, sims, sims == 1 ? "" : "s", x->monte_carlo.replicas,
            x->monte_carlo.replicas == 1 ? "" : "s",
            (unsigned long long)x->monte_carlo.seed, rep->threads,
            rep->threads == 1 ? "" : "s", rep->elapsed_s);
    fprintf(f, "  common random numbers: replica k draws the streams of (seed, k) at every "
               "evaluation\n\n");
}

static void text_plan(FILE *f, const tmc_rescue *r)
{
    char m[96];
    tmc_sweep_output_metric_text(r->target.metric, &r->plan_result, m, sizeof m);
    int met = tmc_rescue_plan_meets(r);
    fprintf(f, "The plan as it stands: %s %s (95 %%), mean T %.4f days: %s %s.\n",
            tmc_sweep_name_metric(r->target.metric), m, r->plan_result.days.mean,
            met ? "meets" : "misses", r->target.text);
    if (met)
        fprintf(f, "No change is needed.\n");
}

static void text_bracket(FILE *f, const tmc_rescue_lever *l)
{
    const tmc_sweep_bracket *b = &l->bracket;
    fprintf(f, "\n%s: %s\n  bracket [%.10g, %.10g]", b->key, tmc_rescue_describe_lever(l),
            b->lo, b->hi);
    if (l->kind == TMC_RESCUE_DEADLINE)
        fprintf(f, " (the far end doubled %d time%s, %s)", l->doublings,
                l->doublings == 1 ? "" : "s",
                l->outcome == TMC_RESCUE_UNREACHED ? "up to the cap" : "until it met");
    if (l->kind == TMC_RESCUE_INTERVAL)
        fprintf(f, l->two_level ? " (to the two-level optimum)" : " (to Daly's optimum)");
    if (l->kind >= TMC_RESCUE_RESTORE)
        fprintf(f, " (down to instant)");
    if (b->tol > 0)
        fprintf(f, ", bisected to %.4g", b->tol);
    else
        fprintf(f, ", bisected to adjacent integers");
    fprintf(f, "; %d evaluations, the plan's among them\n", l->search.n);
}

/* "  found  VALUE  CHANGE  METRIC [LO, HI] meets, mean T" for evaluation i. */
static void text_row(FILE *f, const tmc_rescue *r, const tmc_rescue_lever *l, const char *what,
                     int i)
{
    const tmc_sweep_result *res = &l->search.results[i];
    char m[96];
    tmc_sweep_output_metric_text(r->target.metric, res, m, sizeof m);
    fprintf(f, "  %-10s %14.10g %+8.3f %%   %s %-6s  mean T %.4f d\n", what,
            l->search.settings[i].value[0], 100 * change(l, i), m,
            meets(&r->target, res) ? "meets" : "misses", res->days.mean);
}

static void text_lever(FILE *f, const tmc_rescue *r, const tmc_rescue_lever *l)
{
    const tmc_sweep_bracket *b = &l->bracket;
    if (l->outcome == TMC_RESCUE_NOT_APPLICABLE) {
        fprintf(f, "\n%s: does not apply: %s\n", b->key, l->why);
        return;
    }
    text_bracket(f, l);
    if (l->outcome == TMC_RESCUE_REFUSED) {
        fprintf(f, "  refused: %s\n", l->why);
        return;
    }
    if (l->outcome == TMC_RESCUE_UNDECIDED) {
        fprintf(f, "  undecided: %s; not examined: %.10g-%.10g (%ld counts in all)\n", l->why,
                l->unexamined[0], l->unexamined[1], l->n_unexamined);
        return;
    }
    if (l->outcome == TMC_RESCUE_UNREACHED) {
        fprintf(f, "  does not reach %s within its bracket; the best it reached:\n",
                r->target.text);
        text_row(f, r, l, "best", l->best);
        return;
    }
    text_row(f, r, l, "found", l->found);
    text_row(f, r, l, "neighbour", l->neighbour);
    if (l->unresolved)
        fprintf(f, "  Uncertain: the target %.10g lies inside a 95 %% interval above: at %ld "
                   "replicas the boundary is not\n  resolved; more replicas narrow the "
                   "intervals.\n", r->target.value, r->plan.x.monte_carlo.replicas);
}

void tmc_rescue_output_closed_text(const tmc_rescue *r, const tmc_rescue_lever *l, char *buf,
                                   size_t n)
{
    const char *form = r->plan.x.elastic.enabled ? "elastic form" : "Daly";
    switch (l->closed) {
    case TMC_RESCUE_CLOSED_FOUND: /* a closed form has no spread: for P, where T meets */
        snprintf(buf, n, "; %s%s: %.6g", form,
                 r->target.metric == TMC_SWEEP_PROBABILITY ? " T meets the deadline" : "",
                 l->closed_value);
        break;
    case TMC_RESCUE_CLOSED_MEETS:
        snprintf(buf, n, "; %s: meets at the current value", form);
        break;
    case TMC_RESCUE_CLOSED_UNREACHED:
        snprintf(buf, n, "; %s: misses even at 0", form);
        break;
    default:
        buf[0] = '\0';
    }
}

/* The answer (issue 32): one row per lever, the smallest change found; a
 * recovery lever's closed form beside it. */
static void text_summary(FILE *f, const tmc_rescue *r)
{
    fprintf(f, "Answer: the smallest change of one lever alone that meets %s\n",
            r->target.text);
    int w = 26; /* the widest key: a cause's can be longer */
    for (int i = 0; i < r->n_levers; i++)
        if ((int)strlen(r->levers[i].bracket.key) > w)
            w = (int)strlen(r->levers[i].bracket.key);
    fprintf(f, "%-*s %12s %14s %10s  %s [95 %%]\n", w, "lever", "current", "found", "change",
            tmc_sweep_name_metric(r->target.metric));
    for (int i = 0; i < r->n_levers; i++) {
        const tmc_rescue_lever *l = &r->levers[i];
        char m[96], closed[96];
        tmc_rescue_output_closed_text(r, l, closed, sizeof closed);
        if (l->outcome == TMC_RESCUE_NOT_APPLICABLE && l->kind >= TMC_RESCUE_RESTORE)
            fprintf(f, "%-*s %12s ", w, l->bracket.key, "-"); /* -1: not given */
        else
            fprintf(f, "%-*s %12.10g ", w, l->bracket.key, l->current);
        if (l->outcome == TMC_RESCUE_FOUND) {
            tmc_sweep_output_metric_text(r->target.metric, &l->search.results[l->found], m,
                                         sizeof m);
            fprintf(f, "%14.10g %+8.3f %%  %s%s%s\n", l->search.settings[l->found].value[0],
                    100 * change(l, l->found), m, l->unresolved ? " (uncertain)" : "",
                    closed);
        } else {
            fprintf(f, "%14s %10s  %s%s\n", "-", "-",
                    l->outcome == TMC_RESCUE_UNREACHED ? "not reached within its bracket"
                    : l->outcome == TMC_RESCUE_UNDECIDED ? "undecided (not all examined)"
                    : l->outcome == TMC_RESCUE_REFUSED ? "refused"
                                                       : "does not apply",
                    closed);
        }
    }
}

void tmc_rescue_output_answer_text(FILE *f, const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    text_plan(f, r);
    if (!tmc_rescue_plan_meets(r))
        text_summary(f, r);
}

void tmc_rescue_output_text(FILE *f, const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    text_heading(f, rep);
    tmc_rescue_output_answer_text(f, rep);
    tmc_assumed_output_text(f, &r->plan.x, &r->plan.cf);
    tmc_rescue_output_levers_text(f, rep);
}

void tmc_rescue_output_levers_text(FILE *f, const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    if (tmc_rescue_plan_meets(r))
        return;
    fprintf(f, "\nEach lever: its bracket, the bisection, the value found and its neighbour\n");
    for (int i = 0; i < r->n_levers; i++)
        text_lever(f, r, &r->levers[i]);
}

/* ---------- JSON ---------- */

static cJSON *json_metric(const tmc_sweep_target *t, const tmc_sweep_result *res)
{
    double v, ci[2];
    tmc_sweep_estimate_metric(res, t->metric, &v, &ci[0], &ci[1]);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", v);
    cJSON_AddItemToObject(o, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddBoolToObject(o, "meets", tmc_sweep_meets_target(t, v));
    cJSON_AddNumberToObject(o, "mean_days", res->days.mean);
    return o;
}

/* {value, change, metric} of evaluation i. */
static cJSON *json_point(const tmc_rescue *r, const tmc_rescue_lever *l, int i)
{
    const tmc_sweep_setting *s = &l->search.settings[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", s->value[0]);
    cJSON_AddNumberToObject(o, "change", change(l, i));
    cJSON_AddNumberToObject(o, "step_s", s->cf.step_s);
    cJSON_AddNumberToObject(o, "interval_steps", (double)s->cf.interval_steps);
    cJSON_AddItemToObject(o, "metric", json_metric(&r->target, &l->search.results[i]));
    return o;
}

static const char *outcome_name(tmc_rescue_outcome o)
{
    switch (o) {
    case TMC_RESCUE_FOUND:
        return "found";
    case TMC_RESCUE_UNREACHED:
        return "not_reached";
    case TMC_RESCUE_REFUSED:
        return "refused";
    case TMC_RESCUE_UNDECIDED:
        return "undecided";
    default:
        return "not_applicable";
    }
}

static void add_point_or_null(cJSON *o, const char *name, int has, const tmc_rescue *r,
                              const tmc_rescue_lever *l, int i)
{
    if (has)
        cJSON_AddItemToObject(o, name, json_point(r, l, i));
    else
        cJSON_AddNullToObject(o, name);
}

/* "closed_form": null, or {"outcome", "value"} for a recovery lever. */
static void json_closed(cJSON *o, const tmc_rescue_lever *l)
{
    static const char *const names[] = {NULL, "found", "meets_now", "not_reached"};
    if (l->closed == TMC_RESCUE_CLOSED_NONE) {
        cJSON_AddNullToObject(o, "closed_form");
        return;
    }
    cJSON *c = cJSON_AddObjectToObject(o, "closed_form");
    cJSON_AddStringToObject(c, "outcome", names[l->closed]);
    if (l->closed == TMC_RESCUE_CLOSED_FOUND)
        cJSON_AddNumberToObject(c, "value", l->closed_value);
    else
        cJSON_AddNullToObject(c, "value");
}

static cJSON *json_lever(const tmc_rescue *r, const tmc_rescue_lever *l)
{
    cJSON *o = cJSON_CreateObject();
    int found = l->outcome == TMC_RESCUE_FOUND;
    cJSON_AddStringToObject(o, "key", l->bracket.key);
    cJSON_AddNumberToObject(o, "current", l->current);
    cJSON_AddStringToObject(o, "direction", l->larger ? "larger" : "smaller");
    cJSON_AddStringToObject(o, "outcome", outcome_name(l->outcome));
    if (l->why[0])
        cJSON_AddStringToObject(o, "reason", l->why);
    else
        cJSON_AddNullToObject(o, "reason");
    double bracket[3] = {l->bracket.lo, l->bracket.hi, l->bracket.tol};
    cJSON_AddItemToObject(o, "bracket", cJSON_CreateDoubleArray(bracket, 3));
    cJSON_AddNumberToObject(o, "doublings", l->doublings);
    add_point_or_null(o, "found", found, r, l, l->found);
    add_point_or_null(o, "neighbour", found, r, l, l->neighbour);
    cJSON_AddBoolToObject(o, "uncertain", l->unresolved);
    add_point_or_null(o, "best", l->outcome == TMC_RESCUE_UNREACHED, r, l, l->best);
    if (l->outcome == TMC_RESCUE_UNDECIDED) {
        cJSON *u = cJSON_AddObjectToObject(o, "unexamined");
        cJSON_AddItemToObject(u, "widest", cJSON_CreateDoubleArray(l->unexamined, 2));
        cJSON_AddNumberToObject(u, "counts", (double)l->n_unexamined);
    } else {
        cJSON_AddNullToObject(o, "unexamined");
    }
    json_closed(o, l);
    cJSON *list = cJSON_AddArrayToObject(o, "evaluations");
    for (int i = 0; i < l->search.n; i++)
        cJSON_AddItemToArray(list, json_point(r, l, i));
    return o;
}

cJSON *tmc_rescue_output_json(const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    const tmc_experiment *x = &r->plan.x;
    cJSON *root = cJSON_CreateObject();
    tmc_sweep_output_json_heading(root, "rescue", x);
    cJSON *t = cJSON_AddObjectToObject(root, "target");
    cJSON_AddStringToObject(t, "text", r->target.text);
    cJSON_AddStringToObject(t, "metric", tmc_sweep_name_metric(r->target.metric));
    cJSON_AddStringToObject(t, "op", r->target.at_least ? ">=" : "<=");
    cJSON_AddNumberToObject(t, "value", r->target.value);
    cJSON_AddItemToObject(root, "plan", json_metric(&r->target, &r->plan_result));
    cJSON_AddBoolToObject(root, "change_needed", !tmc_rescue_plan_meets(r));
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(x, &r->plan.cf));
    cJSON *list = cJSON_AddArrayToObject(root, "levers");
    for (int i = 0; i < r->n_levers && !tmc_rescue_plan_meets(r); i++)
        cJSON_AddItemToArray(list, json_lever(r, &r->levers[i]));
    return root;
}
