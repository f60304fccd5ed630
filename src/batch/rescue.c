/* rescue.c - the ways out of a plan that misses its target (rescue.h). */
#include "rescue.h"

#include "closed_form.h"
#include "rescue_levers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void not_applicable(tmc_rescue_lever *l, const char *why)
{
    l->outcome = TMC_RESCUE_NOT_APPLICABLE;
    snprintf(l->why, sizeof l->why, "%s", why);
}

/* The optimum interval in steps K (closed_form.h), within [1, steps]:
 * Daly's, or with two levels of snapshots the two-level form's for the
 * experiment's persistent_every (docs/model.md 3.23); the whole run (one
 * save, at its end) when nothing interrupts it. */
static long optimum_steps(const tmc_experiment *x, const tmc_closed_form *cf, long steps)
{
    tmc_levels_form lf;
    tmc_closed_form_levels(x, cf, &lf);
    double tau = lf.enabled ? tmc_closed_form_levels_interval(&lf, lf.m) : cf->daly_interval_s;
    double k = round(tau / cf->step_s);
    return !(k < (double)steps) ? steps : k < 1 ? 1 : (long)k;
}

/* The interval lever: from the current interval to the optimum, in the
 * experiment's own key. */
static void bracket_interval(tmc_rescue_lever *l, const tmc_sweep_setting *plan)
{
    const tmc_experiment *x = &plan->x;
    const tmc_closed_form *cf = &plan->cf;
    long k_opt = optimum_steps(x, cf, x->job.steps);
    double opt = x->checkpoint.interval_steps > 0 ? (double)k_opt : k_opt * cf->step_s;
    l->current = x->checkpoint.interval_steps > 0 ? (double)x->checkpoint.interval_steps
                                                  : x->checkpoint.interval_s;
    l->two_level = x->checkpoint.persistent_every > 1;
    char why[256];
    if (x->checkpoint.interval_rule == TMC_INTERVAL_OPTIMAL) {
        l->current = cf->interval_s; /* the key is interval_s; the search left steps */
        snprintf(why, sizeof why, "the interval is the simulated optimum (interval_s "
                                  "\"optimal\": %ld steps)", cf->interval_steps);
        not_applicable(l, why);
        return;
    }
    if (k_opt == cf->interval_steps) {
        snprintf(why, sizeof why, "the interval is already %s optimum (%ld steps), where "
                                  "the closed form puts the lowest T (interval_s "
                                  "\"optimal\" searches the simulated one)",
                 l->two_level ? "the two-level form's" : "Daly's", k_opt);
        not_applicable(l, why);
        return;
    }
    l->larger = opt > l->current;
    l->bracket.lo = fmin(opt, l->current);
    l->bracket.hi = fmax(opt, l->current);
}

/* Lever l's current value, direction and bracket (or NOT_APPLICABLE). */
static void bracket_lever(tmc_rescue_lever *l, const tmc_rescue *r)
{
    const tmc_experiment *x = &r->plan.x;
    tmc_sweep_bracket *b = &l->bracket;
    switch (l->kind) {
    case TMC_RESCUE_STEPS:
        l->current = (double)x->job.steps;
        b->lo = fmax(1, ceil(TMC_RESCUE_MIN_STEPS * l->current));
        if (x->observed.enabled) /* a forecast: the steps done stay, one more is left */
            b->lo = fmax(b->lo, (double)x->observed.steps_done + 1);
        b->hi = l->current;
        if (b->lo >= b->hi)
            not_applicable(l, x->observed.enabled ? "a forecast: only the last step is left"
                                                  : "the run is one step: none to remove");
        break;
    case TMC_RESCUE_DEADLINE:
        l->current = x->deadline.days;
        l->larger = 1;
        b->lo = b->hi = l->current; /* the far end grows (grow_deadline) */
        if (r->target.metric != TMC_SWEEP_PROBABILITY)
            not_applicable(l, "the deadline does not change the completion time or the "
                              "overhead");
        break;
    case TMC_RESCUE_EFFICIENCY:
        l->current = x->job.efficiency;
        l->larger = 1;
        b->lo = l->current;
        b->hi = 1;
        if (l->current >= 1)
            not_applicable(l, "the efficiency is already 1");
        else if (tmc_closed_form_paced(x)) /* closed_form.h: e' does not depend on it */
            not_applicable(l, "a forecast at the observed pace: progress.step_s fixes the "
                              "step time (job.pace = \"plan\" to vary the efficiency)");
        break;
    case TMC_RESCUE_CARDS:
        l->current = (double)x->job.cards;
        l->larger = 1;
        b->lo = l->current;
        b->hi = TMC_RESCUE_MAX_CARDS * l->current;
        break;
    case TMC_RESCUE_INTERVAL:
        bracket_interval(l, &r->plan);
        break;
    default: /* a recovery time: down to instant (rescue_levers.c) */
        tmc_rescue_bracket_recovery(l, x, &r->target);
        break;
    }
    b->tol = l->base.integer[0] ? 0 : TMC_RESCUE_TOLERANCE * l->current;
}

int tmc_rescue_load(tmc_rescue *r, const tmc_sweep_source *src, const char *const *sets,
                    int n_sets, const tmc_sweep_target *target, const char *levers, tmc_error *err)
{
    memset(r, 0, sizeof *r);
    r->target = *target;
    if (tmc_sweep_load_base_from(&r->base, src, sets, n_sets, NULL, 0, err) ||
        tmc_sweep_check_replicas(&r->base, err) ||
        tmc_sweep_load_setting(&r->base, NULL, &r->plan, err) || tmc_rescue_parse_levers(r, levers, err))
        return -1;
    for (int i = 0; i < r->n_levers; i++) {
        tmc_rescue_lever *l = &r->levers[i];
        const char *key = l->bracket.key;
        if (tmc_sweep_load_base_from(&l->base, src, sets, n_sets, &key, 1, err))
            return -1;
        bracket_lever(l, r);
    }
    return 0;
}

int tmc_rescue_run_plan(tmc_rescue *r, const tmc_rescue_options *o, tmc_error *err)
{
    long n = r->base.x.monte_carlo.replicas;
    double *days = malloc((size_t)n * sizeof *days);
    double *restarts = malloc((size_t)n * sizeof *restarts);
    int rc = days && restarts ? tmc_sweep_run_setting(&r->plan, o->threads, o->progress,
                                                      o->progress_ctx, o->stop, days, restarts,
                                                      &r->plan_result, err)
                              : tmc_error_set(err, "out of memory for %ld replicas", n);
    free(days);
    free(restarts);
    return rc;
}

int tmc_rescue_plan_meets(const tmc_rescue *r)
{
    double v, lo, hi;
    tmc_sweep_estimate_metric(&r->plan_result, r->target.metric, &v, &lo, &hi);
    return tmc_sweep_meets_target(&r->target, v);
}

/* deadline.days: double the far end until it meets the target, at most
 * TMC_RESCUE_MAX_DOUBLINGS times. 0, or -1 as tmc_sweep_search_evaluate. */
static int grow_deadline(tmc_rescue_lever *l, const tmc_sweep_target *t, tmc_error *err)
{
    double m = NAN;
    while (l->doublings < TMC_RESCUE_MAX_DOUBLINGS && !tmc_sweep_meets_target(t, m)) {
        l->bracket.hi *= 2;
        l->doublings++;
        if (tmc_sweep_search_evaluate(l->bracket.hi, &l->search, &m, err))
            return -1;
    }
    return 0;
}

/* The evaluation with the best metric; of equals, the last made (the
 * farthest from the plan). */
static int best_evaluation(const tmc_rescue_lever *l, const tmc_sweep_target *t)
{
    int best = 0;
    double v, lo, hi, best_v = NAN;
    for (int i = 0; i < l->search.n; i++) {
        tmc_sweep_estimate_metric(&l->search.results[i], t->metric, &v, &lo, &hi);
        if (i == 0 || (t->at_least ? v >= best_v : v <= best_v)) {
            best = i;
            best_v = v;
        }
    }
    return best;
}

/* The outcome of a bisection that returned rc (tmc_sweep_bisect). 0, or the
 * failure to pass on. */
static int settle(tmc_rescue_lever *l, const tmc_sweep_target *t, int rc, tmc_error *err)
{
    const tmc_sweep_search *s = &l->search;
    if (rc == 0) {
        l->outcome = TMC_RESCUE_FOUND;
        l->found = tmc_sweep_search_find(s, l->bisection.found);
        l->neighbour = tmc_sweep_search_find(s, l->bisection.neighbour);
        l->unresolved = tmc_sweep_is_unresolved(t, &s->results[l->found]) ||
                        tmc_sweep_is_unresolved(t, &s->results[l->neighbour]);
        return 0;
    }
    if (rc == 1) { /* neither end meets: the current one misses */
        l->outcome = TMC_RESCUE_UNREACHED;
        l->best = best_evaluation(l, t);
        err->msg[0] = '\0';
        return 0;
    }
    if (s->failure != TMC_SWEEP_SEARCH_REFUSED)
        return s->failure;
    l->outcome = TMC_RESCUE_REFUSED;
    snprintf(l->why, sizeof l->why, "%s", err->msg[0] ? err->msg : "a setting was refused "
                                                                   "(the message above)");
    err->msg[0] = '\0';
    return 0;
}

/* A job.cards probe: its count and evaluation index (-1: refused). */
typedef struct {
    double v;
    int i;
} probe;

/* 1 when probe a runs better than b: a ran and b was refused, or a better
 * metric, or the same and a shorter mean completion. */
static int runs_better(const tmc_rescue_lever *l, const tmc_sweep_target *t, const probe *a,
                       const probe *b)
{
    if (a->i < 0 || b->i < 0)
        return a->i >= 0 && b->i < 0;
    const tmc_sweep_result *ra = &l->search.results[a->i], *rb = &l->search.results[b->i];
    double va, vb, lo, hi;
    tmc_sweep_estimate_metric(ra, t->metric, &va, &lo, &hi);
    tmc_sweep_estimate_metric(rb, t->metric, &vb, &lo, &hi);
    if (va != vb)
        return t->at_least ? va > vb : va < vb;
    return ra->days.mean < rb->days.mean;
}

/* Probe count v into at[*n], kept ascending; *met when it meets. 0, or the
 * failure to pass on (a refusal is a probe, not a failure). */
static int probe_count(tmc_rescue_lever *l, const tmc_sweep_target *t, double v, probe *at,
                       int *n, int *met, tmc_error *err)
{
    double m;
    int k = (*n)++;
    for (; k > 0 && at[k - 1].v > v; k--)
        at[k] = at[k - 1];
    at[k] = (probe){v, -1};
    *met = 0;
    if (tmc_sweep_search_evaluate(v, &l->search, &m, err)) {
        if (l->search.failure != TMC_SWEEP_SEARCH_REFUSED)
            return l->search.failure;
        err->msg[0] = '\0';
        return 0;
    }
    at[k].i = tmc_sweep_search_find(&l->search, v);
    *met = tmc_sweep_meets_target(t, m);
    return 0;
}

/* A count strictly between a and b (b - a > 1): their geometric mean. */
static double between(double a, double b)
{
    double m = round(sqrt(a * b));
    return m <= a ? a + 1 : m >= b ? b - 1 : m;
}

/* The best-running of at[n] (one ran: the plan). */
static int best_probe(const tmc_rescue_lever *l, const tmc_sweep_target *t, const probe *at,
                      int n)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (runs_better(l, t, &at[k], &at[best]))
            best = k;
    return best;
}

/* The next count to probe beside the best-running of at[n], or -1 when
 * both its neighbours are adjacent. */
static double next_count(const tmc_rescue_lever *l, const tmc_sweep_target *t, const probe *at,
                         int n)
{
    int best = best_probe(l, t, at, n);
    double left = best > 0 ? at[best].v - at[best - 1].v : 0;
    double right = best + 1 < n ? at[best + 1].v - at[best].v : 0;
    if (left < 2 && right < 2)
        return -1;
    return right >= left ? between(at[best].v, at[best + 1].v)
                         : between(at[best - 1].v, at[best].v);
}

static void record_undecided(tmc_rescue_lever *l, const probe *at, int n)
{
    l->outcome = TMC_RESCUE_UNDECIDED;
    for (int k = 0; k + 1 < n; k++) {
        double w = at[k + 1].v - at[k].v - 1;
        if (w < 1)
            continue;
        l->n_unexamined += (long)w;
        if (w > l->unexamined[1] - l->unexamined[0] + 1 || l->unexamined[1] == 0) {
            l->unexamined[0] = at[k].v + 1;
            l->unexamined[1] = at[k + 1].v - 1;
        }
    }
    snprintf(l->why, sizeof l->why, "none of the %d counts probed meets, and the %d probes "
                                    "inside the bracket ran out before the best count was "
                                    "bracketed", n, TMC_RESCUE_REFINE);
}

/* job.cards: probe the far end, then inside the bracket while none meets
 * (rescue.h). A count that meets becomes the far end; none left: not
 * reached; the probes spent: undecided. 0, or the failure to pass on. */
static int refine_cards(tmc_rescue_lever *l, const tmc_sweep_target *t, tmc_error *err)
{
    probe at[TMC_RESCUE_REFINE + 2] = {{l->current, 0}}; /* the plan: evaluation 0 */
    int n = 1, met = 0, rc = probe_count(l, t, l->bracket.hi, at, &n, &met, err);
    for (int left = TMC_RESCUE_REFINE; !rc && !met; left--) {
        double next = next_count(l, t, at, n);
        if (next < 0) {
            l->outcome = TMC_RESCUE_UNREACHED; /* the count it converged on */
            l->best = at[best_probe(l, t, at, n)].i;
            return 0;
        }
        if (left == 0) {
            record_undecided(l, at, n);
            return 0;
        }
        if (!(rc = probe_count(l, t, next, at, &n, &met, err)) && met)
            l->bracket.hi = next; /* the bisection runs below it */
    }
    return rc;
}

int tmc_rescue_run_lever(tmc_rescue *r, int i, const tmc_rescue_options *o, tmc_error *err)
{
    tmc_rescue_lever *l = &r->levers[i];
    tmc_sweep_search *s = &l->search;
    if (tmc_sweep_search_init(s, &l->base, &r->target, err) ||
        tmc_sweep_search_seed(s, l->current, &r->plan_result, err))
        return -1;
    s->threads = o->threads;
    s->progress = o->progress;
    s->progress_ctx = o->progress_ctx;
    s->stop = o->stop;
    s->check = o->check;
    s->check_ctx = o->check_ctx;
    int rc = l->kind == TMC_RESCUE_DEADLINE ? grow_deadline(l, &r->target, err)
             : l->kind == TMC_RESCUE_CARDS  ? refine_cards(l, &r->target, err)
                                            : 0;
    if (!rc && l->outcome != TMC_RESCUE_PENDING)
        return 0; /* refine_cards decided: not reached, or undecided */
    if (!rc)
        rc = tmc_sweep_bisect(&r->target, &l->bracket, l->base.integer[0],
                              tmc_sweep_search_evaluate, s, &l->bisection, err);
    return settle(l, &r->target, rc, err);
}

void tmc_rescue_free(tmc_rescue *r)
{
    for (int i = 0; i < r->n_levers; i++)
        tmc_sweep_search_free(&r->levers[i].search);
    tmc_experiment_release(&r->base.x);
    tmc_experiment_release(&r->plan.x);
    for (int i = 0; i < TMC_RESCUE_MAX_LEVERS; i++) /* zeroed until loaded: calloc */
        tmc_experiment_release(&r->levers[i].base.x);
}
