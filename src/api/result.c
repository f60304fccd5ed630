#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* result.c - trainmc.h: running an experiment's replicas, and reading what
 * they gave. The command line's `trainmc run` is this, plus printing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_internal.h"
#include "engine.h"
#include "forecast.h"
#include "ranks.h"
#include "result.h"
#include "runner.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Room for n replicas in the per-replica arrays, contents kept (a precision
 * target grows them batch by batch: its budget may be far beyond what it
 * uses). 0, or -1 with err. */
static int reserve(tmc_result *r, long n, int keep_samples, tmc_error *err)
{
    size_t m = (size_t)n;
    double *days = realloc(r->completion_days, m * sizeof *days);
    if (days)
        r->completion_days = days;
    double *restarts = realloc(r->restarts, m * sizeof *restarts);
    if (restarts)
        r->restarts = restarts;
    tmc_sample *samples = keep_samples ? realloc(r->samples, m * sizeof *samples) : NULL;
    if (samples)
        r->samples = samples;
    if (days && restarts && (!keep_samples || samples))
        return 0;
    return tmc_error_set(err, "out of memory for %ld replicas", n);
}

/* Batches of TMC_PRECISION_BATCH until the target is met or the budget is
 * spent (precision.h). */
static int run_precise(tmc_result *r, const tmc_engine *e, const tmc_run_options *o,
                       tmc_error *err)
{
    long budget = r->x.monte_carlo.replicas;
    uint64_t seed = r->x.monte_carlo.seed;
    tmc_precision_outcome *po = &r->precision_outcome;
    long done = 0;
    while (done < budget && !po->reached) {
        long n = budget - done < TMC_PRECISION_BATCH ? budget - done : TMC_PRECISION_BATCH;
        int rc = tmc_ranks_agree(reserve(r, done + n, !o->summary_only, err), err);
        if (rc)
            return rc;
        tmc_replica batch;
        tmc_runner_out out = {r->completion_days + done, r->restarts + done,
                              r->samples ? r->samples + done : NULL, NULL, NULL};
        rc = tmc_runner_run_samples(e, done, n, seed, o->threads, NULL, NULL, &out, &batch,
                                    err);
        if (rc == TMC_RUNNER_STOPPED) /* the runner counts this batch only */
            tmc_error_set(err, "interrupted after %ld of at most %ld replicas (precision "
                               "target %s)", done, budget, r->precision.text);
        if (rc)
            return rc;
        tmc_accounting_accumulate(&r->totals, &batch);
        done += n;
        po->reached = tmc_precision_met(&r->precision, r->completion_days, r->restarts, done,
                                        &r->x.deadline, &po->half_width, &po->value);
        if (o->progress)
            o->progress(done, budget, o->progress_ctx);
    }
    if (o->progress && done < budget)
        o->progress(budget, budget, o->progress_ctx); /* the end */
    r->replicas = done;
    return 0;
}

/* All replicas at once, or batches for a precision target. Fills
 * r->completion_days with wall seconds and r->replicas with the count run. */
static int run_batches(tmc_result *r, const tmc_engine *e, const tmc_run_options *o,
                       tmc_error *err)
{
    if (o->precision)
        return run_precise(r, e, o, err);
    long n = r->x.monte_carlo.replicas;
    int rc = tmc_ranks_agree(reserve(r, n, !o->summary_only, err), err);
    if (!rc && tmc_window_on(&r->x)) {
        r->window_steps = malloc((size_t)n * sizeof *r->window_steps);
        rc = tmc_ranks_agree(r->window_steps ? 0 : tmc_error_set(err, "out of memory for "
                                                                     "%ld replicas", n),
                             err);
    }
    if (rc)
        return rc;
    r->replicas = n;
    tmc_runner_out out = {r->completion_days, r->restarts, r->samples, r->window_steps, NULL};
    return tmc_runner_run_samples(e, 0, n, r->x.monte_carlo.seed, o->threads, o->progress,
                                  o->progress_ctx, &out, &r->totals, err);
}

/* Completion days (days[n], replica order) from wall seconds, in place;
 * their summary *d, and the restarts' (which take runs over the budget out
 * of P(deadline)). 0, or -1 with err. */
static int summarize_days(const tmc_experiment *x, const tmc_closed_form *cf, double *days,
                          const double *restarts, long n, tmc_summary *d, tmc_restarts *rs,
                          tmc_error *err)
{
    for (long k = 0; k < n; k++)
        days[k] = x->deadline.reserve_days + days[k] / TMC_DAY_S;
    if (tmc_stats_summarize(days, n, x->deadline.days, d))
        return tmc_error_set(err, "out of memory for %ld replicas", n);
    return tmc_restarts_summarize(restarts, days, n, x, cf, d, rs, err);
}

/* The run's summary (summarize_days). 0, or -1 with err. */
static int summarize(tmc_result *r, tmc_error *err)
{
    if (summarize_days(&r->x, &r->cf, r->completion_days, r->restarts, r->replicas, &r->days,
                       &r->restart_summary, err))
        return -1;
    tmc_cost_summarize(&r->x, &r->cf, &r->days, &r->cost);
    return 0;
}

/* 1 when a rate or a mean is drawn per replica (docs/model.md 3.11). */
static int draws_rates(const tmc_experiment *x)
{
    const tmc_failures *f = &x->failures;
    return (f->enabled && (f->mtbf_events > 0 || f->repair_events > 0)) ||
           (x->outages.enabled && x->outages.mtbf_events > 0);
}

/* Replicas 0 .. n - 1 of x (a copy of the run's, rates as given) into
 * *sum and *restarts; days[2 n]: wall or completion days, then restarts. */
static int run_plug_in_replicas(tmc_result *r, const tmc_experiment *x, double *days,
                                const tmc_run_options *o, const volatile sig_atomic_t *stop,
                                tmc_summary *sum, tmc_restarts *restarts, tmc_error *err)
{
    long n = r->replicas;
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    tmc_engine e;
    if (tmc_engine_init_threads(&e, x, &cf, o->threads))
        return tmc_error_set(err, "out of memory building the engine");
    tmc_engine_watch_stop(&e, stop);
    tmc_runner_out out = {days, days + n, NULL, NULL, NULL};
    tmc_replica totals;
    int rc = tmc_runner_run_samples(&e, 0, n, x->monte_carlo.seed, o->threads, NULL, NULL,
                                    &out, &totals, err);
    tmc_engine_free(&e);
    if (rc)
        return rc;
    return summarize_days(x, &cf, days, days + n, n, sum, restarts, err);
}

/* A forecast's point estimates (docs/model.md 3.15): the failure and
 * outage rates at their posterior means, every rate then taken as exact. */
static void take_rates_as_given(tmc_experiment *x)
{
    tmc_forecast_rate post, post_o;
    tmc_forecast_failure_rate(x, &post);
    tmc_forecast_outage_rate(x, &post_o);
    if (x->observed.enabled) {
        tmc_forecast_scale_failure_rates(&x->failures, post.mean);
        x->outages.mean_interval_days /= post_o.mean;
    }
    x->failures.mtbf_events = x->failures.repair_events = x->outages.mtbf_events = 0;
}

/* A forecast whose failures or outages update a rate known from few
 * events: the same replicas with the prior (nothing observed), so that the
 * report shows how far the run's own events moved the forecast. */
static int moved(const tmc_forecast_rate *r)
{
    return !r->exact && (r->shape != r->prior_shape || r->rate != r->prior_rate);
}

static int learns(const tmc_experiment *x)
{
    tmc_forecast_rate post, post_o;
    tmc_forecast_failure_rate(x, &post);
    tmc_forecast_outage_rate(x, &post_o);
    return x->observed.enabled && (moved(&post) || moved(&post_o));
}

/* The plug-in figures beside the predictive ones (issue 15): when rates are
 * drawn per replica, the same replicas again (same seed and replica
 * numbers) with failures.mtbf_events, outages.mtbf_events and
 * failures.repair_events at 0, i.e. every rate and mean taken as exact.
 * Each drawn scale has a stream of its own, so every other draw of a
 * replica is the same in both runs (common random numbers): the difference
 * is the parameter uncertainty alone. With a precision target, the
 * replicas the predictive run took. 0, or a runner code with err. */
static int run_plug_in(tmc_result *r, const tmc_run_options *o,
                       const volatile sig_atomic_t *stop, tmc_error *err)
{
    if (!draws_rates(&r->x))
        return 0;
    long n = r->replicas;
    tmc_experiment x; /* views of r->x with other rates, never released */
    double *days = malloc(2 * (size_t)n * sizeof *days);
    int rc = tmc_ranks_agree(days ? 0 : tmc_error_set(err, "out of memory for the plug-in "
                                                           "run"), err);
    if (!rc) {
        x = r->x;
        take_rates_as_given(&x);
        x.monte_carlo.replicas = n;
        rc = run_plug_in_replicas(r, &x, days, o, stop, &r->plug_in_days,
                                  &r->plug_in_restarts, err);
    }
    r->has_plug_in = rc == 0;
    if (!rc && learns(&r->x)) {
        x = r->x;
        x.observed.failures = x.observed.outages = 0;
        x.observed.exposure_days = 0;
        x.monte_carlo.replicas = n;
        rc = run_plug_in_replicas(r, &x, days, o, stop, &r->prior_days, &r->prior_restarts,
                                  err);
        r->has_prior = rc == 0;
    }
    free(days);
    return rc;
}

/* Importance sampling's tilt first (a bad one costs no finished work), the
 * plain replicas, then the importance estimate. 0, or a runner code. */
static int simulate(tmc_result *r, tmc_engine *e, const tmc_run_options *o, tmc_error *err)
{
    uint64_t seed = r->x.monte_carlo.seed;
    int rc = o->importance ? tmc_importance_prepare(e, o->importance, o->pilot_replicas, seed,
                                                    o->threads, &r->importance, err) : 0;
    if (!rc) /* memory: all ranks fail together, or all run (ranks.h) */
        rc = run_batches(r, e, o, err);
    if (rc || (rc = summarize(r, err)))
        return rc;
    if (r->window_steps && tmc_window_summarize(&r->x, &r->cf, r->window_steps, r->replicas,
                                                &r->totals, &r->window))
        return tmc_error_set(err, "out of memory for the window's goodput");
    if (!o->importance || (rc = tmc_importance_estimate(e, r->x.monte_carlo.replicas, seed,
                                                        o->threads, &r->importance, err)))
        return rc;
    return tmc_importance_check_plain(e, o->importance_plain_max, seed, o->threads,
                                      o->progress, o->progress_ctx, &r->importance, err);
}

/* The overrides the document lists: the experiment's, then replicas and
 * seed if the caller's options gave them. Returns their count. */
static int list_overrides(tmc_result *r, const tmc_run_options *given)
{
    int n = tmc_config_list_overrides(&r->x, r->overrides, TMC_OVERRIDES_BYTES / 2);
    if (given && given->replicas) {
        snprintf(r->option_overrides[0], sizeof r->option_overrides[0],
                 "monte_carlo.replicas=%ld", r->x.monte_carlo.replicas);
        r->overrides[n++] = r->option_overrides[0];
    }
    if (given && given->has_seed) {
        snprintf(r->option_overrides[1], sizeof r->option_overrides[1],
                 "monte_carlo.seed=%llu", (unsigned long long)r->x.monte_carlo.seed);
        r->overrides[n++] = r->option_overrides[1];
    }
    return n;
}

/* The report and the document, once the replicas ran. 0, or -1 (memory). */
static int build_report(tmc_result *r, const tmc_engine *e, const tmc_run_options *o,
                        const tmc_run_options *given, double elapsed_s)
{
    r->report = (tmc_report){
        .x = &r->x, .cf = &r->cf, .days = &r->days, .totals = &r->totals,
        .replicas = r->replicas, .seed = r->x.monte_carlo.seed, .threads = o->threads,
        .elapsed_s = elapsed_s, .mode = tmc_engine_mode(&r->x),
        .table_error = e->stragglers.max.max_error, .horizon_s = e->horizon_s,
        .segment_error = e->stragglers.law_error, .segment_bytes = e->stragglers.law_bytes,
        .overrides = r->overrides, .n_overrides = list_overrides(r, given),
        .restarts = &r->restart_summary, .cost = &r->cost,
        .importance = o->importance ? &r->importance : NULL,
        .precision = o->precision ? &r->precision_outcome : NULL,
        .plug_in = r->has_plug_in ? &r->plug_in_days : NULL,
        .prior = r->has_prior ? &r->prior_days : NULL,
        .window = r->window_steps ? &r->window : NULL,
        .interval_search = r->interval_search.searched ? &r->interval_search : NULL};
    return tmc_api_document_keep(&r->document, tmc_output_json(&r->report));
}

/* The options a run cannot take. TMC_OK, or TMC_ERR_INPUT with st. */
static int check_run_options(tmc_result *r, const tmc_run_options *o, tmc_status *st)
{
    if (o->precision && tmc_precision_parse(o->precision, &r->precision)) {
        return tmc_api_failf(st, TMC_ERR_INPUT, "tmc_run_options.precision = \"%.100s\": "
                             "must be deadline.probability:abs=X, deadline.probability:rel=X, "
                             "completion_days.mean:abs=X or completion_days.mean:rel=X "
                             "(X > 0)", o->precision);
    }
    r->precision_outcome.target = o->precision ? &r->precision : NULL;
    if (o->importance && r->x.failures.enabled && r->x.failures.mtbf_events > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling tilts a known failure "
                             "rate; failures.mtbf_events (%.10g) draws it per replica: give "
                             "one or the other", r->x.path, r->x.failures.mtbf_events);
    /* the likelihood ratio is that of tilting a known rate or mean: a replica
     * that also draws its own is weighted against the wrong law */
    if (o->importance && r->x.outages.enabled && r->x.outages.mtbf_events > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling tilts a known outage "
                             "rate; outages.mtbf_events (%.10g) draws it per replica: give "
                             "one or the other", r->x.path, r->x.outages.mtbf_events);
    if (o->importance && r->x.failures.enabled && r->x.failures.repair_events > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling tilts a known repair "
                             "mean; failures.repair_events (%.10g) draws it per replica: give "
                             "one or the other", r->x.path, r->x.failures.repair_events);
    if (o->importance && r->x.failures.enabled && r->x.failures.bad_node_share > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling tilts a known failure "
                             "rate; failures.bad_node_share (%.10g) draws the bad nodes per "
                             "replica and their retirements change the rate: give one or the "
                             "other (for one rate, bad_node_share 0 and per_node_mtbf_days "
                             "the node MTBF of all nodes, as a `trainmc fit --write` file's "
                             "description gives it)", r->x.path,
                             r->x.failures.bad_node_share);
    /* a fleet whose rate moves without bad nodes at the start (the engine's
     * own check, importance.c, comes only after the run began: exit 1) */
    const tmc_failures *f = &r->x.failures;
    int fleet = o->importance && f->enabled && f->bad_node_placement == TMC_BAD_IN_FLEET;
    if (fleet && f->node_aging_days > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling tilts a known failure "
                             "rate; failures.node_aging_days (%.10g) turns nodes bad as the "
                             "run goes, which changes the rate: give one or the other",
                             r->x.path, f->node_aging_days);
    if (fleet && f->retire_after_failures > 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling is not modelled with "
                             "a fleet's retirement; failures.retire_after_failures (%ld) "
                             "follows each node's failures and can leave the job short of "
                             "nodes: give one or the other", r->x.path,
                             f->retire_after_failures);
    if (o->importance && r->x.deadline.max_restarts >= 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: importance sampling estimates "
                             "P(T > deadline) alone; it cannot count deadline.max_restarts "
                             "(%ld): give one or the other", r->x.path,
                             r->x.deadline.max_restarts);
    if (o->importance && r->x.elastic.enabled) /* no likelihood ratio for the thinning */
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: elastic.groups: elastic replica groups "
                             "are not modelled with importance sampling; run without "
                             "--importance", r->x.path);
    if (tmc_window_on(&r->x) && (o->importance || o->precision))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: window: a calendar window's goodput is "
                             "not modelled with %s; run without it", r->x.path,
                             o->importance ? "importance sampling (--importance)"
                                           : "a precision target (--precision)");
    if (o->importance && r->x.observed.enabled) /* the tilt's exposure counts from 0 */
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: progress: a forecast is not modelled "
                             "with importance sampling; run without --importance",
                             r->x.path);
    return TMC_OK;
}

static tmc_result *run_in(const tmc_experiment *x, const tmc_run_options *options,
                          tmc_status *st)
{
    tmc_run_options o;
    if (!x)
        return tmc_api_fail(st, TMC_ERR_INPUT, "tmc_experiment_run: no experiment"), NULL;
    if (tmc_api_resolve_options(options, x->monte_carlo.replicas, x->monte_carlo.seed, &o, st))
        return NULL;
    tmc_result *r = calloc(1, sizeof *r);
    tmc_error copy_err = {""};
    if (!r || tmc_experiment_copy(&r->x, x, &copy_err)) { /* the result outlives x */
        free(r);
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a result"), NULL;
    }
    r->x.monte_carlo.replicas = o.replicas;
    r->x.monte_carlo.seed = o.seed;
    if (check_run_options(r, &o, st) || tmc_api_check_runnable(&r->x, NULL, o.force, st))
        return tmc_result_free(r), NULL;
    tmc_engine e;
    tmc_error err = {""};
    double t0 = now_s();
    /* "optimal": the interval searched first, on replicas of its own */
    int rc = tmc_interval_search_resolve(&r->x, o.threads, options ? options->stop : NULL,
                                         &r->interval_search, &err);
    tmc_closed_form_compute(&r->x, &r->cf);
    if (!rc && tmc_engine_init_threads(&e, &r->x, &r->cf, o.threads))
        rc = tmc_error_set(&err, "out of memory building the engine");
    if (!rc) {
        tmc_engine_watch_stop(&e, options ? options->stop : NULL);
        rc = simulate(r, &e, &o, &err);
        if (!rc)
            rc = run_plug_in(r, &o, options ? options->stop : NULL, &err);
        if (!rc && build_report(r, &e, &o, options, now_s() - t0))
            rc = tmc_error_set(&err, "out of memory for the run document");
        tmc_engine_free(&e);
    }
    if (rc) {
        tmc_api_fail_step(st, rc, TMC_IMPORTANCE_INVALID, &err);
        tmc_result_free(r);
        return NULL;
    }
    tmc_api_succeed(st);
    return r;
}

tmc_result *tmc_experiment_run(const tmc_experiment *x, const tmc_run_options *options,
                               tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_result *r = run_in(x, options, st);
    tmc_api_leave(&scope);
    return r;
}

void tmc_result_free(tmc_result *r)
{
    if (!r)
        return;
    free(r->completion_days);
    free(r->restarts);
    free(r->samples);
    free(r->window_steps);
    tmc_api_document_free(&r->document);
    tmc_experiment_release(&r->x);
    free(r);
}

const char *tmc_result_json(const tmc_result *r)
{
    return r ? tmc_api_document_json(&r->document) : NULL;
}

char *tmc_result_text(const tmc_result *r, int detail)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = r ? open_memstream(&text, &size) : NULL;
    if (!f)
        return NULL;
    tmc_report report = r->report;
    report.detail = detail != 0;
    tmc_output_text(f, &report);
    if (fclose(f) != 0) { /* memory ran out while writing */
        free(text);
        return NULL;
    }
    return text;
}

double tmc_result_number(const tmc_result *r, const char *path)
{
    return r ? tmc_api_document_number(&r->document, path) : NAN;
}

long tmc_result_replicas(const tmc_result *r)
{
    return r ? r->replicas : 0;
}

const double *tmc_result_completion_days(const tmc_result *r)
{
    return r ? r->completion_days : NULL;
}

/* ---------- per-replica figures ---------- */

static const char *const state_names[] = {"censored", "weight"};

int tmc_figure_count(int family)
{
    return family == TMC_FIGURE_COUNT ? tmc_accounting_count_rows
         : family == TMC_FIGURE_SPLIT ? tmc_accounting_split_rows
         : family == TMC_FIGURE_STATE ? 2 : -1;
}

const char *tmc_figure_name(int family, int i)
{
    if (i < 0 || i >= tmc_figure_count(family))
        return NULL;
    return family == TMC_FIGURE_COUNT ? tmc_accounting_counts[i].key
         : family == TMC_FIGURE_SPLIT ? tmc_accounting_split[i].key : state_names[i];
}

static double figure(const tmc_sample *s, int family, int i)
{
    if (family == TMC_FIGURE_COUNT)
        return s->count[i];
    if (family == TMC_FIGURE_SPLIT)
        return s->split[i] / TMC_DAY_S;
    return i == 0 ? s->censored : s->w;
}

int tmc_result_copy_figure(const tmc_result *r, int family, int i, double *out)
{
    if (!r || !r->samples || !out || i < 0 || i >= tmc_figure_count(family))
        return TMC_ERR_INPUT;
    for (long k = 0; k < r->replicas; k++)
        out[k] = figure(&r->samples[k], family, i);
    return TMC_OK;
}
