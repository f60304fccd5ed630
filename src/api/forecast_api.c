/* forecast_api.c - trainmc.h's tmc_experiment_forecast: P(deadline) at every
 * snapshot of a job's history, as `trainmc forecast --history` reads, runs
 * (forecast_history.h) and reports it (forecast_history_output.h); for the
 * same file, overrides, history, replicas and seed both give the same
 * document. With a training log instead (`forecast --log`):
 * forecast_log_api.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_internal.h"
#include "config.h"
#include "forecast_history.h"
#include "forecast_history_output.h"
#include "forecast_html.h"
#include "forecast_log.h"
#include "observed_input.h"

#define F "tmc_experiment_forecast"

typedef struct {
    tmc_api_sets sets;
    tmc_experiment x;
    int loaded;
    tmc_forecast_history h;
} forecast_work;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The experiment and its history read, every snapshot judged runnable as
 * the command line judges it. TMC_OK, or a code with st. */
static int load(forecast_work *w, const tmc_sweep_source *src, const tmc_command_options *c,
                int force, tmc_status *st)
{
    tmc_error err = {""};
    if (src->text ? tmc_config_parse(src->text, src->path, src->base_dir, w->sets.sets,
                                     w->sets.n_sets, &w->x, &err)
                  : tmc_config_load(src->path, w->sets.sets, w->sets.n_sets, &w->x, &err))
        return tmc_api_fail_load(st, &err);
    w->loaded = 1;
    tmc_observed_snapshot *snaps = NULL;
    int n = 0, rc = TMC_OK;
    if (tmc_observed_input_read_history(&w->x, c->history, &snaps, &n, &err))
        rc = tmc_api_fail(st, TMC_ERR_INPUT, err.msg);
    else if (tmc_forecast_history_init(&w->h, &w->x, c->history, snaps, n, &err))
        rc = tmc_api_fail(st, TMC_ERR_MEMORY, err.msg);
    free(snaps);
    for (int i = 0; i < w->h.n && !rc; i++) {
        char label[TMC_PATH_MAX + 24];
        snprintf(label, sizeof label, "%s:%ld", c->history, w->h.points[i].snap.line);
        tmc_experiment at = w->x; /* a view with the snapshot's progress, never released */
        at.observed = w->h.points[i].snap.observed;
        /* the memory line once, as the command line prints it once */
        rc = tmc_api_check_runnable(&at, label, i ? 1 : force, st);
    }
    return rc;
}

static void write_text(FILE *f, const void *report)
{
    tmc_forecast_history_output_text(f, report);
}

static tmc_document *forecast_in(const char *f, const tmc_sweep_source *src,
                                 const char *const *overrides, int n_overrides,
                                 const tmc_command_options *c, const tmc_run_options *options,
                                 tmc_status *st)
{
    static const volatile sig_atomic_t never = 0;
    tmc_run_options o;
    if (!c || (!c->history && !c->log))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.history and .log "
                             "NULL: one must name a JSON-lines file of progress snapshots, "
                             "or a training log", f), NULL;
    if (c->history && c->log)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.history and .log "
                             "are both given: give one (snapshots, or a training log)", f),
               NULL;
    const char *takes = c->log ? "log,step_regex,elapsed_days,committed_step" : "history";
    if (tmc_api_check_overrides(f, overrides, n_overrides, st) ||
        tmc_api_check_command_options(f, c, takes, st) ||
        tmc_api_command_run_options(f, options, &o, st))
        return NULL;
    forecast_work *w = calloc(1, sizeof *w);
    if (!w)
        return tmc_api_failf(st, TMC_ERR_MEMORY, "out of memory for a forecast"), NULL;
    tmc_document *d = NULL;
    int rc = tmc_api_sets_make(&w->sets, overrides, n_overrides, options, st);
    if (!rc && c->log) {
        d = tmc_forecast_log_document(f, src, &w->sets, c, &o, st);
        rc = d ? TMC_OK : TMC_ERR_INPUT; /* st says which */
    } else if (!rc)
        rc = load(w, src, c, o.force, st);
    if (!rc && !c->log) {
        tmc_error err = {""};
        double t0 = now_s();
        int run = tmc_forecast_history_run(&w->h, o.threads, o.progress, o.progress_ctx,
                                           o.stop ? o.stop : &never, &err);
        if (run)
            rc = tmc_api_fail_step(st, run, -2, &err);
        tmc_forecast_history_report rep = {.h = &w->h, .threads = o.threads,
                                           .elapsed_s = now_s() - t0};
        tmc_html_meta m = TMC_API_HTML_META("tmc_experiment_forecast");
        if (!rc)
            d = tmc_api_document_new(tmc_forecast_history_output_json(&rep), write_text, &rep,
                                     st);
        if (d && tmc_api_document_html(d, tmc_forecast_html(&rep, &m), st)) {
            tmc_document_free(d);
            d = NULL;
        }
    }
    tmc_forecast_history_free(&w->h);
    if (w->loaded)
        tmc_experiment_release(&w->x);
    tmc_api_sets_free(&w->sets);
    free(w);
    if (d)
        tmc_api_succeed(st);
    return d;
}

/* Both entries: the source checked, then the forecast. */
static tmc_document *forecast(const char *f, int is_text, const char *text, const char *label,
                              const char *base_dir, const char *const *overrides,
                              int n_overrides, const tmc_command_options *c,
                              const tmc_run_options *o, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_sweep_source src;
    tmc_document *d = NULL;
    if (!tmc_api_command_source(f, is_text, text, label, base_dir, &src, st))
        d = forecast_in(f, &src, overrides, n_overrides, c, o, st);
    tmc_api_leave(&scope);
    return d;
}

tmc_document *tmc_experiment_forecast(const char *path, const char *const *overrides,
                                      int n_overrides, const tmc_command_options *c,
                                      const tmc_run_options *o, tmc_status *st)
{
    return forecast(F, 0, path, NULL, NULL, overrides, n_overrides, c, o, st);
}

tmc_document *tmc_experiment_forecast_text(const char *json, const char *label,
                                           const char *base_dir, const char *const *overrides,
                                           int n_overrides, const tmc_command_options *c,
                                           const tmc_run_options *o, tmc_status *st)
{
    return forecast(F "_text", 1, json, label, base_dir, overrides, n_overrides, c, o, st);
}
