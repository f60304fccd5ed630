/* forecast_history.h - a history of forecasts (issue 18, `trainmc forecast
 * --history`): the experiment forecast from each snapshot a training job
 * appended (observed_input.h), every one with the same replicas and seed.
 *
 * Common random numbers: replica k of every snapshot draws from the streams
 * of (seed, k) (sweep.h), so the change of P(deadline) from one snapshot to
 * the next is estimated per replica, with the standard error of the
 * difference of the two met indicators (Law and Kelton, "Simulation Modeling
 * and Analysis", 3rd ed., 2000, section 11.2) - far below that of two
 * independent estimates when the forecasts agree on most replicas. Each
 * snapshot's figures equal those of `trainmc run --progress` with that
 * snapshot (the same engine, replicas and seed; tests/check_forecast.py). */
#ifndef TMC_FORECAST_HISTORY_H
#define TMC_FORECAST_HISTORY_H

#include <signal.h>

#include "config.h"
#include "error.h"
#include "observed_input.h"
#include "runner.h"
#include "stats.h"

/* One snapshot's forecast. */
typedef struct {
    tmc_observed_snapshot snap; /* its line and state */
    tmc_summary days;   /* completion time T = reserve + wall, days, from the job's start,
                           against the deadline (and the restart budget: restarts.h) */
    double left_mean;   /* mean time left, T - reserve - elapsed, days */
    double change;      /* P(deadline) less the previous snapshot's; NaN for the first */
    double change_se;   /* its standard error under common random numbers; NaN first */
} tmc_forecast_point;

/* The history: the experiment (its progress section replaced at each
 * snapshot) and a point per snapshot. */
typedef struct {
    const tmc_experiment *base; /* borrowed: replicas, seed, deadline, the rest */
    const char *path;           /* the history file, for reports */
    int n;
    tmc_forecast_point *points; /* malloc'd, n of them, in file order */
} tmc_forecast_history;

/* Points for snaps[n] (copied) on base, not yet run. 0, or -1 with err
 * (memory). */
int tmc_forecast_history_init(tmc_forecast_history *h, const tmc_experiment *base,
                              const char *path, const tmc_observed_snapshot *snaps, int n,
                              tmc_error *err);

/* Run every snapshot in order: base with the snapshot as its progress,
 * base's replicas and seed, on `threads` threads; progress (may be NULL)
 * is told the replicas done over all snapshots. Stops soon once *stop is
 * non-zero (NULL: once tmc_stop_request is called). Returns 0;
 * TMC_RUNNER_STOPPED with err; -1 with err if memory runs out. */
int tmc_forecast_history_run(tmc_forecast_history *h, int threads, tmc_progress_fn progress,
                             void *ctx, const volatile sig_atomic_t *stop, tmc_error *err);

void tmc_forecast_history_free(tmc_forecast_history *h);

#endif
