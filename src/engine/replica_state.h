/* replica_state.h - the state of one replica while it runs, shared by the
 * event loop (engine.c) and the save policies (checkpoint.c); private to
 * src/engine/.
 *
 * Invariant: t is the wall-clock time; every module's state below is its
 * own (processes, stragglers, snapshots, ledger) and only its module writes
 * it, except that the loop adds compute time to the spikes' exposure. */
#ifndef TMC_REPLICA_STATE_H
#define TMC_REPLICA_STATE_H

#include "engine.h"
#include "snapshots.h"

typedef struct {
    const tmc_engine *e;
    gsl_rng *const *rng;
    double t;
    tmc_processes proc;
    tmc_stragglers strag;
    tmc_snapshots snapshots; /* asynchronous saves not yet committed */
    tmc_ledger ledger;       /* committed snapshots, for rollbacks (two levels: those
                                since the newest persistent one) */
    int notice_of;           /* TMC_NOTICE: the kind saved for (its row's noticed) */
    double window_t;         /* a window: the last segment boundary at or before W, */
    double window_split[TMC_SPLIT_N]; /* ... and the split then (engine.h) */
    tmc_replica *out;
} tmc_replica_state;

/* What tmc_replica_compute returns for an arrival with notice (an outage
 * with notice, a time limit with a save before it; rep->notice_of): the
 * job must save now (rep->t), one save time before it strikes;
 * rep->strag's done_steps and done_sum hold the steps completed. */
enum { TMC_NOTICE = TMC_KINDS };

/* The earliest arrival that can strike now, and when (*at): failures,
 * outages, the time limit (at once if it passed while the job was down),
 * and in compute (compute = 1) loss spikes too. */
int tmc_replica_next_strike(const tmc_replica_state *rep, int compute, double *at);

/* Where compute from rep->t must stop: at the earliest arrival, or one
 * save time before an arrival with notice. */
typedef struct {
    double at; /* s */
    int kind;  /* the arrival's process, or TMC_NOTICE (rep->notice_of which) */
} tmc_limit;

/* Steps first + 1 .. first + n; returns the interrupting process (or
 * TMC_NOTICE), or -1 with *sum_max the summed slowest-card compute times
 * (pauses included). On interruption rep->t is the arrival time. `known`:
 * the limit tmc_replica_clear_s gave at this rep->t (a boundary where no
 * block fitted: not worked out twice), or NULL. */
int tmc_replica_compute(tmc_replica_state *rep, long first, long n, const tmc_limit *known,
                        double *sum_max);

/* From rep->t, how long nothing can strike (in compute or not, the
 * notices' save times included) and the horizon is not reached, s; the
 * arrivals of compute-only processes already passed are discarded first,
 * as at the start of compute, and *lim is where compute must stop. */
double tmc_replica_clear_s(tmc_replica_state *rep, tmc_limit *lim);

/* A phase of d seconds (save, write wait, restore) that only failures and
 * outages can interrupt: -1, or the process that did (rep->t is then its
 * arrival time). */
int tmc_replica_phase(tmc_replica_state *rep, double d);

/* A save (or an asynchronous copy) of a drawn duration around save_s: -1
 * with its duration in *took_s, or what interrupted it (a process, or
 * TMC_TIMEOUT when it ran past checkpoint.save_timeout_s; rep->t is then
 * that time). */
int tmc_replica_save(tmc_replica_state *rep, double save_s, double *took_s);

/* After process k struck: wait, then restore until a restore completes. */
void tmc_replica_recover(tmc_replica_state *rep, int k);

/* 1 when the replica must end now: stopped, failed, or at the horizon
 * (then censored). */
int tmc_replica_must_end(tmc_replica_state *rep);

/* Slow cards detected: evict them (a restore) right after a commit. */
int tmc_replica_evict_due(const tmc_replica_state *rep);
void tmc_replica_evict(tmc_replica_state *rep);

/* After a commit: the refresh restart (slowdown.refresh_hours) if its save
 * would have had to start by now. */
void tmc_replica_refresh_due(tmc_replica_state *rep);

/* The save policies (checkpoint.c): run the replica to its end. */
void tmc_checkpoint_run_sync(tmc_replica_state *rep);
void tmc_checkpoint_run_async(tmc_replica_state *rep);

/* Elastic replica groups (elastic.c): run the replica to its end. */
void tmc_elastic_run(tmc_replica_state *rep);

#endif
