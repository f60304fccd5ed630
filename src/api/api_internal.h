/* api_internal.h - what the files behind trainmc.h share (not installed). */
#ifndef TMC_API_INTERNAL_H
#define TMC_API_INTERNAL_H

#include <locale.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "error.h"
#include "sweep.h"
#include "trainmc.h"

/* Every public call that reads or writes numbers as text runs inside a
 * scope: the C locale for this thread (a host program's LC_NUMERIC, e.g. a
 * decimal comma, must not change how "0.5" reads), and GSL's error handler
 * off (its default aborts the process; the library checks every status),
 * the host's handler restored when the last call in the process leaves. */
typedef struct {
    locale_t previous;
} tmc_api_scope;

void tmc_api_enter(tmc_api_scope *scope);
void tmc_api_leave(tmc_api_scope *scope);

/* Fill st (if not NULL) with code and message; returns code. */
int tmc_api_fail(tmc_status *st, int code, const char *message);

/* The same with a printf-style message (cut to the status' size). */
int tmc_api_failf(tmc_status *st, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A failed computation (a run, a grid, an importance estimate) as a status,
 * its message err's: rc TMC_RUNNER_STOPPED is TMC_ERR_STOPPED; rc `input`,
 * the step's own code for an input it cannot take, TMC_ERR_INPUT; a message
 * that says "out of memory" TMC_ERR_MEMORY; any other TMC_ERR_RUNTIME.
 * Returns the status code. */
int tmc_api_fail_step(tmc_status *st, int rc, int input, const tmc_error *err);

/* st = TMC_OK, "" (if not NULL). */
void tmc_api_succeed(tmc_status *st);

#define TMC_API_MAX_THREADS 4096
#define TMC_API_MAX_SEED 9007199254740991.0 /* 2^53 - 1: a seed survives JSON */

/* The bounds of a replica count and a card count: those of the keys
 * monte_carlo.replicas and job.cards (their rows in config_fields.c), so an
 * argument of the library takes what an experiment file takes. */
typedef struct {
    double lo, hi;
} tmc_api_key_range;

tmc_api_key_range tmc_api_replicas_range(void);
tmc_api_key_range tmc_api_cards_range(void);

/* o (NULL: defaults) checked and completed: replicas and seed from x when
 * not given, threads resolved to >= 1. Returns 0, or TMC_ERR_INPUT with st
 * naming the field, its value and the allowed range. */
int tmc_api_resolve_options(const tmc_run_options *o, long default_replicas,
                            uint64_t default_seed, tmc_run_options *out, tmc_status *st);

/* Refuse a NULL in overrides[n] (or no array for n > 0, or n < 0), the
 * message naming the public function f. TMC_OK, or TMC_ERR_INPUT with st. */
int tmc_api_check_overrides(const char *f, const char *const *overrides, int n,
                            tmc_status *st);

/* Refuse what the command line refuses before a run: a training state that
 * does not fit in memory (plan.h) unless `force`, a run that cannot finish
 * (finishable.h). `label` names the setting of a sweep (NULL: none).
 * TMC_OK, or TMC_ERR_INPUT (TMC_ERR_MEMORY) with st. */
int tmc_api_check_runnable(const tmc_experiment *x, const char *label, int force,
                           tmc_status *st);

/* The document as compact JSON text (malloc'd), or NULL if memory runs out. */
char *tmc_api_print(const cJSON *doc);

/* A result's document, kept as a tree (for numbers by path) and as text. */
typedef struct {
    cJSON *doc;
    char *json;
} tmc_api_document;

/* Keep doc (taken over; may be NULL) and its text. 0, or -1 if either is
 * missing (memory). */
int tmc_api_document_keep(tmc_api_document *d, cJSON *doc);

/* The text, and a number by dotted path (NaN if none; d may be NULL). */
const char *tmc_api_document_json(const tmc_api_document *d);
double tmc_api_document_number(const tmc_api_document *d, const char *path);

void tmc_api_document_free(tmc_api_document *d);

/* The command line's flags that messages from the layers below name
 * ("--levers X: not a lever"), each written as the library's parameter
 * ("tmc_command_options.levers X: ..."): msg[n] rewritten in place. Called
 * by tmc_api_fail, so every status message names the library's
 * parameters; the command line keeps its own words. */
void tmc_api_name_parameters(char *msg, size_t n);

/* 1: this thread's calls keep the command line's flags in their messages
 * (the `trainmc` program, which runs `run` through the library, sets it);
 * 0: they name the library's parameters (the default). */
void tmc_api_keep_flag_names(int keep);

/* The sets a command's load takes: the caller's overrides, then
 * "monte_carlo.replicas=N" and "monte_carlo.seed=S" for the ones o gives (o
 * may be NULL), as the command line appends -n and --seed after every
 * --set. */
typedef struct {
    const char **sets;
    int n_sets;
    char replicas[64], seed[64];
} tmc_api_sets;

/* TMC_OK, or TMC_ERR_MEMORY with st. */
int tmc_api_sets_make(tmc_api_sets *s, const char *const *overrides, int n_overrides,
                      const tmc_run_options *o, tmc_status *st);
void tmc_api_sets_free(tmc_api_sets *s);

/* A command's document (document_api.c): its JSON and its printed report. */
struct tmc_document {
    tmc_api_document document;
    char *text;
    char *html;              /* the command's --html page; NULL: none */
    char *fragment;          /* a fit's --write file as JSON text; NULL: none */
    char fragment_why[1024]; /* then why, naming the flags (tmc_document_fragment) */
};

/* What a command's text writer is given: the report it prints to f. */
typedef void (*tmc_api_text_fn)(FILE *f, const void *report);

/* A new document holding doc (taken over) and the text write(f, report)
 * prints. NULL with st (TMC_ERR_MEMORY) if memory runs out; doc is freed. */
tmc_document *tmc_api_document_new(cJSON *doc, tmc_api_text_fn write, const void *report,
                                   tmc_status *st);

/* d's --html page (html.h): page (taken; NULL: memory ran out, or the
 * command has none). The page's last line names `function` as what made it,
 * where the command line names its own command line. TMC_OK, or
 * TMC_ERR_MEMORY with st when page is NULL (d then freed by the caller). */
int tmc_api_document_html(tmc_document *d, char *page, tmc_status *st);

/* The meta of a page the library makes: its version and `function`. */
#define TMC_API_HTML_META(function) {tmc_library_version(), "libtrainmc: " function}

/* The options a command does not take left as tmc_command_options_init
 * sets them: `takes` names the fields it reads ("history,target"); f the
 * public function. TMC_OK, or TMC_ERR_INPUT with st. */
int tmc_api_check_command_options(const char *f, const tmc_command_options *c,
                                  const char *takes, tmc_status *st);

/* The tmc_run_options fields these commands take (replicas, seed, threads,
 * progress, stop, force), resolved as tmc_api_resolve_options; precision and
 * importance refused. TMC_OK, or TMC_ERR_INPUT with st. */
int tmc_api_command_run_options(const char *f, const tmc_run_options *o, tmc_run_options *out,
                                tmc_status *st);

/* Where a command's experiment is read from (sweep.h): the file `text` names
 * (is_text 0), or the JSON text `text` itself (is_text 1; label NULL:
 * "<string>", base_dir NULL: "."), as tmc_experiment_load and
 * tmc_experiment_parse take them. f names the public function. TMC_OK, or
 * TMC_ERR_INPUT with st for a NULL text. */
int tmc_api_command_source(const char *f, int is_text, const char *text, const char *label,
                           const char *base_dir, tmc_sweep_source *src, tmc_status *st);

/* A load that failed (a config message, a bad option): TMC_ERR_MEMORY when
 * its message says "out of memory", else TMC_ERR_INPUT; st's message err's. */
int tmc_api_fail_load(tmc_status *st, const tmc_error *err);

/* A tmc_sweep_check_fn (sweep_search.h; ctx: an int, tmc_run_options.force):
 * tmc_api_check_runnable's refusal as why. */
int tmc_api_refuse_setting(const tmc_sweep_setting *s, void *ctx, char *why, size_t n);

#endif
