/* sensitivity_api.c - trainmc.h's tmc_experiment_sensitivity: every input
 * moved to the ends of its range under common random numbers, as `trainmc
 * sensitivity` loads, checks, runs (sensitivity.h) and reports it
 * (sensitivity_output.h); for the same file, overrides, inputs, replicas
 * and seed both give the same document. */
#include <stdlib.h>
#include <time.h>

#include "api_internal.h"
#include "sensitivity.h"
#include "sensitivity_html.h"
#include "sensitivity_output.h"

#define F "tmc_experiment_sensitivity"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The base refused as a run is; a default input's end that cannot run left
 * out with why; any other setting refused. TMC_OK, or a code with st. */
static int check_settings(tmc_sensitivity *s, int force, tmc_status *st)
{
    tmc_sensitivity_run *runs[TMC_SENSITIVITY_MAX_RUNS];
    int n = tmc_sensitivity_list_runs(s, runs), rc;
    if ((rc = tmc_api_check_runnable(&runs[0]->setting.x, NULL, force, st)))
        return rc;
    tmc_sensitivity_skip_unrunnable(s, force);
    n = tmc_sensitivity_list_runs(s, runs);
    for (int i = 1; i < n && !rc; i++)
        rc = tmc_api_check_runnable(&runs[i]->setting.x, runs[i]->setting.label, force, st);
    return rc;
}

static void write_text(FILE *f, const void *report)
{
    tmc_sensitivity_output_text(f, report);
}

static tmc_document *sensitivity_in(tmc_sensitivity *s, const tmc_sweep_source *src,
                                    const tmc_api_sets *sets, const tmc_command_options *c,
                                    const tmc_run_options *o, tmc_status *st)
{
    static const volatile sig_atomic_t never = 0;
    tmc_error err = {""};
    if (tmc_sensitivity_load(s, src, sets->sets, sets->n_sets, c ? c->inputs : NULL,
                             c ? c->compound : NULL, &err))
        return tmc_api_fail_load(st, &err), NULL;
    if (check_settings(s, o->force, st))
        return NULL;
    tmc_sensitivity_options so = {.threads = o->threads, .progress = o->progress,
                                  .progress_ctx = o->progress_ctx,
                                  .stop = o->stop ? o->stop : &never};
    double t0 = now_s();
    int rc = tmc_sensitivity_run_all(s, &so, &err);
    if (rc)
        return tmc_api_fail_step(st, rc, -2, &err), NULL;
    tmc_sensitivity_report rep = {.s = s, .threads = o->threads, .elapsed_s = now_s() - t0};
    tmc_document *d = tmc_api_document_new(tmc_sensitivity_output_json(&rep), write_text,
                                           &rep, st);
    tmc_html_meta m = TMC_API_HTML_META("tmc_experiment_sensitivity");
    if (d && tmc_api_document_html(d, tmc_sensitivity_html(&rep, &m), st)) {
        tmc_document_free(d);
        d = NULL;
    }
    return d;
}

static tmc_document *sensitivity(const char *f, int is_text, const char *text,
                                 const char *label, const char *base_dir,
                                 const char *const *overrides, int n_overrides,
                                 const tmc_command_options *c, const tmc_run_options *options,
                                 tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_run_options o;
    tmc_api_sets sets = {0};
    tmc_document *d = NULL;
    tmc_sensitivity *s = NULL;
    tmc_sweep_source src;
    if (!tmc_api_command_source(f, is_text, text, label, base_dir, &src, st) &&
        !tmc_api_check_overrides(f, overrides, n_overrides, st) &&
        !tmc_api_check_command_options(f, c, "inputs,compound", st) &&
        !tmc_api_command_run_options(f, options, &o, st) &&
        !tmc_api_sets_make(&sets, overrides, n_overrides, options, st)) {
        if (!(s = calloc(1, sizeof *s)))
            tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a sensitivity");
        else
            d = sensitivity_in(s, &src, &sets, c, &o, st);
    }
    if (s)
        tmc_sensitivity_free(s);
    free(s);
    tmc_api_sets_free(&sets);
    if (d)
        tmc_api_succeed(st);
    tmc_api_leave(&scope);
    return d;
}

tmc_document *tmc_experiment_sensitivity(const char *path, const char *const *overrides,
                                         int n_overrides, const tmc_command_options *c,
                                         const tmc_run_options *o, tmc_status *st)
{
    return sensitivity(F, 0, path, NULL, NULL, overrides, n_overrides, c, o, st);
}

tmc_document *tmc_experiment_sensitivity_text(const char *json, const char *label,
                                              const char *base_dir,
                                              const char *const *overrides, int n_overrides,
                                              const tmc_command_options *c,
                                              const tmc_run_options *o, tmc_status *st)
{
    return sensitivity(F "_text", 1, json, label, base_dir, overrides, n_overrides, c, o, st);
}
