/* runner.h - many replicas over ranks and threads, reproducibly.
 *
 * Replicas are cut into fixed chunks of TMC_RUNNER_CHUNK; each rank (ranks.h:
 * one process, or the ranks of an MPI job) takes a contiguous block of
 * chunks, and its threads take the block's chunks from a shared counter.
 * Replica k always draws from its own streams (rng_pcg.h); every rank ends
 * with all completion times and all chunk sums, and adds the sums in chunk
 * order. So the numbers are identical whatever the rank and thread counts. */
#ifndef TMC_RUNNER_H
#define TMC_RUNNER_H

#include "engine.h"
#include "error.h"

#define TMC_RUNNER_CHUNK 16

/* Called from the calling thread about ten times a second while replicas run,
 * and once at the end: done of total replicas finished (with several ranks,
 * this rank's share done, scaled to the whole run). */
typedef void (*tmc_progress_fn)(long done, long total, void *ctx);

/* Run `replicas` replicas of engine e with run seed `seed` on `threads`
 * threads (>= 1) per rank. Fills wall_s[replicas] (seconds, replica order)
 * and *totals (sums over all replicas), on every rank. progress may be NULL.
 * Returns 0; or TMC_RUNNER_STOPPED with err = "interrupted after N of M
 * replicas" when tmc_stop_request was called on any rank (wall_s and
 * totals then incomplete); or -1 with err set if memory cannot be had on some
 * rank, before or inside a replica ("out of memory ..."). Collective (ranks.h): every rank returns the same. */
#define TMC_RUNNER_STOPPED 1
int tmc_runner_run(const tmc_engine *e, long replicas, uint64_t seed, int threads,
                   tmc_progress_fn progress, void *ctx, double *wall_s,
                   tmc_replica *totals, tmc_error *err);

/* The same for replicas first .. first + replicas - 1 of the run: wall_s[k]
 * is replica first + k's. Batches run this way give, replica for replica,
 * the numbers of one run over all of them (precision targets, issue 8). */
int tmc_runner_run_from(const tmc_engine *e, long first, long replicas, uint64_t seed,
                        int threads, tmc_progress_fn progress, void *ctx, double *wall_s,
                        tmc_replica *totals, tmc_error *err);

/* What each replica leaves, in replica order, on every rank. */
typedef struct {
    double *wall_s;      /* [replicas] wall time, s */
    double *restarts;    /* [replicas] tmc_accounting_restarts, or NULL */
    tmc_sample *samples; /* [replicas] tmc_accounting_sample, or NULL */
    double *window_steps; /* [replicas] a window's committed steps at its end, or NULL */
    double *weight;       /* [replicas] the likelihood ratio w (importance sampling), or NULL */
} tmc_runner_out;

/* The same, keeping what *out asks for. */
int tmc_runner_run_samples(const tmc_engine *e, long first, long replicas, uint64_t seed,
                           int threads, tmc_progress_fn progress, void *ctx,
                           const tmc_runner_out *out, tmc_replica *totals, tmc_error *err);

/* The number of online processors (at least 1): the default thread count. */
int tmc_runner_default_threads(void);

#endif
