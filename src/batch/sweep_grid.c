/* sweep_grid.c - a grid sweep run and compared (sweep_grid.h). */
#include "sweep_grid.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ranks.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tmc_sweep_grid_free(tmc_sweep_grid *g)
{
    for (int i = 0; g->settings && i < g->n; i++) /* zeroed until loaded: calloc */
        tmc_experiment_release(&g->settings[i].x);
    free(g->settings);
    free(g->results);
    free(g->diffs);
    free(g->line_best);
    free(g->within);
    free(g->days);
    free(g->restarts);
    g->settings = NULL;
    g->results = NULL;
    g->diffs = NULL;
    g->line_best = g->within = NULL;
    g->days = g->restarts = NULL;
}

static int grid_alloc(tmc_sweep_grid *g, long replicas, tmc_error *err)
{
    size_t n = (size_t)g->n;
    g->settings = calloc(n, sizeof *g->settings);
    g->results = calloc(n, sizeof *g->results);
    g->diffs = calloc(n, sizeof *g->diffs);
    g->line_best = calloc(n, sizeof *g->line_best);
    g->within = calloc(n, sizeof *g->within);
    g->days = malloc(n * (size_t)replicas * sizeof *g->days);
    g->restarts = malloc(n * (size_t)replicas * sizeof *g->restarts);
    if (g->settings && g->results && g->diffs && g->line_best && g->within && g->days &&
        g->restarts)
        return 0;
    return tmc_error_set(err, "out of memory for %d settings of %ld replicas", g->n, replicas);
}

/* Allocate g's arrays for its base's replicas and load every setting of its
 * axes. 0, TMC_SWEEP_GRID_INPUT or -1, with err. */
static int build(tmc_sweep_grid *g, tmc_error *err)
{
    const tmc_sweep_axis *axes = g->axes;
    int n_axes = g->n_axes;
    long reps = g->base->x.monte_carlo.replicas;
    if (tmc_sweep_check_grid(axes, n_axes, reps, err))
        return TMC_SWEEP_GRID_INPUT;
    g->n = tmc_sweep_count_settings(axes, n_axes);
    if (grid_alloc(g, reps, err))
        return -1;
    for (int i = 0; i < g->n; i++) {
        double value[TMC_SWEEP_MAX_KEYS];
        tmc_sweep_get_values(axes, n_axes, i, value);
        if (tmc_sweep_load_setting(g->base, value, &g->settings[i], err))
            return TMC_SWEEP_GRID_INPUT;
    }
    return 0;
}

/* tmc_sweep_grid_load on this rank alone. */
static int load(tmc_sweep_grid *g, const tmc_sweep_grid_request *rq, tmc_error *err)
{
    const char *keys[TMC_SWEEP_MAX_KEYS];
    for (int a = 0; a < rq->n_vary; a++) {
        if (tmc_sweep_parse_axis(rq->vary[a], &g->axes[a], err))
            return TMC_SWEEP_GRID_USAGE;
        keys[a] = g->axes[a].key;
    }
    int bad = rq->text ? tmc_sweep_load_base_text(g->base, rq->text, rq->path, rq->base_dir,
                                                  rq->sets, rq->n_sets, keys, rq->n_vary, err)
                       : tmc_sweep_load_base(g->base, rq->path, rq->sets, rq->n_sets, keys,
                                             rq->n_vary, err);
    if (bad || tmc_sweep_check_replicas(g->base, err))
        return TMC_SWEEP_GRID_INPUT;
    for (int a = 0; a < rq->n_vary; a++)
        if (tmc_sweep_check_pace_key(&g->base->x, "--vary ", keys[a], err))
            return TMC_SWEEP_GRID_INPUT; /* g->base owns its load: its owner releases it */
    return build(g, err);
}

int tmc_sweep_grid_load(tmc_sweep_grid *g, tmc_sweep_base *base,
                        const tmc_sweep_grid_request *rq, tmc_error *err)
{
    memset(g, 0, sizeof *g);
    g->base = base;
    g->n_axes = rq->n_vary;
    /* a rank that cannot read the file must not leave the others waiting */
    return tmc_ranks_agree(load(g, rq, err), err);
}

/* ---------- running ---------- */

/* A failed run step's code as tmc_sweep_grid_run returns it. */
static int run_code(int rc)
{
    return rc == TMC_RUNNER_STOPPED ? TMC_RUNNER_STOPPED
         : rc == TMC_IMPORTANCE_INVALID ? TMC_SWEEP_GRID_INPUT : -1;
}

static int run_importance(tmc_sweep_grid *g, int i, const tmc_sweep_grid_options *o,
                          tmc_error *err)
{
    return tmc_sweep_run_importance(&g->settings[i], o->importance, o->pilot, o->plain_max,
                                    o->threads, o->stop, &g->results[i], err);
}

/* Whether every setting meets the precision target over its first `done`
 * replicas (wall seconds at stride `stride`); the widest half-width. */
static int all_precise(tmc_sweep_grid *g, const tmc_precision *target, long stride, long done)
{
    int all = 1;
    g->precision.half_width = 0;
    for (int i = 0; i < g->n; i++) {
        double hw, v;
        all &= tmc_precision_met(target, g->days + i * stride, g->restarts + i * stride, done,
                                 &g->settings[i].x.deadline, &hw, &v);
        if (hw > g->precision.half_width)
            g->precision.half_width = hw, g->precision.value = v;
    }
    return all;
}

/* Batches of TMC_PRECISION_BATCH replicas for every setting until all meet
 * the target or the budget is spent; every setting keeps the same replicas
 * (common random numbers), then the arrays are packed to that count. */
static int run_precise(tmc_sweep_grid *g, const tmc_sweep_grid_options *o, tmc_error *err)
{
    long budget = g->base->x.monte_carlo.replicas, done = 0;
    g->precision.target = o->precision;
    g->precision.reached = 0;
    while (done < budget && !g->precision.reached) {
        long m = budget - done < TMC_PRECISION_BATCH ? budget - done : TMC_PRECISION_BATCH;
        for (int i = 0; i < g->n; i++) {
            int rc = tmc_sweep_run_batch(&g->settings[i], done, m, o->threads, NULL, NULL,
                                         o->stop, g->days + i * budget + done,
                                         g->restarts + i * budget + done, &g->results[i], err);
            if (rc)
                return run_code(rc);
        }
        done += m;
        g->precision.reached = all_precise(g, o->precision, budget, done);
    }
    g->base->x.monte_carlo.replicas = done;
    for (int i = 0; i < g->n; i++) {
        memmove(g->days + i * done, g->days + i * budget, (size_t)done * sizeof *g->days);
        memmove(g->restarts + i * done, g->restarts + i * budget,
                (size_t)done * sizeof *g->restarts);
        g->settings[i].x.monte_carlo.replicas = done;
        if (tmc_sweep_finish(&g->settings[i], g->days + i * done, g->restarts + i * done, done,
                             &g->results[i], err))
            return -1;
    }
    for (int i = 0; i < g->n && o->importance; i++) {
        int rc = run_importance(g, i, o, err);
        if (rc)
            return run_code(rc);
    }
    return 0;
}

static int run_all(tmc_sweep_grid *g, const tmc_sweep_grid_options *o, tmc_error *err)
{
    long reps = g->base->x.monte_carlo.replicas;
    tmc_sweep_progress p = {o->progress, o->progress_ctx, 0, g->n * reps};
    for (int i = 0; i < g->n; i++, p.offset += reps) {
        int rc = tmc_sweep_run_setting(&g->settings[i], o->threads,
                                       o->progress ? tmc_sweep_forward_progress : NULL, &p,
                                       o->stop, g->days + i * reps, g->restarts + i * reps,
                                       &g->results[i], err);
        if (!rc && o->importance)
            rc = run_importance(g, i, o, err);
        if (rc)
            return run_code(rc);
    }
    return 0;
}

/* ---------- comparing ---------- */

/* Each setting's difference from the reference. 0, or -1 with err. */
static int diff_all(tmc_sweep_grid *g, long reps, tmc_error *err)
{
    const double *ref = g->days + g->report.reference * reps;
    for (int i = 0; i < g->n; i++)
        if (tmc_sweep_compute_diff(g->days + i * reps, ref, reps, &g->diffs[i], err))
            return -1;
    return 0;
}

/* On each line along the interval axis: its best setting, and the settings
 * within 2 CRN standard errors of it. 0, or -1 with err. */
static int mark_optimum(tmc_sweep_grid *g, long reps, tmc_error *err)
{
    int a = g->report.interval_axis, idx[TMC_SWEEP_MAX_SETTINGS];
    tmc_sweep_diff d;
    for (int j = 0; j < tmc_sweep_count_lines(g->axes, g->n_axes, a); j++) {
        tmc_sweep_get_line(g->axes, g->n_axes, a, j, idx);
        int best = tmc_sweep_find_best(g->results, idx, g->axes[a].n);
        for (int v = 0; v < g->axes[a].n; v++) {
            int i = idx[v];
            if (tmc_sweep_compute_diff(g->days + i * reps, g->days + best * reps, reps, &d, err))
                return -1;
            g->line_best[i] = best;
            g->within[i] = tmc_sweep_is_within(&d);
        }
    }
    return 0;
}

/* The axis holding a checkpoint interval, or -1. */
static int interval_axis(const tmc_sweep_axis *axes, int n_axes)
{
    for (int a = 0; a < n_axes; a++)
        if (!strcmp(axes[a].key, "checkpoint.interval_s") ||
            !strcmp(axes[a].key, "checkpoint.interval_steps"))
            return a;
    return -1;
}

/* g->report, with the differences and the optimum. 0, or -1 with err. */
static int compare(tmc_sweep_grid *g, int threads, double elapsed_s, tmc_error *err)
{
    int all[TMC_SWEEP_MAX_SETTINGS];
    for (int i = 0; i < g->n; i++)
        all[i] = i;
    g->report = (tmc_sweep_report){
        .base = g->base, .axes = g->axes, .n_axes = g->n_axes, .n = g->n,
        .settings = g->settings, .results = g->results, .diffs = g->diffs,
        .reference = tmc_sweep_find_best(g->results, all, g->n),
        .interval_axis = interval_axis(g->axes, g->n_axes), .line_best = g->line_best,
        .within = g->within, .threads = threads, .elapsed_s = elapsed_s};
    long reps = g->base->x.monte_carlo.replicas;
    if (diff_all(g, reps, err) || (g->report.interval_axis >= 0 && mark_optimum(g, reps, err)))
        return -1;
    return 0;
}

int tmc_sweep_grid_run(tmc_sweep_grid *g, const tmc_sweep_grid_options *o, tmc_error *err)
{
    double t0 = now_s();
    if (o->importance && g->base->x.deadline.max_restarts >= 0)
        return tmc_error_set(err, "%s: importance sampling estimates P(T > deadline) alone; it "
                                  "cannot count deadline.max_restarts (%ld): give one or the "
                                  "other", g->base->x.path, g->base->x.deadline.max_restarts),
               TMC_SWEEP_GRID_INPUT;
    if (o->importance && g->base->x.elastic.enabled) /* no likelihood ratio: elastic.c */
        return tmc_error_set(err, "%s: elastic.groups: elastic replica groups are not "
                                  "modelled with importance sampling; run without "
                                  "--importance", g->base->x.path),
               TMC_SWEEP_GRID_INPUT;
    int rc = o->precision ? run_precise(g, o, err) : run_all(g, o, err);
    return rc ? rc : compare(g, o->threads, now_s() - t0, err);
}
