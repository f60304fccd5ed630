/* elastic.c - one replica with elastic replica groups (experiment.h,
 * tmc_elastic; docs/reference/simulation-semantics.md 9): the run loop that
 * tmc_engine_run calls instead of the save policies when elastic.groups is
 * set.
 *
 * The N cards form G groups of N / G. Card failures are the processes'
 * Poisson arrivals of rate N / MTBF_card, each thinned to the cards of the
 * groups up (kept with probability g / G, drawn from the causes stream,
 * which elastic runs do not otherwise use): g groups up fail at rate
 * g (N / G) / MTBF_card, one exponential clock for any N. A failure takes
 * down its group only (a replayed trace's failures strike groups up,
 * unthinned): the step under way is lost (the survivors redo it
 * without the group), the group waits for its spare (failures.h) and heals
 * for heal_s, then rejoins at the next step boundary. A step on g groups
 * takes the full-N step time (a conservative simplification: the slowest
 * of N cards, not of the g N / G left) and advances the run by g / G of a
 * step; progress is counted in units of 1 / G step. The run saves each
 * time its progress passes a multiple of K steps (synchronous saves, which
 * group failures do not interrupt).
 *
 * A global restart (today's recovery) follows an outage, a loss spike, a
 * save timeout, or a failure that leaves fewer than min_groups groups up:
 * the work since the last commit is lost; the job waits, with nothing
 * striking, for the outage's downtime and then until min_groups groups are
 * repaired; the repaired groups restore from the commit together (no heal),
 * the others rejoin the live job later with a heal. A failure during the
 * restore takes its group down, and restarts the restore only when fewer
 * than min_groups are left; an outage restarts it.
 *
 * Invariants: up + the down list's length = G; the memo of the failure
 * arrival's thinning draw holds only while up is unchanged; the wall time
 * is the split's rows (the time of committed steps beyond their progress
 * is the row shrunk_s). O(1) in N per event, O(down groups) per event for
 * the list. */
#include "replica_state.h"

#include <math.h>
#include <stdlib.h>

#include "durations.h"

enum { EV_BACK = TMC_NOTICE + 1 }; /* a down group is ready to rejoin */

typedef struct {
    double fail_at, repaired_at; /* s */
} down_group;

typedef struct {
    tmc_replica_state *rep;
    long groups, up, min_groups;
    down_group *down; /* the groups down, unordered */
    long n_down, cap;
    double decided_t; /* the failure arrival whose thinning was drawn (NAN: none) */
    int decided_ok;
    long total, kg;            /* S G and K G, progress units */
    long committed, prog, next_save;
    double since;              /* wall time the uncommitted stretch started, s */
    double acc_sum, partial_s; /* uncommitted steps' slowest-card time; steps cut, s */
    long acc_steps;
} elastic;

static void set_up(elastic *s, long up)
{
    s->up = up;
    s->decided_t = NAN;
}

/* The time down group i is ready to rejoin a live job, s. */
static double back_at(const elastic *s, long i)
{
    return s->down[i].repaired_at + s->rep->e->heal_s;
}

static long earliest_back(const elastic *s)
{
    long best = -1;
    for (long i = 0; i < s->n_down; i++)
        if (best < 0 || back_at(s, i) < back_at(s, best))
            best = i;
    return best;
}

/* Group i rejoins at rep->t (healed: a heal, else restored with the job). */
static void rejoin(elastic *s, long i, int healed)
{
    tmc_replica_state *rep = s->rep;
    rep->out->group_down_s += rep->t - s->down[i].fail_at;
    rep->out->heals += healed;
    s->down[i] = s->down[--s->n_down];
    set_up(s, s->up + 1);
}

/* Every group ready by rep->t (a step boundary) rejoins. */
static void rejoin_ready(elastic *s)
{
    for (long b = earliest_back(s); b >= 0 && back_at(s, b) <= s->rep->t;
         b = earliest_back(s))
        rejoin(s, b, 1);
}

/* An accepted failure at rep->t: its group goes down and waits for a spare.
 * Returns 1 when fewer than min_groups groups are left up. */
static int group_fails(elastic *s)
{
    tmc_replica_state *rep = s->rep;
    const tmc_process_model *m = &rep->e->processes;
    tmc_processes *p = &rep->proc;
    if (s->n_down == s->cap) {
        long cap = s->cap ? 2 * s->cap : 16;
        down_group *grown = realloc(s->down, (size_t)cap * sizeof *grown);
        if (!grown)
            return rep->out->failed = TMC_REPLICA_NO_MEMORY, 1;
        s->down = grown, s->cap = cap;
    }
    p->arrivals[TMC_FAILURE]++;
    tmc_processes_discard_until(m, p, rep->rng, TMC_FAILURE, rep->t); /* the next one */
    double wait = tmc_failures_take_spare(&m->failures, &p->failures,
                                          rep->rng[TMC_STREAM_REPAIRS], rep->t, rep->t, 1);
    s->down[s->n_down++] = (down_group){rep->t, rep->t + wait};
    set_up(s, s->up - 1);
    if (s->up < s->min_groups)
        return 1;
    rep->out->group_failures++;
    return 0;
}

/* 1 if the failure arrival at time tf strikes a group that is up (kept
 * with probability up / G, drawn once per arrival). */
static int accepted(elastic *s, double tf)
{
    if (s->rep->e->processes.failures.kind == TMC_LIFETIME_TRACE)
        return 1; /* a trace lists the failures of the cards at work */
    if (s->decided_t != tf) {
        s->decided_t = tf;
        s->decided_ok = gsl_rng_uniform(s->rep->rng[TMC_STREAM_CAUSES]) * (double)s->groups <
                        (double)s->up;
    }
    return s->decided_ok;
}

/* The earliest event from rep->t before `until`: TMC_FAILURE (accepted),
 * TMC_OUTAGE, TMC_SPIKE (in compute only) or, with backs, EV_BACK, at *at
 * (INFINITY: none). Failure arrivals thinned out before it are consumed;
 * those from `until` on are left undecided (the groups up may change by
 * then). */
static int next_event(elastic *s, int compute, int backs, double until, double *at)
{
    tmc_replica_state *rep = s->rep;
    tmc_processes *p = &rep->proc;
    for (;;) {
        long b = backs ? earliest_back(s) : -1;
        double tb = b >= 0 ? back_at(s, b) : INFINITY;
        double ts = compute ? p->next[TMC_SPIKE] : INFINITY;
        double other = fmin(fmin(p->next[TMC_OUTAGE], ts), tb);
        double tf = p->next[TMC_FAILURE];
        if (tf <= other && tf < until) {
            if (accepted(s, tf))
                return *at = tf, TMC_FAILURE;
            tmc_processes_discard_until(&rep->e->processes, p, rep->rng, TMC_FAILURE, tf);
            continue;
        }
        *at = other;
        return other == tb && b >= 0 ? EV_BACK
             : other == p->next[TMC_OUTAGE] ? TMC_OUTAGE : TMC_SPIKE;
    }
}

/* A phase of d seconds (a save, a restore) that group failures and returns
 * do not stop: -1 when it ends, or what stops it (an outage, or a failure
 * leaving fewer than min_groups up), rep->t then its time. */
static int phase(elastic *s, double d)
{
    tmc_replica_state *rep = s->rep;
    double end = rep->t + d, at;
    for (;;) {
        int k = next_event(s, 0, 1, INFINITY, &at);
        if (!(at < end)) {
            rep->t = end;
            return -1;
        }
        rep->t = at;
        if (k == EV_BACK)
            rejoin(s, earliest_back(s), 1);
        else if (!tmc_process_types[k].takes_one_group || group_fails(s))
            return k;
    }
}

/* Wait, nothing striking, until min_groups groups are repaired; those
 * repaired join the restore. */
static void wait_for_groups(elastic *s)
{
    tmc_replica_state *rep = s->rep;
    const tmc_process_model *m = &rep->e->processes;
    double start = rep->t;
    while (s->up + s->n_down > 0) {
        long first = -1; /* the earliest repair not yet in */
        for (long i = 0; i < s->n_down; i++)
            if (first < 0 || s->down[i].repaired_at < s->down[first].repaired_at)
                first = i;
        if (first < 0 || (s->down[first].repaired_at > rep->t && s->up >= s->min_groups))
            break;
        rep->t = fmax(rep->t, s->down[first].repaired_at);
        rejoin(s, first, 0);
    }
    rep->out->spare_wait_s += rep->t - start;
    rep->proc.down_s += rep->t - start;
    tmc_processes_discard_all_until(m, &rep->proc, rep->rng, 0, rep->t);
}

/* Process k (one that takes one group: a group failure already in the
 * list) stopped the whole job: lose the uncommitted work, wait, restore
 * from the commit. */
static void global_restart(elastic *s, int k)
{
    tmc_replica_state *rep = s->rep;
    const tmc_engine *e = rep->e;
    rep->out->lost_s += rep->t - s->since;
    for (long stalled = 0; !rep->out->failed; stalled++) {
        if (tmc_process_types[k].takes_one_group)
            rep->out->card_failures++;
        else
            rep->t = tmc_processes_strike(&e->processes, &rep->proc, rep->rng, k, rep->t,
                                          rep->out);
        wait_for_groups(s);
        if (rep->t >= e->horizon_s || *e->stop)
            break;
        if (stalled == TMC_STALL_LIMIT) {
            rep->out->failed = TMC_REPLICA_STALLED;
            break;
        }
        double start = rep->t;
        k = phase(s, e->processes.restore_s *
                         tmc_durations_draw(&e->restore_law, rep->rng[TMC_STREAM_RESTORES]));
        rep->out->restore_s += rep->t - start;
        if (k < 0)
            break;
    }
    s->prog = s->committed;
    s->next_save = s->committed + s->kg < s->total ? s->committed + s->kg : s->total;
    s->since = rep->t;
    s->acc_sum = s->partial_s = 0;
    s->acc_steps = 0;
}

/* The uncommitted steps and the save that ended now commit. */
static void commit(elastic *s, double save_s)
{
    tmc_replica_state *rep = s->rep;
    const tmc_engine *e = rep->e;
    double mu = e->stragglers.max.mu, fixed = e->stragglers.fixed_s;
    double n = (double)s->acc_steps;
    double f = n > 0 ? (double)(s->prog - s->committed) / ((double)s->groups * n) : 1;
    tmc_commit c = {.steps = s->prog - s->committed, .snapshots = 1};
    c.row[TMC_ROW_compute_s] = f * n * mu;
    c.row[TMC_ROW_straggler_s] = f * (s->acc_sum - n * mu);
    c.row[TMC_ROW_fixed_s] = f * n * fixed;
    c.row[TMC_ROW_shrunk_s] = (1 - f) * (s->acc_sum + n * fixed);
    c.row[TMC_ROW_save_s] = save_s;
    tmc_accounting_commit(&rep->ledger, rep->out, &c);
    rep->out->lost_s += s->partial_s;
    s->committed = s->prog;
    s->next_save = s->prog / s->kg * s->kg + s->kg;
    if (s->next_save > s->total)
        s->next_save = s->total;
    s->since = rep->t;
    s->acc_sum = s->partial_s = 0;
    s->acc_steps = 0;
}

/* The save at a multiple of K steps of progress: -1 once committed, or the
 * global interruption (then rep->t is its time). */
static int save(elastic *s)
{
    tmc_replica_state *rep = s->rep;
    const tmc_engine *e = rep->e;
    double c = e->save_s * tmc_durations_draw(&e->save_law, rep->rng[TMC_STREAM_SAVES]);
    int late = e->save_timeout_s > 0 && c > e->save_timeout_s;
    int hit = phase(s, late ? e->save_timeout_s : c);
    if (hit >= 0 || late)
        return hit >= 0 ? hit : TMC_TIMEOUT;
    commit(s, c);
    return -1;
}

/* Up to n steps from rep->t until `limit`: *done completed before it,
 * their slowest-card time in *sum (without the fixed part); returns 1 when
 * cut, with *cross_sum the slowest-card time of the step the limit cut, or
 * -1 on a stop request. */
static int draw(elastic *s, long n, double limit, long *done, double *sum, double *cross_sum)
{
    tmc_replica_state *rep = s->rep;
    const tmc_straggler_model *m = &rep->e->stragglers;
    double mu = m->max.mu, step = mu + m->fixed_s;
    if (m->max.sigma == 0) {
        double fit = isfinite(limit) ? floor((limit - rep->t) / step) : (double)n;
        *done = fit < (double)n ? (long)fmax(fit, 0) : n;
        *sum = (double)*done * mu;
        *cross_sum = mu;
        rep->strag.steps_simulated += (double)*done + (*done < n);
        return *done < n;
    }
    int cut;
    /* notice 1: a cut step's group shrinks, so the steps done by the limit count */
    double all = tmc_stragglers_segment(m, &rep->strag, s->prog / s->groups, n, rep->t, limit,
                                        1, rep->rng[TMC_STREAM_JITTER], rep->e->stop, &cut);
    if (cut == TMC_CUT_STOP)
        return rep->out->stopped = 1, -1;
    *done = cut ? rep->strag.done_steps : n;
    *sum = cut ? rep->strag.done_sum : all;
    *cross_sum = all - *sum;
    return cut != 0;
}

/* Steps toward the next save with the groups up, until the next event. */
static void compute(elastic *s)
{
    tmc_replica_state *rep = s->rep;
    const tmc_engine *e = rep->e;
    tmc_processes_discard_all_until(&e->processes, &rep->proc, rep->rng, 1, rep->t);
    long n = (s->next_save - s->prog + s->up - 1) / s->up, done;
    double at, sum, cross;
    int k = next_event(s, 1, 1, INFINITY, &at);
    int cut = draw(s, n, at, &done, &sum, &cross);
    if (cut < 0)
        return;
    double start = rep->t, fixed = e->stragglers.fixed_s;
    rep->t += sum + (double)done * fixed;
    rep->proc.spike_exposure_s += rep->t - start;
    s->acc_sum += sum, s->acc_steps += done, s->prog += done * s->up;
    if (!cut)
        return;
    if (k == EV_BACK) { /* the step under way ends unless something cuts it */
        k = next_event(s, 1, 0, rep->t + cross + fixed, &at);
        if (!(at < rep->t + cross + fixed)) {
            rep->t += cross + fixed;
            rep->proc.spike_exposure_s += cross + fixed;
            s->acc_sum += cross, s->acc_steps++, s->prog += s->up;
            rejoin_ready(s);
            return;
        }
    }
    s->partial_s += at - rep->t; /* the step under way is lost */
    rep->proc.spike_exposure_s += at - rep->t;
    rep->t = at;
    if (!tmc_process_types[k].takes_one_group || group_fails(s))
        global_restart(s, k);
    else
        rejoin_ready(s); /* at the new step's start */
}

void tmc_elastic_run(tmc_replica_state *rep)
{
    const tmc_engine *e = rep->e;
    elastic s = {.rep = rep, .groups = e->groups, .min_groups = e->min_groups};
    set_up(&s, e->groups);
    s.total = e->steps * e->groups;
    s.kg = e->interval_steps * e->groups;
    s.next_save = s.kg < s.total ? s.kg : s.total;
    while (s.committed < s.total && !tmc_replica_must_end(rep)) {
        if (s.prog < s.next_save) {
            compute(&s);
            continue;
        }
        int hit = save(&s);
        if (hit >= 0 && !(tmc_process_types[hit].takes_one_group && rep->out->failed))
            global_restart(&s, hit);
    }
    for (long i = 0; i < s.n_down; i++) /* still down at the end */
        rep->out->group_down_s += rep->t - s.down[i].fail_at;
    free(s.down);
}
