/* cheapest.c - the search for the cheapest plan that meets the target, its
 * final comparison on fresh replicas and its frontier (cheapest.h). */
#include "cheapest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "finishable.h"
#include "plan.h"

/* A new plan slot, zeroed. NULL with err if memory runs out. */
static tmc_cheapest_plan *new_plan(tmc_cheapest *c, tmc_error *err)
{
    if (c->n_plans == c->cap_plans) {
        int cap = c->cap_plans ? 2 * c->cap_plans : 64;
        tmc_cheapest_plan *p = realloc(c->plans, (size_t)cap * sizeof *p);
        if (!p) {
            tmc_error_set(err, "out of memory for %d plans", cap);
            return NULL;
        }
        c->plans = p;
        c->cap_plans = cap;
    }
    tmc_cheapest_plan *p = &c->plans[c->n_plans];
    memset(p, 0, sizeof *p);
    return p;
}

static int find_plan(const tmc_cheapest *c, int combo, long cards, int fresh)
{
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->combo == combo && p->cards == cards && p->fresh == fresh)
            return i;
    }
    return -1;
}

/* The plan's P and cost from its result; cost_k[n] (may be NULL): each
 * replica's cost, from its completion days T_k in days[n]. */
static void figures(const tmc_cheapest *c, const tmc_sweep_setting *s, tmc_cheapest_plan *p,
                    const double *days, double *cost_k)
{
    tmc_cost_summary cs;
    const tmc_summary *d = &p->result.days;
    tmc_cost_summarize(&s->x, &s->cf, d, &cs);
    tmc_sweep_estimate_metric(&p->result, TMC_SWEEP_PROBABILITY, &p->p, &p->p_lo, &p->p_hi);
    p->meets = tmc_sweep_meets_target(&c->target, p->p);
    double price = c->priced ? cs.price_per_card_hour : 1, fixed = c->priced ? cs.fixed : 0;
    p->card_hours = cs.mean;
    p->cards_held = cs.cards_held;
    p->cost = fixed + price * cs.mean;
    p->cost_se = price * cs.card_hours_per_day * d->se;
    long n = s->x.monte_carlo.replicas;
    for (long k = 0; cost_k && k < n; k++)
        cost_k[k] = fixed + price * tmc_cost_card_hours(&cs, days[k]);
}

/* Simulate combination `combo` at `cards` on the search or the fresh
 * replicas into a new plan (refused: not run, a miss); cost_k as figures.
 * Its index into *index. 0, TMC_RUNNER_STOPPED or -1 with err. */
static int simulate(tmc_cheapest *c, int combo, long cards, int fresh, double *cost_k,
                    int *index, tmc_error *err)
{
    const tmc_cheapest_options *o = c->options;
    long n = c->base.x.monte_carlo.replicas;
    tmc_cheapest_plan *p = new_plan(c, err);
    tmc_sweep_setting set = {0}, *s = &set; /* owns nothing until loaded */
    double *days = malloc((size_t)n * sizeof *days), *restarts = malloc((size_t)n * sizeof *days);
    int rc = !p ? -1 : !days || !restarts ? tmc_error_set(err, "out of memory")
                                          : tmc_cheapest_load_setting(c, combo, cards, s, err);
    if (!rc) {
        p->combo = combo;
        p->cards = cards;
        p->fresh = fresh;
        p->step_s = s->cf.step_s;
        p->interval_steps = s->cf.interval_steps;
        if (fresh)
            s->x.monte_carlo.seed = c->fresh_seed;
        p->refused = o->check && o->check(s, o->check_ctx, p->why, sizeof p->why);
        if (!p->refused && !(rc = tmc_sweep_run_setting(s, o->threads, o->progress,
                                                        o->progress_ctx, o->stop, days,
                                                        restarts, &p->result, err)))
            figures(c, s, p, days, cost_k);
        p->cost = p->refused ? NAN : p->cost;
    }
    if (!rc)
        *index = c->n_plans++;
    tmc_experiment_release(&s->x);
    free(days);
    free(restarts);
    return rc;
}

/* A tmc_sweep_eval_fn over the card steps (whole nodes, or cards) of the
 * combination being searched: P(deadline) at value x card_step cards on
 * the search replicas (0 for a refused plan). */
static int evaluate(double value, void *ctx, double *metric, tmc_error *err)
{
    tmc_cheapest *c = ctx;
    long cards = (long)value * c->levers.card_step;
    int i = find_plan(c, c->combo_now, cards, 0), rc = 0;
    if (i < 0 && (rc = simulate(c, c->combo_now, cards, 0, NULL, &i, err))) {
        c->failure = rc; /* tmc_sweep_bisect passes on -1 only */
        return -1;
    }
    *metric = c->plans[i].refused ? 0 : c->plans[i].p;
    return 0;
}

/* The search plan of combination i that meets at the lowest cost; -1: none. */
static int cheapest_of(const tmc_cheapest *c, int i)
{
    int best = -1;
    for (int j = 0; j < c->n_plans; j++) {
        const tmc_cheapest_plan *p = &c->plans[j];
        if (p->combo == i && !p->fresh && p->meets && !p->refused &&
            (best < 0 || p->cost < c->plans[best].cost))
            best = j;
    }
    return best;
}

/* The cost of combination combo at `steps` card steps on the search
 * replicas (+inf when it misses the target or is refused); 0, or as
 * simulate. */
static int cost_at(tmc_cheapest *c, long steps, double *cost, tmc_error *err)
{
    double m;
    if (evaluate((double)steps, c, &m, err))
        return c->failure;
    long cards = steps * c->levers.card_step;
    const tmc_cheapest_plan *p = &c->plans[find_plan(c, c->combo_now, cards, 0)];
    *cost = p->meets && !p->refused ? p->cost : INFINITY;
    return 0;
}

/* The combination's cheapest plan that meets, from `fewest` card steps up
 * (grid[g_n]: the counts probed, ascending, in steps too): the
 * cost need not rise with the cards (a spare pool is held whatever their
 * count, so it weighs less on more cards), so around the cheapest count
 * run so far a ternary search on the integers narrows it, between its grid
 * neighbours (the cost is smooth in the cards: common random numbers). */
static int lowest_cost(tmc_cheapest *c, int i, long fewest, const long *grid, int g_n,
                       tmc_error *err)
{
    long best = fewest, lo = fewest, hi;
    double best_cost = INFINITY, c1 = INFINITY, c2 = INFINITY;
    int rc = cost_at(c, fewest, &best_cost, err);
    for (int g = 0; g < g_n && !rc; g++)
        if (grid[g] > fewest && !(rc = cost_at(c, grid[g], &c1, err)) && c1 < best_cost)
            best_cost = c1, best = grid[g];
    hi = best;
    for (int g = 0; g < g_n; g++) { /* best's grid neighbours, from `fewest` up */
        if (grid[g] < best && grid[g] > lo)
            lo = grid[g];
        if (grid[g] > best && hi == best)
            hi = grid[g];
    }
    while (!rc && hi - lo > 2) {
        long m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if ((rc = cost_at(c, m1, &c1, err)) || (rc = cost_at(c, m2, &c2, err)))
            break;
        if (c1 <= c2)
            hi = m2;
        else
            lo = m1;
    }
    for (long n = lo; n <= hi && !rc; n++)
        rc = cost_at(c, n, &c1, err);
    c->combos[i].cheapest = cheapest_of(c, i);
    return rc;
}

/* The search plans of combination combo_now in card steps, ascending, into
 * at[] (room for all of c's plans); their count. */
static int probed(const tmc_cheapest *c, long *at)
{
    int n = 0;
    for (int j = 0; j < c->n_plans; j++) {
        const tmc_cheapest_plan *p = &c->plans[j];
        if (p->fresh || p->combo != c->combo_now)
            continue;
        long s = p->cards / c->levers.card_step;
        int k = n++;
        for (; k > 0 && at[k - 1] > s; k--)
            at[k] = at[k - 1];
        at[k] = s;
    }
    return n;
}

static const tmc_cheapest_plan *plan_at(const tmc_cheapest *c, long steps)
{
    return &c->plans[find_plan(c, c->combo_now, steps * c->levers.card_step, 0)];
}

/* 1 when the plan at a runs better than the one at b: it ran and b was
 * refused, or a higher P, or the same P and a shorter mean completion. */
static int runs_better(const tmc_cheapest *c, long a, long b)
{
    const tmc_cheapest_plan *p = plan_at(c, a), *q = plan_at(c, b);
    if (p->refused || q->refused)
        return !p->refused && q->refused;
    if (p->p != q->p)
        return p->p > q->p;
    return p->result.days.mean < q->result.days.mean;
}

/* A count strictly between a and b (b - a > 1, a >= 1): their geometric
 * mean, so a range of decades is narrowed in about as few probes as a
 * range of units (24:1000000 has its feasible counts in the first 0.1 %). */
static long between(long a, long b)
{
    long m = llround(sqrt((double)a * (double)b));
    return m <= a ? a + 1 : m >= b ? b - 1 : m;
}

/* The next count to probe when none probed (at[n], ascending) meets, or -1
 * when none is left: inside the wider gap beside the count that runs best
 * (P taken as unimodal in the cards, a refusal the worst: its optimum lies
 * between its neighbours, a refusal's edge included); with none run, inside
 * the widest gap, by ratio. */
static long next_probe(const tmc_cheapest *c, const long *at, int n)
{
    int best = -1, wide = -1;
    for (int k = 0; k + 1 < n; k++)
        if (at[k + 1] - at[k] > 1 &&
            (wide < 0 || (double)at[k + 1] / at[k] > (double)at[wide + 1] / at[wide]))
            wide = k;
    for (int k = 0; k < n; k++)
        if (!plan_at(c, at[k])->refused && (best < 0 || runs_better(c, at[k], at[best])))
            best = k;
    if (best < 0)
        return wide < 0 ? -1 : between(at[wide], at[wide + 1]);
    long left = best > 0 ? at[best] - at[best - 1] : 0;
    long right = best + 1 < n ? at[best + 1] - at[best] : 0;
    if (left < 2 && right < 2)
        return -1;
    return right >= left ? between(at[best], at[best + 1]) : between(at[best - 1], at[best]);
}

/* Keep the gap [lo, hi] (cards) among combination cb's widest. */
static void keep_gap(tmc_cheapest_combo *cb, long lo, long hi)
{
    int j = cb->n_gaps < TMC_CHEAPEST_MAX_GAPS ? cb->n_gaps++ : TMC_CHEAPEST_MAX_GAPS;
    for (; j > 0 && cb->gaps[j - 1][1] - cb->gaps[j - 1][0] < hi - lo; j--)
        if (j < TMC_CHEAPEST_MAX_GAPS)
            memcpy(cb->gaps[j], cb->gaps[j - 1], sizeof cb->gaps[j]);
    if (j < TMC_CHEAPEST_MAX_GAPS) {
        cb->gaps[j][0] = lo;
        cb->gaps[j][1] = hi;
    }
}

/* Combination combo_now is undecided: none of at[n] meets, and the counts
 * in the gaps between them were not examined. */
static void record_undecided(tmc_cheapest *c, const long *at, int n)
{
    tmc_cheapest_combo *cb = &c->combos[c->combo_now];
    long g = c->levers.card_step;
    int ran = 0;
    cb->undecided = 1;
    c->n_undecided++;
    for (int k = 0; k < n; k++) {
        ran += !plan_at(c, at[k])->refused;
        if (k + 1 < n && at[k + 1] - at[k] > 1) {
            cb->unexamined += at[k + 1] - at[k] - 1;
            keep_gap(cb, (at[k] + 1) * g, (at[k + 1] - 1) * g);
        }
    }
    if (ran == 0)
        snprintf(cb->undecided_why, sizeof cb->undecided_why,
                 "every one of the %d counts probed was refused", n);
    else
        snprintf(cb->undecided_why, sizeof cb->undecided_why,
                 "none of the %d counts probed meets, and the %d probes past the grid ran "
                 "out before the best count was bracketed", n, TMC_CHEAPEST_REFINE);
}

/* None of the grid meets: probe (next_probe) until a count meets (*found,
 * with *below the count probed just under it), none is left to probe
 * (no plan meets: *found = -1) or TMC_CHEAPEST_REFINE probes are spent
 * (undecided). 0, or as simulate. */
static int refine(tmc_cheapest *c, long *found, long *below, tmc_error *err)
{
    long *at = malloc((size_t)(c->n_plans + TMC_CHEAPEST_REFINE + 1) * sizeof *at);
    int rc = 0, n;
    double m;
    *found = *below = -1;
    if (!at)
        return tmc_error_set(err, "out of memory for %d plans", c->n_plans);
    for (int left = TMC_CHEAPEST_REFINE;; left--) {
        n = probed(c, at);
        long next = next_probe(c, at, n);
        if (next < 0)
            break;
        if (left == 0) {
            record_undecided(c, at, n);
            break;
        }
        if (evaluate((double)next, c, &m, err)) {
            rc = c->failure;
            break;
        }
        if (tmc_sweep_meets_target(&c->target, m)) {
            *found = next;
            for (int k = 0; k < n; k++) /* at[] is from before next was probed */
                *below = at[k] < next ? at[k] : *below;
            break;
        }
    }
    free(at);
    return rc;
}

/* The coarse grid of combination i, then (when none of it meets) the
 * refinement, then bisection between the last count that misses and the
 * first that meets; in card steps (whole nodes, or cards). 0, or as
 * simulate. */
static int search_combo(tmc_cheapest *c, int i, tmc_error *err)
{
    const tmc_cheapest_levers *l = &c->levers;
    long lo = l->cards_lo / l->card_step, hi = l->cards_hi / l->card_step;
    long grid[TMC_CHEAPEST_GRID], found = -1, below = -1;
    int g_n = hi - lo + 1 < TMC_CHEAPEST_GRID ? (int)(hi - lo + 1) : TMC_CHEAPEST_GRID;
    int rc;
    double m;
    c->combo_now = i;
    for (int g = 0; g < g_n; g++) {
        grid[g] = lo + (long)llround((double)g * (double)(hi - lo) / (g_n - 1));
        if (evaluate((double)grid[g], c, &m, err))
            return c->failure;
        if (found < 0 && tmc_sweep_meets_target(&c->target, m)) {
            found = grid[g];
            below = g > 0 ? grid[g - 1] : -1;
        }
    }
    if (found < 0 && ((rc = refine(c, &found, &below, err)) || found < 0))
        return rc; /* 0: no count meets, or undecided */
    if (below >= 0) {
        tmc_sweep_bracket b = {"job.cards", (double)below, (double)found, 0};
        tmc_sweep_bisection bis;
        if ((rc = tmc_sweep_bisect(&c->target, &b, 1, evaluate, c, &bis, err)))
            return rc < 0 ? c->failure : -1; /* both ends were run: 1 cannot happen */
        found = (long)bis.found;
    }
    /* the counts probed, the grid's and the refinement's: the ternary
     * search's bracket is the cheapest one's neighbours among them */
    long *at = malloc((size_t)(c->n_plans + 1) * sizeof *at);
    if (!at)
        return tmc_error_set(err, "out of memory for %d plans", c->n_plans);
    rc = lowest_cost(c, i, found, at, probed(c, at), err);
    free(at);
    return rc;
}

/* Search plans that meet, by cost: their indices into idx; the count. */
static int list_meeting(const tmc_cheapest *c, int *idx)
{
    int n = 0;
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->fresh || !p->meets)
            continue;
        int j = n++;
        for (; j > 0 && c->plans[idx[j - 1]].cost > p->cost; j--)
            idx[j] = idx[j - 1];
        idx[j] = i;
    }
    return n;
}

/* The finalists: the F cheapest plans that meet, each with its combination
 * at one card step more (a node, or a card; within the range), re-run on
 * the fresh replicas. */
static int run_finalists(tmc_cheapest *c, tmc_error *err)
{
    long n = c->base.x.monte_carlo.replicas;
    int *idx = malloc((size_t)c->n_plans * sizeof *idx), rc = 0;
    c->finalist_cost = malloc((size_t)(2 * TMC_CHEAPEST_FINALISTS * n) * sizeof(double));
    if (!idx || !c->finalist_cost) {
        free(idx);
        return tmc_error_set(err, "out of memory for %ld replicas", n);
    }
    int m = list_meeting(c, idx);
    for (int f = 0; f < m && f < TMC_CHEAPEST_FINALISTS && !rc; f++)
        for (long more = 0; more <= 1 && !rc; more++) {
            const tmc_cheapest_plan *p = &c->plans[idx[f]];
            long cards = p->cards + more * c->levers.card_step;
            int combo = p->combo, j;
            if (cards > c->levers.cards_hi || find_plan(c, combo, cards, 1) >= 0)
                continue;
            rc = simulate(c, combo, cards, 1, c->finalist_cost + c->n_finalists * n, &j, err);
            if (!rc)
                c->finalists[c->n_finalists++] = j;
        }
    free(idx);
    return rc;
}

/* The chosen plan (the cheapest finalist meeting the target on the fresh
 * replicas), the next cheapest that does, and their CRN cost difference. */
static int choose(tmc_cheapest *c, tmc_error *err)
{
    int best = -1, next = -1;
    for (int f = 0; f < c->n_finalists; f++) {
        const tmc_cheapest_plan *p = &c->plans[c->finalists[f]];
        if (p->refused || !p->meets)
            continue;
        if (best < 0 || p->cost < c->plans[c->finalists[best]].cost) {
            next = best;
            best = f;
        } else if (next < 0 || p->cost < c->plans[c->finalists[next]].cost) {
            next = f;
        }
    }
    c->chosen = best < 0 ? -1 : c->finalists[best];
    c->runner_up = next < 0 ? -1 : c->finalists[next];
    if (next < 0)
        return 0;
    long n = c->base.x.monte_carlo.replicas;
    return tmc_sweep_compute_diff(c->finalist_cost + next * n, c->finalist_cost + best * n, n,
                                  &c->runner_up_diff, err);
}

/* Mark the search plans no other beats on both counts: sorted by cost (then
 * P, highest first), a plan is on the frontier when its P exceeds that of
 * every cheaper one. */
static int mark_frontier(tmc_cheapest *c, tmc_error *err)
{
    int *idx = malloc((size_t)c->n_plans * sizeof *idx), n = 0;
    if (!idx)
        return tmc_error_set(err, "out of memory");
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->fresh || p->refused)
            continue;
        int j = n++;
        for (; j > 0; j--) {
            const tmc_cheapest_plan *q = &c->plans[idx[j - 1]];
            if (q->cost < p->cost || (q->cost == p->cost && q->p >= p->p))
                break;
            idx[j] = idx[j - 1];
        }
        idx[j] = i;
    }
    double best_p = -1;
    for (int j = 0; j < n; j++) {
        tmc_cheapest_plan *p = &c->plans[idx[j]];
        p->frontier = p->p > best_p;
        best_p = fmax(best_p, p->p);
    }
    free(idx);
    return 0;
}

int tmc_cheapest_run(tmc_cheapest *c, const tmc_cheapest_options *o, tmc_error *err)
{
    int rc = 0;
    c->options = o;
    for (int i = 0; i < c->n_combos && !rc; i++)
        rc = search_combo(c, i, err);
    if (!rc)
        rc = mark_frontier(c, err);
    if (!rc)
        rc = run_finalists(c, err);
    if (!rc)
        rc = choose(c, err);
    c->options = NULL;
    return rc;
}

int tmc_cheapest_list_closest(const tmc_cheapest *c, int *idx, int n)
{
    int m = 0;
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->fresh || p->refused)
            continue;
        int j = m < n ? m++ : n; /* n: past the end, dropped unless it moves in */
        for (; j > 0; j--) {
            const tmc_cheapest_plan *q = &c->plans[idx[j - 1]];
            if (q->p > p->p || (q->p == p->p && q->cost <= p->cost))
                break;
            if (j < n)
                idx[j] = idx[j - 1];
        }
        if (j < n)
            idx[j] = i;
    }
    return m;
}

void tmc_cheapest_free(tmc_cheapest *c)
{
    tmc_experiment_release(&c->base.x);
    tmc_experiment_release(&c->scratch.x);
    free(c->plans);
    free(c->finalist_cost);
    c->plans = NULL;
    c->finalist_cost = NULL;
}

int tmc_cheapest_frontier_order(const tmc_cheapest *c, int *idx)
{
    int n = 0;
    for (int i = 0; i < c->n_plans; i++) { /* by cost: insertion (the frontier is short) */
        if (!c->plans[i].frontier)
            continue;
        int j = n++;
        for (; j > 0 && c->plans[idx[j - 1]].cost > c->plans[i].cost; j--)
            idx[j] = idx[j - 1];
        idx[j] = i;
    }
    return n;
}

int tmc_cheapest_check_plan(const tmc_sweep_setting *s, void *ctx, char *why, size_t n)
{
    const int *force = ctx;
    if (!*force && tmc_plan_feasibility(&s->x, why, n) == 0)
        return 1;
    return tmc_finishable_check(&s->x, why, n) != 0;
}
