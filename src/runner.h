/* runner.h - many replicas over threads, reproducibly.
 *
 * Replicas are cut into fixed chunks of TMC_RUNNER_CHUNK; threads take chunks
 * from a shared counter; replica k always draws from its own streams
 * (rng_pcg.h), and each chunk's sums are added in chunk order at the end. So
 * the numbers are identical whatever the thread count. */
#ifndef TMC_RUNNER_H
#define TMC_RUNNER_H

#include "engine.h"
#include "error.h"

#define TMC_RUNNER_CHUNK 16

/* Called from the calling thread about ten times a second while replicas run,
 * and once at the end: done of total replicas finished. */
typedef void (*tmc_progress_fn)(long done, long total, void *ctx);

/* Run `replicas` replicas of engine e with run seed `seed` on `threads`
 * threads (>= 1). Fills wall_s[replicas] (seconds, replica order) and
 * *totals (sums over all replicas). progress may be NULL. Returns 0; or
 * TMC_RUNNER_STOPPED with err = "interrupted after N of M replicas" when
 * tmc_engine_request_stop was called (wall_s and totals then incomplete);
 * or -1 with err set if memory cannot be had. */
#define TMC_RUNNER_STOPPED 1
int tmc_runner_run(const tmc_engine *e, long replicas, uint64_t seed, int threads,
                   tmc_progress_fn progress, void *ctx, double *wall_s,
                   tmc_replica *totals, tmc_error *err);

/* The number of online processors (at least 1): the default thread count. */
int tmc_runner_default_threads(void);

#endif
