/* fit_api.c - trainmc.h's tmc_fit_log: a fault log's failure model, read
 * (fault_log.h), fitted (fit.h) and reported (fit_output.c) as `trainmc fit
 * LOG` does with the CSV columns' default names; a step-time log's jitter
 * (step_fit.h, `fit --steps`) and SLURM accounting's interruptions
 * (sacct_fit.h, `fit --sacct`) likewise. For the same log and options both
 * give the same document, and the same experiment fragment (--write's file,
 * tmc_document_fragment; fit_fragment.h makes it for both). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "config.h"
#include "fault_log.h"
#include "fit.h"
#include "fit_fragment.h"
#include "sacct.h"
#include "sacct_fit.h"
#include "sacct_output.h"
#include "step_fit.h"
#include "text.h"

#define F "tmc_fit_log"

cJSON *tmc_fit_fragment_faults(const tmc_fit_result *r, const char *law, const char *path,
                               char *why, size_t n)
{
    cJSON *doc = tmc_fit_output_distribution(r, law);
    if (!doc)
        snprintf(why, n, "--write: no %s law could be fitted to %s", law, path);
    return doc;
}

cJSON *tmc_fit_fragment_steps(const tmc_step_fit *r, const char *path, char *why, size_t n)
{
    const char *reason = NULL;
    cJSON *doc = tmc_step_fit_output_distribution(r, path, &reason);
    if (!doc)
        snprintf(why, n, "--write: %s (cv %.4g, law %s)", reason ? reason : "out of memory",
                 r->cv, r->best >= 0 ? r->law[r->best].name : "none");
    return doc;
}

cJSON *tmc_fit_fragment_sacct(const tmc_sacct_report *rep, char *why, size_t n)
{
    int nodes = rep->fit->count[TMC_SACCT_NODE];
    if (nodes && !rep->cards_per_node) {
        /* failures.per_node_mtbf_days needs failures.cards_per_node, which sacct lacks */
        snprintf(why, n, "%s: --write: %d node failures make failures.per_node_mtbf_days, "
                 "which needs failures.cards_per_node: give --cards-per-node N (the cards "
                 "of a node)", rep->path, nodes);
        return NULL;
    }
    cJSON *doc = tmc_sacct_output_fragment(rep);
    if (!doc)
        snprintf(why, n, "--write: out of memory");
    return doc;
}

/* The fragment of a fit kept in d (as text), or why there is none; doc is
 * taken. TMC_OK, or TMC_ERR_MEMORY with st (d is then freed by the caller). */
static int keep_fragment(tmc_document *d, cJSON *doc, const char *why, tmc_status *st)
{
    if (!d)
        return cJSON_Delete(doc), TMC_OK;
    snprintf(d->fragment_why, sizeof d->fragment_why, "%s", doc ? "" : why);
    d->fragment = doc ? tmc_api_print(doc) : NULL;
    int lost = doc && !d->fragment;
    cJSON_Delete(doc);
    return lost ? tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a fit's fragment")
                : TMC_OK;
}

void tmc_fit_log_options_init(tmc_fit_log_options *o)
{
    if (o)
        *o = (tmc_fit_log_options){0};
}

/* The numbers of the options: their ranges are the command line's
 * (`trainmc fit --help`); 0 where a default applies, or (not fault_log)
 * where the kind does not read the field. */
static int check_numbers(const tmc_fit_log_options *o, int fault_log, tmc_status *st)
{
    double g_lo = 1, g_hi = 1e3;
    int lo_open;
    tmc_config_key_bounds("failures.cards_per_node", &g_lo, &g_hi, &lo_open);
    const struct {
        const char *name;
        double v, lo, hi;
        int zero_default, lo_open;
    } rows[] = {
        {"nodes", (double)o->nodes, 1, 1e8, 0, 0},
        {"cards_per_node", (double)o->cards_per_node, g_lo, g_hi, 0, 0},
        {"span_days", o->span_days, 0, 1e7, 1, 1},
        {"confidence", o->confidence, 0.5, 0.9999, 1, 0},
        {"window_days", o->window_days, 0, 1e6, 1, 1},
        {"simultaneous_s", o->simultaneous_s, 0, 1e7, 1, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double v = rows[i].v;
        if ((rows[i].zero_default || !fault_log) && v == 0)
            continue; /* a default, or not read (sacct's cards_per_node: not known) */
        if (!(v >= rows[i].lo && v <= rows[i].hi) || (rows[i].lo_open && v == rows[i].lo))
            return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.%s = %.10g: must "
                                 "be in %s%s, %s]%s", rows[i].name, v,
                                 rows[i].lo_open ? "(" : "[",
                                 tmc_config_bound_text(rows[i].lo).s,
                                 tmc_config_bound_text(rows[i].hi).s,
                                 rows[i].zero_default ? " (0: the default)" : "");
    }
    return TMC_OK;
}

/* The first field o gives that only a fault log reads (with_cards:
 * cards_per_node among them), or NULL. */
static const char *fault_log_field(const tmc_fit_log_options *o, int with_cards)
{
    const struct {
        int given;
        const char *name;
    } only[] = {{o->nodes != 0, "nodes"}, {with_cards && o->cards_per_node != 0, "cards_per_node"},
                {o->span_days != 0, "span_days"}, {o->format != NULL, "format"},
                {o->window_days != 0, "window_days"}, {o->simultaneous_s != 0, "simultaneous_s"},
                {o->n_exclude_causes != 0, "exclude_causes"}, {o->dedupe != 0, "dedupe"},
                {o->law != NULL, "law"}, {o->bursts != 0, "bursts"}};
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
        if (only[i].given)
            return only[i].name;
    return NULL;
}

/* A step-time log or SLURM accounting: the fields their fit reads. */
static int check_other_kind(const tmc_fit_log_options *o, int sacct, tmc_status *st)
{
    const char *name = fault_log_field(o, !sacct);
    if (name)
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.%s is given: an "
                             "option of a fault log, not of %s (kind \"%s\")", name,
                             sacct ? "SLURM accounting" : "a step-time log", o->kind);
    if (!sacct && o->n_sacct_map)
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.n_sacct_map = %d: "
                             "the state map is for kind \"sacct\"", o->n_sacct_map);
    if (o->n_sacct_map < 0 || (o->n_sacct_map && !o->sacct_map))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.n_sacct_map = %d: "
                             "must be >= 0, with a sacct_map array", o->n_sacct_map);
    for (int i = 0; i < o->n_sacct_map; i++)
        if (!o->sacct_map[i])
            return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.sacct_map[%d] = "
                                 "NULL: must be \"STATE=CAUSE\"", i);
    return check_numbers(o, 0, st);
}

static int check_options(const char *path, const tmc_fit_log_options *o, tmc_status *st)
{
    tmc_error err = {""};
    if (!path)
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": path = NULL: must name a fault log");
    if (tmc_text_require(path, path, "the log's file name", &err))
        return tmc_api_fail(st, TMC_ERR_INPUT, err.msg);
    if (!o)
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": options = NULL: nodes and "
                             "cards_per_node must be given (the exposure a log cannot show)");
    if (o->kind && strcmp(o->kind, "faults") && strcmp(o->kind, "steps") &&
        strcmp(o->kind, "sacct"))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.kind = \"%.40s\": "
                             "must be faults, steps, sacct or NULL (faults)", o->kind);
    if (o->kind && strcmp(o->kind, "faults"))
        return check_other_kind(o, !strcmp(o->kind, "sacct"), st);
    if (o->n_sacct_map)
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.n_sacct_map = %d: "
                             "the state map is for kind \"sacct\"", o->n_sacct_map);
    if (o->format && strcmp(o->format, "csv") && strcmp(o->format, "json"))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.format = \"%.40s\": "
                             "must be csv, json or NULL (by the name)", o->format);
    if (o->law && strcmp(o->law, "exponential") && strcmp(o->law, "weibull"))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.law = \"%.40s\": "
                             "must be exponential, weibull or NULL (exponential)", o->law);
    if (o->bursts && o->law && strcmp(o->law, "exponential"))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.bursts with law "
                             "\"%s\": bursts are written beside exponential lifetimes, which "
                             "they need (failures.burst_*); leave law NULL, or bursts 0",
                             o->law);
    if (o->n_exclude_causes < 0 || o->n_exclude_causes > TMC_FIT_MAX_EXCLUDE ||
        (o->n_exclude_causes && !o->exclude_causes))
        return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.n_exclude_causes = "
                             "%d: must be in [0, %d], with an exclude_causes array",
                             o->n_exclude_causes, TMC_FIT_MAX_EXCLUDE);
    for (int i = 0; i < o->n_exclude_causes; i++)
        if (!o->exclude_causes[i] || !*o->exclude_causes[i])
            return tmc_api_failf(st, TMC_ERR_INPUT, F ": tmc_fit_log_options.exclude_causes"
                                 "[%d]: must be a cause's name, not empty", i);
    return check_numbers(o, 1, st);
}

/* The command line's fit options from o (its defaults where o gives 0). */
static tmc_fit_options fit_options(const char *path, const tmc_fit_log_options *o)
{
    tmc_fit_options f = {.confidence = o->confidence > 0 ? o->confidence : 0.95,
                         .window_days = o->window_days > 0 ? o->window_days : 7,
                         .simultaneous_s = o->simultaneous_s > 0 ? o->simultaneous_s : 60,
                         .mixture_sets = TMC_FIT_MIXTURE_BOOTSTRAP, .nodes = o->nodes,
                         .cards_per_node = o->cards_per_node, .span_days = o->span_days,
                         .log_path = path, .bursts = o->bursts};
    for (int i = 0; i < o->n_exclude_causes; i++)
        f.exclude[f.n_exclude++] = o->exclude_causes[i];
    return f;
}

/* The log read as its format says; duplicates refused or dropped. */
static int read_log(const char *path, const tmc_fit_log_options *o, tmc_fault_log *log,
                    int *dropped, tmc_status *st)
{
    tmc_fault_log_columns cols = {"node", "start", "end", "cause", 0, 1, 1}; /* if present */
    size_t n = strlen(path);
    int csv = o->format ? !strcmp(o->format, "csv") : n > 4 && !strcmp(path + n - 4, ".csv");
    tmc_error err = {""};
    if (csv ? tmc_fault_log_read_csv(path, &cols, log, &err)
            : tmc_fault_log_read_json(path, log, &err))
        return tmc_api_fail(st, TMC_ERR_INPUT, err.msg);
    if (log->duplicates && !o->dedupe) {
        const char *what = csv ? "line" : "event";
        tmc_api_failf(st, TMC_ERR_INPUT, "%s: %d fault%s repeat%s an earlier one exactly "
                      "(node, start, end and cause; the first: %s %ld repeats %s %ld); "
                      "counted twice they would raise the rate: remove them, or set "
                      "tmc_fit_log_options.dedupe to drop them", path, log->duplicates,
                      log->duplicates == 1 ? "" : "s", log->duplicates == 1 ? "s" : "", what,
                      log->duplicate_where, what, log->duplicate_of);
        tmc_fault_log_free(log);
        return TMC_ERR_INPUT;
    }
    *dropped = o->dedupe ? tmc_fault_log_dedupe(log) : 0;
    return TMC_OK;
}

static void write_text(FILE *f, const void *report)
{
    tmc_fit_output_text(f, report);
}

typedef struct {
    const tmc_step_fit *r;
    const tmc_step_log *log;
    const char *path;
} steps_report;

static void steps_text(FILE *f, const void *report)
{
    const steps_report *p = report;
    tmc_step_fit_output_text(f, p->r, p->log, p->path);
}

/* `fit --steps`: the jitter of a step-time log. */
static tmc_document *fit_steps(const char *path, double confidence, tmc_status *st)
{
    tmc_error err = {""};
    tmc_step_log log;
    tmc_step_fit r;
    if (tmc_step_log_read_csv(path, &log, &err))
        return tmc_api_fail_load(st, &err), NULL;
    tmc_document *d = NULL;
    if (tmc_step_fit_compute(&log, confidence, &r, &err)) /* the message names no file */
        tmc_api_failf(st, TMC_ERR_INPUT, "%s: %s", path, err.msg);
    else {
        steps_report rep = {&r, &log, path};
        char why[sizeof d->fragment_why] = "";
        d = tmc_api_document_new(tmc_step_fit_output_json(&r, &log, path), steps_text, &rep,
                                 st);
        if (d && keep_fragment(d, tmc_fit_fragment_steps(&r, path, why, sizeof why), why, st)) {
            tmc_document_free(d);
            d = NULL;
        }
        tmc_step_fit_free(&r);
    }
    tmc_step_log_free(&log);
    return d;
}

static void sacct_text(FILE *f, const void *report)
{
    tmc_sacct_output_text(f, report);
}

/* `fit --sacct`: SLURM accounting's interruptions. */
static tmc_document *fit_sacct(const char *path, const tmc_fit_log_options *o,
                               double confidence, tmc_status *st)
{
    tmc_error err = {""};
    tmc_sacct_map map;
    tmc_sacct_map_default(&map);
    for (int i = 0; i < o->n_sacct_map; i++)
        if (tmc_sacct_map_set(&map, o->sacct_map[i], &err))
            return tmc_api_fail_load(st, &err), NULL; /* names sacct_map */
    tmc_sacct_log log;
    tmc_sacct_fit r;
    if (tmc_sacct_read(path, &map, &log, &err))
        return tmc_api_fail_load(st, &err), NULL;
    tmc_document *d = NULL;
    if (tmc_sacct_fit_compute(&log, confidence, &r, &err))
        tmc_api_failf(st, TMC_ERR_INPUT, "%s: %s", path, err.msg);
    else {
        tmc_sacct_report rep = {path, &log, &map, &r, o->cards_per_node};
        char why[sizeof d->fragment_why] = "";
        d = tmc_api_document_new(tmc_sacct_output_json(&rep), sacct_text, &rep, st);
        if (d && keep_fragment(d, tmc_fit_fragment_sacct(&rep, why, sizeof why), why, st)) {
            tmc_document_free(d);
            d = NULL;
        }
        tmc_sacct_fit_free(&r);
    }
    tmc_sacct_log_free(&log);
    return d;
}

static tmc_document *fit_in(const char *path, const tmc_fit_log_options *o, tmc_status *st)
{
    if (check_options(path, o, st))
        return NULL;
    double confidence = o->confidence > 0 ? o->confidence : 0.95;
    if (o->kind && !strcmp(o->kind, "steps"))
        return fit_steps(path, confidence, st);
    if (o->kind && !strcmp(o->kind, "sacct"))
        return fit_sacct(path, o, confidence, st);
    tmc_fit_options opt = fit_options(path, o);
    tmc_fault_log log;
    int dropped = 0, excluded[TMC_FIT_MAX_EXCLUDE] = {0};
    if (read_log(path, o, &log, &dropped, st))
        return NULL;
    int n_read = log.n_faults;
    tmc_fault_log_exclude(&log, opt.exclude, opt.n_exclude, excluded);
    tmc_fit_result *r = calloc(1, sizeof *r); /* large: off the stack */
    tmc_error err = {""};
    tmc_document *d = NULL;
    if (!r)
        tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a fit");
    else if (log.n_faults == 0)
        tmc_api_failf(st, TMC_ERR_INPUT, "%s: every fault was left out by --exclude-cause",
                      path);
    else if (tmc_fit_compute(&log, &opt, n_read, excluded, r, &err))
        tmc_api_fail(st, TMC_ERR_INPUT, err.msg);
    else {
        r->duplicates_dropped = dropped;
        const char *law = o->law ? o->law : "exponential";
        char why[sizeof d->fragment_why] = "";
        d = tmc_api_document_new(tmc_fit_output_json(r), write_text, r, st);
        if (d && keep_fragment(d, tmc_fit_fragment_faults(r, law, path, why, sizeof why), why,
                               st)) {
            tmc_document_free(d);
            d = NULL;
        }
    }
    if (r)
        tmc_fit_free(r);
    free(r);
    tmc_fault_log_free(&log);
    if (d)
        tmc_api_succeed(st);
    return d;
}

tmc_document *tmc_fit_log(const char *path, const tmc_fit_log_options *o, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_document *d = fit_in(path, o, st);
    if (d)
        tmc_api_succeed(st);
    tmc_api_leave(&scope);
    return d;
}
