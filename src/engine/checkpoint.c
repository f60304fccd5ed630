/* checkpoint.c - the save policies: synchronous saves that commit at their
 * end, or asynchronous ones (snapshots.h) that commit when their background
 * write ends; and loss spikes' rollback past the newest commit
 * (docs/reference/simulation-semantics.md, 1 and 4).
 *
 * Invariant: `committed` is the last step of the newest committed snapshot
 * still restorable; the split holds the committed work up to it (the
 * ledger keeps it per snapshot when a spike may roll back several). */
#include "replica_state.h"

#include <math.h>

/* A committed stretch's slowest-card time: its sum, the pauses and what
 * a slowdown added to it, s. */
typedef struct {
    double sum, pause, drift;
} stretch;

/* Add a committed stretch of n steps to the split: the `timed` of them
 * computed in this run (all but a forecast's steps done before its start,
 * whose time is its before_s row), their slowest-card time and the saves
 * of its `snapshots` snapshots (a block's several). */
static void add_committed(tmc_replica_state *rep, long n, long timed, stretch st, double save_s,
                          long snapshots)
{
    const tmc_engine *e = rep->e;
    double mu = e->stragglers.max.mu;
    double row[] = {timed * mu, st.sum - timed * mu - st.pause - st.drift, st.pause,
                    timed * e->stragglers.fixed_s, save_s, st.drift};
    if (!rep->ledger.keep) { /* the usual case, once a segment: six rows, no list */
        double *split = rep->out->split;
        split[TMC_ROW_compute_s] += row[0], split[TMC_ROW_straggler_s] += row[1];
        split[TMC_ROW_pause_s] += row[2], split[TMC_ROW_fixed_s] += row[3];
        split[TMC_ROW_save_s] += row[4], split[TMC_ROW_slowdown_s] += row[5];
        rep->out->saves += (double)snapshots;
        return;
    }
    tmc_commit c = {.steps = n, .snapshots = snapshots};
    c.row[TMC_ROW_compute_s] = row[0];
    c.row[TMC_ROW_straggler_s] = row[1];
    c.row[TMC_ROW_pause_s] = row[2];
    c.row[TMC_ROW_fixed_s] = row[3];
    c.row[TMC_ROW_save_s] = row[4];
    c.row[TMC_ROW_slowdown_s] = row[5];
    tmc_accounting_commit(&rep->ledger, rep->out, &c);
}

/* The commits reached `committed` at time t: the engine's mark (mark_s)
 * is the first time they reach mark_step; a window's committed step
 * (window_steps) is the last commit at or before its end. */
static void mark(tmc_replica_state *rep, long committed, double t)
{
    long at = rep->e->mark_step;
    if (at > 0 && committed >= at && rep->out->mark_s == 0)
        rep->out->mark_s = t;
    if (rep->e->window_s > 0 && t <= rep->e->window_s)
        rep->out->window_steps = (double)committed;
}

/* After a loss spike (its row rolls back): drop the newest rollback - 1
 * committed snapshots too (as many as there are); returns the committed
 * step to resume from. */
static long spike_rollback(tmc_replica_state *rep, long committed)
{
    return committed - tmc_accounting_roll_back(&rep->ledger, rep->out, rep->e->spike_rollback);
}

static double pause_time(const tmc_engine *e, long first, long n)
{
    return tmc_stragglers_paused(&e->stragglers, first, n) * e->stragglers.pause_s;
}

/* Two levels of snapshots (docs/reference/simulation-semantics.md 13):
 * after a recovery whose restore needed a persistent snapshot, the local
 * ones committed since it are lost, their work with them. Returns the step
 * the job resumes from. */
static long resume_step(tmc_replica_state *rep, long done)
{
    if (!rep->e->persistent_steps || !rep->proc.local_lost)
        return done;
    return done - tmc_accounting_roll_back_all(&rep->ledger, rep->out);
}

/* Two levels: a snapshot committed; every node holds it and its partner's
 * copy, and a persistent one empties the ledger (nothing goes back past
 * it). */
static void committed_level(tmc_replica_state *rep, int persistent)
{
    if (!rep->e->persistent_steps)
        return;
    tmc_processes_snapshot_committed(&rep->proc);
    if (persistent)
        tmc_accounting_forget(&rep->ledger);
}

/* Whether the save that ends at step `end` writes a persistent snapshot:
 * always with one level; with two, at multiples of m K and at the last
 * step (the model must end on storage). */
static int persistent_at(const tmc_engine *e, long end)
{
    return !e->persistent_steps || end % e->persistent_steps == 0 || end == e->steps;
}

/* Asynchronous saves: a segment ends with its blocking copy (save_s); a
 * persistent snapshot is then written in the background and restorable
 * from storage write_s after the storage is free; the run ends when the
 * last write commits. With one level only written snapshots restore; with
 * two (docs/reference/simulation-semantics.md 13) every copy commits a
 * local snapshot at once (a local one's copy is local_save_s), and only
 * every m-th and the last are written. */
typedef struct {
    long committed; /* the newest restorable snapshot's step (two levels: the newest copy) */
    long written;   /* the newest snapshot on storage's step */
    double safe_s;  /* the wall time up to which the work is saved */
} async_state;

/* Snapshot s's work since the newest restorable one goes into the split
 * (and the ledger), and s is now the newest restorable one. */
static void add_snapshot(tmc_replica_state *rep, const tmc_snapshot *s, async_state *as)
{
    add_committed(rep, s->step - as->committed, s->timed,
                  (stretch){s->sum_max_s, s->pause_s, s->drift_s}, s->copy_s, 1);
    as->committed = s->step;
}

/* The writes ended by rep->t commit. With two levels their work is in the
 * split since their copy: a write only moves the point a persistent
 * restore goes back to. */
static void commit_ready(tmc_replica_state *rep, async_state *as)
{
    tmc_snapshot s;
    while (tmc_snapshots_commit(&rep->snapshots, rep->t, &s)) {
        if (rep->e->persistent_steps) {
            tmc_accounting_forget_oldest(&rep->ledger, s.step - as->written);
            as->written = s.step;
            continue;
        }
        add_snapshot(rep, &s, as);
        as->written = s.step;
        mark(rep, s.step, s.commit_s);
        as->safe_s = s.capture_s;
    }
}

/* Two levels: snapshot s's copy ended at rep->t; it is a local snapshot on
 * every node and its partner (kept in the ledger until a write passes
 * it). */
static void copied_locally(tmc_replica_state *rep, const tmc_snapshot *s, async_state *as)
{
    add_snapshot(rep, s, as);
    as->safe_s = rep->t;
    committed_level(rep, 0);
    mark(rep, s->step, rep->t);
}

/* One segment and its copy; queues its snapshot's write when it is
 * persistent (training waits while the write queue is full). -1, or the
 * process that interrupted it. */
static int async_segment(tmc_replica_state *rep, long progress, long n, async_state *as)
{
    const tmc_engine *e = rep->e;
    int persistent = persistent_at(e, progress + n);
    double sum_max = 0;
    double copy_s = 0;
    int hit = n > 0 ? tmc_replica_compute(rep, progress, n, NULL, &sum_max) : -1;
    if (hit < 0)
        hit = tmc_replica_save(rep, persistent ? e->save_s : e->local_save_s, &copy_s);
    if (hit >= 0)
        return hit;
    tmc_snapshot s = {.step = progress + n, .timed = n, .capture_s = rep->t,
                      .sum_max_s = sum_max,
                      .pause_s = pause_time(e, progress, n), .copy_s = copy_s,
                      .drift_s = n > 0 ? rep->strag.drift_s : 0};
    while (persistent && rep->snapshots.count == TMC_SNAPSHOTS_MAX) {
        double start = rep->t, free_at = rep->snapshots.queue[rep->snapshots.head].commit_s;
        if ((hit = tmc_replica_phase(rep, free_at - rep->t)) >= 0)
            return hit;
        s.copy_s += rep->t - start; /* accounted with the snapshot */
        s.capture_s = rep->t;
        commit_ready(rep, as);
    }
    if (e->persistent_steps)
        copied_locally(rep, &s, as);
    if (persistent)
        tmc_snapshots_capture(&rep->snapshots, &s, e->write_s);
    return -1;
}

/* All steps done, or an eviction due: wait for the writes. -1, or the
 * process that interrupted the wait. */
static int await_writes(tmc_replica_state *rep, async_state *as)
{
    double start = rep->t;
    int hit = tmc_replica_phase(rep, rep->snapshots.storage_free_s - rep->t);
    if (hit < 0) {
        rep->out->save_s += rep->t - start;
        as->safe_s = rep->t;
    }
    return hit;
}

/* Whether a segment starts at `progress`: steps are left, or a forecast
 * starts with every step done and the last ones unsaved, or (two levels) a
 * local restore came back to the last step before its write committed: a
 * segment of no steps, its copy and write, commits them. */
static int segment_due(const tmc_replica_state *rep, const async_state *as, long progress)
{
    long steps = rep->e->steps;
    if (rep->snapshots.count > 0)
        return progress < steps && !tmc_replica_evict_due(rep);
    return progress < steps || progress > as->committed || as->written < steps;
}

void tmc_checkpoint_run_async(tmc_replica_state *rep)
{
    const tmc_engine *e = rep->e;
    /* progress: the steps computed (a forecast's ahead of its commit) */
    long progress = e->start_done;
    async_state as = {e->start_committed, e->start_committed, rep->t};
    tmc_snapshots_reset(&rep->snapshots);
    while (!tmc_replica_must_end(rep)) {
        commit_ready(rep, &as);
        if (as.written == e->steps)
            return;
        if (tmc_replica_evict_due(rep) && rep->snapshots.count == 0) {
            tmc_replica_evict(rep); /* a strike in its restore may need storage */
            progress = as.committed = resume_step(rep, as.committed);
            as.safe_s = rep->t;
        }
        int hit;
        if (segment_due(rep, &as, progress)) {
            long n = e->interval_steps - progress % e->interval_steps; /* to a multiple */
            if (n > e->steps - progress)
                n = e->steps - progress;
            if ((hit = async_segment(rep, progress, n, &as)) < 0) {
                progress += n;
                continue;
            }
        } else if ((hit = await_writes(rep, &as)) < 0) {
            continue;
        }
        commit_ready(rep, &as);
        rep->out->lost_s += rep->t - as.safe_s;
        tmc_snapshots_abort(&rep->snapshots);
        tmc_replica_recover(rep, hit);
        if (tmc_process_types[hit].rolls_back)
            as.committed = spike_rollback(rep, as.committed);
        progress = as.committed = resume_step(rep, as.committed);
        as.safe_s = rep->t;
    }
}

/* An arrival with notice (rep->notice_of: an outage, a time limit, a
 * refresh restart): compute stopped one save time before it strikes
 * (rep->t); the steps completed are saved at once, the save ending as it
 * strikes, then the job recovers from it. Another arrival during the save
 * loses them, as during any save (docs/reference/simulation-semantics.md
 * 3). A refresh with nothing to save restarts at once: it has no outside
 * moment to wait for. */
static void emergency_save(tmc_replica_state *rep, double seg_start, long *done, long from)
{
    const tmc_engine *e = rep->e;
    int k = rep->notice_of;
    long m = rep->strag.done_steps, total = from - *done + m;
    if (k == TMC_REFRESH && total == 0) {
        rep->out->lost_s += rep->t - seg_start;
        tmc_replica_recover(rep, k);
        *done = resume_step(rep, *done);
        return;
    }
    double sum = rep->strag.done_sum, save_start = rep->t, at, strike, lead;
    tmc_process_types[k].noticed(&e->processes, &rep->proc, &strike, &lead);
    int first = tmc_replica_next_strike(rep, 0, &at);
    if (first != k && at < strike) {
        rep->t = at;
        rep->out->lost_s += rep->t - seg_start;
        tmc_replica_recover(rep, first);
        *done = resume_step(rep, *done);
        return;
    }
    rep->t = strike;
    if (total > 0) { /* the step under way when compute stopped is lost */
        rep->out->lost_s += save_start - seg_start - sum - m * e->stragglers.fixed_s;
        add_committed(rep, total, m,
                      (stretch){sum, pause_time(e, from, m), rep->strag.done_drift_s},
                      strike - save_start, 1);
        *done += total;
        committed_level(rep, 1); /* saved for an outside event: persistent */
        mark(rep, *done, rep->t);
    } else {
        rep->out->lost_s += strike - seg_start;
    }
    tmc_replica_recover(rep, k);
    *done = resume_step(rep, *done);
}

/* The largest block b whose every draw ends, saves included, within
 * `clear` seconds, fits in the steps left from `done` (with two levels, up
 * to the next persistent snapshot: every snapshot inside it is local, so a
 * rollback drops it whole) and does not pass the engine's mark inside it;
 * -1 when none. When only the time can rule
 * a block out (the usual case), that block is the count of blocks whose
 * least need from them up (block_low_s, non-decreasing) is within
 * `clear`, less one: no branch, where the search below mispredicted its
 * exit about once a boundary (which block fits changes from one to the
 * next). */
static int block_that_fits(const tmc_replica_state *rep, long done, double clear)
{
    const tmc_engine *e = rep->e;
    const tmc_straggler_model *m = &e->stragglers;
    long at = e->mark_step, last = e->steps;
    if (e->persistent_steps) /* two levels: up to the next persistent snapshot */
        last = (done / e->persistent_steps + 1) * e->persistent_steps;
    last = last < e->steps ? last : e->steps;
    int open = at > done && rep->out->mark_s == 0;
    if (!open && !m->pause_every &&
        done + tmc_stragglers_block_steps(m, m->blocks - 1) <= last) {
        int b = -1;
        for (int i = 0; i < m->blocks; i++)
            b += !(e->block_low_s[i] > clear);
        return b;
    }
    for (int b = m->blocks - 1; b >= 0; b--) {
        long n = tmc_stragglers_block_steps(m, b);
        if (e->block_need_s[b] > clear || done + n > last || (open && at < done + n))
            continue;
        if (!m->pause_every ||
            e->block_need_s[b] + (double)tmc_stragglers_paused(m, done, n) * m->pause_s <= clear)
            return b;
    }
    return -1;
}

/* A run of whole segments that nothing can interrupt, drawn at once
 * (docs/reference/simulation-semantics.md 2): when the longest a block of
 * 2^(b+1) segments can take, its saves included, ends before every pending
 * arrival and the horizon, all its segments commit whatever their steps
 * take, and the clock and the split need only their sum, drawn from the
 * block's exact law. Decided before anything is drawn, so the run's law is
 * the same as segment by segment. `into`: *done's steps past a multiple of
 * K (blocks start on one). Returns 1 when a block committed, else 0 with
 * *lim where the next segment's compute must stop (worked out here once,
 * whether or not blocks apply). */
static int commit_block(tmc_replica_state *rep, long *done, long into, tmc_limit *lim)
{
    const tmc_engine *e = rep->e;
    const tmc_straggler_model *m = &e->stragglers;
    tmc_stragglers_block_prefetch(m, rep->rng[TMC_STREAM_JITTER]); /* while the fit is sought */
    double clear = tmc_replica_clear_s(rep, lim);
    if (!m->blocks || rep->strag.slow > 0 || into ||
        *done + m->block_steps > e->steps)
        return 0;
    int b = block_that_fits(rep, *done, clear);
    if (b < 0)
        return 0;
    long n = tmc_stragglers_block_steps(m, b), segments = 2L << b;
    double pause = pause_time(e, *done, n);
    double sum = tmc_stragglers_block(m, &rep->strag, b, rep->rng[TMC_STREAM_JITTER]) + pause;
    /* two levels: the block's saves are local but its last, which may be
     * persistent (block_need_s counts them all at save_s, no less) */
    int persistent = persistent_at(e, *done + n);
    double local = e->persistent_steps ? e->local_save_s : e->save_s;
    double saves = (double)(segments - 1) * local + (persistent ? e->save_s : local);
    double compute = sum + (double)n * m->fixed_s;
    rep->proc.spike_exposure_s += compute;
    rep->t += compute + saves;
    add_committed(rep, n, n, (stretch){sum, pause, 0}, saves, segments); /* no drift */
    *done += n;
    committed_level(rep, persistent);
    mark(rep, *done, rep->t);
    return 1;
}

/* Synchronous saves: each segment's save commits at its end. Segments end
 * on multiples of K, so after an emergency save the next one is shorter.
 * `done` is the committed step, `from` the first step not yet computed:
 * the same but in a forecast's first segment, whose steps from its commit
 * to its current step were done before it started (they are lost with the
 * segment, like any other). */
void tmc_checkpoint_run_sync(tmc_replica_state *rep)
{
    const tmc_engine *e = rep->e;
    long done = e->start_committed, from = e->start_done;
    while (done < e->steps && !tmc_replica_must_end(rep)) {
        long into = from % e->interval_steps; /* one 64-bit division a boundary, not two */
        tmc_limit lim; /* from == done: commit_block works it out */
        if (from == done && commit_block(rep, &done, into, &lim)) {
            from = done;
            continue;
        }
        long n = e->interval_steps - into;
        if (n > e->steps - from)
            n = e->steps - from;
        double seg_start = rep->t, sum_max = 0, save_s = 0;
        int hit = n > 0 ? tmc_replica_compute(rep, from, n, from == done ? &lim : NULL, &sum_max)
                        : -1;
        if (hit == TMC_NOTICE) {
            emergency_save(rep, seg_start, &done, from);
            from = done;
            continue;
        }
        int persistent = persistent_at(e, from + n);
        if (hit < 0)
            hit = tmc_replica_save(rep, persistent ? e->save_s : e->local_save_s, &save_s);
        if (hit >= 0) {
            rep->out->lost_s += rep->t - seg_start;
            tmc_replica_recover(rep, hit);
            if (tmc_process_types[hit].rolls_back)
                done = spike_rollback(rep, done);
            from = done = resume_step(rep, done);
            continue;
        }
        add_committed(rep, from + n - done, n,
                      (stretch){sum_max, pause_time(e, from, n), n > 0 ? rep->strag.drift_s : 0},
                      save_s, 1);
        done = from += n;
        committed_level(rep, persistent);
        mark(rep, done, rep->t);
        if (done < e->steps) { /* a recovery inside may go back to a persistent one */
            tmc_replica_evict(rep);
            tmc_replica_refresh_due(rep);
            from = done = resume_step(rep, done);
        }
    }
}
