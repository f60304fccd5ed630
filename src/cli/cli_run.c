/* cli_run.c - `trainmc run`: one experiment, many replicas, one report. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "engine.h"
#include "options.h"
#include "output.h"
#include "plot.h"
#include "result.h"
#include "run_html.h"
#include "samples.h"
#include "trainmc.h"

static const tmc_cli_command command = {
    "run", TMC_CLI_RUN, "EXPERIMENT.json",
    "usage: trainmc run EXPERIMENT.json [options]\n"
    "\n"
    "Simulate the experiment's training run replica by replica and print the\n"
    "completion time T (days), P(T <= deadline) with a Wilson 95 % interval, the\n"
    "overhead, event counts and the wall-time split, beside the closed forms\n"
    "(Young, Daly). When rates are drawn per replica (failures.mtbf_events,\n"
    "outages.mtbf_events, failures.repair_events), the figures are predictive,\n"
    "and the plug-in ones (the same replicas, every rate as given) are printed\n"
    "beside them (JSON: plug_in).\n"
    "\n"
    "every experiment key (unit, range, default, meaning): docs/reference/keys.md\n"};

/* The library's run options for the command's flags. */
static void run_options(const tmc_cli_options *o, int show, tmc_run_options *ro)
{
    tmc_run_options_init(ro);
    ro->threads = o->threads;
    ro->progress = show ? tmc_cli_progress_bar : NULL;
    ro->precision = o->has_precision ? o->precision.text : NULL;
    ro->importance = o->importance;
    ro->pilot_replicas = o->pilot;
    ro->importance_plain_max = o->plain_max;
    ro->summary_only = !o->samples_path;
    ro->force = o->force; /* the command refused already, with its memory line */
    ro->stop = tmc_stop_flag(); /* what the signal handler sets */
}

/* The exit code of a run that failed, after its message. */
static int run_failed(const tmc_status *st, int show)
{
    if (st->code == TMC_ERR_STOPPED) {
        fprintf(stderr, "%strainmc: %s; no results written\n", show ? "\n" : "", st->message);
        return 130;
    }
    fprintf(stderr, "trainmc: %s\n", st->message);
    return st->code == TMC_ERR_INPUT ? 2 : 1;
}

/* The output files asked for (tmc_outfile.fp NULL: not asked). */
typedef struct {
    tmc_outfile json, samples, plot, html;
} run_files;

/* --html: the page (run_html.h) with the picture --plot draws, which a
 * calendar window leaves out (it draws no completion time). 0, or 1. */
static int write_html(const tmc_result *res, const tmc_cli_options *o, run_files *f)
{
    const tmc_report *r = &res->report;
    char *svg = NULL, *page = NULL;
    tmc_error err = {""};
    if (tmc_cli_is_root()) {
        if (!tmc_window_on(r->x) &&
            !(svg = tmc_plot_run_text(res->completion_days, r->replicas, r->x, r->cf,
                                      r->days->p_met, r->days->ci_lo, r->days->ci_hi, &err))) {
            fprintf(stderr, "trainmc: %s\n", err.msg);
            return 1;
        }
        tmc_html_meta m = {TMC_VERSION, o->command_line};
        page = tmc_run_html(r, svg, &m);
        free(svg);
    }
    return tmc_cli_write_text(&f->html, page);
}

/* The report's text, then its files: --samples, --plot, --json. 0, or 1. */
static int report(const tmc_result *res, const tmc_cli_options *o, run_files *f)
{
    const tmc_report *r = &res->report;
    tmc_report text = *r;
    text.detail = o->detail;
    tmc_output_text(stdout, &text);
    if (tmc_cli_check_stdout())
        return 1;
    if (o->samples_path &&
        tmc_cli_write_text(&f->samples, tmc_samples_csv(res->samples, r->replicas, r->x)))
        return 1;
    if (o->plot_path) {
        tmc_error err = {""};
        int drawn = tmc_cli_is_root()
            ? tmc_plot_run(fileno(f->plot.fp), res->completion_days, r->replicas, r->x, r->cf,
                           r->days->p_met, r->days->ci_lo, r->days->ci_hi, &err) : 0;
        if (tmc_cli_finish_plot(&f->plot, drawn, &err))
            return 1;
    }
    if (o->html_path && write_html(res, o, f))
        return 1;
    return o->json_path ? tmc_cli_write_json(&f->json, tmc_output_json(r)) : 0;
}

/* The run, through the library (trainmc.h), then the report. */
static int simulate(const tmc_experiment *x, const tmc_cli_options *o, run_files *files)
{
    int show = !o->quiet && isatty(STDERR_FILENO);
    tmc_run_options ro;
    run_options(o, show, &ro);
    tmc_status st;
    tmc_api_keep_flag_names(1); /* its messages name this program's flags */
    tmc_result *res = tmc_experiment_run(x, &ro, &st);
    if (!res)
        return run_failed(&st, show);
    int rc = report(res, o, files);
    tmc_result_free(res);
    return rc;
}

int tmc_cli_run_experiment(const tmc_experiment *x, const tmc_cli_options *o)
{
    int rc;
    /* the plan's memory line first (issue 9) */
    if ((rc = tmc_cli_check_feasible(x, NULL, o->force)) ||
        (rc = tmc_cli_check_finishable(x, NULL)))
        return rc;
    if (tmc_window_on(x) && (o->samples_path || o->plot_path)) { /* they draw T per replica */
        fprintf(stderr, "trainmc: %s: window: --%s draws completion times, which a calendar "
                        "window cuts; its goodput is in the report and --json\n", x->path,
                o->samples_path ? "samples" : "plot");
        return 2;
    }
    const char *flags[] = {"json", "samples", "plot", "html"};
    const char *paths[] = {o->json_path, o->samples_path, o->plot_path, o->html_path};
    run_files files = {0};
    tmc_outfile *f[] = {&files.json, &files.samples, &files.plot, &files.html};
    if ((rc = tmc_cli_open_outputs(f, flags, paths, 4, x)))
        return rc;
    tmc_cli_catch_stop_signals();
    if ((rc = simulate(x, o, &files)))
        tmc_cli_abort_outputs(f, paths, 4);
    return rc;
}

int tmc_cli_run(int argc, char **argv)
{
    return tmc_cli_main(&command, argc, argv, tmc_cli_run_experiment);
}
