/* engine.c - one replica, event by event (engine.h): the event loop that
 * joins the compute time of steps (stragglers.h), the processes that
 * interrupt it (processes.h) and the save policy (checkpoint.c). */
#include "run_state.h"

#include <math.h>
#include <signal.h>
#include <string.h>

#include "weights.h"

void tmc_engine_watch_stop(tmc_engine *e, const volatile sig_atomic_t *flag)
{
    static const volatile sig_atomic_t never = 0;
    e->stop = flag ? flag : &never;
}

int tmc_engine_init(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf)
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
    tmc_processes_model(&e->processes, x, cf);
    e->processes.horizon_s = e->horizon_s; /* a wait past it is censored */
    if (x->progress.enabled) { /* docs/simulation-semantics.md 10 */
        e->start_s = e->processes.start_s;
        e->start_committed = x->progress.committed_step;
        e->start_done = x->progress.steps_done;
        e->start_restarts = (double)(x->progress.failures + x->progress.outages);
    }
    if (x->elastic.enabled) {
        e->groups = x->elastic.groups;
        e->min_groups = x->elastic.min_groups;
        e->heal_s = x->elastic.heal_s;
    }
    return tmc_stragglers_init(&e->stragglers, x, cf,
                               tmc_engine_mode(x) == TMC_MODE_AGGREGATED);
}

double tmc_engine_horizon_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    if (tmc_window_on(x)) /* config_window.c refuses horizon_days beside it */
        return x->window.days * TMC_DAY_S;
    if (x->monte_carlo.horizon_days > 0)
        return x->monte_carlo.horizon_days * TMC_DAY_S;
    double budget = (x->deadline.days - x->deadline.reserve_days) * TMC_DAY_S;
    double elapsed = x->progress.enabled ? x->progress.elapsed_days * TMC_DAY_S : 0;
    return fmax(elapsed + 1000 * cf->uninterrupted_s, 2 * budget);
}

tmc_mode tmc_engine_mode(const tmc_experiment *x)
{
    tmc_mode m = x->monte_carlo.mode;
    if (m != TMC_MODE_AUTO)
        return m;
    if (x->elastic.enabled) /* a group's failure cuts a step: elastic.c */
        return TMC_MODE_EXACT;
    double steps = (double)x->job.steps;
    if (tmc_window_on(x)) { /* no more steps than the window holds at the bare compute time */
        const tmc_job *j = &x->job;
        double mu = j->flop_per_step / ((double)j->cards * j->peak_flops * j->efficiency);
        steps = fmin(steps, ceil(x->window.days * TMC_DAY_S / mu));
    }
    double work = (double)x->monte_carlo.replicas * steps;
    return work <= TMC_EXACT_BUDGET ? TMC_MODE_EXACT : TMC_MODE_AGGREGATED;
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

int tmc_run_next_strike(const tmc_run *run, int compute, double *at)
{
    const tmc_processes *p = &run->proc;
    int kind = tmc_processes_earliest(p, compute ? TMC_PROCESSES : TMC_SPIKE);
    *at = p->next[kind];
    double limit = fmax(p->limit_at, run->t); /* passed while down: strikes at once */
    if (limit < *at)
        kind = TMC_LIMIT, *at = limit;
    return kind;
}

/* An emergency save for arrival k due at `strike` must start by
 * strike - lead: 1 if that moment lies in [run->t, *limit], which it then
 * becomes. */
static int save_first(tmc_run *run, int k, double strike, double lead, double *limit)
{
    double save_at = strike - lead;
    if (!(save_at >= run->t && save_at <= *limit))
        return 0;
    *limit = save_at;
    run->notice_of = k;
    return 1;
}

/* When compute must stop: at the earliest arrival (*kind its process), or
 * one save time before an outage with notice or a time limit with a save
 * before it (*kind TMC_NOTICE, run->notice_of which), unless that moment
 * has passed (the notice came during a save or restore: too late to save,
 * the arrival strikes as any other). */
static double compute_limit(tmc_run *run, int *kind)
{
    const tmc_process_model *m = &run->e->processes;
    const tmc_processes *p = &run->proc;
    double limit;
    *kind = tmc_run_next_strike(run, 1, &limit);
    /* the outage second: it wins a tie (docs/simulation-semantics.md 3) */
    if (m->limit_save && save_first(run, TMC_LIMIT, p->limit_at, run->e->save_s, &limit))
        *kind = TMC_NOTICE;
    if (m->outage_notice &&
        save_first(run, TMC_OUTAGE, p->next[TMC_OUTAGE], m->notice_lead_s, &limit))
        *kind = TMC_NOTICE;
    return limit;
}

int tmc_run_compute(tmc_run *run, long first, long n, double *sum_max)
{
    const tmc_engine *e = run->e;
    tmc_processes *p = &run->proc;
    tmc_processes_discard_until(&e->processes, p, run->rng, TMC_SPIKE, run->t);
    int kind, cut;
    double limit = compute_limit(run, &kind);
    double sum = tmc_stragglers_segment(&e->stragglers, &run->strag, first, n, run->t, limit,
                                        run->rng[TMC_STREAM_JITTER], e->stop, &cut);
    double end = run->t + sum + n * e->stragglers.fixed_s;
    if (cut == TMC_CUT_STOP) { /* the replica ends at its next check, discarded */
        run->out->stopped = 1;
        *sum_max = 0;
        return -1;
    }
    if (cut || end > limit) {
        if (kind == TMC_NOTICE && !cut) /* drawn at once: how far it got */
            tmc_stragglers_estimate_done(&e->stragglers, &run->strag, first, n,
                                         limit - run->t);
        p->spike_exposure_s += limit - run->t;
        run->t = limit;
        return kind;
    }
    p->spike_exposure_s += end - run->t;
    run->t = end;
    *sum_max = sum;
    return -1;
}

int tmc_run_save(tmc_run *run, double *took_s)
{
    const tmc_engine *e = run->e;
    double c = e->save_s * tmc_durations_draw(&e->save_law, run->rng[TMC_STREAM_SAVES]);
    int late = e->save_timeout_s > 0 && c > e->save_timeout_s;
    int hit = tmc_run_phase(run, late ? e->save_timeout_s : c);
    *took_s = c;
    return hit >= 0 ? hit : late ? TMC_TIMEOUT : -1;
}

/* A restore attempt of the restore asked for, times its drawn factor. */
static int restore_phase(tmc_run *run, double restore_s)
{
    const tmc_engine *e = run->e;
    return tmc_run_phase(run, restore_s *
                                  tmc_durations_draw(&e->restore_law,
                                                     run->rng[TMC_STREAM_RESTORES]));
}

int tmc_run_phase(tmc_run *run, double d)
{
    double at;
    int kind = tmc_run_next_strike(run, 0, &at);
    if (run->t + d > at) {
        run->t = at;
        return kind;
    }
    run->t += d;
    return -1;
}

/* Process k struck at run->t: the job waits, then restores; a failure or
 * outage during the restore starts it again. A restore struck
 * TMC_STALL_LIMIT times in a row can never finish in practice (its chance
 * e^(-rate x restore) is below 1e-6), and under an absurd rate or
 * importance tilt the clock may stop advancing at all (t + dt == t): an
 * error, not an endless loop. */
void tmc_run_recover(tmc_run *run, int k)
{
    tmc_replica *out = run->out;
    run->t = tmc_processes_strike(&run->e->processes, &run->proc, run->rng, k, run->t, out);
    long stalled = 0;
    while (run->t < run->e->horizon_s && !*run->e->stop) {
        double start = run->t;
        int hit = restore_phase(run, run->proc.restore_s);
        out->restore_s += run->t - start;
        if (hit < 0)
            return;
        if (++stalled == TMC_STALL_LIMIT) {
            out->failed = TMC_REPLICA_STALLED;
            return;
        }
        double restore = run->proc.restore_s;
        run->t = tmc_processes_strike(&run->e->processes, &run->proc, run->rng, hit, run->t,
                                      out);
        if (hit == TMC_LIMIT) /* a requeue redoes the restore it cut, in full */
            run->proc.restore_s = restore;
    }
}

int tmc_run_must_end(tmc_run *run)
{
    const tmc_engine *e = run->e;
    if (e->window_s > 0 && run->t <= e->window_s) { /* a boundary inside the window */
        memcpy(run->window_split, run->out->split, sizeof run->window_split);
        run->window_t = run->t;
    }
    if (*run->e->stop)
        return run->out->stopped = 1;
    if (run->out->failed)
        return 1;
    if (run->t >= run->e->horizon_s)
        return (int)(run->out->censored = 1);
    return 0;
}

int tmc_run_evict_due(const tmc_run *run)
{
    return tmc_stragglers_evict_due(&run->e->stragglers, &run->strag);
}

/* Slow cards detected (after detect_after steps with them) are evicted
 * right after a commit: a restore, which failures and outages may interrupt
 * like any other, then the job runs on normal cards. */
void tmc_run_evict(tmc_run *run)
{
    if (!tmc_run_evict_due(run))
        return;
    run->out->slow_survival_s += run->t;
    run->out->evictions++;
    run->strag.slow = 0;
    double start = run->t;
    int hit = restore_phase(run, run->e->evict_restore_s);
    run->out->eviction_s += run->t - start;
    if (hit >= 0)
        tmc_run_recover(run, hit);
}

/* The replica's end: censoring, wall time, weight, slow-card survival. */
static void finish(tmc_run *run)
{
    const tmc_engine *e = run->e;
    tmc_replica *out = run->out;
    if (run->t > e->horizon_s) /* passed the horizon inside its last segment */
        out->censored = 1;
    out->wall_s = out->censored ? e->horizon_s : run->t;
    if (e->window_s > 0 && out->censored) { /* the split up to W (engine.h) */
        memcpy(out->split, run->window_split, sizeof run->window_split);
        out->window_open_s = e->window_s - run->window_t;
    }
    tmc_weights_record(&e->processes, &run->proc, run->t, e->deadline_wall_s,
                       e->elite_wall_s, out);
    out->steps_simulated = run->strag.steps_simulated;
    out->standby_swaps = (double)run->proc.failures.swaps;
    out->spare_provisions = (double)run->proc.failures.provisions;
    if (run->strag.slow > 0) /* never evicted: the slow cards stayed to the end */
        out->slow_survival_s += out->wall_s;
}

void tmc_engine_run(const tmc_engine *e, uint64_t seed, uint64_t replica,
                    gsl_rng *const rng[TMC_STREAM_COUNT], tmc_replica *out)
{
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        tmc_rng_pcg_seed_replica(rng[s], seed, replica, (tmc_stream_kind)s);
    memset(out, 0, sizeof *out);
    tmc_run run = {.e = e, .rng = rng, .t = e->start_s, .out = out};
    out->before_s = e->start_s; /* a forecast: the run's past */
    out->before_restarts = e->start_restarts;
    run.ledger.keep = e->spike_rollback > 1;
    /* the slow cards first: the slow-card stream then gives the replica's
     * failure rate (failures.mtbf_events); other streams are independent */
    tmc_stragglers_start(&e->stragglers, &run.strag, rng[TMC_STREAM_SLOW]);
    if (tmc_processes_start(&e->processes, &run.proc, rng)) {
        out->failed = TMC_REPLICA_NO_MEMORY; /* for the failure state: no result */
        tmc_processes_end(&run.proc);
        return;
    }
    out->slow_cards = (double)run.strag.slow;
    out->slow_runs = run.strag.slow > 0;
    out->bad_nodes_start = (double)run.proc.failures.bad_nodes;
    if (e->groups)
        tmc_elastic_run(&run);
    else if (e->async)
        tmc_checkpoint_run_async(&run);
    else
        tmc_checkpoint_run_sync(&run);
    tmc_accounting_free(&run.ledger);
    finish(&run);
    tmc_processes_end(&run.proc);
}
