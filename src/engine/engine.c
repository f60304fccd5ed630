/* engine.c - one replica, event by event (engine.h): the event loop that
 * joins the compute time of steps (stragglers.h), the processes that
 * interrupt it (processes.h) and the save policy (checkpoint.c). */
#include "replica_state.h"

#include <math.h>
#include <signal.h>
#include <string.h>

#include "times.h"
#include "weights.h"

void tmc_engine_watch_stop(tmc_engine *e, const volatile sig_atomic_t *flag)
{
    static const volatile sig_atomic_t never = 0;
    e->stop = flag ? flag : &never;
}

/* Whether runs of commits may be drawn a block at a time (checkpoint.c's
 * commit_block): synchronous saves of a fixed duration that cannot time
 * out, one committed snapshot kept, no window, no pause of one card, no
 * elastic groups (with two levels a block stops at the next persistent
 * snapshot: checkpoint.c's block_that_fits). The rest is decided per block: no slow card in the job,
 * the block's longest duration within the earliest arrival. */
static int blocks_apply(const tmc_engine *e, const tmc_experiment *x)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    return !e->async && !e->groups && e->window_s == 0 && e->spike_rollback <= 1 &&
           cp->save_cv == 0 && (e->save_timeout_s == 0 || e->save_s <= e->save_timeout_s) &&
           !e->stragglers.pause_one;
}

int tmc_engine_init(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf)
{
    return tmc_engine_init_threads(e, x, cf, 1);
}

int tmc_engine_init_threads(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf,
                            int threads)
{
    memset(e, 0, sizeof *e);
    e->stop = tmc_stop_flag();
    e->steps = x->job.steps;
    e->interval_steps = cf->interval_steps;
    e->save_s = x->checkpoint.save_s;
    const tmc_checkpoint *cp = &x->checkpoint;
    e->save_law = tmc_durations_law(cp->duration_law, cp->save_cv);
    e->restore_law = tmc_durations_law(cp->duration_law, cp->restore_cv);
    e->save_timeout_s = cp->save_timeout_s;
    e->async = x->checkpoint.mode == TMC_SAVE_ASYNC;
    e->write_s = x->checkpoint.write_s;
    e->horizon_s = tmc_engine_horizon_s(x, cf);
    e->window_s = tmc_window_on(x) ? x->window.days * TMC_DAY_S : 0;
    e->deadline_wall_s = (x->deadline.days - x->deadline.reserve_days) * TMC_DAY_S;
    e->elite_wall_s = e->deadline_wall_s;
    e->spike_rollback = x->loss_spikes.enabled ? x->loss_spikes.rollback_snapshots : 1;
    e->evict_restore_s = x->slow_cards.eviction_restore_s >= 0
        ? x->slow_cards.eviction_restore_s : x->checkpoint.restore_s;
    e->restore_immune = cp->restore_immune;
    if (cp->persistent_every > 1) { /* docs/reference/simulation-semantics.md 13 */
        e->persistent_steps = cp->persistent_every * e->interval_steps;
        e->local_save_s = cp->local_save_s >= 0 ? cp->local_save_s : cp->save_s;
    }
    tmc_processes_model(&e->processes, x, cf);
    e->processes.horizon_s = e->horizon_s; /* a wait past it is censored */
    if (x->observed.enabled) { /* docs/reference/simulation-semantics.md 10 */
        e->start_s = e->processes.start_s;
        e->start_committed = x->observed.committed_step;
        e->start_done = x->observed.steps_done;
        e->start_restarts = (double)(x->observed.failures + x->observed.outages);
    }
    if (x->elastic.enabled) {
        e->groups = x->elastic.groups;
        e->min_groups = x->elastic.min_groups;
        e->heal_s = x->elastic.heal_s;
    }
    int segments = tmc_engine_mode(x) == TMC_MODE_SEGMENTS;
    if (tmc_stragglers_init(&e->stragglers, x, cf, segments, threads))
        return -1;
    tmc_straggler_model *m = &e->stragglers;
    if (!segments || !blocks_apply(e, x))
        return 0;
    if (tmc_stragglers_init_blocks(m, x, cf, threads))
        return -1;
    for (int b = 0; b < m->blocks; b++) {
        long n = tmc_stragglers_block_steps(m, b);
        e->block_need_s[b] = tmc_stragglers_block_max(m, b) + (double)n * m->fixed_s +
                             (double)(2L << b) * e->save_s;
    }
    for (int b = m->blocks - 1; b >= 0; b--)
        e->block_low_s[b] = b + 1 < m->blocks && e->block_low_s[b + 1] < e->block_need_s[b]
                                ? e->block_low_s[b + 1] : e->block_need_s[b];
    return 0;
}

double tmc_engine_horizon_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    if (tmc_window_on(x)) /* config_window.c refuses horizon_days beside it */
        return x->window.days * TMC_DAY_S;
    if (x->monte_carlo.horizon_days > 0)
        return x->monte_carlo.horizon_days * TMC_DAY_S;
    double budget = (x->deadline.days - x->deadline.reserve_days) * TMC_DAY_S;
    double elapsed = x->observed.enabled ? x->observed.elapsed_days * TMC_DAY_S : 0;
    return fmax(elapsed + 1000 * cf->uninterrupted_s, 2 * budget);
}

tmc_mode tmc_engine_mode(const tmc_experiment *x)
{
    tmc_mode m = x->monte_carlo.mode;
    if (m != TMC_MODE_AUTO)
        return m;
    /* a group's failure cuts a step (elastic.c); a slowdown's steps depend
     * on the clock */
    return x->elastic.enabled || x->slowdown.enabled ? TMC_MODE_STEPS : TMC_MODE_SEGMENTS;
}

void tmc_engine_free(tmc_engine *e)
{
    tmc_stragglers_free(&e->stragglers);
}

int tmc_engine_tilt(tmc_engine *e, const double theta[TMC_TILTS], double elite_wall_s)
{
    if (e->groups || tmc_weights_check(&e->processes, theta))
        return -1; /* elastic groups: no likelihood ratio for the thinning */
    for (int k = 0; k < TMC_TILTS; k++)
        e->processes.tilt[k] = theta[k];
    e->processes.failures.tilt = theta[TMC_TILT_FAILURES];
    e->processes.failures.repair_tilt = theta[TMC_TILT_REPAIRS];
    e->elite_wall_s = elite_wall_s;
    return 0;
}

int tmc_replica_next_strike(const tmc_replica_state *rep, int compute, double *at)
{
    const tmc_processes *p = &rep->proc;
    int kind = tmc_processes_earliest(p, compute ? TMC_PROCESSES : TMC_PROCESSES_ANYTIME);
    *at = p->next[kind];
    double limit = tmc_time_max(p->limit_at, rep->t); /* passed while down: strikes at once */
    if (limit < *at)
        kind = TMC_LIMIT, *at = limit;
    return kind;
}

/* An emergency save for arrival k due at `strike` must start by
 * strike - lead: 1 if that moment lies in [rep->t, *limit], which it then
 * becomes. */
static int save_first(tmc_replica_state *rep, int k, double strike, double lead, double *limit)
{
    double save_at = strike - lead;
    if (!(save_at >= rep->t && save_at <= *limit))
        return 0;
    *limit = save_at;
    rep->notice_of = k;
    return 1;
}

/* When compute must stop: at the earliest arrival (*kind its process), or
 * one save time before an arrival with notice (an outage with notice, a
 * time limit with a save before it: *kind TMC_NOTICE, rep->notice_of
 * which), unless that moment has passed (the notice came during a save or
 * restore: too late to save, the arrival strikes as any other). */
static double compute_limit(tmc_replica_state *rep, int *kind)
{
    const tmc_process_model *m = &rep->e->processes;
    double limit, at, lead;
    *kind = tmc_replica_next_strike(rep, 1, &limit);
    if (!m->any_notice) /* the event loop's usual case: once a segment */
        return limit;
    /* the lower kind last: it wins a tie, the outage over the limit
     * (docs/reference/simulation-semantics.md 3) */
    for (int k = TMC_KINDS - 1; k >= 0; k--) {
        const tmc_process_type *type = &tmc_process_types[k];
        if (type->noticed && type->noticed(m, &rep->proc, &at, &lead) &&
            save_first(rep, k, at, lead, &limit))
            *kind = TMC_NOTICE;
    }
    return limit;
}

/* The compute-only arrivals passed are discarded (not in compute), then
 * where compute from rep->t must stop. */
static void replica_limit(tmc_replica_state *rep, tmc_limit *lim)
{
    tmc_processes_discard_all_until(&rep->e->processes, &rep->proc, rep->rng, 1, rep->t);
    lim->at = compute_limit(rep, &lim->kind);
}

double tmc_replica_clear_s(tmc_replica_state *rep, tmc_limit *lim)
{
    replica_limit(rep, lim);
    return tmc_time_min(lim->at, rep->e->horizon_s) - rep->t;
}

int tmc_replica_compute(tmc_replica_state *rep, long first, long n, const tmc_limit *known,
                        double *sum_max)
{
    const tmc_engine *e = rep->e;
    tmc_processes *p = &rep->proc;
    tmc_limit here;
    if (!known)
        replica_limit(rep, &here), known = &here;
    int kind = known->kind, cut;
    double limit = known->at;
    double sum = tmc_stragglers_segment(&e->stragglers, &rep->strag, first, n, rep->t, limit,
                                        kind == TMC_NOTICE, rep->rng[TMC_STREAM_JITTER],
                                        e->stop, &cut);
    double end = rep->t + sum + n * e->stragglers.fixed_s;
    if (cut == TMC_CUT_STOP) { /* the replica ends at its next check, discarded */
        rep->out->stopped = 1;
        *sum_max = 0;
        return -1;
    }
    if (cut || end > limit) {
        p->spike_exposure_s += limit - rep->t;
        rep->t = limit;
        return kind;
    }
    p->spike_exposure_s += end - rep->t;
    rep->t = end;
    *sum_max = sum;
    return -1;
}

int tmc_replica_save(tmc_replica_state *rep, double save_s, double *took_s)
{
    const tmc_engine *e = rep->e;
    double c = save_s * tmc_durations_draw(&e->save_law, rep->rng[TMC_STREAM_SAVES]);
    int late = e->save_timeout_s > 0 && c > e->save_timeout_s;
    int hit = tmc_replica_phase(rep, late ? e->save_timeout_s : c);
    *took_s = c;
    return hit >= 0 ? hit : late ? TMC_TIMEOUT : -1;
}

/* A restore attempt of the restore asked for, times its drawn factor.
 * Immune restores (checkpoint.restore_immune) let only the time limit
 * strike: the failures and outages due meanwhile are dropped, as while the
 * job waits (the time is down time, out of the tilt's exposure). */
static int restore_phase(tmc_replica_state *rep, double restore_s)
{
    const tmc_engine *e = rep->e;
    double d = restore_s * tmc_durations_draw(&e->restore_law, rep->rng[TMC_STREAM_RESTORES]);
    if (!e->restore_immune)
        return tmc_replica_phase(rep, d);
    double limit = tmc_time_max(rep->proc.limit_at, rep->t), end = rep->t + d;
    int hit = end > limit ? TMC_LIMIT : -1;
    if (hit >= 0)
        end = limit;
    rep->proc.down_s += end - rep->t;
    rep->t = end;
    tmc_processes_discard_all_until(&e->processes, &rep->proc, rep->rng, 0, end);
    return hit;
}

/* The job computes again from rep->t: a slowdown's hours and the next
 * refresh restart count from here. */
static void restarted(tmc_replica_state *rep)
{
    rep->strag.fresh_at = rep->t;
    tmc_processes_restarted(&rep->e->processes, &rep->proc, rep->t);
}

int tmc_replica_phase(tmc_replica_state *rep, double d)
{
    double at;
    int kind = tmc_replica_next_strike(rep, 0, &at);
    if (rep->t + d > at) {
        rep->t = at;
        return kind;
    }
    rep->t += d;
    return -1;
}

/* Process k struck at rep->t: the job waits, then restores; a failure or
 * outage during the restore starts it again. A restore struck
 * TMC_STALL_LIMIT times in a row can never finish in practice (its chance
 * e^(-rate x restore) is below 1e-6), and under an absurd rate or
 * importance tilt the clock may stop advancing at all (t + dt == t): an
 * error, not an endless loop. */
void tmc_replica_recover(tmc_replica_state *rep, int k)
{
    tmc_replica *out = rep->out;
    rep->t = tmc_processes_strike(&rep->e->processes, &rep->proc, rep->rng, k, rep->t, out);
    long stalled = 0;
    double *row = k == TMC_REFRESH ? &out->refresh_s : &out->restore_s;
    while (rep->t < rep->e->horizon_s && !*rep->e->stop) {
        double start = rep->t;
        int hit = restore_phase(rep, rep->proc.restore_s);
        *row += rep->t - start;
        row = &out->restore_s; /* a refresh struck: the rest is the failure's */
        if (hit < 0) {
            restarted(rep);
            return;
        }
        if (++stalled == TMC_STALL_LIMIT) {
            out->failed = TMC_REPLICA_STALLED;
            return;
        }
        double restore = rep->proc.restore_s;
        int local = rep->e->processes.levels && !rep->proc.local_lost;
        rep->t = tmc_processes_strike(&rep->e->processes, &rep->proc, rep->rng, hit, rep->t,
                                      out);
        /* a requeue: the restore it cut, in full; but a local one cut by a new
         * allocation, whose hosts' memory is new, restores from storage */
        if (tmc_process_types[hit].redoes_restore && !local)
            rep->proc.restore_s = restore;
    }
}

int tmc_replica_must_end(tmc_replica_state *rep)
{
    const tmc_engine *e = rep->e;
    if (e->window_s > 0 && rep->t <= e->window_s) { /* a boundary inside the window */
        memcpy(rep->window_split, rep->out->split, sizeof rep->window_split);
        rep->window_t = rep->t;
    }
    if (*rep->e->stop)
        return rep->out->stopped = 1;
    if (rep->out->failed)
        return 1;
    if (rep->t >= rep->e->horizon_s)
        return (int)(rep->out->censored = 1);
    return 0;
}

int tmc_replica_evict_due(const tmc_replica_state *rep)
{
    return tmc_stragglers_evict_due(&rep->e->stragglers, &rep->strag);
}

/* Slow cards detected (after detect_after steps with them) are evicted
 * right after a commit: a restore, which failures and outages may interrupt
 * like any other, then the job runs on normal cards. */
void tmc_replica_evict(tmc_replica_state *rep)
{
    if (!tmc_replica_evict_due(rep))
        return;
    rep->out->slow_survival_s += rep->t;
    rep->out->evictions++;
    rep->strag.slow = 0;
    double start = rep->t;
    int hit = restore_phase(rep, rep->e->evict_restore_s);
    rep->out->eviction_s += rep->t - start;
    if (hit >= 0)
        tmc_replica_recover(rep, hit);
    else
        restarted(rep);
}

/* After a commit: a refresh restart whose moment to stop computing has
 * passed (it fell in the save) restarts at once, the work all saved. */
void tmc_replica_refresh_due(tmc_replica_state *rep)
{
    if (rep->t >= rep->proc.refresh_at - rep->e->processes.notice_lead_s)
        tmc_replica_recover(rep, TMC_REFRESH);
}

/* The replica's end: censoring, wall time, weight, slow-card survival. */
static void finish(tmc_replica_state *rep)
{
    const tmc_engine *e = rep->e;
    tmc_replica *out = rep->out;
    if (rep->t > e->horizon_s) /* passed the horizon inside its last segment */
        out->censored = 1;
    out->wall_s = out->censored ? e->horizon_s : rep->t;
    if (e->window_s > 0 && out->censored) { /* the split up to W (engine.h) */
        memcpy(out->split, rep->window_split, sizeof rep->window_split);
        out->window_open_s = e->window_s - rep->window_t;
    }
    tmc_weights_record(&e->processes, &rep->proc, rep->t, e->deadline_wall_s,
                       e->elite_wall_s, out);
    out->steps_simulated = rep->strag.steps_simulated;
    out->standby_swaps = (double)rep->proc.failures.swaps;
    out->spare_provisions = (double)rep->proc.failures.provisions;
    out->bad_node_cures = (double)rep->proc.failures.cures;
    out->misdiagnoses = (double)rep->proc.failures.misdiagnoses;
    out->nodes_aged = (double)rep->proc.failures.aged;
    out->nodes_retired = (double)rep->proc.failures.retired;
    out->fleet_depleted = rep->proc.failures.depleted;
    out->reserve_fetched = (double)rep->proc.failures.fetched;
    if (rep->strag.slow > 0) /* never evicted: the slow cards stayed to the end */
        out->slow_survival_s += out->wall_s;
}

void tmc_engine_run(const tmc_engine *e, uint64_t seed, uint64_t replica,
                    gsl_rng *const rng[TMC_STREAM_COUNT], tmc_replica *out)
{
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        tmc_rng_pcg_seed_replica(rng[s], seed, replica, (tmc_stream_kind)s);
    memset(out, 0, sizeof *out);
    tmc_replica_state rep = {.e = e, .rng = rng, .t = e->start_s, .out = out};
    out->before_s = e->start_s; /* a forecast: the run's past */
    out->before_restarts = e->start_restarts;
    rep.ledger.keep = e->spike_rollback > 1 || e->persistent_steps > 0;
    /* the slow cards first: the slow-card stream then gives the replica's
     * failure rate (failures.mtbf_events); other streams are independent */
    tmc_stragglers_start(&e->stragglers, &rep.strag, rng[TMC_STREAM_SLOW]);
    if (tmc_processes_start(&e->processes, &rep.proc, rng)) {
        out->failed = TMC_REPLICA_NO_MEMORY; /* for the failure state: no result */
        tmc_processes_end(&rep.proc);
        return;
    }
    restarted(&rep); /* the slowdown's hours and the first refresh from the start */
    out->slow_cards = (double)rep.strag.slow;
    out->slow_runs = rep.strag.slow > 0;
    out->bad_nodes_start = (double)rep.proc.failures.bad_nodes;
    if (e->groups)
        tmc_elastic_run(&rep);
    else if (e->async)
        tmc_checkpoint_run_async(&rep);
    else
        tmc_checkpoint_run_sync(&rep);
    tmc_accounting_free(&rep.ledger);
    finish(&rep);
    tmc_processes_end(&rep.proc);
}
