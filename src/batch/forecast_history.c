/* forecast_history.c - the forecast at each snapshot of a history
 * (forecast_history.h), one snapshot after another, each through the
 * sweep's setting runner so that it is exactly `trainmc run`'s. */
#include "forecast_history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "restarts.h"
#include "sweep.h"
#include "interval_search.h"

int tmc_forecast_history_init(tmc_forecast_history *h, const tmc_experiment *base,
                              const char *path, const tmc_observed_snapshot *snaps, int n,
                              tmc_error *err)
{
    memset(h, 0, sizeof *h);
    h->base = base;
    h->path = path;
    h->points = calloc((size_t)n, sizeof *h->points);
    if (!h->points)
        return tmc_error_set(err, "out of memory for %d snapshots", n);
    h->n = n;
    for (int i = 0; i < n; i++)
        h->points[i].snap = snaps[i];
    return 0;
}

void tmc_forecast_history_free(tmc_forecast_history *h)
{
    free(h->points);
    h->points = NULL;
    h->n = 0;
}

/* What a run needs beyond the points: a setting to run and the per-replica
 * arrays (completion days, restarts, met indicators of this snapshot and
 * the previous one). */
typedef struct {
    tmc_sweep_setting setting;
    tmc_sweep_result result;
    double *days, *restarts, *met, *met_prev;
} workspace;

static void free_workspace(workspace *w)
{
    if (!w)
        return;
    free(w->days);
    free(w->restarts);
    free(w->met);
    free(w->met_prev);
    free(w);
}

static workspace *new_workspace(long n)
{
    workspace *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->days = malloc((size_t)n * sizeof *w->days);
    w->restarts = malloc((size_t)n * sizeof *w->restarts);
    w->met = malloc((size_t)n * sizeof *w->met);
    w->met_prev = malloc((size_t)n * sizeof *w->met_prev);
    if (!w->days || !w->restarts || !w->met || !w->met_prev) {
        free_workspace(w);
        return NULL;
    }
    return w;
}

/* Point i's change against point i - 1 from the met indicators: the
 * estimate is the difference of the two P (exactly what the table shows),
 * its standard error that of the per-replica differences. */
static int compare(tmc_forecast_history *h, int i, workspace *w, long n, tmc_error *err)
{
    tmc_forecast_point *p = &h->points[i];
    const tmc_deadline *d = &w->setting.x.deadline;
    for (long k = 0; k < n; k++)
        w->met[k] = tmc_restarts_met(w->days[k], w->restarts[k], d);
    p->change = p->change_se = NAN;
    if (i > 0) {
        tmc_sweep_diff diff;
        if (tmc_sweep_compute_diff(w->met, w->met_prev, n, &diff, err))
            return -1;
        p->change = p->days.p_met - h->points[i - 1].days.p_met;
        p->change_se = diff.se;
    }
    double *t = w->met_prev; /* this snapshot is the next one's previous */
    w->met_prev = w->met;
    w->met = t;
    return 0;
}

/* Snapshot i: the base with its progress, run and summarised. */
static int run_point(tmc_forecast_history *h, int i, workspace *w, int threads,
                     tmc_sweep_progress *bar, const volatile sig_atomic_t *stop,
                     tmc_error *err)
{
    tmc_forecast_point *p = &h->points[i];
    tmc_sweep_setting *s = &w->setting;
    s->x = *h->base; /* a view with the snapshot's progress, never released */
    s->x.observed = p->snap.observed;
    tmc_interval_search search; /* "optimal": the rest of the run's own */
    int rc = tmc_interval_search_resolve(&s->x, threads, NULL, &search, err);
    if (rc)
        return rc;
    tmc_closed_form_compute(&s->x, &s->cf);
    long n = s->x.monte_carlo.replicas;
    rc = tmc_sweep_run_setting(s, threads, bar->fn ? tmc_sweep_forward_progress : NULL, bar,
                                   stop, w->days, w->restarts, &w->result, err);
    if (rc)
        return rc;
    p->days = w->result.days;
    p->left_mean = p->days.mean - s->x.deadline.reserve_days - p->snap.observed.elapsed_days;
    bar->offset += n;
    return compare(h, i, w, n, err);
}

int tmc_forecast_history_run(tmc_forecast_history *h, int threads, tmc_progress_fn progress,
                             void *ctx, const volatile sig_atomic_t *stop, tmc_error *err)
{
    long n = h->base->monte_carlo.replicas;
    workspace *w = new_workspace(n);
    if (!w)
        return tmc_error_set(err, "out of memory for %ld replicas", n);
    /* one bar for the whole history: every snapshot's replicas */
    tmc_sweep_progress bar = {progress, ctx, 0, n * h->n};
    int rc = 0;
    for (int i = 0; i < h->n && !rc; i++)
        rc = run_point(h, i, w, threads, &bar, stop, err);
    free_workspace(w);
    return rc;
}
