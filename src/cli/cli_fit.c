/* cli_fit.c - `trainmc fit LOG`: a failure model fitted to a cluster's
 * fault log (src/fit/fit.h), or with --steps the per-card jitter fitted to a
 * step-time log (src/fit/step_fit.h); docs/fit.md gives every estimator.
 * Its options are rows of the shared table (options.c), so --help, the man
 * page and the bash completion list them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fault_log.h"
#include "fit.h"
#include "fit_html.h"
#include "fit_fragment.h"
#include "options.h"
#include "sacct.h"
#include "sacct_fit.h"
#include "sacct_output.h"
#include "step_fit.h"
#include "text.h"
#include "train_log.h"
#include "train_step_fit.h"

static const tmc_cli_command command = {
    "fit", TMC_CLI_FIT, "LOG",
    "usage: trainmc fit FAULTLOG --nodes N --cards-per-node N [options]\n"
    "       trainmc fit --steps STEPLOG [--json FILE] [--write FILE] [--html FILE]\n"
    "       trainmc fit --steps TRAINLOG --cards N [--step-regex REGEX] [--json FILE]\n"
    "                   [--write FILE] [--html FILE]\n"
    "       trainmc fit --sacct SACCT [--sacct-map STATE=CAUSE ...] [--cards-per-node N]\n"
    "                   [--json FILE] [--write FILE] [--html FILE]\n"
    "\n"
    "Fit a failure model to a cluster's fault log: the failure rate per card,\n"
    "per node and for the cluster with exact Poisson intervals; the lifetime\n"
    "law of a node (exponential against Weibull, right-censored, with the\n"
    "likelihood-ratio test of shape 1); the repair-time law (lognormal,\n"
    "Weibull, exponential with Kolmogorov-Smirnov p-values); the cause mix;\n"
    "and the evidence against the Poisson assumption (counts per node and per\n"
    "time window, simultaneous faults). docs/fit.md gives every formula.\n"
    "\n"
    "FAULTLOG is JSON (an array of events or one event a line: node_id,\n"
    "event_time in days, event_type fault_start or fault_end, fault_type\n"
    "{Level, Class, Desc}) or CSV (a header, one fault a line).\n"
    "\n"
    "With --steps, fit the per-card jitter to a step-time log instead: a CSV\n"
    "with a header, either step,rank,seconds (one card's compute time a line)\n"
    "or step and one column per rank. It reports the law of a card's time\n"
    "(normal, lognormal, gamma by AIC), its cv and the share of the variance\n"
    "common to all cards of a step (jitter.correlation) with their intervals,\n"
    "persistently slow ranks, and the run's c_N beside the closed form's.\n"
    "A log that is no such CSV (no .csv name, no step column), or any log with\n"
    "--step-regex, is a training log:\n"
    "Megatron-LM's `iteration N/M | ... | elapsed time per iteration (ms): X` lines,\n"
    "each the slowest card's time averaged over the log interval. With --cards N\n"
    "it gives a card's mean time mu and cv (jitter.correlation 0 and the normal\n"
    "law assumed: the log cannot tell them) with delta-method intervals, the pace,\n"
    "and the restarts, whose first lines are left out.\n"
    "\n"
    "With --sacct, read SLURM accounting instead (`TZ=UTC sacct --duplicates\n"
    "--parsable2 --format=JobID,JobName,State,Start,End,Elapsed,NNodes,NodeList`):\n"
    "node failures per node-hour, the job's failures and outages per job-hour with\n"
    "exact intervals, the requeue waits between a job's allocations, the time\n"
    "limit; --write makes an experiment fragment (failures, outages, time_limit).\n"};

/* What `fit FAULTLOG` takes from the table's values. */
typedef struct {
    tmc_fit_options fit;
    tmc_fault_log_columns cols;
    const char *format, *json_path, *write_path, *law;
    int dedupe;
    const tmc_cli_options *o; /* --html and the command line */
} fit_args;

static int fault_args(const tmc_cli_options *o, fit_args *a)
{
    *a = (fit_args){.fit = {.confidence = o->confidence > 0 ? o->confidence : 0.95,
                            .window_days = o->window_days > 0 ? o->window_days : 7,
                            .simultaneous_s = o->simultaneous_s > 0 ? o->simultaneous_s : 60,
                            .mixture_sets = TMC_FIT_MIXTURE_BOOTSTRAP,
                            .nodes = o->nodes, .cards_per_node = o->cards_per_node,
                            .span_days = o->span_days, .log_path = o->experiment},
                    .cols = {"node", "start", "end", "cause", 0, 1, 1}, /* if present */
                    .format = o->format, .json_path = o->json_path,
                    .write_path = o->write_path, .law = o->law ? o->law : "exponential",
                    .dedupe = o->dedupe, .o = o};
    a->fit.bursts = o->bursts;
    if (o->node_col)
        a->cols.node = o->node_col;
    if (o->start_col)
        a->cols.start = o->start_col;
    if (o->end_col) {
        a->cols.end = *o->end_col ? o->end_col : NULL;
        a->cols.end_optional = 0;
    }
    if (o->cause_col) {
        a->cols.cause = *o->cause_col ? o->cause_col : NULL;
        a->cols.cause_optional = 0;
    }
    a->cols.hours = o->time_unit && !strcmp(o->time_unit, "hours");
    for (int i = 0; i < o->n_exclude; i++)
        a->fit.exclude[a->fit.n_exclude++] = o->exclude[i];
    if (!a->fit.nodes || !a->fit.cards_per_node)
        return tmc_cli_usage_error("fit", "fit needs --nodes N and --cards-per-node N: the "
                                   "exposure a log cannot show");
    if (o->bursts && strcmp(a->law, "exponential"))
        return tmc_cli_usage_error("fit", "--bursts writes bursts beside exponential "
                                   "lifetimes, which they need (failures.burst_*); leave "
                                   "--law %s out, or --bursts", a->law);
    if (!a->format) {
        size_t n = strlen(a->fit.log_path);
        a->format = n > 4 && !strcmp(a->fit.log_path + n - 4, ".csv") ? "csv" : "json";
    }
    return 0;
}

/* The first option given that only a fault log's fit takes (with_cards:
 * --cards-per-node among them), or NULL. */
static const char *fault_log_option(const tmc_cli_options *o, int with_cards)
{
    const struct {
        int given;
        const char *name;
    } only[] = {{o->nodes != 0, "nodes"}, {with_cards && o->cards_per_node != 0, "cards-per-node"},
                {o->span_days != 0, "span-days"}, {o->format != NULL, "format"},
                {o->node_col != NULL, "node"}, {o->start_col != NULL, "start"},
                {o->end_col != NULL, "end"}, {o->cause_col != NULL, "cause"},
                {o->time_unit != NULL, "time-unit"}, {o->n_exclude != 0, "exclude-cause"},
                {o->window_days != 0, "window-days"},
                {o->simultaneous_s != 0, "simultaneous-s"}, {o->law != NULL, "law"},
                {o->dedupe != 0, "dedupe"}, {o->bursts != 0, "bursts"}};
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
        if (only[i].given)
            return only[i].name;
    return NULL;
}

/* With --steps, the options that only a fault log takes are refused. */
static int steps_args(const tmc_cli_options *o)
{
    const char *name = fault_log_option(o, 1);
    return name ? tmc_cli_usage_error("fit", "--%s is an option of a fault log, not of a "
                                      "step-time log (--steps)", name) : 0;
}

/* With --sacct, the options of a fault log's fit (but --cards-per-node, the
 * fragment's cards_per_node) and --steps are refused; without it, --sacct-map. */
static int sacct_args(const tmc_cli_options *o)
{
    if (!o->sacct)
        return o->n_sacct_map ? tmc_cli_usage_error("fit", "--sacct-map needs --sacct: it "
                                                    "maps the states of SLURM accounting")
                              : 0;
    const char *name = o->steps ? "steps" : fault_log_option(o, 0);
    return name ? tmc_cli_usage_error("fit", "--%s is not an option of SLURM accounting "
                                      "(--sacct)", name) : 0;
}

/* Inputs of at least this many bytes (about a million CSV rows, 30 s
 * before issue 33) get progress lines on stderr even when it is no terminal. */
#define FIT_PROGRESS_BYTES (32L << 20)

/* Seconds on a monotonic clock. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 1 when `fit` says on stderr what it is doing: stderr is a terminal, or
 * the log is long (FIT_PROGRESS_BYTES). Never on stdout or in --json. */
static int wants_progress(const char *log)
{
    struct stat st;
    return isatty(STDERR_FILENO) || (!stat(log, &st) && st.st_size >= FIT_PROGRESS_BYTES);
}

/* 2 with a message when a log's file name is not printable UTF-8 (text.h):
 * the report prints it and --json writes it. */
static int check_log_name(const char *path)
{
    tmc_error err;
    if (tmc_text_require(path, path, "the log's file name", &err))
        return tmc_cli_fail(2, "%s", err.msg);
    return 0;
}

/* A fit's files, in order: --json's document, then --write's (json, frag:
 * NULL when not asked), then --html's page (html: malloc'ed, NULL when not
 * asked or out of memory); after a failure (rc) none, and every file asked
 * for is dropped, as is a later one after an earlier one failed. Takes the
 * documents and the page. Returns the exit code, 0 or 1. */
static int finish_outputs(int rc, tmc_outfile *files[3], const char *paths[3], cJSON *json,
                          cJSON *frag, char *html)
{
    if (rc) {
        cJSON_Delete(json);
        cJSON_Delete(frag);
        free(html);
        tmc_cli_abort_outputs(files, paths, 3);
        return 1;
    }
    if (paths[0])
        rc = tmc_cli_write_json(files[0], json);
    if (paths[1] && rc) {
        cJSON_Delete(frag);
        tmc_output_abort(files[1]);
    } else if (paths[1])
        rc = tmc_cli_write_json(files[1], frag);
    if (paths[2] && rc) {
        free(html);
        tmc_output_abort(files[2]);
    } else if (paths[2])
        rc = tmc_cli_write_text(files[2], html);
    return rc ? 1 : 0;
}

/* A fit's output files opened before any work: --json, --write, --html (no
 * gnuplot: fit's page has no picture). 0, or 2 with none left open. */
static int open_fit_outputs(tmc_outfile *files[3], const char *paths[3])
{
    const char *flags[] = {"json", "write"};
    int rc = tmc_cli_open_outputs(files, flags, paths, 2, NULL);
    if (!rc && paths[2] && (rc = tmc_cli_open_output(files[2], paths[2], NULL)))
        tmc_cli_abort_outputs(files, paths, 2);
    return rc;
}

/* --html's page when asked (and on the rank that writes), else NULL. */
static int wants_html(const tmc_cli_options *o)
{
    return o->html_path && tmc_cli_is_root();
}

/* fit --sacct LOG: read with the state table, fit, report; exit 2 on bad
 * input (nothing written), 1 when a file cannot be written. */
static int fit_sacct(const tmc_cli_options *o)
{
    const char *path = o->experiment;
    int rc;
    if ((rc = check_log_name(path)))
        return rc;
    tmc_error err = {""};
    tmc_sacct_map map;
    tmc_sacct_map_default(&map);
    for (int i = 0; i < o->n_sacct_map; i++)
        if (tmc_sacct_map_set(&map, o->sacct_map[i], &err))
            return tmc_cli_usage_error("fit", "%s", err.msg);
    tmc_outfile out = {0}, frag = {0}, html = {0}, *files[] = {&out, &frag, &html};
    const char *paths[] = {o->json_path, o->write_path, o->html_path};
    if ((rc = open_fit_outputs(files, paths)))
        return rc;
    tmc_sacct_log log;
    tmc_sacct_fit r;
    if (tmc_sacct_read(path, &map, &log, &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    double cl = o->confidence > 0 ? o->confidence : 0.95;
    if (tmc_sacct_fit_compute(&log, cl, &r, &err)) {
        fprintf(stderr, "trainmc: %s: %s\n", path, err.msg);
        tmc_sacct_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    tmc_sacct_report rep = {path, &log, &map, &r, o->cards_per_node};
    char why[1024] = ""; /* the fragment as the library makes it (fit_fragment.h) */
    cJSON *doc = o->write_path ? tmc_fit_fragment_sacct(&rep, why, sizeof why) : NULL;
    if (o->write_path && !doc && r.count[TMC_SACCT_NODE] && !o->cards_per_node) {
        tmc_cli_fail(2, "%s; nothing written", why); /* refused before the report */
        tmc_sacct_fit_free(&r);
        tmc_sacct_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    if (tmc_cli_is_root())
        tmc_sacct_output_text(stdout, &rep);
    rc = tmc_cli_check_stdout();
    if (!rc && o->write_path && !doc) {
        fprintf(stderr, "trainmc: %s; nothing written\n", why);
        rc = 1;
    }
    tmc_html_meta m = {TMC_VERSION, o->command_line};
    tmc_fit_html_written w = {o->write_path, doc};
    rc = finish_outputs(rc, files, paths,
                        rc || !o->json_path ? NULL : tmc_sacct_output_json(&rep), doc,
                        rc || !wants_html(o) ? NULL : tmc_sacct_html(&rep, &w, &m));
    tmc_sacct_fit_free(&r);
    tmc_sacct_log_free(&log);
    return rc;
}

static int fit_faults(const fit_args *pa)
{
    fit_args a = *pa;
    int rc; /* no output names the log: tmc_cli_parse_options checked */
    if ((rc = check_log_name(a.fit.log_path)))
        return rc;
    tmc_outfile out = {0}, dist = {0}, html = {0}, *files[] = {&out, &dist, &html};
    const char *paths[] = {a.json_path, a.write_path, a.o->html_path};
    if ((rc = open_fit_outputs(files, paths)))
        return rc;
    tmc_error err = {""};
    tmc_fault_log log;
    int progress = wants_progress(a.fit.log_path);
    double t0 = now_s();
    if (progress)
        fprintf(stderr, "trainmc fit: reading %s\n", a.fit.log_path);
    int bad = !strcmp(a.format, "csv") ? tmc_fault_log_read_csv(a.fit.log_path, &a.cols, &log,
                                                                 &err)
                                       : tmc_fault_log_read_json(a.fit.log_path, &log, &err);
    if (bad) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    if (progress)
        fprintf(stderr, "trainmc fit: %d faults on %d nodes read in %.1f s; fitting\n",
                log.n_faults, log.n_nodes, now_s() - t0);
    int n_read = log.n_faults, excluded[TMC_FIT_MAX_EXCLUDE] = {0}, dropped = 0;
    if (log.duplicates && !a.dedupe) {
        tmc_cli_fail(2, "%s: %d fault%s repeat%s an earlier one exactly (node, start, end and "
                     "cause; the first: %s %ld repeats %s %ld); counted twice they would raise "
                     "the rate: remove them, or pass --dedupe to drop them", a.fit.log_path,
                     log.duplicates, log.duplicates == 1 ? "" : "s",
                     log.duplicates == 1 ? "s" : "", strcmp(a.format, "csv") ? "event" : "line",
                     log.duplicate_where, strcmp(a.format, "csv") ? "event" : "line",
                     log.duplicate_of);
        tmc_fault_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    if (a.dedupe && (dropped = tmc_fault_log_dedupe(&log)))
        tmc_cli_fail(0, "%s: --dedupe dropped %d exact duplicate fault%s", a.fit.log_path,
                     dropped, dropped == 1 ? "" : "s");
    tmc_fault_log_exclude(&log, a.fit.exclude, a.fit.n_exclude, excluded);
    static tmc_fit_result r; /* large: off the stack */
    if (log.n_faults == 0)
        rc = tmc_error_set(&err, "%s: every fault was left out by --exclude-cause",
                           a.fit.log_path);
    else
        rc = tmc_fit_compute(&log, &a.fit, n_read, excluded, &r, &err);
    if (progress && !rc)
        fprintf(stderr, "trainmc fit: fitted in %.1f s\n", now_s() - t0);
    r.duplicates_dropped = dropped;
    if (rc) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_fit_free(&r);
        tmc_fault_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    /* everything --write needs first: a failed command writes no file */
    char why[1024] = ""; /* the fragment as the library makes it (fit_fragment.h) */
    cJSON *doc = a.write_path ? tmc_fit_fragment_faults(&r, a.law, a.fit.log_path, why,
                                                        sizeof why)
                              : NULL;
    if (tmc_cli_is_root())
        tmc_fit_output_text(stdout, &r);
    rc = tmc_cli_check_stdout();
    if (!rc && a.write_path && !doc) {
        fprintf(stderr, "trainmc: %s; nothing written\n", why);
        rc = 1;
    }
    tmc_html_meta m = {TMC_VERSION, a.o->command_line};
    tmc_fit_html_written w = {a.write_path, doc};
    rc = finish_outputs(rc, files, paths, rc || !a.json_path ? NULL : tmc_fit_output_json(&r),
                        doc, rc || !wants_html(a.o) ? NULL : tmc_fit_html(&r, &w, &m));
    tmc_fit_free(&r);
    tmc_fault_log_free(&log);
    return rc;
}

/* The training log o names read (with --step-regex's pattern if given)
 * and fitted for --cards N. 0, or 2 after a message. */
static int read_train_log(const tmc_cli_options *o, tmc_train_log *log, tmc_train_step_fit *r)
{
    tmc_error err = {""};
    tmc_step_regex re = {0};
    double cl = o->confidence > 0 ? o->confidence : 0.95;
    if (o->step_regex && tmc_step_regex_compile(&re, o->step_regex, &err))
        return tmc_cli_usage_error("fit", "%s", err.msg);
    int rc = tmc_train_log_read(o->experiment, o->step_regex ? &re : NULL, log, &err);
    tmc_step_regex_free(&re);
    if (rc)
        return tmc_cli_fail(2, "%s", err.msg);
    if (tmc_train_step_fit_compute(log, o->cards[0], cl, r, &err)) {
        tmc_train_log_free(log);
        return tmc_cli_fail(2, "%s: %s", o->experiment, err.msg);
    }
    return 0;
}

/* fit --steps LOG --cards N on a training log (train_step_fit.h): read,
 * fit, report; exit 2 on bad input, 1 when a file cannot be written or
 * the fitted cv is outside jitter.cv's range (--write). */
static int fit_train_steps(const tmc_cli_options *o)
{
    const char *path = o->experiment, *form = o->step_regex ? "--step-regex" : "Megatron-LM";
    if (o->n_cards != 1)
        return tmc_cli_usage_error("fit", "%s is read as a training log (no .csv name, and its "
                                   "first line is no CSV header with a step column): give "
                                   "--cards N, one count, the cards whose slowest each printed "
                                   "step time is", path);
    tmc_outfile out = {0}, dist = {0}, html = {0}, *files[] = {&out, &dist, &html};
    const char *paths[] = {o->json_path, o->write_path, o->html_path};
    int rc = open_fit_outputs(files, paths);
    if (rc)
        return rc;
    tmc_train_log log;
    tmc_train_step_fit r;
    if ((rc = read_train_log(o, &log, &r))) {
        tmc_cli_abort_outputs(files, paths, 3);
        return rc;
    }
    /* everything --write needs first: a failed command writes no file */
    cJSON *doc = o->write_path ? tmc_train_step_output_distribution(&r, path, form) : NULL;
    if (tmc_cli_is_root())
        tmc_train_step_output_text(stdout, &r, &log, path, form);
    rc = tmc_cli_check_stdout();
    if (!rc && o->write_path && !doc) {
        fprintf(stderr, "trainmc: --write: the fitted cv %.4g is outside the range an "
                "experiment's jitter.cv accepts for the normal law; nothing written\n",
                r.cv.value);
        rc = 1;
    }
    tmc_html_meta m = {TMC_VERSION, o->command_line};
    tmc_fit_html_written w = {o->write_path, doc};
    tmc_train_step_report rep = {&r, &log, path, form};
    rc = finish_outputs(rc, files, paths,
                        rc || !o->json_path ? NULL
                                            : tmc_train_step_output_json(&r, &log, path, form),
                        doc, rc || !wants_html(o) ? NULL : tmc_train_step_html(&rep, &w, &m));
    tmc_train_log_free(&log);
    return rc;
}

/* fit --steps LOG: a training log (--step-regex given, or neither a .csv
 * name nor a CSV header with a step column: fit_train_steps) or a CSV of
 * per-rank times: read,
 * fit, report; exit 2 on bad input, 1 when a file cannot be written or
 * --write has no law to write. */
static int fit_steps(const tmc_cli_options *o)
{
    const char *path = o->experiment;
    double cl = o->confidence > 0 ? o->confidence : 0.95;
    int rc; /* no output names the log: tmc_cli_parse_options checked */
    if ((rc = check_log_name(path)))
        return rc;
    int csv = o->step_regex ? 0 : tmc_train_step_is_csv(path);
    if (csv == 0 || (csv < 0 && o->n_cards)) /* unreadable: the reader --cards points to */
        return fit_train_steps(o);
    if (o->n_cards)
        return tmc_cli_usage_error("fit", "--cards is for a training log; %s is a CSV of "
                                   "per-rank times (a step column), whose ranks are its cards",
                                   path);
    tmc_outfile out = {0}, dist = {0}, html = {0}, *files[] = {&out, &dist, &html};
    const char *paths[] = {o->json_path, o->write_path, o->html_path};
    if ((rc = open_fit_outputs(files, paths)))
        return rc;
    tmc_error err = {""};
    tmc_step_log log;
    tmc_step_fit r;
    if (tmc_step_log_read_csv(path, &log, &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    if (tmc_step_fit_compute(&log, cl, &r, &err)) { /* the message names no file */
        fprintf(stderr, "trainmc: %s: %s\n", path, err.msg);
        tmc_step_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 3);
        return 2;
    }
    /* everything --write needs first: a failed command writes no file */
    char why[1024] = ""; /* the fragment as the library makes it (fit_fragment.h) */
    cJSON *doc = o->write_path ? tmc_fit_fragment_steps(&r, path, why, sizeof why) : NULL;
    if (tmc_cli_is_root())
        tmc_step_fit_output_text(stdout, &r, &log, path);
    rc = tmc_cli_check_stdout();
    if (!rc && o->write_path && !doc) {
        fprintf(stderr, "trainmc: %s; nothing written\n", why);
        rc = 1;
    }
    tmc_html_meta m = {TMC_VERSION, o->command_line};
    tmc_fit_html_written w = {o->write_path, doc};
    rc = finish_outputs(rc, files, paths,
                        rc || !o->json_path ? NULL : tmc_step_fit_output_json(&r, &log, path),
                        doc, rc || !wants_html(o) ? NULL
                                                  : tmc_step_fit_html(&r, &log, path, &w, &m));
    tmc_step_fit_free(&r);
    tmc_step_log_free(&log);
    return rc;
}

int tmc_cli_fit(int argc, char **argv)
{
    tmc_cli_options o = {0}; /* 0: not given; the defaults are set after */
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    if ((rc = sacct_args(&o)))
        return rc;
    if (!o.steps && (o.n_cards || o.step_regex))
        return tmc_cli_usage_error("fit", "--%s is an option of --steps on a training log",
                                   o.n_cards ? "cards" : "step-regex");
    if (o.sacct)
        return fit_sacct(&o);
    if (o.steps)
        return (rc = steps_args(&o)) ? rc : fit_steps(&o);
    fit_args a;
    return (rc = fault_args(&o, &a)) ? rc : fit_faults(&a);
}
