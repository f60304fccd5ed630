/* cheapest_output.c - `trainmc cheapest` text and JSON (cheapest_output.h). */
#include "cheapest_output.h"
#include "sweep_output.h"
#include "assumed_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- shared ---------- */

const char *tmc_cheapest_name_unit(const tmc_cheapest *c)
{
    return c->priced ? "money" : "card-hours";
}

void tmc_cheapest_format_plan(const tmc_cheapest *c, const tmc_cheapest_plan *p, char *buf,
                              size_t n)
{
    const char *label = c->combos[p->combo].label;
    snprintf(buf, n, "job.cards=%ld%s%s", p->cards, strcmp(label, "as given") ? ", " : "",
             strcmp(label, "as given") ? label : "");
}

/* 1 when the chosen plan has the range's fewest cards and fewer could be
 * searched (LO above one card step): the optimum may lie below the range. */
static int at_lower_edge(const tmc_cheapest *c)
{
    return c->chosen >= 0 && c->plans[c->chosen].cards == c->levers.cards_lo &&
           c->levers.cards_lo > c->levers.card_step;
}

/* "card", or "node" when the cards move in whole nodes. */
static const char *step_name(const tmc_cheapest *c)
{
    return c->levers.card_step > 1 ? "node" : "card";
}

static int count_plans(const tmc_cheapest *c, int fresh)
{
    int n = 0;
    for (int i = 0; i < c->n_plans; i++)
        n += c->plans[i].fresh == fresh;
    return n;
}

/* ---------- text ---------- */

static void text_levers(FILE *f, const tmc_cheapest *c)
{
    const tmc_cheapest_levers *l = &c->levers;
    fprintf(f, "  levers: job.cards %ld..%ld; %s", l->cards_lo, l->cards_hi, l->interval_key);
    const char *rule = tmc_config_interval_rule_name(c->base.x.checkpoint.interval_rule);
    if (rule && !l->named[TMC_CHEAPEST_LEVER_INTERVAL]) /* resolved per plan */
        fprintf(f, " \"%s\" (each plan's own)", rule);
    for (int i = 0; rule == NULL && i < l->n_intervals; i++)
        fprintf(f, "%s%.10g", i ? ", " : " ", l->intervals[i]);
    if (c->base.x.failures.enabled) {
        fprintf(f, "; failures.spares");
        for (int i = 0; i < l->n_spares; i++)
            fprintf(f, "%s%ld", i ? ", " : " ", l->spares[i]);
        fprintf(f, "; failures.standbys");
        for (int i = 0; i < l->n_standbys; i++)
            fprintf(f, "%s%ld", i ? ", " : " ", l->standbys[i]);
    }
    fprintf(f, "; checkpoint.mode");
    for (int i = 0; i < l->n_modes; i++)
        fprintf(f, "%s%s", i ? ", " : " ", l->async[i] ? "async" : "sync");
    if (c->base.x.slowdown.enabled) {
        fprintf(f, "; slowdown.refresh_hours");
        for (int i = 0; i < l->n_refreshes; i++)
            fprintf(f, "%s%.10g", i ? ", " : " ", l->refreshes[i]);
    }
    fprintf(f, "\n");
    if (l->card_step == 1)
        return;
    fprintf(f, "  cards move in whole nodes of %ld (failures.cards_per_node), spares and "
               "standbys too", l->card_step);
    if (l->cards_asked[0] && (l->cards_asked[0] != l->cards_lo ||
                              l->cards_asked[1] != l->cards_hi))
        fprintf(f, "; job.cards=%ld:%ld is searched as %ld:%ld", l->cards_asked[0],
                l->cards_asked[1], l->cards_lo, l->cards_hi);
    fprintf(f, "\n");
}

static void text_heading(FILE *f, const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    const tmc_experiment *x = &c->base.x;
    fprintf(f, "trainmc cheapest: %s (%s%s%s)\n", x->name, x->path,
            x->source[0] ? "; source: " : "", x->source);
    fprintf(f, "  target %s; cost: ", c->target.text);
    if (c->priced)
        fprintf(f, "money, %.6g a card-hour (energy included) + %.6g fixed\n",
                x->cost.card_hour_price +
                    x->cost.energy_kwh_per_card_hour * x->cost.energy_price_per_kwh,
                x->cost.fixed);
    else
        fprintf(f, "card-hours (the experiment has no cost section)\n");
    text_levers(f, c);
    fprintf(f, "  %d combination%s; %d simulations of %ld replicas on the search seed %llu, "
               "%d on the fresh seed %llu; %d thread%s, %.2f s\n", c->n_combos,
            c->n_combos == 1 ? "" : "s", count_plans(c, 0), x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed, count_plans(c, 1),
            (unsigned long long)c->fresh_seed, r->threads, r->threads == 1 ? "" : "s",
            r->elapsed_s);
    fprintf(f, "  common random numbers: replica k draws the streams of (seed, k) at every "
               "plan of a seed\n");
}

/* "P [LO, HI]  COST +- SE" of plan p (a refused one: why). */
static void text_figures(FILE *f, const tmc_cheapest_plan *p)
{
    if (p->refused)
        fprintf(f, "refused: %.60s", p->why);
    else
        fprintf(f, "%.4f [%.4f, %.4f] %14.2f +- %.2f", p->p, p->p_lo, p->p_hi, p->cost,
                p->cost_se);
}

/* The widest combination label, for the tables' first column. */
static int label_width(const tmc_cheapest *c)
{
    int w = 11;
    for (int i = 0; i < c->n_combos; i++)
        w = (int)strlen(c->combos[i].label) > w ? (int)strlen(c->combos[i].label) : w;
    return w;
}

/* An undecided combination's row: why, and the card ranges not examined. */
static void text_undecided(FILE *f, const tmc_cheapest *c, const tmc_cheapest_combo *cb)
{
    fprintf(f, "%6s  undecided in [%ld, %ld]: %s; not examined:", "-", c->levers.cards_lo,
            c->levers.cards_hi, cb->undecided_why);
    for (int k = 0; k < cb->n_gaps; k++)
        fprintf(f, "%s %ld-%ld", k ? "," : "", cb->gaps[k][0], cb->gaps[k][1]);
    fprintf(f, "%s (%ld counts)\n", cb->n_gaps ? "" : " none", cb->unexamined);
}

static void text_search(FILE *f, const tmc_cheapest *c)
{
    int w = label_width(c);
    fprintf(f, "\nSearch (seed %llu): per combination its cheapest plan that meets the target "
               "(%d card counts\nacross the range, bisection to the fewest that meet, a ternary "
               "search on the cost above them)\n",
            (unsigned long long)c->base.x.monte_carlo.seed, TMC_CHEAPEST_GRID);
    fprintf(f, "%-*s %6s  %-24s %14s\n", w, "combination", "cards", "P(deadline) [95 %]",
            "expected cost");
    for (int i = 0; i < c->n_combos; i++) {
        const tmc_cheapest_combo *cb = &c->combos[i];
        fprintf(f, "%-*s ", w, cb->label);
        if (cb->cheapest < 0) {
            int run = 0, refused = 0, first = -1; /* its search plans, all refused? */
            for (int j = 0; j < c->n_plans; j++) {
                const tmc_cheapest_plan *q = &c->plans[j];
                if (q->fresh || q->combo != i)
                    continue;
                run++;
                refused += q->refused;
                if (q->refused && first < 0)
                    first = j;
            }
            if (cb->undecided) {
                text_undecided(f, c, cb);
                continue;
            }
            fprintf(f, "%6s  none in [%ld, %ld] meets", "-", c->levers.cards_lo,
                    c->levers.cards_hi);
            if (run > 0 && refused == run)
                fprintf(f, ": all %d plans refused; the first (job.cards=%ld): %s", run,
                        c->plans[first].cards, c->plans[first].why);
            fprintf(f, "\n");
            continue;
        }
        const tmc_cheapest_plan *p = &c->plans[cb->cheapest];
        fprintf(f, "%6ld  ", p->cards);
        text_figures(f, p);
        fprintf(f, "\n");
    }
}

int tmc_cheapest_output_finalists(const tmc_cheapest *c, int *idx)
{
    int n = 0;
    for (int k = 0; k < c->n_finalists; k++) {
        int i = c->finalists[k], j = n++;
        double cost = c->plans[i].refused ? INFINITY : c->plans[i].cost;
        for (; j > 0; j--) {
            const tmc_cheapest_plan *q = &c->plans[idx[j - 1]];
            if ((q->refused ? INFINITY : q->cost) <= cost)
                break;
            idx[j] = idx[j - 1];
        }
        idx[j] = i;
    }
    return n;
}

static void text_finalists(FILE *f, const tmc_cheapest *c)
{
    int idx[2 * TMC_CHEAPEST_FINALISTS], n = tmc_cheapest_output_finalists(c, idx);
    fprintf(f, "\nFinal comparison on fresh replicas (seed %llu): the %d cheapest plans that "
               "meet, each also\nwith one %s more\n", (unsigned long long)c->fresh_seed,
            TMC_CHEAPEST_FINALISTS, step_name(c));
    int w = label_width(c) + 15;
    fprintf(f, "%-*s %-24s %14s    %s\n", w, "plan", "P(deadline) [95 %]", "expected cost",
            "meets");
    for (int k = 0; k < n; k++) {
        const tmc_cheapest_plan *p = &c->plans[idx[k]];
        char label[400];
        tmc_cheapest_format_plan(c, p, label, sizeof label);
        fprintf(f, "%-*s ", w, label);
        text_figures(f, p);
        fprintf(f, "  %s\n", p->meets ? "yes" : "no");
    }
}

static void text_chosen(FILE *f, const tmc_cheapest *c)
{
    const tmc_cheapest_plan *p = &c->plans[c->chosen];
    char label[400];
    tmc_cheapest_format_plan(c, p, label, sizeof label);
    fprintf(f, "\nChosen plan: %s\n", label);
    fprintf(f, "  expected %s %.2f [%.2f, %.2f] (95 %%), %.1f card-hours (%ld cards held), "
               "on the fresh replicas\n", tmc_cheapest_name_unit(c), p->cost,
            p->cost - 1.96 * p->cost_se, p->cost + 1.96 * p->cost_se, p->card_hours,
            p->cards_held);
    fprintf(f, "  P(T <= %g days) %.4f [%.4f, %.4f] (Wilson 95 %%), mean T %.4f days\n",
            c->base.x.deadline.days, p->p, p->p_lo, p->p_hi, p->result.days.mean);
    if (c->runner_up >= 0) {
        tmc_cheapest_format_plan(c, &c->plans[c->runner_up], label, sizeof label);
        fprintf(f, "  the next cheapest that meets, %s, costs %+.2f +- %.2f more\n  (the "
                   "same fresh replicas: common random numbers)\n", label,
                c->runner_up_diff.mean, c->runner_up_diff.se);
    }
    if (at_lower_edge(c))
        fprintf(f, "  At the lower edge: %ld cards is the range's least (job.cards=%ld:%ld); the "
                   "optimum may lie below it:\n  lower LO (--lever job.cards=LO:%ld) and run "
                   "again.\n", p->cards, c->levers.cards_lo, c->levers.cards_hi,
                c->levers.cards_hi);
    if (p->p_lo <= c->target.value)
        fprintf(f, "  Uncertain: the target %.10g lies inside its 95 %% interval: at %ld "
                   "replicas which side of the\n  target it is on is not resolved; more "
                   "replicas (-n) narrow it.\n", c->target.value,
                c->base.x.monte_carlo.replicas);
}

static void text_closest(FILE *f, const tmc_cheapest *c)
{
    int idx[TMC_CHEAPEST_FINALISTS], n = tmc_cheapest_list_closest(c, idx, TMC_CHEAPEST_FINALISTS);
    if (c->n_undecided)
        fprintf(f, "\nUndecided: no plan run meets %s (%d plans run), but %d of %d "
                   "combinations were not\nsearched to the end: the counts between those "
                   "probed were not all examined (the search\nbelow says why and which "
                   "card ranges); narrow job.cards=LO:HI to those ranges to decide.\n",
                c->target.text, count_plans(c, 0), c->n_undecided, c->n_combos);
    else
        fprintf(f, "\nNo plan meets %s within the levers' ranges (%d plans run).\n",
                c->target.text, count_plans(c, 0));
    fprintf(f, "The closest (the highest P(deadline), search seed):\n");
    for (int k = 0; k < n; k++) {
        char label[400];
        tmc_cheapest_format_plan(c, &c->plans[idx[k]], label, sizeof label);
        fprintf(f, "  %-*s ", label_width(c) + 15, label);
        text_figures(f, &c->plans[idx[k]]);
        fprintf(f, "\n");
    }
}

static void text_frontier(FILE *f, const tmc_cheapest *c)
{
    int *idx = malloc((size_t)c->n_plans * sizeof *idx);
    if (!idx)
        return;
    int n = tmc_cheapest_frontier_order(c, idx);
    fprintf(f, "\nFrontier (seed %llu): the %d of %d plans run that no other beats on both "
               "cost and P(deadline)\n", (unsigned long long)c->base.x.monte_carlo.seed, n,
            count_plans(c, 0));
    fprintf(f, "%14s  %-24s %s\n", "expected cost", "P(deadline) [95 %]", "plan");
    for (int k = 0; k < n; k++) {
        const tmc_cheapest_plan *p = &c->plans[idx[k]];
        char label[400];
        tmc_cheapest_format_plan(c, p, label, sizeof label);
        fprintf(f, "%14.2f  %.4f [%.4f, %.4f] %s\n", p->cost, p->p, p->p_lo, p->p_hi, label);
    }
    free(idx);
}

/* The experiment whose defaults the report states: the chosen plan's, else
 * the one as given; its closed form into *cf. */
static const tmc_experiment *assumed_experiment(const tmc_cheapest_report *r,
                                                tmc_closed_form *cf)
{
    if (r->chosen) {
        *cf = r->chosen->cf;
        return &r->chosen->x;
    }
    tmc_closed_form_compute(&r->c->base.x, cf);
    return &r->c->base.x;
}

/* The answer first (issue 32): the chosen plan, its cost and P (or that no
 * plan meets, and the closest), and what it assumes; then the search. */
void tmc_cheapest_output_text(FILE *f, const tmc_cheapest_report *r)
{
    text_heading(f, r);
    tmc_cheapest_output_answer_text(f, r);
    tmc_cheapest_output_assumed_text(f, r);
    tmc_cheapest_output_tables_text(f, r);
}

void tmc_cheapest_output_answer_text(FILE *f, const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    if (c->chosen >= 0)
        text_chosen(f, c);
    else if (c->n_finalists)
        fprintf(f, "\nNo finalist meets %s on the fresh replicas: at %ld replicas the boundary "
                   "is not resolved;\nmore replicas (-n) narrow it.\n", c->target.text,
                c->base.x.monte_carlo.replicas);
    else
        text_closest(f, c);
}

void tmc_cheapest_output_assumed_text(FILE *f, const tmc_cheapest_report *r)
{
    tmc_closed_form cf;
    const tmc_experiment *ax = assumed_experiment(r, &cf);
    tmc_assumed_output_text(f, ax, &cf);
}

void tmc_cheapest_output_tables_text(FILE *f, const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    text_search(f, c);
    if (c->n_finalists)
        text_finalists(f, c);
    text_frontier(f, c);
}

/* ---------- JSON ---------- */

static cJSON *json_plan(const tmc_cheapest *c, const tmc_cheapest_plan *p)
{
    const tmc_cheapest_combo *cb = &c->combos[p->combo];
    cJSON *o = cJSON_CreateObject();
    char label[400];
    tmc_cheapest_format_plan(c, p, label, sizeof label);
    cJSON_AddStringToObject(o, "plan", label);
    cJSON_AddNumberToObject(o, "cards", (double)p->cards);
    cJSON *ov = cJSON_AddArrayToObject(o, "overrides");
    for (int i = 0; i < cb->n_overrides; i++)
        cJSON_AddItemToArray(ov, cJSON_CreateString(cb->overrides[i]));
    cJSON_AddStringToObject(o, "replicas_stream", p->fresh ? "fresh" : "search");
    if (p->refused) { /* every key a run plan has, so a reader need not test for them */
        static const char *const none[] = {"step_s", "interval_steps", "mean_days",
                                           "p_deadline", "cards_held", "card_hours", "cost"};
        cJSON_AddStringToObject(o, "refused", p->why);
        for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
            cJSON_AddNullToObject(o, none[i]);
        cJSON_AddBoolToObject(o, "meets", 0);
        if (!p->fresh)
            cJSON_AddBoolToObject(o, "frontier", 0);
        return o;
    }
    cJSON_AddNullToObject(o, "refused");
    cJSON_AddNumberToObject(o, "step_s", p->step_s);
    cJSON_AddNumberToObject(o, "interval_steps", (double)p->interval_steps);
    cJSON_AddNumberToObject(o, "mean_days", p->result.days.mean);
    cJSON *pd = cJSON_AddObjectToObject(o, "p_deadline");
    double ci[2] = {p->p_lo, p->p_hi};
    cJSON_AddNumberToObject(pd, "value", p->p);
    cJSON_AddItemToObject(pd, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddBoolToObject(o, "meets", p->meets);
    cJSON_AddNumberToObject(o, "cards_held", (double)p->cards_held);
    cJSON_AddNumberToObject(o, "card_hours", p->card_hours);
    cJSON *co = cJSON_AddObjectToObject(o, "cost");
    double cc[2] = {p->cost - 1.96 * p->cost_se, p->cost + 1.96 * p->cost_se};
    cJSON_AddNumberToObject(co, "mean", p->cost);
    cJSON_AddNumberToObject(co, "se", p->cost_se);
    cJSON_AddItemToObject(co, "ci95", cJSON_CreateDoubleArray(cc, 2));
    if (!p->fresh)
        cJSON_AddBoolToObject(o, "frontier", p->frontier);
    return o;
}

static void add_plan_or_null(cJSON *o, const char *name, const tmc_cheapest *c, int i)
{
    if (i >= 0)
        cJSON_AddItemToObject(o, name, json_plan(c, &c->plans[i]));
    else
        cJSON_AddNullToObject(o, name);
}

static cJSON *json_levers(const tmc_cheapest *c)
{
    const tmc_cheapest_levers *l = &c->levers;
    cJSON *o = cJSON_CreateObject();
    double cards[2] = {(double)l->cards_lo, (double)l->cards_hi}, spares[TMC_CHEAPEST_MAX_VALUES];
    cJSON_AddItemToObject(o, "job.cards", cJSON_CreateDoubleArray(cards, 2));
    cJSON_AddItemToObject(o, l->interval_key,
                          cJSON_CreateDoubleArray(l->intervals, l->n_intervals));
    double standbys[TMC_CHEAPEST_MAX_VALUES];
    for (int i = 0; i < l->n_spares; i++)
        spares[i] = (double)l->spares[i];
    for (int i = 0; i < l->n_standbys; i++)
        standbys[i] = (double)l->standbys[i];
    if (c->base.x.failures.enabled) {
        cJSON_AddItemToObject(o, "failures.spares", cJSON_CreateDoubleArray(spares, l->n_spares));
        cJSON_AddItemToObject(o, "failures.standbys",
                              cJSON_CreateDoubleArray(standbys, l->n_standbys));
    }
    cJSON *m = cJSON_AddArrayToObject(o, "checkpoint.mode");
    for (int i = 0; i < l->n_modes; i++)
        cJSON_AddItemToArray(m, cJSON_CreateString(l->async[i] ? "async" : "sync"));
    if (c->base.x.slowdown.enabled) /* 0: the experiment refreshes never */
        cJSON_AddItemToObject(o, "slowdown.refresh_hours",
                              cJSON_CreateDoubleArray(l->refreshes, l->n_refreshes));
    return o;
}

static cJSON *json_closest(const tmc_cheapest *c)
{
    int idx[TMC_CHEAPEST_FINALISTS], n = tmc_cheapest_list_closest(c, idx, TMC_CHEAPEST_FINALISTS);
    cJSON *list = cJSON_CreateArray();
    for (int k = 0; c->n_finalists == 0 && k < n; k++)
        cJSON_AddItemToArray(list, json_plan(c, &c->plans[idx[k]]));
    return list;
}

/* A combination's undecided search (null when decided): why, the widest
 * card ranges not examined, and how many counts were not. */
static cJSON *json_undecided(const tmc_cheapest_combo *cb)
{
    if (!cb->undecided)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject(), *gaps = cJSON_AddArrayToObject(o, "unexamined_cards");
    cJSON_AddStringToObject(o, "reason", cb->undecided_why);
    for (int k = 0; k < cb->n_gaps; k++) {
        double g[2] = {(double)cb->gaps[k][0], (double)cb->gaps[k][1]};
        cJSON_AddItemToArray(gaps, cJSON_CreateDoubleArray(g, 2));
    }
    cJSON_AddNumberToObject(o, "unexamined_counts", (double)cb->unexamined);
    return o;
}

cJSON *tmc_cheapest_output_json(const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    cJSON *root = cJSON_CreateObject();
    tmc_sweep_output_json_heading(root, "cheapest", &c->base.x);
    char seed[24]; /* raw: cJSON rounds integers near 2^53 */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->fresh_seed);
    cJSON_AddRawToObject(root, "fresh_seed", seed);
    cJSON *t = cJSON_AddObjectToObject(root, "target");
    cJSON_AddStringToObject(t, "text", c->target.text);
    cJSON_AddNumberToObject(t, "value", c->target.value);
    cJSON_AddStringToObject(root, "cost_unit", tmc_cheapest_name_unit(c));
    cJSON_AddItemToObject(root, "levers", json_levers(c));
    cJSON_AddNumberToObject(root, "card_step", (double)c->levers.card_step);
    cJSON_AddNumberToObject(root, "grid", TMC_CHEAPEST_GRID);
    cJSON *combos = cJSON_AddArrayToObject(root, "combinations");
    for (int i = 0; i < c->n_combos; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", c->combos[i].label);
        add_plan_or_null(o, "cheapest", c, c->combos[i].cheapest);
        cJSON_AddItemToObject(o, "undecided", json_undecided(&c->combos[i]));
        cJSON_AddItemToArray(combos, o);
    }
    cJSON_AddBoolToObject(root, "met", c->chosen >= 0);
    if (c->n_undecided) {
        cJSON *u = cJSON_AddObjectToObject(root, "undecided");
        cJSON_AddNumberToObject(u, "combinations", c->n_undecided);
        cJSON_AddStringToObject(u, "reason", "the refinement stopped before the counts "
                                             "between those probed were examined");
    } else {
        cJSON_AddNullToObject(root, "undecided");
    }
    add_plan_or_null(root, "chosen", c, c->chosen);
    if (c->chosen >= 0)
        cJSON_AddBoolToObject(cJSON_GetObjectItem(root, "chosen"), "at_lower_edge",
                              at_lower_edge(c));
    add_plan_or_null(root, "runner_up", c, c->runner_up);
    if (c->runner_up >= 0)
        cJSON_AddItemToObject(root, "runner_up_cost_difference",
                              tmc_sweep_output_json_diff(&c->runner_up_diff));
    else
        cJSON_AddNullToObject(root, "runner_up_cost_difference");
    cJSON_AddItemToObject(root, "closest", json_closest(c));
    cJSON *fin = cJSON_AddArrayToObject(root, "finalists");
    for (int k = 0; k < c->n_finalists; k++)
        cJSON_AddItemToArray(fin, json_plan(c, &c->plans[c->finalists[k]]));
    tmc_closed_form cf;
    const tmc_experiment *ax = assumed_experiment(r, &cf);
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(ax, &cf));
    cJSON *plans = cJSON_AddArrayToObject(root, "plans");
    for (int i = 0; i < c->n_plans; i++)
        if (!c->plans[i].fresh)
            cJSON_AddItemToArray(plans, json_plan(c, &c->plans[i]));
    return root;
}
