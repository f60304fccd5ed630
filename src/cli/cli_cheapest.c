/* cli_cheapest.c - `trainmc cheapest`: the cheapest plan (card count,
 * checkpoint interval, spares, sync or async saves) whose P(deadline) meets
 * a target, searched under common random numbers and confirmed on fresh
 * replicas. The logic is in cheapest.h, the report in cheapest_output.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cheapest.h"
#include "cheapest_html.h"
#include "cheapest_output.h"
#include "cli.h"
#include "options.h"
#include "ranks.h"

static const tmc_cli_command command = {
    "cheapest", TMC_CLI_CHEAPEST, "EXPERIMENT.json",
    "usage: trainmc cheapest EXPERIMENT.json [--target P] [--lever KEY=VALUES ...]\n"
    "                        [--async-copy-s S] [options]\n"
    "\n"
    "Find the plan of lowest expected cost (money with a cost section, else\n"
    "card-hours) whose P(T <= deadline) meets the target (default 0.9), over several\n"
    "levers at once: job.cards=LO:HI (default half to twice the experiment's), the\n"
    "experiment's checkpoint interval key, failures.spares, failures.standbys,\n"
    "slowdown.refresh_hours and checkpoint.persistent_every (lists V1,V2,... or\n"
    "START:STOP:STEP) and checkpoint.mode=sync,async. Per combination of the other\n"
    "levers, 5 card counts across the range, then bisection to the fewest cards that\n"
    "meet; every plan runs the same replicas and seed (common random numbers). The 3\n"
    "cheapest plans that meet, each also with one card more, are re-run on fresh\n"
    "replicas and the cheapest that meets there is chosen. Print it with its cost and\n"
    "P and their 95 % intervals, and the cost-probability frontier of the plans run.\n"};

/* The run's state, for the exit paths. */
typedef struct {
    const tmc_cli_options *o;
    tmc_cheapest *c;
    int threads;
    int show;         /* progress bar */
    tmc_outfile json; /* --json */
    tmc_outfile plot; /* --plot */
    tmc_outfile html; /* --html */
} cheapest_run;

/* Load the experiment and the levers, check the experiment as given (its
 * memory line first). 0, or 2 with a message. */
static int load(cheapest_run *cr, const tmc_sweep_target *target)
{
    const tmc_cli_options *o = cr->o;
    tmc_error err = {""};
    tmc_sweep_source src = {.path = o->experiment};
    int rc = tmc_cheapest_load(cr->c, &src, o->sets, o->n_sets, target, o->search_levers,
                               o->n_search_levers, o->async_copy_s, &err)
                 ? 2 : 0;
    /* a rank that cannot read the file fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    const tmc_experiment *x = &cr->c->base.x;
    if ((rc = tmc_cli_check_same_experiment(x, o->experiment)) ||
        (rc = tmc_cli_check_feasible(x, NULL, 1)))
        return rc;
    cr->threads = o->threads ? (int)o->threads : tmc_runner_default_threads();
    cr->show = !o->quiet && isatty(STDERR_FILENO);
    return 0;
}

/* --json, --plot and --html, opened before any simulation: the picture
 * must be FILE.svg, and not the JSON's file. 0, or 2 with a message. */
static int open_outputs(cheapest_run *cr)
{
    int rc = tmc_cli_open_json_svg(&cr->json, cr->o->json_path, &cr->plot,
                                   cr->o->plot_path, &cr->c->base.x);
    if (!rc && cr->o->html_path &&
        (rc = tmc_cli_open_output(&cr->html, cr->o->html_path, &cr->c->base.x))) {
        tmc_outfile *const file[2] = {&cr->json, &cr->plot}; /* opened above */
        const char *const path[2] = {cr->o->json_path, cr->o->plot_path};
        tmc_cli_abort_outputs(file, path, 2);
    }
    return rc;
}

static void abort_outputs(cheapest_run *cr)
{
    tmc_outfile *const file[3] = {&cr->json, &cr->plot, &cr->html};
    const char *const path[3] = {cr->o->json_path, cr->o->plot_path, cr->o->html_path};
    tmc_cli_abort_outputs(file, path, 3);
}

/* The text, then --plot, --html and --json. 0, or 1. */
static int report(cheapest_run *cr, double elapsed_s)
{
    tmc_cheapest_report rep = {.c = cr->c, .threads = cr->threads, .elapsed_s = elapsed_s};
    /* the chosen plan's experiment: what its report says it assumes */
    tmc_sweep_setting chosen = {0}; /* owns nothing until loaded */
    tmc_error err = {""};
    if (cr->c->chosen >= 0) {
        const tmc_cheapest_plan *p = &cr->c->plans[cr->c->chosen];
        if (tmc_cheapest_load_setting(cr->c, p->combo, p->cards, &chosen, &err)) {
            fprintf(stderr, "trainmc: %s\n", err.msg);
            tmc_experiment_release(&chosen.x);
            return 1;
        }
        rep.chosen = &chosen;
    }
    tmc_cheapest_output_text(stdout, &rep);
    int rc = tmc_cli_check_stdout();
    if (!rc && cr->o->plot_path && tmc_cli_write_text(&cr->plot, tmc_cheapest_output_svg(&rep)))
        rc = 1;
    tmc_html_meta m = {TMC_VERSION, cr->o->command_line};
    if (!rc && cr->o->html_path &&
        tmc_cli_write_text(&cr->html, tmc_cli_is_root() ? tmc_cheapest_html(&rep, &m) : NULL))
        rc = 1;
    if (!rc && cr->o->json_path)
        rc = tmc_cli_write_json(&cr->json, tmc_cheapest_output_json(&rep));
    tmc_experiment_release(&chosen.x);
    return rc;
}

static int cheapest(cheapest_run *cr)
{
    const tmc_cli_options *o = cr->o;
    tmc_sweep_target target;
    tmc_error err = {""};
    const char *text = o->target ? o->target : TMC_CHEAPEST_DEFAULT_TARGET;
    if (tmc_cheapest_parse_target(text, &target, &err))
        return tmc_cli_usage_error("cheapest", "%s", err.msg);
    int rc = load(cr, &target);
    if (rc || (rc = open_outputs(cr)))
        return rc;
    tmc_cheapest_options co = {.threads = cr->threads,
                               .progress = cr->show ? tmc_cli_progress_bar : NULL,
                               .check = tmc_cheapest_check_plan,
                               .check_ctx = (void *)&o->force};
    tmc_cli_catch_stop_signals();
    double t0 = tmc_cli_now_s();
    rc = tmc_cheapest_run(cr->c, &co, &err);
    if (rc) {
        fprintf(stderr, "%strainmc: %s%s\n", rc == TMC_RUNNER_STOPPED && cr->show ? "\n" : "",
                err.msg, rc == TMC_RUNNER_STOPPED ? "; no results written" : "");
        rc = rc == TMC_RUNNER_STOPPED ? 130 : 1;
    } else {
        rc = report(cr, tmc_cli_now_s() - t0);
    }
    if (rc)
        abort_outputs(cr);
    return rc;
}

int tmc_cli_cheapest(int argc, char **argv)
{
    tmc_cli_options o;
    memset(&o, 0, sizeof o);
    o.async_copy_s = NAN; /* not given */
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    cheapest_run cr = {.o = &o, .c = calloc(1, sizeof *cr.c)};
    if (!cr.c) {
        fprintf(stderr, "trainmc: out of memory\n");
        return 1;
    }
    rc = cheapest(&cr);
    tmc_cheapest_free(cr.c);
    free(cr.c);
    return rc;
}
