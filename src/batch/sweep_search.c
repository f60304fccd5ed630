/* sweep_search.c - the evaluations of one bisection (sweep_search.h). */
#include "sweep_search.h"

#include <stdlib.h>
#include <string.h>

int tmc_sweep_search_init(tmc_sweep_search *s, const tmc_sweep_base *base,
                          const tmc_sweep_target *target, tmc_error *err)
{
    long replicas = base->x.monte_carlo.replicas;
    memset(s, 0, sizeof *s);
    s->base = base;
    s->target = target;
    s->threads = 1;
    s->settings = calloc(TMC_SWEEP_MAX_EVALUATIONS, sizeof *s->settings);
    s->results = calloc(TMC_SWEEP_MAX_EVALUATIONS, sizeof *s->results);
    s->days = malloc((size_t)replicas * sizeof *s->days);
    s->restarts = malloc((size_t)replicas * sizeof *s->restarts);
    if (!s->settings || !s->results || !s->days || !s->restarts)
        return tmc_error_set(err, "out of memory for %ld replicas", replicas);
    return 0;
}

/* The index of the evaluation at value, or -1. */
static int made_at(const tmc_sweep_search *s, double value)
{
    for (int i = s->n - 1; i >= 0; i--)
        if (s->settings[i].value[0] == value)
            return i;
    return -1;
}

int tmc_sweep_search_find(const tmc_sweep_search *s, double value)
{
    int i = made_at(s, value);
    return i < 0 ? 0 : i;
}

int tmc_sweep_search_seed(tmc_sweep_search *s, double value, const tmc_sweep_result *r,
                          tmc_error *err)
{
    if (s->n == TMC_SWEEP_MAX_EVALUATIONS)
        return tmc_error_set(err, "more than %d evaluations", TMC_SWEEP_MAX_EVALUATIONS);
    tmc_experiment_release(&s->settings[s->n].x); /* as an evaluation does */
    if (tmc_sweep_load_setting(s->base, &value, &s->settings[s->n], err))
        return -1;
    s->results[s->n++] = *r;
    return 0;
}

int tmc_sweep_search_evaluate(double value, void *ctx, double *metric, tmc_error *err)
{
    tmc_sweep_search *s = ctx;
    double lo, hi;
    int i = made_at(s, value);
    if (i >= 0) {
        tmc_sweep_estimate_metric(&s->results[i], s->target->metric, metric, &lo, &hi);
        return 0;
    }
    tmc_sweep_setting *set = &s->settings[s->n];
    tmc_sweep_result *r = &s->results[s->n];
    s->failure = TMC_SWEEP_SEARCH_REFUSED;
    if (s->n == TMC_SWEEP_MAX_EVALUATIONS)
        return tmc_error_set(err, "more than %d evaluations", TMC_SWEEP_MAX_EVALUATIONS);
    tmc_experiment_release(&set->x); /* a refused or failed evaluation's */
    if (tmc_sweep_load_setting(s->base, &value, set, err))
        return -1;
    err->msg[0] = '\0'; /* empty: the check said why itself */
    if (s->check && s->check(set, s->check_ctx, err->msg, sizeof err->msg))
        return -1;
    int rc = tmc_sweep_run_setting(set, s->threads, s->progress, s->progress_ctx, s->stop,
                                   s->days,
                                   s->restarts, r, err);
    if (rc) {
        s->failure = rc == TMC_RUNNER_STOPPED ? TMC_RUNNER_STOPPED : -1;
        return -1;
    }
    tmc_sweep_estimate_metric(r, s->target->metric, metric, &lo, &hi);
    s->failure = 0;
    s->n++;
    return 0;
}

void tmc_sweep_search_free(tmc_sweep_search *s)
{
    /* every slot: one past the last evaluation may hold a refused setting */
    for (int i = 0; s->settings && i < TMC_SWEEP_MAX_EVALUATIONS; i++)
        tmc_experiment_release(&s->settings[i].x);
    free(s->settings);
    free(s->results);
    free(s->days);
    free(s->restarts);
    memset(s, 0, sizeof *s);
}
