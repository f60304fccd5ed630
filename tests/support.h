/* support.h - what the cmocka tests share: experiments of the source tree
 * with overrides, running their replicas, and the two-sample
 * Kolmogorov-Smirnov statistic. Include after cmocka.h; a failure fails the
 * calling test. */
#ifndef TMC_TEST_SUPPORT_H
#define TMC_TEST_SUPPORT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "runner.h"

/* Every experiment test_load and test_parse loaded, released when the test
 * program ends: a test holds a view of one (experiment.h), so it releases
 * nothing itself. */
static tmc_experiment *test_kept;
static int test_n_kept;

static inline void test_release_kept(void)
{
    for (int i = 0; i < test_n_kept; i++)
        tmc_experiment_release(&test_kept[i]);
    free(test_kept);
}

/* x kept until the program ends; returns a view of it. */
static inline tmc_experiment test_keep(const tmc_experiment *x)
{
    if (test_n_kept == 0)
        atexit(test_release_kept);
    tmc_experiment *grown = realloc(test_kept, (size_t)(test_n_kept + 1) * sizeof *grown);
    if (!grown)
        fail_msg("out of memory keeping an experiment");
    test_kept = grown;
    test_kept[test_n_kept++] = *x;
    return *x;
}

/* experiments/NAME.json with n --set overrides. */
static inline tmc_experiment test_load(const char *name, const char *const *sets, int n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/%s.json", TMC_SOURCE_DIR, name);
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_load(path, sets, n, &x, &err))
        fail_msg("%s", err.msg);
    return test_keep(&x);
}

/* An experiment from JSON text (label "test", relative paths from the
 * current folder). */
static inline tmc_experiment test_parse(const char *json)
{
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_parse(json, "test", ".", NULL, 0, &x, &err))
        fail_msg("%s", err.msg);
    return test_keep(&x);
}

/* The TMC_STREAM_COUNT generators one replica draws from, and their end. */
static inline void test_rngs_alloc(gsl_rng *rng[TMC_STREAM_COUNT])
{
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
}

static inline void test_rngs_free(gsl_rng *rng[TMC_STREAM_COUNT])
{
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
}

/* Replicas 0 .. n - 1 of x with `seed` on two threads: wall[n] in seconds;
 * *cf computed from x; returns the sums over the replicas. */
static inline tmc_replica test_run(const tmc_experiment *x, tmc_closed_form *cf, long n,
                                   uint64_t seed, double *wall)
{
    tmc_closed_form_compute(x, cf);
    tmc_engine e;
    tmc_replica totals;
    tmc_error err = {""};
    assert_int_equal(tmc_engine_init(&e, x, cf), 0);
    if (tmc_runner_run(&e, n, seed, 2, NULL, NULL, wall, &totals, &err))
        fail_msg("%s", err.msg);
    tmc_engine_free(&e);
    return totals;
}

/* Replicas 0 .. n - 1 of x (run seed `seed`) one by one on this thread:
 * each replica's record into out[n]. */
static inline void test_replicas(const tmc_experiment *x, uint64_t seed, tmc_replica *out,
                                 int n)
{
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, x, &cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    for (int i = 0; i < n; i++)
        tmc_engine_run(&e, seed, (uint64_t)i, rng, &out[i]);
    test_rngs_free(rng);
    tmc_engine_free(&e);
}

/* sup |F_a - F_b| for two sorted samples of the same size n. */
static inline double ks_statistic(const double *a, const double *b, long n)
{
    long i = 0, j = 0;
    double d = 0;
    while (i < n && j < n) {
        double x = a[i] <= b[j] ? a[i] : b[j];
        while (i < n && a[i] <= x)
            i++;
        while (j < n && b[j] <= x)
            j++;
        d = fmax(d, fabs((double)(i - j) / n));
    }
    return d;
}

/* Its critical value at alpha = 0.001: c sqrt(2 / n), c = sqrt(-ln(alpha/2)/2). */
#define KS_CRITICAL_001(n) (1.9495 * sqrt(2.0 / (n)))

#endif
