/* restarts.h - how often a run restarts, and a restart budget (issue 14).
 *
 * A restart is a card failure, an outage or a loss spike: each sends the job
 * back to a committed snapshot (accounting.h, tmc_accounting_restarts). Many
 * launchers give up after a number of restarts (torchrun's --max-restarts,
 * https://pytorch.org/docs/stable/elastic/run.html; a scheduler's requeue
 * limit); deadline.max_restarts = k makes a run with more than k restarts a
 * miss whatever its completion time T, which is still the time the run
 * would have taken.
 *
 * Closed form beside the simulation: restarts arrive at rate 1/M (M: the
 * mean time between interruptions of any kind, closed_form.h) over the
 * run's wall time W, so their number is about Poisson with mean W / M, W
 * from Young's completion time; P(more than k) = Q(k; W / M), the Poisson
 * upper tail (gsl_cdf_poisson_Q). It ignores that W itself grows with each
 * restart and that non-exponential lifetimes are not Poisson. */
#ifndef TMC_RESTARTS_H
#define TMC_RESTARTS_H

#include "closed_form.h"
#include "config.h"
#include "error.h"
#include "stats.h"

typedef struct {
    long budget;            /* deadline.max_restarts; -1: none */
    tmc_summary count;      /* restarts per run: mean, sd, quantiles, max */
    long over;              /* runs with more restarts than the budget (0 without one) */
    double p_over, ci_lo, ci_hi; /* over / n with its Wilson 95 % interval */
    double poisson_mean;    /* closed form: W / M */
    double poisson_p_over;  /* closed form: P(Poisson(W / M) > budget); NaN without one */
} tmc_restarts;

/* Summarise restarts[n] (replica order) into *out. With a budget, the runs
 * over it leave days' met count (days[n]: completion days in replica
 * order; *days_summary: their summary, its p_met and Wilson interval
 * recomputed). Returns 0, or -1 with err if memory runs out. */
int tmc_restarts_summarize(const double *restarts, const double *days, long n,
                           const tmc_experiment *x, const tmc_closed_form *cf,
                           tmc_summary *days_summary, tmc_restarts *out, tmc_error *err);

/* 1 if a run with these completion days and restarts meets the deadline
 * and the budget. */
int tmc_restarts_met(double days, double restarts, const tmc_deadline *d);

#endif
