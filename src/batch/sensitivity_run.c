/* sensitivity_run.c - every setting of a sensitivity report run under
 * common random numbers, their differences from the base and the rankings
 * (sensitivity.h). */
#include "sensitivity.h"

#include <stdlib.h>
#include <string.h>

int tmc_sensitivity_list_runs(tmc_sensitivity *s, tmc_sensitivity_run **out)
{
    int n = 0;
    out[n++] = &s->base;
    for (int i = 0; i < s->n_inputs; i++)
        for (int e = 0; e < 2 && !s->inputs[i].skipped[0]; e++)
            out[n++] = &s->inputs[i].end[e];
    if (s->compound_text) {
        out[n++] = &s->compound;
        for (int i = 0; i < s->n_degradations; i++) {
            out[n++] = &s->degradations[i].alone;
            out[n++] = &s->degradations[i].fixed;
        }
    }
    return n;
}

/* Run r with its replicas (common random numbers: every setting shares
 * replicas and seed), and its met indicators. 0, or as
 * tmc_sweep_run_setting. */
static int run_one(tmc_sensitivity_run *r, const tmc_sensitivity_options *o,
                   tmc_sweep_progress *p, tmc_error *err)
{
    long n = r->setting.x.monte_carlo.replicas;
    r->days = malloc((size_t)n * sizeof *r->days);
    r->restarts = malloc((size_t)n * sizeof *r->restarts);
    r->met = malloc((size_t)n * sizeof *r->met);
    if (!r->days || !r->restarts || !r->met)
        return tmc_error_set(err, "out of memory for %ld replicas", n);
    int rc = tmc_sweep_run_setting(&r->setting, o->threads,
                                   o->progress ? tmc_sweep_forward_progress : NULL, p, o->stop,
                                   r->days, r->restarts, &r->result, err);
    for (long k = 0; !rc && k < n; k++)
        r->met[k] = tmc_restarts_met(r->days[k], r->restarts[k], &r->setting.x.deadline);
    return rc;
}

/* d = a - b per replica, in days (met: 0 or in the indicators). */
static int diff(const tmc_sensitivity_run *a, const tmc_sensitivity_run *b, int met,
                tmc_sweep_diff *d, tmc_error *err)
{
    long n = a->setting.x.monte_carlo.replicas;
    return tmc_sweep_compute_diff(met ? a->met : a->days, met ? b->met : b->days, n, d, err);
}

/* The swing of input in (met: of P, else of T): the highest minus the
 * lowest of base, low and high, as the CRN difference of those two runs. */
static int swing(const tmc_sensitivity *s, const tmc_sensitivity_input *in, int met,
                 tmc_sweep_diff *out, tmc_error *err)
{
    const tmc_sensitivity_run *run[3] = {&s->base, &in->end[0], &in->end[1]};
    const tmc_sweep_diff *d = met ? in->met : in->days;
    double v[3] = {0, d[0].mean, d[1].mean};
    int hi = 0, lo = 0;
    for (int i = 1; i < 3; i++) {
        hi = v[i] > v[hi] ? i : hi;
        lo = v[i] < v[lo] ? i : lo;
    }
    return diff(run[hi], run[lo], met, out, err);
}

/* 1 when input a ranks before input b: a larger swing of T (met: of P),
 * then of the other; ties keep the inputs' order (insertion sort). */
static int ranks_before(const tmc_sensitivity_input *a, const tmc_sensitivity_input *b,
                        int met)
{
    double a1 = met ? a->swing_met.mean : a->swing_days.mean;
    double b1 = met ? b->swing_met.mean : b->swing_days.mean;
    double a2 = met ? a->swing_days.mean : a->swing_met.mean;
    double b2 = met ? b->swing_days.mean : b->swing_met.mean;
    return a1 > b1 || (a1 == b1 && a2 > b2);
}

static void rank(tmc_sensitivity *s, int met, int *order)
{
    int n = 0;
    for (int i = 0; i < s->n_inputs; i++) {
        if (s->inputs[i].skipped[0])
            continue;
        int j = n++;
        for (; j > 0 && ranks_before(&s->inputs[i], &s->inputs[order[j - 1]], met); j--)
            order[j] = order[j - 1];
        order[j] = i;
    }
    s->n_ranked = n;
}

/* Each input's differences and swings. 0, or -1 with err. */
static int compare_tornado(tmc_sensitivity *s, tmc_error *err)
{
    for (int i = 0; i < s->n_inputs; i++) {
        tmc_sensitivity_input *in = &s->inputs[i];
        if (in->skipped[0])
            continue;
        for (int e = 0; e < 2; e++)
            if (diff(&in->end[e], &s->base, 0, &in->days[e], err) ||
                diff(&in->end[e], &s->base, 1, &in->met[e], err))
                return -1;
        if (swing(s, in, 0, &in->swing_days, err) || swing(s, in, 1, &in->swing_met, err))
            return -1;
    }
    rank(s, 0, s->by_days);
    rank(s, 1, s->by_met);
    return 0;
}

/* The compound against the base, each degradation alone against the base,
 * and the gain of fixing each. 0, or -1 with err. */
static int compare_compound(tmc_sensitivity *s, tmc_error *err)
{
    if (diff(&s->compound, &s->base, 0, &s->compound_days, err) ||
        diff(&s->compound, &s->base, 1, &s->compound_met, err))
        return -1;
    for (int i = 0; i < s->n_degradations; i++) {
        tmc_sensitivity_degradation *d = &s->degradations[i];
        if (diff(&d->alone, &s->base, 0, &d->alone_days, err) ||
            diff(&d->alone, &s->base, 1, &d->alone_met, err) ||
            diff(&s->compound, &d->fixed, 0, &d->gain_days, err) ||
            diff(&d->fixed, &s->compound, 1, &d->gain_met, err))
            return -1;
    }
    return 0;
}

int tmc_sensitivity_run_all(tmc_sensitivity *s, const tmc_sensitivity_options *o,
                            tmc_error *err)
{
    tmc_sensitivity_run *runs[TMC_SENSITIVITY_MAX_RUNS];
    int n = s->n_runs = tmc_sensitivity_list_runs(s, runs);
    long reps = s->base.setting.x.monte_carlo.replicas;
    tmc_sweep_progress p = {o->progress, o->progress_ctx, 0, n * reps};
    for (int i = 0; i < n; i++, p.offset += reps) {
        int rc = run_one(runs[i], o, &p, err);
        if (rc)
            return rc;
    }
    if (compare_tornado(s, err) || (s->compound_text && compare_compound(s, err)))
        return -1;
    return 0;
}

static void release_run(tmc_sensitivity_run *r)
{
    tmc_experiment_release(&r->base.x);
    tmc_experiment_release(&r->setting.x);
}

/* Every run's experiments, whether it ran or not (a load can fail half way,
 * an input be skipped after its load): s is zeroed until loaded (calloc). */
static void release_experiments(tmc_sensitivity *s)
{
    release_run(&s->base);
    release_run(&s->compound);
    for (int i = 0; i < TMC_SENSITIVITY_MAX_INPUTS; i++) {
        release_run(&s->inputs[i].end[0]);
        release_run(&s->inputs[i].end[1]);
    }
    for (int i = 0; i < TMC_SENSITIVITY_MAX_COMPOUND; i++) {
        release_run(&s->degradations[i].alone);
        release_run(&s->degradations[i].fixed);
    }
}

void tmc_sensitivity_free(tmc_sensitivity *s)
{
    tmc_sensitivity_run *runs[TMC_SENSITIVITY_MAX_RUNS];
    int n = tmc_sensitivity_list_runs(s, runs);
    for (int i = 0; i < n; i++) {
        free(runs[i]->days);
        free(runs[i]->restarts);
        free(runs[i]->met);
        runs[i]->days = runs[i]->restarts = runs[i]->met = NULL;
    }
    free(s->compound_sets);
    s->compound_sets = NULL;
    release_experiments(s);
}
