/* emax_sim.c - the simulation of the maximum of N standard normals over
 * ranks and threads (emax_sim.h), for `trainmc emax`. See emax_sim.h for why
 * the numbers depend on neither count. */
#include "emax_sim.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>

#include "dist.h"
#include "ranks.h"
#include "rng_pcg.h"
#include "stop.h"

/* Replicas per chunk. Each rank takes a block of chunks (ranks.h); every rank
 * gets all chunk sums and adds them in chunk order, so the totals are the
 * same bits whichever rank and thread ran which chunk. */
#define CHUNK 4096

/* Sums of d, d^2, d^3, d^4 for d = draw - center. */
typedef struct {
    double s[4];
} power_sums;

typedef struct {
    long n, replicas, n_chunks;
    long end_chunk;       /* this rank's chunks end here */
    uint64_t seed;
    double center;
    int brute;
    tmc_max_sampler max;  /* standard normals shifted by UNIT_MU (see prepare) */
    power_sums *sums;     /* [n_chunks][2]: sampler, brute force; all chunks */
    atomic_long next_chunk;
    atomic_long chunks_done;
} shared_sim;

static void add_power(power_sums *p, double d)
{
    double d2 = d * d;
    p->s[0] += d;
    p->s[1] += d2;
    p->s[2] += d2 * d;
    p->s[3] += d2 * d2;
}

static double brute_force_max(gsl_rng *r, long n)
{
    double m = -INFINITY;
    for (long i = 0; i < n; i++)
        m = fmax(m, gsl_ran_gaussian_ziggurat(r, 1.0));
    return m;
}

#define UNIT_MU 100.0

static void run_chunk(shared_sim *sh, long c, gsl_rng *r)
{
    power_sums *out = &sh->sums[2 * c];
    long first = c * CHUNK, last = first + CHUNK < sh->replicas ? first + CHUNK : sh->replicas;
    for (long k = first; k < last; k++) {
        tmc_rng_pcg_seed_replica(r, sh->seed, (uint64_t)k, TMC_STREAM_JITTER);
        add_power(&out[0], tmc_dist_sample_max(&sh->max, r) - UNIT_MU - sh->center);
        if (sh->brute)
            add_power(&out[1], brute_force_max(r, sh->n) - sh->center);
    }
}

static void *worker(void *arg)
{
    shared_sim *sh = arg;
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    if (!r) /* the other threads take the chunks; a shortfall is an error */
        return NULL;
    long c;
    while (!tmc_stop_requested() &&
           (c = atomic_fetch_add(&sh->next_chunk, 1)) < sh->end_chunk) {
        run_chunk(sh, c, r);
        atomic_fetch_add(&sh->chunks_done, 1);
    }
    gsl_rng_free(r);
    return NULL;
}

static void run_threads(shared_sim *sh, int threads)
{
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int started = 0;
    while (tid && started < threads && pthread_create(&tid[started], NULL, worker, sh) == 0)
        started++;
    if (started == 0)
        worker(sh); /* no thread could start: do the work here */
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
}

static void estimate(const power_sums *p, long replicas, double center, tmc_emax_estimate *e)
{
    double n = (double)replicas;
    double m = p->s[0] / n, e2 = p->s[1] / n, e3 = p->s[2] / n, e4 = p->s[3] / n;
    double v = e2 - m * m; /* central moments from raw ones: d is centred, so no cancellation */
    double m4 = e4 - 4 * m * e3 + 6 * m * m * e2 - 3 * m * m * m * m;
    e->replicas = replicas;
    e->mean = center + m;
    e->sd = sqrt(v * n / (n - 1));
    e->se = e->sd / sqrt(n);
    e->sd_se = sqrt((m4 - v * v) / (4 * v * n));
}

static void total(const shared_sim *sh, int which, tmc_emax_estimate *e)
{
    power_sums t = {{0, 0, 0, 0}};
    for (long c = 0; c < sh->n_chunks; c++)
        for (int i = 0; i < 4; i++)
            t.s[i] += sh->sums[2 * c + which].s[i];
    estimate(&t, sh->replicas, sh->center, e);
}

/* Allocate the sampler's table and the chunk sums. 0, or -1 with err set
 * (then nothing is left allocated). */
static int prepare(shared_sim *sh, tmc_error *err)
{
    /* mu = 100, cv = 0.01 gives sigma = 1 through the engine's own set-up,
     * far enough above 0 that the sampler's floor at 0 never acts; mu is
     * subtracted again from every draw. */
    tmc_jitter unit = {TMC_JITTER_NORMAL, 1.0 / UNIT_MU, 0};
    if (tmc_dist_max_init(&sh->max, &unit, UNIT_MU, sh->n))
        return tmc_error_set(err, "out of memory for the maximum sampler's table");
    sh->sums = calloc((size_t)sh->n_chunks * 2, sizeof *sh->sums);
    if (sh->sums)
        return 0;
    tmc_dist_max_free(&sh->max);
    return tmc_error_set(err, "out of memory for %ld replicas", sh->replicas);
}

int tmc_emax_simulate(long n, long replicas, uint64_t seed, int threads, double center,
                      tmc_emax_estimate *sampler, tmc_emax_estimate *brute,
                      tmc_error *err)
{
    shared_sim sh = {.n = n, .replicas = replicas, .seed = seed, .center = center,
                     .brute = brute != NULL};
    sh.n_chunks = (replicas + CHUNK - 1) / CHUNK;
    long first_chunk;
    tmc_ranks_split(sh.n_chunks, &first_chunk, &sh.end_chunk);
    atomic_init(&sh.next_chunk, first_chunk);
    atomic_init(&sh.chunks_done, 0);
    int prepared = prepare(&sh, err) == 0, rc = prepared ? 0 : -1;
    if (prepared) {
        run_threads(&sh, threads);
        long done = atomic_load(&sh.chunks_done);
        if (done < sh.end_chunk - first_chunk && tmc_stop_requested()) {
            tmc_error_set(err, "interrupted after %ld of %ld replicas",
                          done * CHUNK < replicas ? done * CHUNK : replicas, replicas);
            rc = TMC_EMAX_STOPPED;
        } else if (done < sh.end_chunk - first_chunk) {
            rc = tmc_error_set(err, "out of memory for a random number generator");
        }
    }
    /* every rank takes the same path from here (ranks.h) */
    rc = tmc_ranks_agree(rc, err);
    if (!rc)
        rc = tmc_ranks_share(sh.sums, 2 * sizeof *sh.sums, sh.n_chunks, 1, err);
    if (!rc) {
        total(&sh, 0, sampler);
        if (brute)
            total(&sh, 1, brute);
    }
    if (prepared) {
        free(sh.sums);
        tmc_dist_max_free(&sh.max);
    }
    return rc;
}

int tmc_emax_compute(long n, long replicas, uint64_t seed, int threads, long brute_max,
                     tmc_emax_row *row, tmc_error *err)
{
    row->n = n;
    row->quad_mean = tmc_dist_normal_emax(n, &row->quad_sd);
    if (isnan(row->quad_mean))
        return tmc_error_set(err, "the quadrature of c_N failed for N = %ld", n);
    row->blom = tmc_emax_blom(n);
    row->gumbel = tmc_emax_gumbel(n);
    row->reference = tmc_emax_reference(n);
    row->brute = (tmc_emax_estimate){0, NAN, NAN, NAN, NAN};
    return tmc_emax_simulate(n, replicas, seed, threads, row->quad_mean, &row->sampler,
                             n <= brute_max ? &row->brute : NULL, err);
}
