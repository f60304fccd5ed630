/* sacct_fit.h - what SLURM accounting shows (docs/fit.md 11): the
 * interruptions per cause with exact Poisson intervals, over node-hours for
 * node failures and over job-hours for the job's own failures and for
 * outages; the requeue waits between one allocation of a job and the next;
 * the time limit the TIMEOUT allocations ran into. A job is the allocations
 * of one JobName, in Start order. */
#ifndef TMC_SACCT_FIT_H
#define TMC_SACCT_FIT_H

#include "error.h"
#include "sacct.h"

/* Events of one cause over their exposure, per hour, Garwood's interval. */
typedef struct {
    int count;
    double exposure_hours; /* node-hours (node failures) or job-hours */
    double rate, rate_lo, rate_hi;       /* per hour */
    double mean_hours, mean_lo, mean_hi; /* hours between events; INFINITY with none */
} tmc_sacct_rate;

/* A sample of hours: its size, mean, sd (n - 1), quantiles (linear
 * interpolation between order statistics, numpy's default), extremes. */
typedef struct {
    int n;
    double mean, sd, min, q10, median, q90, max;
} tmc_sacct_hours;

/* One job (a JobName): its allocations and how they ended. */
typedef struct {
    const char *name; /* the log's (not owned) */
    int allocations, count[TMC_SACCT_CAUSES];
    double job_hours, node_hours;
} tmc_sacct_job;

/* The three causes with a rate: node failures per node-hour, the job's
 * failures and outages per job-hour. */
enum { TMC_SACCT_RATES = 3 };

typedef struct {
    double confidence;
    int n_alloc;
    double job_hours, node_hours; /* sums of Elapsed and of NNodes x Elapsed */
    int count[TMC_SACCT_CAUSES];  /* allocations by the cause of their end */
    tmc_sacct_rate rate[TMC_SACCT_RATES]; /* indexed by TMC_SACCT_NODE, _JOB, _OUTAGE */
    /* waits: the next allocation's Start - this one's End, after an
     * allocation of a job that a node failure, job failure, outage or time
     * limit ended and that its job follows */
    tmc_sacct_hours waits, waits_by[TMC_SACCT_CAUSES];
    int overlaps; /* next allocations that started before the end: no wait */
    tmc_sacct_hours timeout; /* Elapsed of the TIMEOUT allocations */
    tmc_sacct_job *jobs;     /* by JobName (strcmp order) */
    int n_jobs;
} tmc_sacct_fit;

/* Compute r from log at confidence (0, 1). 0, or -1 with err (memory). */
int tmc_sacct_fit_compute(const tmc_sacct_log *log, double confidence, tmc_sacct_fit *r,
                          tmc_error *err);

void tmc_sacct_fit_free(tmc_sacct_fit *r);

#endif
