/* cli_sensitivity.c - `trainmc sensitivity`: which input moves the
 * completion time and P(deadline) most (a tornado under common random
 * numbers), and a compound case with the gain of fixing each degradation
 * alone. The logic is in sensitivity.h, the report in
 * sensitivity_output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "ranks.h"
#include "sensitivity.h"
#include "sensitivity_html.h"
#include "sensitivity_output.h"

static const tmc_cli_command command = {
    "sensitivity", TMC_CLI_SENSITIVITY, "EXPERIMENT.json",
    "usage: trainmc sensitivity EXPERIMENT.json [--inputs FILE.json] [--compound KEY=V,...]\n"
    "                           [options]\n"
    "\n"
    "Move each uncertain input to the low and the high end of its range, the others\n"
    "held, and print its effect on the mean completion time T and on P(T <= deadline)\n"
    "against the experiment as it stands, ranked by the swing (a tornado). Every\n"
    "setting runs the same replicas and seed (common random numbers), so each\n"
    "difference carries its own small standard error. Without --inputs: efficiency,\n"
    "the link bandwidth with prefetch working and failed, input wait, jitter cv,\n"
    "MTBF, save and restore times over ranges from docs/model.md. With --compound,\n"
    "also those degradations at once, each alone, and the gain from fixing each one\n"
    "alone.\n"};

/* The run's state, for the exit paths. */
typedef struct {
    const tmc_cli_options *o;
    tmc_sensitivity *s;
    int threads;
    int show;         /* progress bar */
    tmc_outfile json; /* --json */
    tmc_outfile plot; /* --plot */
    tmc_outfile html; /* --html */
} sensitivity_run;

/* Load the experiment, the inputs and the compound. 0, or 2 with a
 * message. */
static int load(sensitivity_run *sr)
{
    const tmc_cli_options *o = sr->o;
    tmc_error err = {""};
    tmc_sweep_source src = {.path = o->experiment};
    int rc = tmc_sensitivity_load(sr->s, &src, o->sets, o->n_sets, o->inputs_path,
                                  o->compound, &err) ? 2 : 0;
    /* a rank that cannot read a file fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    sr->threads = o->threads ? (int)o->threads : tmc_runner_default_threads();
    sr->show = !o->quiet && isatty(STDERR_FILENO);
    return tmc_cli_check_same_experiment(&sr->s->base.setting.x, o->experiment);
}

/* The base's memory line (the others' only when they do not fit), then
 * every setting refused that does not fit or cannot finish. 0, or 2. */
static int check_settings(sensitivity_run *sr)
{
    tmc_sensitivity_run *runs[TMC_SENSITIVITY_MAX_RUNS];
    int n = tmc_sensitivity_list_runs(sr->s, runs), rc;
    const tmc_experiment *x = &runs[0]->setting.x;
    if ((rc = tmc_cli_check_feasible(x, NULL, sr->o->force)) ||
        (rc = tmc_cli_check_finishable(x, NULL)))
        return rc;
    tmc_sensitivity_skip_unrunnable(sr->s, sr->o->force);
    n = tmc_sensitivity_list_runs(sr->s, runs);
    for (int i = 1; i < n && !rc; i++)
        rc = tmc_cli_refuse_setting(&runs[i]->setting, (void *)sr->o, NULL, 0);
    return rc;
}

/* --json and --plot opened before any simulation: the picture must be
 * FILE.svg, and not the JSON's file. 0, or 2 with a message. */
static int open_outputs(sensitivity_run *sr)
{
    int rc = tmc_cli_open_json_svg(&sr->json, sr->o->json_path, &sr->plot,
                                   sr->o->plot_path, &sr->s->base.setting.x);
    if (!rc && sr->o->html_path &&
        (rc = tmc_cli_open_output(&sr->html, sr->o->html_path, &sr->s->base.setting.x))) {
        tmc_outfile *const file[2] = {&sr->json, &sr->plot}; /* opened above */
        const char *const path[2] = {sr->o->json_path, sr->o->plot_path};
        tmc_cli_abort_outputs(file, path, 2);
    }
    return rc;
}

static void abort_outputs(sensitivity_run *sr)
{
    tmc_outfile *const file[3] = {&sr->json, &sr->plot, &sr->html};
    const char *const path[3] = {sr->o->json_path, sr->o->plot_path, sr->o->html_path};
    tmc_cli_abort_outputs(file, path, 3);
}

/* The text, then --plot and --json. 0, or 1. */
static int report(sensitivity_run *sr, double elapsed_s)
{
    tmc_sensitivity_report rep = {.s = sr->s, .threads = sr->threads, .elapsed_s = elapsed_s};
    tmc_sensitivity_output_text(stdout, &rep);
    if (tmc_cli_check_stdout())
        return 1;
    if (sr->o->plot_path && tmc_cli_write_text(&sr->plot, tmc_sensitivity_output_svg(&rep)))
        return 1;
    tmc_html_meta m = {TMC_VERSION, sr->o->command_line};
    if (sr->o->html_path &&
        tmc_cli_write_text(&sr->html, tmc_cli_is_root() ? tmc_sensitivity_html(&rep, &m) : NULL))
        return 1;
    return sr->o->json_path ? tmc_cli_write_json(&sr->json, tmc_sensitivity_output_json(&rep))
                            : 0;
}

static int sensitivity(sensitivity_run *sr)
{
    int rc = load(sr);
    if (rc || (rc = check_settings(sr)) || (rc = open_outputs(sr)))
        return rc;
    tmc_sensitivity_options so = {.threads = sr->threads,
                                  .progress = sr->show ? tmc_cli_progress_bar : NULL};
    tmc_error err = {""};
    tmc_cli_catch_stop_signals();
    double t0 = tmc_cli_now_s();
    rc = tmc_sensitivity_run_all(sr->s, &so, &err);
    if (rc) {
        fprintf(stderr, "%strainmc: %s%s\n", rc == TMC_RUNNER_STOPPED && sr->show ? "\n" : "",
                err.msg, rc == TMC_RUNNER_STOPPED ? "; no results written" : "");
        rc = rc == TMC_RUNNER_STOPPED ? 130 : 1;
    } else {
        rc = report(sr, tmc_cli_now_s() - t0);
    }
    if (rc)
        abort_outputs(sr);
    return rc;
}

int tmc_cli_sensitivity(int argc, char **argv)
{
    tmc_cli_options o;
    memset(&o, 0, sizeof o);
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    sensitivity_run sr = {.o = &o, .s = calloc(1, sizeof *sr.s)};
    if (!sr.s) {
        fprintf(stderr, "trainmc: out of memory\n");
        return 1;
    }
    rc = sensitivity(&sr);
    tmc_sensitivity_free(sr.s);
    free(sr.s);
    return rc;
}
