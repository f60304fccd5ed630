/* experiment.c - the heap parts of an experiment (experiment.h): their one
 * owner's release, a deep copy, and the lists the loader appends to.
 *
 * Invariant: a field is NULL exactly when its count is 0 (a trace's n_trace,
 * n_inputs, n_overrides, n_bases; path NULL before a load), so an emptied or
 * zeroed experiment releases and copies like any other. */
#include "experiment.h"

#include <stdlib.h>
#include <string.h>

static void free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

void tmc_experiment_release(tmc_experiment *x)
{
    free(x->path);
    free_list(x->inputs, x->n_inputs);
    free_list(x->overrides, x->n_overrides);
    free_list(x->bases, x->n_bases);
    free(x->failures.trace_days);
    free(x->outages.trace_days);
    free(x->loss_spikes.trace_days);
    x->path = NULL;
    x->inputs = x->overrides = x->bases = NULL;
    x->n_inputs = x->n_overrides = x->n_bases = 0;
    x->failures.trace_days = x->outages.trace_days = x->loss_spikes.trace_days = NULL;
    x->failures.n_trace = x->outages.n_trace = x->loss_spikes.n_trace = 0;
}

/* *list grown by one, a copy of text at its end. 0, or -1 (out of memory,
 * the list unchanged). */
static int append(char ***list, int *n, const char *text)
{
    char **grown = realloc(*list, (size_t)(*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *list = grown;
    if (!(grown[*n] = strdup(text)))
        return -1;
    (*n)++;
    return 0;
}

int tmc_experiment_add_input(tmc_experiment *x, const char *text, tmc_error *err)
{
    return append(&x->inputs, &x->n_inputs, text) ? tmc_error_set(err, "out of memory") : 0;
}

int tmc_experiment_add_override(tmc_experiment *x, const char *text, tmc_error *err)
{
    return append(&x->overrides, &x->n_overrides, text) ? tmc_error_set(err, "out of memory")
                                                        : 0;
}

int tmc_experiment_add_base(tmc_experiment *x, const char *text, tmc_error *err)
{
    return append(&x->bases, &x->n_bases, text) ? tmc_error_set(err, "out of memory") : 0;
}

/* *dst = a copy of the n times at src (NULL when n is 0). 0, or -1. */
static int copy_trace(double **dst, const double *src, int n)
{
    if (n == 0)
        return 0;
    if (!(*dst = malloc((size_t)n * sizeof **dst)))
        return -1;
    memcpy(*dst, src, (size_t)n * sizeof **dst);
    return 0;
}

int tmc_experiment_copy(tmc_experiment *dst, const tmc_experiment *src, tmc_error *err)
{
    *dst = *src; /* the plain fields; the heap parts are replaced below */
    dst->path = NULL;
    dst->inputs = dst->overrides = dst->bases = NULL;
    dst->n_inputs = dst->n_overrides = dst->n_bases = 0;
    dst->failures.trace_days = dst->outages.trace_days = dst->loss_spikes.trace_days = NULL;
    int bad = (src->path && !(dst->path = strdup(src->path)));
    for (int i = 0; i < src->n_inputs && !bad; i++)
        bad = append(&dst->inputs, &dst->n_inputs, src->inputs[i]);
    for (int i = 0; i < src->n_overrides && !bad; i++)
        bad = append(&dst->overrides, &dst->n_overrides, src->overrides[i]);
    for (int i = 0; i < src->n_bases && !bad; i++)
        bad = append(&dst->bases, &dst->n_bases, src->bases[i]);
    bad = bad || copy_trace(&dst->failures.trace_days, src->failures.trace_days,
                            src->failures.n_trace);
    bad = bad || copy_trace(&dst->outages.trace_days, src->outages.trace_days,
                            src->outages.n_trace);
    bad = bad || copy_trace(&dst->loss_spikes.trace_days, src->loss_spikes.trace_days,
                            src->loss_spikes.n_trace);
    if (bad) {
        tmc_experiment_release(dst);
        return tmc_error_set(err, "out of memory");
    }
    return 0;
}
