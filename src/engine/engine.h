/* engine.h - one replica: a full training run, event by event.
 *
 * Semantics: docs/simulation-semantics.md states them rule by rule (the
 * contract that tests/oracle/ and tests/test_replays.c check); in short:
 * - The run is `steps` optimizer steps cut into segments of K steps (the last
 *   one may be shorter). A step lasts max_i X_i + exposed_comm + input_wait,
 *   the maximum over the N cards drawn in O(1) by its inverse CDF (dist.h).
 * - After every segment a synchronous save of save_s runs and commits at its
 *   end; the final save after the last step ends the run. With asynchronous
 *   saves, save_s is the blocking copy, the snapshot is written in the
 *   background (write_s, one write at a time) and only committed snapshots
 *   can be restored (snapshots.h; MODEL.md 3.3); the run ends when the last
 *   snapshot commits.
 * - Card failures (rate N / MTBF_card), common outages and loss spikes are
 *   Poisson processes in wall-clock time, each with its own random stream.
 *   Failures and outages strike anywhere: compute, save or restore. A loss
 *   spike is a divergence of training, so only arrivals during compute count;
 *   arrivals during saves, restores or downtime are discarded (thinning keeps
 *   the process Poisson on compute time).
 * - Outages and spikes may also be replayed from a trace of times.
 * - An interruption loses everything since the last commit (compute and any
 *   save in progress). A failure goes unnoticed for its cause's detection
 *   delay, then waits for a repaired card if no spare is at hand (failures.h); an
 *   outage keeps the job down for downtime_s (arrivals while the job is down
 *   are discarded); then a restore (the cause's restore time, else
 *   restore_s) runs; an interruption during a restore starts it again. Work resumes at
 *   the first step after the last committed one.
 * - Periodic pauses (optional) fall on steps k, 2k, ... of the run: all cards
 *   stop for p, or one card does, so that step's slowest card is
 *   max(A_{N-1}, B + p), drawn from exact samplers of N - 1 and 1 cards.
 * - A loss spike may roll back more than the work since the last commit:
 *   rollback_snapshots = n discards the n - 1 newest committed snapshots too
 *   (their work moves from the committed rows to lost work).
 * - Slow cards (optional): each card is slow with probability f for the
 *   whole run (S ~ Binomial(N, f) per replica), its time factor x a normal
 *   card's; a step is then max(max of N - S normal cards, factor x max of S),
 *   each group's maximum drawn exactly from the same table at v^(N/m)
 *   (dist.h), step by step in both modes. Detection after W completed steps
 *   evicts them at the next commit: a restore, after which all cards are
 *   normal.
 * - Wall time = useful compute + straggler wait + pauses + comm/input + saves
 *   (of the committed segments) + lost work + restores + downtime + failure
 *   detection + spare waits + evictions. Useful compute is
 *   mu per committed step; straggler wait is max_i X_i - mu per committed step.
 * With no jitter, no spikes and no downtime these are exactly the assumptions
 * of Daly's T_wall (closed_form.h), and the engine's mean agrees with it.
 *
 * Modes. Only a segment's total compute time matters (an interruption loses
 * the whole segment wherever it strikes), so:
 * - exact: every step's maximum is drawn (O(1) each), stopping at the first
 *   step that an interruption cuts;
 * - aggregated: a segment of n >= TMC_AGGREGATE_MIN_STEPS steps draws its
 *   total once, as n m + sqrt(n) s (z + g (z^2 - 1) / 6), z ~ N(0, 1) and
 *   g = skew / sqrt(n) (Cornish-Fisher): mean and variance exact, skewness
 *   matched, error O(1/n) in distribution per segment (README, "Modes").
 * Without jitter both modes are the same deterministic n x step time.
 *
 * Horizon. A replica still running at the horizon (tmc_engine_horizon_s)
 * stops there and is censored: its wall time is the horizon, so it counts
 * as a miss of any deadline before it and no replica can run forever. */
#ifndef TMC_ENGINE_H
#define TMC_ENGINE_H

#include <gsl/gsl_rng.h>

#include "closed_form.h"
#include "config.h"
#include "dist.h"
#include "failures.h"
#include "snapshots.h"
#include "rng_pcg.h"

/* Everything one replica needs, derived once from an experiment. Read-only
 * while replicas run, so threads share it. */
#define TMC_AGGREGATE_MIN_STEPS 16
#define TMC_TILTS 5 /* failures, outages, spikes (rates); repairs, downtimes (means) */
/* Mode auto runs exact while replicas x steps stays within this budget
 * (about 10 s on two cores at the exact mode's cost). */
#define TMC_EXACT_BUDGET 1e9

/* A replayed trace of arrival times, days from the start (config.h). */
typedef struct {
    int n;
    const double *days;
} tmc_trace_ref;

typedef struct {
    int aggregated;        /* 1: aggregated mode, 0: exact */
    double max_mean_s;     /* E[max_i X_i], s */
    double max_sd_s;       /* sd of max_i X_i, s */
    double max_skew;       /* skewness of max_i X_i */
    double horizon_s;      /* wall time at which a replica is censored, s */
    long steps;            /* S */
    long interval_steps;   /* K */
    tmc_max_sampler max;   /* slowest-card compute time per step */
    long pause_every;      /* k: a pause on steps k, 2k, ... (0: none) */
    double pause_s;        /* pause length, s */
    int pause_one;         /* 1: one card pauses; 0: all do */
    tmc_max_sampler rest;  /* pause_one: the other N - 1 cards (independent part) */
    tmc_max_sampler single; /* pause_one: the pausing card (independent part) */
    long cards;            /* N */
    double tilt[TMC_TILTS]; /* importance sampling: rate multipliers of failures,
                              outages, spikes (Poisson processes only), and mean
                              multipliers of repair times and outage downtimes
                              (1: none) */
    double downtime_mu;    /* log-mean of a lognormal outage downtime */
    double deadline_wall_s; /* a run longer than this misses the deadline, s */
    double elite_wall_s;   /* cross-entropy level: runs at least this long count */
    long spike_rollback;   /* committed snapshots a loss spike rolls back (>= 1) */
    double slow_fraction, slow_factor; /* slow cards (0: none) */
    long detect_after;     /* steps until slow cards are detected (0: never) */
    double evict_restore_s;
    double fixed_s;        /* exposed comm + input wait per step, s */
    double save_s, restore_s, downtime_s;
    double downtime_sigma; /* lognormal sigma of an outage's downtime; 0: fixed */
    int async;             /* 1: asynchronous saves (snapshots.h) */
    double write_s;        /* asynchronous: background write of a snapshot, s */
    double rate[3];        /* per second: failures, outages, spikes (0 = off) */
    tmc_trace_ref trace[3]; /* outages, spikes: replayed times (n = 0: Poisson);
                               borrowed from the experiment */
    tmc_failure_model failures; /* lifetimes, causes, spares (when rate[0] > 0) */
} tmc_engine;

/* Why a replica has no result. */
typedef enum {
    TMC_REPLICA_NO_MEMORY = 1, /* memory ran out inside it */
    TMC_REPLICA_STALLED = 2    /* a restore struck TMC_STALL_LIMIT times in a row */
} tmc_replica_failure;
#define TMC_STALL_LIMIT 1000000

/* Wall-time split and event counts of one replica (or sums over many). */
typedef struct {
    double wall_s;      /* run wall time, seconds (reserve not included) */
    double compute_s;   /* useful compute: mu per committed step */
    double straggler_s; /* max_i X_i - mu per committed step, pauses excluded */
    double pause_s;     /* periodic pauses of committed steps */
    double fixed_s;     /* exposed communication + input wait, committed steps */
    double save_s;      /* saves that committed */
    double lost_s;      /* compute and partial saves lost to interruptions */
    double restore_s;   /* restores, including restarted ones */
    double downtime_s;  /* outage downtime before restores */
    double detection_s; /* failures not yet noticed (a hung job before its watchdog) */
    double spare_wait_s; /* waiting for a spare card or a repair */
    double eviction_s;  /* restores that evicted slow cards */
    double slow_cards;  /* slow cards in the run */
    double slow_runs;   /* 1 if the run had any */
    double slow_survival_s; /* wall time slow cards stayed (to eviction or the end) */
    double evictions;
    double card_failures, outages, loss_spikes, saves;
    int stopped;        /* 1 if tmc_engine_request_stop cut it short */
    int failed;         /* tmc_replica_failure: no result (0: none) */
    double censored;    /* 1 if still running at the horizon: wall_s = horizon */
    /* Importance sampling (issue 8): the replica's likelihood ratio w (1
     * without tilt) and its products with the miss indicator, and the
     * cross-entropy sums over the elite (wall >= elite_wall_s): w, w N_k (the
     * arrivals of process k that struck) and w A_k (the time they could). */
    double w, w2, w_miss, w2_miss;
    double ce_w, ce_n[TMC_TILTS], ce_a[TMC_TILTS]; /* durations: w count, w sum of
                                                     the repair times, w sum of
                                                     the log downtimes */
} tmc_replica;

/* Build the engine from a validated experiment and its closed form (which
 * fixes K and the rates). Returns 0, or -1 if memory runs out. Free with
 * tmc_engine_free. */
int tmc_engine_init(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf);

/* The censoring horizon of an experiment, s: monte_carlo.horizon_days, or
 * by default 1000 x the uninterrupted wall time (the same factor beyond which
 * the command line refuses a run), at least twice the deadline's wall-time
 * budget. Either way it lies past the deadline (config.c checks a given one),
 * so a censored replica is a miss. */
double tmc_engine_horizon_s(const tmc_experiment *x, const tmc_closed_form *cf);

/* The mode an experiment runs in: its monte_carlo.mode, with auto resolved
 * by TMC_EXACT_BUDGET. */
tmc_mode tmc_engine_mode(const tmc_experiment *x);

void tmc_engine_free(tmc_engine *e);

/* Run replica `replica` of a run seeded `seed`. rng[TMC_STREAM_COUNT] are
 * generators allocated with tmc_rng_pcg32 (reseeded here, so callers reuse
 * them). The result depends only on (e, seed, replica). */
void tmc_engine_run(const tmc_engine *e, uint64_t seed, uint64_t replica,
                    gsl_rng *const rng[TMC_STREAM_COUNT], tmc_replica *out);

/* Tilt for importance sampling: theta[0..2] multiply the rates of failures,
 * outages and spikes, theta[3] the mean repair time, theta[4] the mean of a
 * lognormal outage downtime (1 = unchanged); and set the cross-entropy level
 * in wall seconds (the deadline by default). Tilting failures needs
 * exponential lifetimes. Returns 0, or -1 if a tilt is not positive or
 * failures are not a Poisson process while tilted. */
int tmc_engine_tilt(tmc_engine *e, const double theta[TMC_TILTS], double elite_wall_s);

/* Ask every running replica to stop at its next segment boundary. Safe to
 * call from a signal handler (it only sets a sig_atomic_t). A stopped
 * replica has stopped = 1 and meaningless times. */
void tmc_engine_request_stop(void);

/* 1 once tmc_engine_request_stop has been called. */
int tmc_engine_stop_requested(void);

/* Add b into a, field by field. */
void tmc_engine_accumulate(tmc_replica *a, const tmc_replica *b);

#endif
