/* engine.h - one replica: a full training run, event by event.
 *
 * Semantics: docs/reference/simulation-semantics.md states them rule by rule (the
 * contract that tests/oracle/ and tests/test_replays.c check). The engine
 * is the event loop of that contract; each concern is a module of its own:
 * - stragglers.h: the compute time of steps (jitter, pauses, slow cards),
 *   a segment's sum drawn at once from its exact law (segment_law.h) or
 *   step by step;
 * - processes.h: what interrupts the run (card failures with failures.h,
 *   outages, loss spikes) and what the job waits before a restore;
 * - checkpoint.c: the save policy (synchronous, or asynchronous with
 *   snapshots.h) and loss spikes' rollback;
 * - accounting.h: the result fields, written once as a table;
 * - weights.h: importance sampling's likelihood ratio.
 * In short: the run is `steps` steps cut into segments of K; each segment
 * ends with a save, and only committed saves can be restored. An
 * interruption loses everything since the last commit, the job waits
 * (detection, spares, downtime), then restores (an interruption during a
 * restore starts it again) and resumes after the last committed step.
 * Wall time = the rows of the split (accounting.h), exactly. With no jitter,
 * no spikes and no downtime these are Daly's assumptions (closed_form.h),
 * and the engine's mean agrees with his T_wall.
 *
 * Horizon. A replica still running at the horizon (tmc_engine_horizon_s)
 * stops there and is censored: its wall time is the horizon, so it counts
 * as a miss of any deadline before it and no replica can run forever.
 *
 * Window. With a calendar window W (window_s > 0) the horizon is W: every
 * replica runs from step 0 and is cut there. window_steps is the committed
 * step at W (commits at t <= W); the split is the one at the last segment
 * boundary at or before W, and window_open_s the time from it to W (the
 * segment, save or recovery under way at W), so that the rows and
 * window_open_s add up to W. */
#ifndef TMC_ENGINE_H
#define TMC_ENGINE_H

#include <gsl/gsl_rng.h>

#include <signal.h>

#include "accounting.h"
#include "closed_form.h"
#include "durations.h"
#include "experiment.h"
#include "processes.h"
#include "rng_pcg.h"
#include "stop.h"
#include "stragglers.h"

/* A restore struck this many times in a row is an error (TMC_REPLICA_STALLED). */
#define TMC_STALL_LIMIT 1000000

/* Everything one replica needs, derived once from an experiment. Read-only
 * while replicas run, so threads share it. */
typedef struct {
    long steps;             /* S */
    long interval_steps;    /* K */
    double horizon_s;       /* wall time at which a replica is censored, s */
    double deadline_wall_s; /* a run longer than this misses the deadline, s */
    double elite_wall_s;    /* cross-entropy level: runs at least this long count, s */
    double save_s;          /* a synchronous save, or an asynchronous blocking copy, s */
    tmc_duration_law save_law;    /* each save takes save_s Y (durations.h) */
    tmc_duration_law restore_law; /* each restore attempt takes its restore x Y */
    double save_timeout_s;  /* a save running this long fails the job, s; 0: none */
    int async;              /* 1: asynchronous saves (snapshots.h) */
    double write_s;         /* asynchronous: background write of a snapshot, s */
    long spike_rollback;    /* committed snapshots a loss spike rolls back (>= 1) */
    double start_s;         /* a forecast (progress): replicas start at this wall time, s */
    long start_committed;   /* ... from this committed step */
    long start_done;        /* ... with the steps up to this one done, not yet saved */
    double start_restarts;  /* ... after this many restarts (failures and outages seen) */
    long mark_step;         /* > 0: record when the commits first reach it (mark_s) */
    double window_s;        /* > 0: a calendar window W, s (docs/reference/simulation-semantics.md
                               11): the horizon; record the steps committed by then
                               (window_steps) and the split up to it */
    double evict_restore_s; /* the restore that evicts slow cards, s */
    int restore_immune;     /* failures and outages due in a restore are dropped */
    long persistent_steps;  /* two levels of snapshots: m K, the snapshots at its
                               multiples and the last are persistent (0: one level,
                               every snapshot persistent) */
    double local_save_s;    /* two levels: a local snapshot's save, s */
    double block_need_s[TMC_BLOCK_LAWS]; /* the longest block b of whole segments
                               can take, saves included, pauses not, s */
    double block_low_s[TMC_BLOCK_LAWS]; /* the least block_need_s of blocks b and up:
                               some block b or larger fits in a time clear of
                               arrivals exactly when it is at most that time */
    tmc_straggler_model stragglers; /* the compute time of steps */
    tmc_process_model processes;    /* what interrupts the run */
    long groups;            /* elastic replica groups G (elastic.c); 0: none */
    long min_groups;        /* fewer groups up: a global restart */
    double heal_s;          /* a rejoining group copies the weights this long, s */
    /* Read at segment boundaries and every TMC_STEPS_PER_STOP_CHECK steps:
     * tmc_stop_request's flag unless tmc_engine_watch_stop names
     * another (a library caller's, trainmc.h). */
    const volatile sig_atomic_t *stop;
} tmc_engine;

/* Build the engine from a validated experiment and its closed form (which
 * fixes K and the rates). Returns 0, or -1 if memory runs out. Free with
 * tmc_engine_free. */
int tmc_engine_init(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf);

/* tmc_engine_init with the segment laws built on up to `threads` threads
 * (the same engine, bit for bit, whatever the count). */
int tmc_engine_init_threads(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf,
                            int threads);

/* The censoring horizon of an experiment, s: monte_carlo.horizon_days, or
 * by default (a forecast's elapsed time plus) 1000 x the uninterrupted wall
 * time (the same factor beyond which the command line refuses a run), at
 * least twice the deadline's wall-time budget. Either way it lies past the deadline (config_checks.c checks a given one),
 * so a censored replica is a miss. */
double tmc_engine_horizon_s(const tmc_experiment *x, const tmc_closed_form *cf);

/* The mode an experiment runs in: its monte_carlo.mode, auto resolved to
 * segments (steps for elastic groups). */
tmc_mode tmc_engine_mode(const tmc_experiment *x);

void tmc_engine_free(tmc_engine *e);

/* Run replica `replica` of a run seeded `seed`. rng[TMC_STREAM_COUNT] are
 * generators allocated with tmc_rng_pcg32 (reseeded here, so callers reuse
 * them). The result depends only on (e, seed, replica). */
void tmc_engine_run(const tmc_engine *e, uint64_t seed, uint64_t replica,
                    gsl_rng *const rng[TMC_STREAM_COUNT], tmc_replica *out);

/* Tilt for importance sampling (weights.h states what theta holds), and set
 * the cross-entropy level in wall seconds (the deadline by default).
 * Returns 0, or -1 if the tilt is refused by tmc_weights_check or e has
 * elastic groups (then e is unchanged). */
int tmc_engine_tilt(tmc_engine *e, const double theta[TMC_TILTS], double elite_wall_s);

/* Make e's replicas stop when *flag becomes non-zero instead of at
 * tmc_stop_request (stop.h; flag NULL: never). */
void tmc_engine_watch_stop(tmc_engine *e, const volatile sig_atomic_t *flag);

#endif
