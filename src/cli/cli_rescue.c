/* cli_rescue.c - `trainmc rescue`: for a plan that misses its target, the
 * smallest change of each lever alone that meets it, by bisection under
 * common random numbers. The logic is in rescue.h, the report in
 * rescue_output.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "ranks.h"
#include "rescue.h"
#include "rescue_html.h"
#include "rescue_output.h"

static const tmc_cli_command command = {
    "rescue", TMC_CLI_RESCUE, "EXPERIMENT.json",
    "usage: trainmc rescue EXPERIMENT.json [--target METRIC>=VALUE] [--levers KEYS] [options]\n"
    "\n"
    "Run the plan as it stands; if it misses the target (default\n"
    "deadline.probability>=0.9), find for each lever alone the smallest change that\n"
    "meets it, by bisection: fewer steps (down to 10 % of them), a later deadline\n"
    "(doubled until it meets, at most 64x), a higher efficiency (up to 1), more\n"
    "cards (up to 4x), the checkpoint interval moved toward Daly's optimum (the\n"
    "two-level form's with checkpoint.persistent_every above 1), and\n"
    "each recovery time that applies down to 0 (the restore, each cause's detection\n"
    "and restore, the heal, spare provisioning, repair). Every evaluation runs the\n"
    "same replicas and seed (common random numbers). Print per lever the value found\n"
    "and its neighbour that misses, each with the metric's 95 % interval, or the best\n"
    "it reached when no value in its bracket meets; beside a recovery lever, where\n"
    "the closed form meets the target.\n"};

/* The run's state, for the exit paths. */
typedef struct {
    const tmc_cli_options *o;
    tmc_rescue *r;
    int threads;
    int show;        /* progress bar */
    tmc_outfile out; /* --json */
    tmc_outfile html; /* --html */
} rescue_run;

/* Exit code of a failed simulation: 130 when stopped by a signal, else 1. */
static int run_failed(const rescue_run *rr, int rc, const tmc_error *err)
{
    fprintf(stderr, "%strainmc: %s%s\n", rc == TMC_RUNNER_STOPPED && rr->show ? "\n" : "",
            err->msg, rc == TMC_RUNNER_STOPPED ? "; no results written" : "");
    return rc == TMC_RUNNER_STOPPED ? 130 : 1;
}

/* Load the plan and its levers, check the plan (its memory line first).
 * 0, or 2 with a message. */
static int load(rescue_run *rr, const tmc_sweep_target *target)
{
    const tmc_cli_options *o = rr->o;
    tmc_error err = {""};
    tmc_sweep_source src = {.path = o->experiment};
    int rc = tmc_rescue_load(rr->r, &src, o->sets, o->n_sets, target, o->levers, &err) ? 2 : 0;
    /* a rank that cannot read the file fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    const tmc_experiment *x = &rr->r->plan.x;
    if ((rc = tmc_cli_check_same_experiment(x, o->experiment)) ||
        (rc = tmc_cli_check_feasible(x, NULL, o->force)) ||
        (rc = tmc_cli_check_finishable(x, NULL)))
        return rc;
    rr->threads = o->threads ? (int)o->threads : tmc_runner_default_threads();
    rr->show = !o->quiet && isatty(STDERR_FILENO);
    return 0;
}

/* The plan, then every lever that applies (none when the plan meets the
 * target). 0, or the exit code of a failure. */
static int simulate(rescue_run *rr)
{
    tmc_rescue *r = rr->r;
    tmc_rescue_options ro = {.threads = rr->threads,
                             .progress = rr->show ? tmc_cli_progress_bar : NULL,
                             .check = tmc_cli_refuse_setting, .check_ctx = (void *)rr->o};
    tmc_error err = {""};
    int rc = tmc_rescue_run_plan(r, &ro, &err);
    for (int i = 0; !rc && !tmc_rescue_plan_meets(r) && i < r->n_levers; i++)
        if (r->levers[i].outcome == TMC_RESCUE_PENDING)
            rc = tmc_rescue_run_lever(r, i, &ro, &err);
    return rc ? run_failed(rr, rc, &err) : 0;
}

/* --json and --html, opened before any simulation (not on an input). 0, or
 * 2 with a message. */
static int open_outputs(rescue_run *rr)
{
    const tmc_cli_options *o = rr->o;
    const tmc_experiment *x = &rr->r->plan.x;
    int rc = o->json_path ? tmc_cli_open_output(&rr->out, o->json_path, x) : 0;
    if (!rc && o->html_path && (rc = tmc_cli_open_output(&rr->html, o->html_path, x)) &&
        o->json_path)
        tmc_output_abort(&rr->out); /* opened above */
    return rc;
}

static void abort_outputs(rescue_run *rr)
{
    tmc_outfile *const file[2] = {&rr->out, &rr->html};
    const char *const path[2] = {rr->o->json_path, rr->o->html_path};
    tmc_cli_abort_outputs(file, path, 2);
}

/* The text, then --html and --json. 0, or 1. */
static int report(rescue_run *rr, double elapsed_s)
{
    tmc_rescue_report rep = {.rescue = rr->r, .threads = rr->threads, .elapsed_s = elapsed_s};
    tmc_rescue_output_text(stdout, &rep);
    if (tmc_cli_check_stdout())
        return 1;
    tmc_html_meta m = {TMC_VERSION, rr->o->command_line};
    if (rr->o->html_path &&
        tmc_cli_write_text(&rr->html, tmc_cli_is_root() ? tmc_rescue_html(&rep, &m) : NULL))
        return 1;
    return rr->o->json_path ? tmc_cli_write_json(&rr->out, tmc_rescue_output_json(&rep)) : 0;
}

static int rescue(rescue_run *rr)
{
    const tmc_cli_options *o = rr->o;
    tmc_sweep_target target;
    tmc_error err = {""};
    const char *text = o->target ? o->target : TMC_RESCUE_DEFAULT_TARGET;
    if (tmc_sweep_parse_target(text, &target, &err))
        return tmc_cli_usage_error("rescue", "%s", err.msg);
    int rc = load(rr, &target);
    if (rc || (rc = open_outputs(rr)))
        return rc;
    tmc_cli_catch_stop_signals();
    double t0 = tmc_cli_now_s();
    if (!(rc = simulate(rr)))
        rc = report(rr, tmc_cli_now_s() - t0);
    if (rc)
        abort_outputs(rr);
    return rc;
}

int tmc_cli_rescue(int argc, char **argv)
{
    tmc_cli_options o;
    memset(&o, 0, sizeof o);
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    rescue_run rr = {.o = &o, .r = calloc(1, sizeof *rr.r)};
    if (!rr.r) {
        fprintf(stderr, "trainmc: out of memory\n");
        return 1;
    }
    rc = rescue(&rr);
    tmc_rescue_free(rr.r);
    free(rr.r);
    return rc;
}
