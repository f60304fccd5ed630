/* cli_forecast.c - `trainmc forecast EXPERIMENT.json --history FILE.jsonl`:
 * P(deadline) forecast at every snapshot a training job appended to its
 * history (issue 18), all with the same replicas and seed. The snapshots
 * are read in observed_input.h, run in forecast_history.h, reported in
 * forecast_history_output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "forecast_history.h"
#include "forecast_history_output.h"
#include "forecast_html.h"
#include "options.h"
#include "observed_input.h"
#include "ranks.h"

static const tmc_cli_command command = {
    "forecast", TMC_CLI_FORECAST, "EXPERIMENT.json",
    "usage: trainmc forecast EXPERIMENT.json --history FILE.jsonl [options]\n"
    "       trainmc forecast EXPERIMENT.json --log LOG [--step-regex REGEX] [options]\n"
    "\n"
    "A history of forecasts: each line of FILE.jsonl is a progress snapshot, a JSON\n"
    "object with the keys of the experiment's progress section (the state a training\n"
    "job appends as it runs). Forecast the experiment from every snapshot, with the\n"
    "same replicas and seed (common random numbers), and print a row per snapshot:\n"
    "its line, elapsed day, step, last commit and failures; the mean completion time\n"
    "T (days) +- se, the mean time left, P(T <= deadline) with its Wilson 95 %\n"
    "interval, and the change of P from the previous row +- its se. Every snapshot\n"
    "is checked before any runs (\"FILE:LINE: ...\"); blank lines are skipped.\n"
    "\n"
    "With --log, the progress section is made from a running job's own training log\n"
    "(Megatron-LM's iteration lines, or --step-regex's): the latest iteration, the\n"
    "newest checkpoint line, the restarts as failures, the mean step time and its\n"
    "spread, the wall time from the stamps; then the experiment runs from it exactly\n"
    "as `trainmc run --progress FILE` runs that object.\n"};

/* The command's state, for the exit paths. */
typedef struct {
    const tmc_cli_options *o;
    tmc_experiment x;
    tmc_forecast_history h;
    int threads;
    tmc_outfile json, plot, html;
} forecast_run;

/* Every snapshot read and checked, then each one's forecast judged
 * finishable. 0, or 2 after a message. */
static int load_history(forecast_run *fr)
{
    tmc_error err = {""};
    tmc_observed_snapshot *snaps = NULL;
    int n = 0;
    int rc = tmc_observed_input_read_history(&fr->x, fr->o->history_path, &snaps, &n, &err)
                 ? 2 : 0;
    if (!rc && tmc_forecast_history_init(&fr->h, &fr->x, fr->o->history_path, snaps, n, &err))
        rc = 1;
    free(snaps);
    /* a rank that cannot read the file fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    for (int i = 0; i < fr->h.n && !rc; i++) {
        char setting[TMC_PATH_MAX + 24];
        snprintf(setting, sizeof setting, "%s:%ld", fr->o->history_path,
                 fr->h.points[i].snap.line);
        tmc_experiment at = fr->x; /* a view with the snapshot's progress, never released */
        at.observed = fr->h.points[i].snap.observed;
        rc = tmc_cli_check_finishable(&at, setting);
    }
    return rc;
}

static void abort_outputs(forecast_run *fr)
{
    tmc_outfile *const file[3] = {&fr->json, &fr->plot, &fr->html};
    const char *const path[3] = {fr->o->json_path, fr->o->plot_path, fr->o->html_path};
    tmc_cli_abort_outputs(file, path, 3);
}

/* The table, then --plot and --json. 0, or 1. */
static int report(forecast_run *fr, double elapsed_s)
{
    tmc_forecast_history_report rep = {.h = &fr->h, .threads = fr->threads,
                                       .elapsed_s = elapsed_s};
    tmc_forecast_history_output_text(stdout, &rep);
    if (tmc_cli_check_stdout())
        return 1;
    if (fr->o->plot_path &&
        tmc_cli_write_text(&fr->plot, tmc_forecast_history_output_svg(&rep)))
        return 1;
    tmc_html_meta m = {TMC_VERSION, fr->o->command_line};
    if (fr->o->html_path &&
        tmc_cli_write_text(&fr->html, tmc_cli_is_root() ? tmc_forecast_html(&rep, &m) : NULL))
        return 1;
    return fr->o->json_path
        ? tmc_cli_write_json(&fr->json, tmc_forecast_history_output_json(&rep)) : 0;
}

/* Run every snapshot, then report; the outputs are removed on a failure. */
static int simulate(forecast_run *fr)
{
    int show = !fr->o->quiet && isatty(STDERR_FILENO);
    tmc_error err = {""};
    tmc_cli_catch_stop_signals();
    double t0 = tmc_cli_now_s();
    int rc = tmc_forecast_history_run(&fr->h, fr->threads, show ? tmc_cli_progress_bar : NULL,
                                      NULL, NULL, &err);
    if (rc) {
        fprintf(stderr, "%strainmc: %s%s\n", rc == TMC_RUNNER_STOPPED && show ? "\n" : "",
                err.msg, rc == TMC_RUNNER_STOPPED ? "; no results written" : "");
        rc = rc == TMC_RUNNER_STOPPED ? 130 : 1;
    } else {
        rc = report(fr, tmc_cli_now_s() - t0);
    }
    if (rc)
        abort_outputs(fr);
    return rc;
}

/* The options that only --log takes, refused with --history. 0, or 2. */
static int history_args(const tmc_cli_options *o)
{
    const char *name = o->step_regex ? "step-regex" : o->elapsed_days > 0 ? "elapsed-days"
                     : o->has_committed_step ? "committed-step"
                     : o->write_progress_path ? "write-progress" : NULL;
    return name ? tmc_cli_usage_error(command.name, "--%s reads a training log: it needs "
                                      "--log LOG", name) : 0;
}

/* --plot draws a history; --log's run is `trainmc run`'s. 0, or 2. */
static int log_args(const tmc_cli_options *o)
{
    return o->plot_path ? tmc_cli_usage_error(command.name, "--plot draws a history's "
                                              "forecasts; with --log, --write-progress FILE "
                                              "and `trainmc run --progress FILE --plot` draw "
                                              "the one forecast") : 0;
}

static int forecast(forecast_run *fr, int argc, char **argv, tmc_cli_options *o)
{
    int rc = tmc_cli_start(&command, argc, argv, o, &fr->x);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    if (o->history_path && o->log_path)
        return tmc_cli_usage_error(command.name, "--history and --log: give one (snapshots, "
                                   "or a training log)");
    if (o->log_path)
        return log_args(o) ? 2 : tmc_cli_forecast_log(&fr->x, o);
    if (!o->history_path)
        return tmc_cli_usage_error(command.name, "--history FILE.jsonl or --log LOG is "
                                   "required (the snapshots, or the training log, to "
                                   "forecast from)");
    if ((rc = history_args(o)))
        return rc;
    /* the plan's memory line first, as `trainmc run` */
    if ((rc = tmc_cli_check_feasible(&fr->x, NULL, o->force)) || (rc = load_history(fr)) ||
        (rc = tmc_cli_open_json_svg(&fr->json, o->json_path, &fr->plot, o->plot_path,
                                    &fr->x)))
        return rc;
    if (o->html_path && (rc = tmc_cli_open_output(&fr->html, o->html_path, &fr->x))) {
        tmc_outfile *const file[2] = {&fr->json, &fr->plot}; /* opened above */
        const char *const path[2] = {o->json_path, o->plot_path};
        tmc_cli_abort_outputs(file, path, 2);
        return rc;
    }
    fr->threads = o->threads ? (int)o->threads : tmc_runner_default_threads();
    return simulate(fr);
}

int tmc_cli_forecast(int argc, char **argv)
{
    tmc_cli_options o;
    forecast_run fr = {.o = &o}; /* x owns nothing until loaded */
    int rc = forecast(&fr, argc, argv, &o);
    tmc_forecast_history_free(&fr.h);
    tmc_experiment_release(&fr.x);
    return rc;
}
