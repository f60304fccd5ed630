/* sacct_fit.c - the interruptions, waits and time limit SLURM accounting
 * shows (sacct_fit.h, docs/fit.md 11). */
#include "sacct_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "poisson_ci.h"

/* The causes an allocation's end interrupts its job with: a wait follows. */
static int interrupts(tmc_sacct_cause c)
{
    return c == TMC_SACCT_NODE || c == TMC_SACCT_JOB || c == TMC_SACCT_OUTAGE ||
           c == TMC_SACCT_TIME_LIMIT;
}

/* n hours (sorted in place) summarised; all NAN for n = 0. */
static tmc_sacct_hours summarise(double *x, int n)
{
    tmc_sacct_hours h = {.n = n};
    if (n == 0) {
        h.mean = h.sd = h.min = h.q10 = h.median = h.q90 = h.max = NAN;
        return h;
    }
    gsl_sort(x, 1, (size_t)n);
    h.mean = gsl_stats_mean(x, 1, (size_t)n);
    h.sd = n > 1 ? gsl_stats_sd_m(x, 1, (size_t)n, h.mean) : NAN;
    h.min = x[0];
    h.max = x[n - 1];
    /* GSL's quantile interpolates at (n - 1) f, as numpy's default */
    h.q10 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.1);
    h.median = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.5);
    h.q90 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.9);
    return h;
}

/* count events over exposure hours with Garwood's interval. */
static tmc_sacct_rate rate_of(int count, double exposure, double confidence)
{
    tmc_sacct_rate r = {.count = count, .exposure_hours = exposure};
    if (tmc_poisson_ci_rate(count, exposure, confidence, &r.rate, &r.rate_lo, &r.rate_hi)) {
        r.mean_hours = r.mean_lo = r.mean_hi = NAN;
        return r;
    }
    r.mean_hours = count ? exposure / count : INFINITY;
    r.mean_lo = 1 / r.rate_hi;
    r.mean_hi = r.rate_lo > 0 ? 1 / r.rate_lo : INFINITY;
    return r;
}

/* Allocations ordered by job name, then Start, then line. */
static int by_job_start(const void *pa, const void *pb)
{
    const tmc_sacct_alloc *a = *(const tmc_sacct_alloc *const *)pa,
                          *b = *(const tmc_sacct_alloc *const *)pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->start_s != b->start_s)
        return a->start_s < b->start_s ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

int tmc_sacct_fit_compute(const tmc_sacct_log *log, double confidence, tmc_sacct_fit *r,
                          tmc_error *err)
{
    memset(r, 0, sizeof *r);
    r->confidence = confidence;
    int n = log->n_alloc;
    r->n_alloc = n;
    const tmc_sacct_alloc **order = malloc((size_t)n * sizeof *order);
    double *waits = malloc((size_t)n * sizeof *waits), *tmp = malloc((size_t)n * sizeof *tmp);
    tmc_sacct_cause *wait_cause = malloc((size_t)n * sizeof *wait_cause);
    r->jobs = calloc((size_t)n, sizeof *r->jobs);
    if (!order || !waits || !tmp || !wait_cause || !r->jobs) {
        free((void *)order), free(waits), free(tmp), free(wait_cause);
        tmc_sacct_fit_free(r);
        return tmc_error_set(err, "out of memory for %d allocations", n);
    }
    int n_timeout = 0;
    for (int i = 0; i < n; i++) {
        const tmc_sacct_alloc *a = &log->alloc[i];
        double hours = a->elapsed_s / 3600;
        r->job_hours += hours;
        r->node_hours += (double)a->nnodes * hours;
        r->count[a->cause]++;
        if (a->cause == TMC_SACCT_TIME_LIMIT)
            tmp[n_timeout++] = hours;
        order[i] = a;
    }
    r->rate[TMC_SACCT_NODE] = rate_of(r->count[TMC_SACCT_NODE], r->node_hours, confidence);
    r->rate[TMC_SACCT_JOB] = rate_of(r->count[TMC_SACCT_JOB], r->job_hours, confidence);
    r->rate[TMC_SACCT_OUTAGE] = rate_of(r->count[TMC_SACCT_OUTAGE], r->job_hours, confidence);
    r->timeout = summarise(tmp, n_timeout);

    /* a job's allocations in Start order: the wait after each interrupted one */
    qsort(order, (size_t)n, sizeof *order, by_job_start);
    int n_waits = 0;
    for (int k = 0; k < n; k++) {
        const tmc_sacct_alloc *a = order[k];
        int first = k == 0 || strcmp(a->name, order[k - 1]->name);
        if (first)
            r->n_jobs++;
        tmc_sacct_job *j = &r->jobs[r->n_jobs - 1];
        j->name = a->name;
        j->allocations++;
        j->count[a->cause]++;
        j->job_hours += a->elapsed_s / 3600;
        j->node_hours += (double)a->nnodes * a->elapsed_s / 3600;
        if (k + 1 == n || !interrupts(a->cause))
            continue;
        const tmc_sacct_alloc *next = order[k + 1];
        if (strcmp(next->name, a->name))
            continue; /* the job's last allocation */
        if (next->start_s < a->end_s) {
            r->overlaps++;
            continue;
        }
        wait_cause[n_waits] = a->cause;
        waits[n_waits++] = (next->start_s - a->end_s) / 3600;
    }
    for (int c = 0; c < TMC_SACCT_CAUSES; c++) {
        int m = 0;
        for (int i = 0; i < n_waits; i++)
            if (wait_cause[i] == (tmc_sacct_cause)c)
                tmp[m++] = waits[i];
        r->waits_by[c] = summarise(tmp, m);
    }
    r->waits = summarise(waits, n_waits);
    free((void *)order), free(waits), free(tmp), free(wait_cause);
    return 0;
}

void tmc_sacct_fit_free(tmc_sacct_fit *r)
{
    free(r->jobs);
    memset(r, 0, sizeof *r);
}
