/* search_api.c - trainmc.h's tmc_experiment_rescue and
 * tmc_experiment_cheapest: the searches of `trainmc rescue` (rescue.h) and
 * `trainmc cheapest` (cheapest.h), run and reported (rescue_output.h,
 * cheapest_output.h) as the command line does; for the same file,
 * overrides, options, replicas and seed both give the same document. A
 * setting the search cannot run is refused with why in the document, where
 * the command line prints why on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_internal.h"
#include "cheapest.h"
#include "cheapest_output.h"
#include "rescue.h"
#include "rescue_output.h"

static const volatile sig_atomic_t never = 0; /* o->stop NULL: never stop */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What both searches check first (the source already). TMC_OK, or
 * TMC_ERR_INPUT with st. */
static int check_common(const char *f, const char *const *overrides, int n_overrides,
                        const tmc_command_options *c, const char *takes,
                        const tmc_run_options *options, tmc_run_options *o, tmc_status *st)
{
    if (tmc_api_check_overrides(f, overrides, n_overrides, st) ||
        tmc_api_check_command_options(f, c, takes, st) ||
        tmc_api_command_run_options(f, options, o, st))
        return TMC_ERR_INPUT;
    return TMC_OK;
}

/* ---------- rescue ---------- */

/* levers[n] joined by commas into *out (malloc'd; NULL for none), as
 * --levers takes them. TMC_OK, or TMC_ERR_MEMORY. */
static int join_levers(const tmc_command_options *c, char **out, tmc_status *st)
{
    *out = NULL;
    if (!c || c->n_levers == 0)
        return TMC_OK;
    size_t len = 1;
    for (int i = 0; i < c->n_levers; i++)
        len += strlen(c->levers[i]) + 1;
    if (!(*out = malloc(len)))
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for the levers");
    (*out)[0] = '\0';
    for (int i = 0; i < c->n_levers; i++)
        strcat(strcat(*out, i ? "," : ""), c->levers[i]);
    return TMC_OK;
}

/* The plan, then every lever that applies unless the plan meets. */
static int rescue_run(tmc_rescue *r, const tmc_run_options *o, tmc_status *st)
{
    tmc_rescue_options ro = {.threads = o->threads, .progress = o->progress,
                             .progress_ctx = o->progress_ctx,
                             .stop = o->stop ? o->stop : &never,
                             .check = tmc_api_refuse_setting, .check_ctx = (void *)&o->force};
    tmc_error err = {""};
    int rc = tmc_rescue_run_plan(r, &ro, &err);
    for (int i = 0; !rc && !tmc_rescue_plan_meets(r) && i < r->n_levers; i++)
        if (r->levers[i].outcome == TMC_RESCUE_PENDING)
            rc = tmc_rescue_run_lever(r, i, &ro, &err);
    return rc ? tmc_api_fail_step(st, rc, -2, &err) : TMC_OK;
}

static void rescue_text(FILE *f, const void *report)
{
    tmc_rescue_output_text(f, report);
}

static tmc_document *rescue_in(tmc_rescue *r, const tmc_sweep_source *src,
                               const tmc_api_sets *sets,
                               const tmc_command_options *c, const tmc_run_options *o,
                               tmc_status *st)
{
    tmc_sweep_target target;
    tmc_error err = {""};
    char *levers = NULL;
    const char *text = c && c->target ? c->target : TMC_RESCUE_DEFAULT_TARGET;
    int rc = tmc_sweep_parse_target(text, &target, &err) ? tmc_api_fail_load(st, &err) : 0;
    if (!rc)
        rc = join_levers(c, &levers, st);
    if (!rc && tmc_rescue_load(r, src, sets->sets, sets->n_sets, &target, levers, &err))
        rc = tmc_api_fail_load(st, &err);
    free(levers);
    if (rc || tmc_api_check_runnable(&r->plan.x, NULL, o->force, st))
        return NULL;
    double t0 = now_s();
    if (rescue_run(r, o, st))
        return NULL;
    tmc_rescue_report rep = {.rescue = r, .threads = o->threads, .elapsed_s = now_s() - t0};
    return tmc_api_document_new(tmc_rescue_output_json(&rep), rescue_text, &rep, st);
}

static tmc_document *rescue(const char *f, int is_text, const char *text, const char *label,
                            const char *base_dir, const char *const *overrides,
                            int n_overrides, const tmc_command_options *c,
                            const tmc_run_options *options, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_run_options o;
    tmc_api_sets sets = {0};
    tmc_document *d = NULL;
    tmc_rescue *r = NULL;
    tmc_sweep_source src;
    if (!tmc_api_command_source(f, is_text, text, label, base_dir, &src, st) &&
        !check_common(f, overrides, n_overrides, c, "target,levers", options, &o, st) &&
        !tmc_api_sets_make(&sets, overrides, n_overrides, options, st)) {
        if (!(r = calloc(1, sizeof *r)))
            tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a rescue");
        else
            d = rescue_in(r, &src, &sets, c, &o, st);
    }
    if (r)
        tmc_rescue_free(r);
    free(r);
    tmc_api_sets_free(&sets);
    if (d)
        tmc_api_succeed(st);
    tmc_api_leave(&scope);
    return d;
}

tmc_document *tmc_experiment_rescue(const char *path, const char *const *overrides,
                                    int n_overrides, const tmc_command_options *c,
                                    const tmc_run_options *o, tmc_status *st)
{
    return rescue("tmc_experiment_rescue", 0, path, NULL, NULL, overrides, n_overrides, c, o,
                  st);
}

tmc_document *tmc_experiment_rescue_text(const char *json, const char *label,
                                         const char *base_dir, const char *const *overrides,
                                         int n_overrides, const tmc_command_options *c,
                                         const tmc_run_options *o, tmc_status *st)
{
    return rescue("tmc_experiment_rescue_text", 1, json, label, base_dir, overrides,
                  n_overrides, c, o, st);
}

/* ---------- cheapest ---------- */

static void cheapest_text(FILE *f, const void *report)
{
    tmc_cheapest_output_text(f, report);
}

/* The report of a run search: the chosen plan's experiment loaded for what
 * it assumes, as the command line's report. */
static tmc_document *cheapest_report(tmc_cheapest *c, const tmc_run_options *o,
                                     double elapsed_s, tmc_status *st)
{
    tmc_cheapest_report rep = {.c = c, .threads = o->threads, .elapsed_s = elapsed_s};
    tmc_sweep_setting chosen = {0}; /* owns nothing until loaded */
    tmc_error err = {""};
    tmc_document *d = NULL;
    if (c->chosen >= 0) {
        const tmc_cheapest_plan *p = &c->plans[c->chosen];
        if (tmc_cheapest_load_setting(c, p->combo, p->cards, &chosen, &err)) {
            tmc_api_fail_load(st, &err);
            tmc_experiment_release(&chosen.x);
            return NULL;
        }
        rep.chosen = &chosen;
    }
    d = tmc_api_document_new(tmc_cheapest_output_json(&rep), cheapest_text, &rep, st);
    tmc_experiment_release(&chosen.x);
    return d;
}

static tmc_document *cheapest_in(tmc_cheapest *c, const tmc_sweep_source *src,
                                 const tmc_api_sets *sets,
                                 const tmc_command_options *co, const tmc_run_options *o,
                                 tmc_status *st)
{
    tmc_sweep_target target;
    tmc_error err = {""};
    tmc_command_options given;
    tmc_command_options_init(&given);
    if (co)
        given = *co;
    const char *text = given.target ? given.target : TMC_CHEAPEST_DEFAULT_TARGET;
    if (tmc_cheapest_parse_target(text, &target, &err) ||
        tmc_cheapest_load(c, src, sets->sets, sets->n_sets, &target, given.levers,
                          given.n_levers, given.async_copy_s, &err))
        return tmc_api_fail_load(st, &err), NULL;
    tmc_cheapest_options opt = {.threads = o->threads, .progress = o->progress,
                                .progress_ctx = o->progress_ctx,
                                .stop = o->stop ? o->stop : &never,
                                .check = tmc_cheapest_check_plan,
                                .check_ctx = (void *)&o->force};
    double t0 = now_s();
    int rc = tmc_cheapest_run(c, &opt, &err);
    if (rc)
        return tmc_api_fail_step(st, rc, -2, &err), NULL;
    return cheapest_report(c, o, now_s() - t0, st);
}

static tmc_document *cheapest(const char *f, int is_text, const char *text, const char *label,
                              const char *base_dir, const char *const *overrides,
                              int n_overrides, const tmc_command_options *co,
                              const tmc_run_options *options, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_run_options o;
    tmc_api_sets sets = {0};
    tmc_document *d = NULL;
    tmc_cheapest *c = NULL;
    tmc_sweep_source src;
    if (!tmc_api_command_source(f, is_text, text, label, base_dir, &src, st) &&
        !check_common(f, overrides, n_overrides, co, "target,levers,async_copy_s", options,
                      &o, st) &&
        !tmc_api_sets_make(&sets, overrides, n_overrides, options, st)) {
        if (!(c = calloc(1, sizeof *c)))
            tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a search");
        else
            d = cheapest_in(c, &src, &sets, co, &o, st);
    }
    if (c)
        tmc_cheapest_free(c);
    free(c);
    tmc_api_sets_free(&sets);
    if (d)
        tmc_api_succeed(st);
    tmc_api_leave(&scope);
    return d;
}

tmc_document *tmc_experiment_cheapest(const char *path, const char *const *overrides,
                                      int n_overrides, const tmc_command_options *c,
                                      const tmc_run_options *o, tmc_status *st)
{
    return cheapest("tmc_experiment_cheapest", 0, path, NULL, NULL, overrides, n_overrides, c,
                    o, st);
}

tmc_document *tmc_experiment_cheapest_text(const char *json, const char *label,
                                           const char *base_dir, const char *const *overrides,
                                           int n_overrides, const tmc_command_options *c,
                                           const tmc_run_options *o, tmc_status *st)
{
    return cheapest("tmc_experiment_cheapest_text", 1, json, label, base_dir, overrides,
                    n_overrides, c, o, st);
}
