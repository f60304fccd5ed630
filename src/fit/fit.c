/* fit.c - the parts of `trainmc fit` put together (fit.h). */
#include "fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "poisson_ci.h"

/* 1 / rate with the interval reversed; an upper end of 0 gives infinity. */
static tmc_fit_interval inverse(tmc_fit_interval r)
{
    return (tmc_fit_interval){1 / r.value, 1 / r.hi, r.lo > 0 ? 1 / r.lo : INFINITY};
}

static tmc_fit_interval rate(long n, double exposure, double confidence)
{
    tmc_fit_interval r;
    tmc_poisson_ci_rate(n, exposure, confidence, &r.value, &r.lo, &r.hi);
    return r;
}

/* The failure rates of n faults per day up (docs/fit.md 2): the exposure is
 * the nodes' up time (the lifetime sample's observed and censored times),
 * not the calendar, whose repair days would lower the rate by about
 * repair/MTBF. The cluster's exposure is the mean up time of a node (its
 * rate: every node up). -1 when there is no up time. */
static int set_rates(long n, tmc_fit_result *r)
{
    double cl = r->opt.confidence;
    r->up_node_days = r->sample.exposure_days;
    r->up_card_days = r->up_node_days * (double)r->opt.cards_per_node;
    if (!(r->up_node_days > 0))
        return -1;
    r->rate_cluster = rate(n, r->up_node_days / (double)r->opt.nodes, cl);
    r->rate_node = rate(n, r->up_node_days, cl);
    r->rate_card = rate(n, r->up_card_days, cl);
    r->mtbf_cluster = inverse(r->rate_cluster);
    r->mtbf_node = inverse(r->rate_node);
    r->mtbf_card = inverse(r->rate_card);
    r->calendar_cluster = r->span_days / (double)n;
    r->calendar_node = r->node_days / (double)n;
    r->calendar_card = r->card_days / (double)n;
    return 0;
}

static int by_count(const void *a, const void *b)
{
    const tmc_fit_cause *x = a, *y = b;
    if (x->count != y->count)
        return y->count - x->count;
    return strcmp(x->name, y->name);
}

static void cause_mix(const tmc_fault_log *log, tmc_fit_result *r)
{
    enum { MAX_DISTINCT = 4096 };
    tmc_fit_cause *all = calloc(MAX_DISTINCT, sizeof *all);
    int n = 0, others = 0;
    if (!all)
        return;
    for (int i = 0; i < log->n_faults; i++) {
        const tmc_fault *f = &log->faults[i];
        char name[128];
        snprintf(name, sizeof name, "%s", f->cls[0] ? f->cls : f->desc[0] ? f->desc : "(none)");
        int j = 0;
        while (j < n && strcmp(all[j].name, name))
            j++;
        if (j == n && n == MAX_DISTINCT) {
            others++;
            continue;
        }
        if (j == n)
            snprintf(all[n++].name, sizeof all[0].name, "%s", name);
        all[j].count++;
    }
    qsort(all, (size_t)n, sizeof all[0], by_count);
    for (int i = TMC_FIT_MAX_CAUSES; i < n; i++)
        others += all[i].count;
    r->n_causes = n < TMC_FIT_MAX_CAUSES ? n : TMC_FIT_MAX_CAUSES;
    memcpy(r->causes, all, sizeof all[0] * (size_t)r->n_causes);
    if (others)
        r->causes[r->n_causes++] = (tmc_fit_cause){"(others)", others};
    free(all);
}

int tmc_fit_compute(const tmc_fault_log *log, const tmc_fit_options *opt, int n_read,
                    const int *excluded, tmc_fit_result *r, tmc_error *err)
{
    memset(r, 0, sizeof *r);
    r->opt = *opt;
    r->n_read = n_read;
    for (int i = 0; i < opt->n_exclude; i++)
        r->excluded[i] = excluded ? excluded[i] : 0, r->n_excluded += r->excluded[i];
    r->n_faults = log->n_faults;
    int *seen = calloc((size_t)log->n_nodes + 1, sizeof *seen);
    if (!seen)
        return tmc_error_set(err, "out of memory");
    for (int i = 0; i < log->n_faults; i++) /* nodes with a fault left after exclusions */
        if (!seen[log->faults[i].node]++)
            r->nodes_seen++;
    free(seen);
    r->unmatched_ends = log->unmatched_ends;
    if (opt->nodes < log->n_nodes)
        return tmc_error_set(err, "--nodes %ld: the log names %d nodes; give at least %d",
                             opt->nodes, log->n_nodes, log->n_nodes);
    if (opt->nodes > 100000000 || opt->cards_per_node < 1 || opt->cards_per_node > 1000000)
        return tmc_error_set(err, "--nodes %ld, --cards-per-node %ld: out of range",
                             opt->nodes, opt->cards_per_node);
    double last_start = 0;
    for (int i = 0; i < log->n_faults; i++)
        if (log->faults[i].start_days > last_start)
            last_start = log->faults[i].start_days;
    r->span_days = opt->span_days > 0 ? opt->span_days : log->last_event_days;
    if (r->span_days < last_start || !(r->span_days > 0))
        return tmc_error_set(err, "--span-days %g: the log has a fault starting at %.6g days; "
                             "the span must be at least that (default: the last event, %.6g "
                             "days)", r->span_days, last_start, log->last_event_days);
    double cl = opt->confidence;
    r->node_days = (double)opt->nodes * r->span_days;
    r->card_days = r->node_days * (double)opt->cards_per_node;
    tmc_error e = {""};
    if (tmc_lifetime_collect_intervals(log, (int)opt->nodes, r->span_days, &r->sample, &e))
        return tmc_error_set(err, "%s", e.msg);
    if (set_rates(log->n_faults, r))
        return tmc_error_set(err, "%s: the %ld nodes are up 0 node-days of the %.6g-day "
                             "span (each down from day 0, never repaired): a failure rate "
                             "needs up time > 0", opt->log_path, opt->nodes, r->span_days);
    r->life_ok = !tmc_lifetime_fit_compare(&r->sample, cl, &r->life, &e);
    if (!r->life_ok)
        snprintf(r->life_note, sizeof r->life_note, "no lifetime fit: %s", e.msg);

    r->repair_ok = !tmc_repair_fit_laws(log, &r->repair, &e);
    if (!r->repair_ok)
        snprintf(r->repair_note, sizeof r->repair_note, "no repair fit: %s", e.msg);
    else { /* the sample mean and its BCa bootstrap interval */
        r->repair_mean_days.value = r->repair.mean_days;
        tmc_repair_fit_mean_interval(log, cl, &r->repair_mean_days.lo,
                                     &r->repair_mean_days.hi);
    }
    cause_mix(log, r);

    r->bursts_ok = !tmc_burst_fit_compute(log, opt->simultaneous_s / 86400, r->up_node_days,
                                          cl, &r->bursts, &e);
    long *counts = malloc(sizeof *counts * (size_t)opt->nodes);
    if (!counts)
        return tmc_error_set(err, "out of memory");
    tmc_dispersion_count_nodes(log, (int)opt->nodes, counts);
    if (opt->bursts && r->bursts_ok) /* a burst's faults are not its nodes' own */
        for (int i = 0; i < log->n_faults; i++)
            counts[log->faults[i].node] -= r->bursts.in_group[i] && log->faults[i].node <
                                                                        (int)opt->nodes;
    if (!tmc_dispersion_compute_index(counts, (int)opt->nodes, &r->per_node, &e))
        r->worst_node = log->nodes[r->per_node.argmax];
    r->bad_nodes_ok = opt->mixture_sets > 0 &&
                      !tmc_node_mixture_fit(counts, (int)opt->nodes, r->up_node_days /
                                            (double)opt->nodes, /* a node's mean up time */
                                            opt->mixture_sets, 1, &r->bad_nodes);
    free(counts);
    long *w = NULL;
    int nw = tmc_dispersion_count_windows(log, r->span_days, opt->window_days, &w, &e);
    if (nw < 0 && opt->window_days <= r->span_days) /* too many windows, or no memory */
        return tmc_error_set(err, "--window-days %g: %s", opt->window_days, e.msg);
    r->windows_ok = nw >= 2 && !tmc_dispersion_compute_index(w, nw, &r->per_window, &e);
    free(w);
    tmc_dispersion_count_simultaneous(log, r->span_days, opt->simultaneous_s / 86400,
                                      &r->simultaneous, &e);
    return 0;
}

void tmc_fit_free(tmc_fit_result *r)
{
    tmc_lifetime_sample_free(&r->sample);
    tmc_burst_fit_free(&r->bursts);
}
