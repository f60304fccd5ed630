/* sweep_api.c - trainmc.h: sweeps, the settings of one experiment run under
 * common random numbers. The command line's `trainmc sweep --vary` is the
 * same grid, loaded and run by the same two calls (sweep_grid.h), plus
 * printing; for the same file, overrides, values, replicas and seed both
 * give the same document. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "importance.h"
#include "sweep_grid.h"
#include "sweep_output.h"

struct tmc_sweep {
    tmc_api_document document; /* as `trainmc sweep --json` writes it */
};

/* What a sweep holds while it runs (large: on the heap). */
typedef struct {
    tmc_api_sets sets; /* the caller's overrides, then replicas and seed */
    tmc_sweep_base base;
    tmc_sweep_grid grid;
} sweep_work;

/* The arguments that are not options. TMC_OK, or TMC_ERR_INPUT with st. */
static int check_arguments(const tmc_sweep_grid_request *rq, const char *const *overrides,
                           int n_overrides, tmc_status *st)
{
    const char *f = "tmc_experiment_sweep";
    if (!rq->path)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: path = NULL: must name an experiment "
                                                "file", f);
    if (tmc_api_check_overrides(f, overrides, n_overrides, st))
        return TMC_ERR_INPUT;
    if (rq->n_vary < 1 || rq->n_vary > TMC_SWEEP_MAX_KEYS || !rq->vary)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: n_vary = %d: must be 1 or 2, with a vary "
                                                "array", f, rq->n_vary);
    for (int i = 0; i < rq->n_vary; i++)
        if (!rq->vary[i])
            return tmc_api_failf(st, TMC_ERR_INPUT, "%s: vary[%d] = NULL: must be "
                                 "\"KEY=V1,V2,...\" or \"KEY=START:STOP:STEP\"", f, i);
    return TMC_OK;
}

/* The options a sweep cannot take, beyond tmc_api_resolve_options' ranges.
 * TMC_OK, or TMC_ERR_INPUT with st. */
static int check_sweep_options(const tmc_run_options *o, tmc_status *st)
{
    if (o->precision)
        return tmc_api_failf(st, TMC_ERR_INPUT, "tmc_run_options.precision = \"%.100s\": applies to "
                                       "tmc_experiment_run only, not to a sweep (give NULL)",
                    o->precision);
    if (o->importance && strcmp(o->importance, "auto") != 0 &&
        tmc_importance_parse_tilt(o->importance, NULL))
        return tmc_api_failf(st, TMC_ERR_INPUT, "tmc_run_options.importance = \"%.100s\": must be auto "
                                       "or three or five positive multipliers F,O,S[,R,D]",
                    o->importance);
    return TMC_OK;
}

/* The grid of rq (its sets: w's), every setting loaded (sweep_grid.h).
 * TMC_OK, or a code with st. */
static int load(sweep_work *w, tmc_sweep_grid_request rq, tmc_status *st)
{
    tmc_error err = {""};
    rq.sets = w->sets.sets;
    rq.n_sets = w->sets.n_sets;
    int rc = tmc_sweep_grid_load(&w->grid, &w->base, &rq, &err);
    if (rc)
        return tmc_api_fail(st, rc == -1 ? TMC_ERR_MEMORY : TMC_ERR_INPUT, err.msg);
    return TMC_OK;
}

/* Refuse what `trainmc sweep` refuses (tmc_api_check_runnable) at any
 * setting. TMC_OK, or a code with st. */
static int check_settings(const tmc_sweep_grid *g, int force, tmc_status *st)
{
    int rc = TMC_OK;
    for (int i = 0; i < g->n && !rc; i++)
        rc = tmc_api_check_runnable(&g->settings[i].x, g->settings[i].label, force, st);
    return rc;
}

/* Run the grid and keep its document in *out. TMC_OK, or a code with st. */
static int run(sweep_work *w, const tmc_run_options *o, tmc_sweep *out, tmc_status *st)
{
    static const volatile sig_atomic_t never = 0; /* o->stop NULL: never stop */
    tmc_sweep_grid_options go = {.threads = o->threads, .progress = o->progress,
                                 .progress_ctx = o->progress_ctx,
                                 .stop = o->stop ? o->stop : &never,
                                 .importance = o->importance, .pilot = o->pilot_replicas,
                                 .plain_max = o->importance_plain_max};
    tmc_error err = {""};
    int rc = tmc_sweep_grid_run(&w->grid, &go, &err);
    if (rc)
        return tmc_api_fail_step(st, rc, TMC_SWEEP_GRID_INPUT, &err);
    if (tmc_api_document_keep(&out->document, tmc_sweep_output_json(&w->grid.report)))
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for the sweep document");
    return TMC_OK;
}

/* Both public entries: rq's text checked by the caller. */
static tmc_sweep *sweep_in(const tmc_sweep_grid_request *rq, const char *const *overrides,
                           int n_overrides, const tmc_run_options *options, tmc_status *st)
{
    tmc_run_options o;
    /* replicas and seed come from the experiment unless given: they become
     * overrides (tmc_api_sets_make), so no defaults are needed here */
    if (check_arguments(rq, overrides, n_overrides, st) ||
        tmc_api_resolve_options(options, 0, 0, &o, st) || check_sweep_options(&o, st))
        return NULL;
    sweep_work *w = calloc(1, sizeof *w);
    tmc_sweep *s = calloc(1, sizeof *s);
    int rc = w && s ? TMC_OK : tmc_api_failf(st, TMC_ERR_MEMORY, "out of memory for a sweep");
    if (!rc)
        rc = tmc_api_sets_make(&w->sets, overrides, n_overrides, options, st);
    if (!rc)
        rc = load(w, *rq, st);
    if (!rc)
        rc = check_settings(&w->grid, o.force, st);
    if (!rc)
        rc = run(w, &o, s, st);
    if (w) {
        tmc_sweep_grid_free(&w->grid);
        tmc_experiment_release(&w->base.x);
        tmc_api_sets_free(&w->sets);
        free(w);
    }
    if (rc) {
        tmc_sweep_free(s);
        return NULL;
    }
    tmc_api_succeed(st);
    return s;
}

static tmc_sweep *sweep(const tmc_sweep_grid_request *rq, const char *const *overrides,
                        int n_overrides, const tmc_run_options *options, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_sweep *s = sweep_in(rq, overrides, n_overrides, options, st);
    tmc_api_leave(&scope);
    return s;
}

tmc_sweep *tmc_experiment_sweep(const char *path, const char *const *overrides,
                                int n_overrides, const char *const *vary, int n_vary,
                                const tmc_run_options *options, tmc_status *st)
{
    tmc_sweep_grid_request rq = {.path = path, .vary = vary, .n_vary = n_vary};
    return sweep(&rq, overrides, n_overrides, options, st);
}

tmc_sweep *tmc_experiment_sweep_text(const char *json, const char *label,
                                     const char *base_dir, const char *const *overrides,
                                     int n_overrides, const char *const *vary, int n_vary,
                                     const tmc_run_options *options, tmc_status *st)
{
    if (!json)
        return tmc_api_failf(st, TMC_ERR_INPUT, "tmc_experiment_sweep_text: json = NULL: "
                                                "must be an experiment's JSON text"), NULL;
    tmc_sweep_grid_request rq = {.path = label ? label : "<string>", .text = json,
                                 .base_dir = base_dir ? base_dir : ".", .vary = vary,
                                 .n_vary = n_vary};
    return sweep(&rq, overrides, n_overrides, options, st);
}

void tmc_sweep_free(tmc_sweep *s)
{
    if (!s)
        return;
    tmc_api_document_free(&s->document);
    free(s);
}

const char *tmc_sweep_json(const tmc_sweep *s)
{
    return s ? tmc_api_document_json(&s->document) : NULL;
}

double tmc_sweep_number(const tmc_sweep *s, const char *path)
{
    return s ? tmc_api_document_number(&s->document, path) : NAN;
}
