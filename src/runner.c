/* runner.c - threads take chunks of replicas; see runner.h for why the
 * results do not depend on the thread count. */
#include "runner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    const tmc_engine *e;
    long replicas;
    uint64_t seed;
    double *wall_s;
    tmc_replica *chunk_sums;
    long n_chunks;
    atomic_long next_chunk;
    atomic_long done;           /* replicas finished */
    atomic_int workers_running;
} shared_run;

static void run_chunk(shared_run *sh, long c, gsl_rng *const rng[TMC_STREAM_COUNT])
{
    long first = c * TMC_RUNNER_CHUNK;
    long last = first + TMC_RUNNER_CHUNK < sh->replicas ? first + TMC_RUNNER_CHUNK
                                                        : sh->replicas;
    tmc_replica sum, one;
    memset(&sum, 0, sizeof sum);
    for (long k = first; k < last; k++) {
        tmc_engine_run(sh->e, sh->seed, (uint64_t)k, rng, &one);
        if (one.stopped)
            return;
        sh->wall_s[k] = one.wall_s;
        tmc_engine_accumulate(&sum, &one);
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
    while (!tmc_engine_stop_requested() &&
           (c = atomic_fetch_add(&sh->next_chunk, 1)) < sh->n_chunks)
        run_chunk(sh, c, rng);
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
    atomic_fetch_sub(&sh->workers_running, 1);
    return NULL;
}

static void watch_progress(shared_run *sh, tmc_progress_fn progress, void *ctx)
{
    struct timespec tick = {0, 100000000L};
    while (atomic_load(&sh->workers_running) > 0) {
        progress(atomic_load(&sh->done), sh->replicas, ctx);
        nanosleep(&tick, NULL);
    }
    progress(atomic_load(&sh->done), sh->replicas, ctx);
}

int tmc_runner_run(const tmc_engine *e, long replicas, uint64_t seed, int threads,
                   tmc_progress_fn progress, void *ctx, double *wall_s,
                   tmc_replica *totals, tmc_error *err)
{
    shared_run sh = {.e = e, .replicas = replicas, .seed = seed, .wall_s = wall_s};
    sh.n_chunks = (replicas + TMC_RUNNER_CHUNK - 1) / TMC_RUNNER_CHUNK;
    sh.chunk_sums = calloc((size_t)sh.n_chunks, sizeof *sh.chunk_sums);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!sh.chunk_sums || !tid) {
        free(sh.chunk_sums);
        free(tid);
        return tmc_error_set(err, "out of memory for %ld replicas", replicas);
    }
    atomic_init(&sh.next_chunk, 0);
    atomic_init(&sh.done, 0);
    atomic_init(&sh.workers_running, threads);
    int started = 0;
    while (started < threads && pthread_create(&tid[started], NULL, worker, &sh) == 0)
        started++;
    atomic_fetch_sub(&sh.workers_running, threads - started);
    if (started == 0) {
        atomic_init(&sh.workers_running, 1);
        worker(&sh); /* no thread could start: do the work here */
    }
    else if (progress)
        watch_progress(&sh, progress, ctx);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    memset(totals, 0, sizeof *totals);
    for (long c = 0; c < sh.n_chunks; c++)
        tmc_engine_accumulate(totals, &sh.chunk_sums[c]);
    free(sh.chunk_sums);
    free(tid);
    long done = atomic_load(&sh.done);
    if (done < replicas)
        return tmc_error_set(err, "interrupted after %ld of %ld replicas", done, replicas),
               TMC_RUNNER_STOPPED;
    return 0;
}

int tmc_runner_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}
