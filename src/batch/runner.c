/* runner.c - ranks take blocks of chunks, threads take chunks of replicas;
 * see runner.h for why the results depend on neither count. */
#include "runner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ranks.h"

typedef struct {
    const tmc_engine *e;
    long replicas;
    long first_replica;         /* replica k here is replica first_replica + k */
    uint64_t seed;
    double *wall_s;
    double *restarts;           /* each replica's restarts, or NULL */
    tmc_sample *samples;        /* each replica's own figures, or NULL */
    double *window_steps;       /* each replica's committed steps at a window's end, or NULL */
    double *weight;             /* each replica's likelihood ratio, or NULL */
    tmc_replica *chunk_sums;    /* [n_chunks], all chunks: tmc_ranks_share fills the rest */
    long n_chunks;
    long end_chunk;             /* this rank's chunks end here */
    long local_replicas;        /* replicas in this rank's chunks */
    atomic_long next_chunk;
    atomic_long done;           /* replicas this rank finished */
    atomic_int workers_running;
    atomic_int failure;         /* a replica's tmc_replica_failure: stop, no result */
} shared_run;

static void run_chunk(shared_run *sh, long c, gsl_rng *const rng[TMC_STREAM_COUNT])
{
    long first = c * TMC_RUNNER_CHUNK;
    long last = first + TMC_RUNNER_CHUNK < sh->replicas ? first + TMC_RUNNER_CHUNK
                                                        : sh->replicas;
    tmc_replica sum, one;
    memset(&sum, 0, sizeof sum);
    for (long k = first; k < last; k++) {
        tmc_engine_run(sh->e, sh->seed, (uint64_t)(sh->first_replica + k), rng, &one);
        if (one.failed)
            atomic_store(&sh->failure, one.failed);
        if (one.stopped || one.failed)
            return;
        sh->wall_s[k] = one.wall_s;
        if (sh->restarts)
            sh->restarts[k] = tmc_accounting_restarts(&one);
        if (sh->samples)
            tmc_accounting_sample(&one, &sh->samples[k]);
        if (sh->window_steps)
            sh->window_steps[k] = one.window_steps;
        if (sh->weight)
            sh->weight[k] = one.w;
        tmc_accounting_accumulate(&sum, &one);
    }
    sh->chunk_sums[c] = sum;
    atomic_fetch_add(&sh->done, last - first);
}

static void *worker(void *arg)
{
    shared_run *sh = arg;
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
    long c;
    while (!*sh->e->stop && !atomic_load(&sh->failure) &&
           (c = atomic_fetch_add(&sh->next_chunk, 1)) < sh->end_chunk)
        run_chunk(sh, c, rng);
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
    atomic_fetch_sub(&sh->workers_running, 1);
    return NULL;
}

/* Replicas done in the whole run as this rank sees it: its own share done,
 * scaled to all replicas (ranks run blocks of about the same size side by
 * side). done x replicas stays below 1e18: replicas are at most 1e9. */
static long progress_done(shared_run *sh)
{
    long done = atomic_load(&sh->done);
    return sh->local_replicas ? done * sh->replicas / sh->local_replicas : sh->replicas;
}

/* Report about ten times a second; look every 10 ms, so a short run does
 * not wait out a whole tenth of a second after its last replica. */
static void watch_progress(shared_run *sh, tmc_progress_fn progress, void *ctx)
{
    struct timespec tick = {0, 10000000L};
    for (long looks = 0; atomic_load(&sh->workers_running) > 0; looks++) {
        if (looks % 10 == 0)
            progress(progress_done(sh), sh->replicas, ctx);
        nanosleep(&tick, NULL);
    }
    progress(progress_done(sh), sh->replicas, ctx);
}

/* Run this rank's chunks on `threads` threads (here, if none can start). */
static void run_threads(shared_run *sh, pthread_t *tid, int threads, tmc_progress_fn progress,
                        void *ctx)
{
    atomic_init(&sh->workers_running, threads);
    int started = 0;
    while (started < threads && pthread_create(&tid[started], NULL, worker, sh) == 0)
        started++;
    atomic_fetch_sub(&sh->workers_running, threads - started);
    if (started == 0) {
        atomic_init(&sh->workers_running, 1);
        worker(sh); /* no thread could start: do the work here */
    }
    else if (progress)
        watch_progress(sh, progress, ctx);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

/* After every rank's local work (rc: this rank's status): agree, then give
 * every rank all completion times and chunk sums and add the sums in chunk
 * order, the same bits whichever rank and thread ran which chunk. */
static int combine(shared_run *sh, int rc, tmc_replica *totals, tmc_error *err)
{
    long local_done = atomic_load(&sh->done);
    int failure = atomic_load(&sh->failure);
    if (!rc && failure == TMC_REPLICA_NO_MEMORY)
        rc = tmc_error_set(err, "out of memory inside a replica (its failure state or its "
                                "list of committed snapshots)");
    if (!rc && failure == TMC_REPLICA_STALLED)
        rc = tmc_error_set(err, "a restore was struck %d times in a row: interruptions come "
                                "faster than a restore can finish (rates too high, or an "
                                "importance tilt too strong)", TMC_STALL_LIMIT);
    if (!rc && local_done < sh->local_replicas)
        rc = TMC_RUNNER_STOPPED;
    rc = tmc_ranks_agree(rc, err);
    if (rc == TMC_RUNNER_STOPPED)
        return tmc_error_set(err, "interrupted after %ld of %ld replicas",
                             tmc_ranks_sum(local_done), sh->replicas),
               TMC_RUNNER_STOPPED;
    if (rc || tmc_ranks_share(sh->wall_s, sizeof *sh->wall_s, sh->replicas, TMC_RUNNER_CHUNK,
                              err) ||
        (sh->restarts && tmc_ranks_share(sh->restarts, sizeof *sh->restarts, sh->replicas,
                                         TMC_RUNNER_CHUNK, err)) ||
        (sh->samples && tmc_ranks_share(sh->samples, sizeof *sh->samples, sh->replicas,
                                        TMC_RUNNER_CHUNK, err)) ||
        (sh->window_steps && tmc_ranks_share(sh->window_steps, sizeof *sh->window_steps,
                                             sh->replicas, TMC_RUNNER_CHUNK, err)) ||
        (sh->weight && tmc_ranks_share(sh->weight, sizeof *sh->weight, sh->replicas,
                                       TMC_RUNNER_CHUNK, err)) ||
        tmc_ranks_share(sh->chunk_sums, sizeof *sh->chunk_sums, sh->n_chunks, 1, err))
        return -1;
    memset(totals, 0, sizeof *totals);
    for (long c = 0; c < sh->n_chunks; c++)
        tmc_accounting_accumulate(totals, &sh->chunk_sums[c]);
    return 0;
}

int tmc_runner_run(const tmc_engine *e, long replicas, uint64_t seed, int threads,
                   tmc_progress_fn progress, void *ctx, double *wall_s,
                   tmc_replica *totals, tmc_error *err)
{
    return tmc_runner_run_from(e, 0, replicas, seed, threads, progress, ctx, wall_s, totals,
                               err);
}

int tmc_runner_run_from(const tmc_engine *e, long first, long replicas, uint64_t seed,
                        int threads, tmc_progress_fn progress, void *ctx, double *wall_s,
                        tmc_replica *totals, tmc_error *err)
{
    tmc_runner_out out = {wall_s, NULL, NULL, NULL, NULL};
    return tmc_runner_run_samples(e, first, replicas, seed, threads, progress, ctx, &out,
                                  totals, err);
}

int tmc_runner_run_samples(const tmc_engine *e, long first, long replicas, uint64_t seed,
                           int threads, tmc_progress_fn progress, void *ctx,
                           const tmc_runner_out *out, tmc_replica *totals, tmc_error *err)
{
    shared_run sh = {.e = e, .replicas = replicas, .first_replica = first, .seed = seed,
                     .wall_s = out->wall_s, .restarts = out->restarts,
                     .samples = out->samples, .window_steps = out->window_steps,
                     .weight = out->weight};
    sh.n_chunks = (replicas + TMC_RUNNER_CHUNK - 1) / TMC_RUNNER_CHUNK;
    long first_chunk;
    tmc_ranks_split(sh.n_chunks, &first_chunk, &sh.end_chunk);
    long begin = first_chunk * TMC_RUNNER_CHUNK, end = sh.end_chunk * TMC_RUNNER_CHUNK;
    sh.local_replicas = (end < replicas ? end : replicas) - begin;
    atomic_init(&sh.next_chunk, first_chunk);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.failure, 0);
    sh.chunk_sums = calloc((size_t)sh.n_chunks, sizeof *sh.chunk_sums);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int rc = 0;
    if (!sh.chunk_sums || !tid)
        rc = tmc_error_set(err, "out of memory for %ld replicas", replicas);
    else
        run_threads(&sh, tid, threads, progress, ctx);
    rc = combine(&sh, rc, totals, err);
    free(sh.chunk_sums);
    free(tid);
    return rc;
}

int tmc_runner_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}
