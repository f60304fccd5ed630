/* cli_run.c - `trainmc run`: one experiment, many replicas, one report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "importance.h"
#include "options.h"
#include "precision.h"
#include "output.h"
#include "plot.h"
#include "ranks.h"
#include "runner.h"
#include "samples.h"
#include "stats.h"

static const tmc_cli_command command = {
    "run", TMC_CLI_RUN, "EXPERIMENT.json",
    "usage: trainmc run EXPERIMENT.json [options]\n"
    "\n"
    "Simulate the experiment's training run replica by replica and print the\n"
    "completion time T (days), P(T <= deadline) with a Wilson 95 % interval, the\n"
    "overhead, event counts and the wall-time split, beside the closed forms\n"
    "(Young, Daly).\n"
    "\n"
    "every experiment key (type, range, default, meaning): docs/experiment-keys.md\n"};

/* Exit code of a failed importance step, after its message. */
static int importance_failed(int rc, const tmc_error *err)
{
    fprintf(stderr, "trainmc: %s%s\n", err->msg,
            rc == TMC_RUNNER_STOPPED ? "; no results written" : "");
    return rc == TMC_RUNNER_STOPPED ? 130 : rc == TMC_IMPORTANCE_INVALID ? 2 : 1;
}

/* Importance sampling (importance.h), if asked: its tilt is checked or
 * chosen by the pilots before the plain replicas run (a failure there costs
 * no finished work); the estimate runs after them. */
static int prepare_importance(tmc_engine *e, const tmc_experiment *x,
                              const tmc_cli_options *o, int threads, tmc_importance *is)
{
    tmc_error err = {""};
    int rc = tmc_importance_prepare(e, o->importance, o->pilot ? o->pilot : 1000,
                                    x->monte_carlo.seed, threads, is, &err);
    return rc ? importance_failed(rc, &err) : 0;
}

static int estimate_importance(tmc_engine *e, const tmc_experiment *x, int threads,
                               tmc_importance *is)
{
    tmc_error err = {""};
    int rc = tmc_importance_estimate(e, x->monte_carlo.replicas, x->monte_carlo.seed, threads,
                                     is, &err);
    return rc ? importance_failed(rc, &err) : 0;
}

/* All replicas at once, or, with a precision target, batches until it is
 * met or the budget is spent (precision.h). *used: replicas run. */
static int run_batches(const tmc_experiment *x, const tmc_engine *e,
                       const tmc_cli_options *o, int threads, int show, double *wall,
                       tmc_sample *samples, tmc_replica *totals, tmc_precision_outcome *po,
                       long *used, tmc_error *err)
{
    long budget = x->monte_carlo.replicas;
    tmc_progress_fn bar = show ? tmc_cli_progress_bar : NULL;
    if (!o->has_precision) {
        *used = budget;
        return tmc_runner_run_samples(e, 0, budget, x->monte_carlo.seed, threads, bar, NULL,
                                      wall, samples, totals, err);
    }
    memset(totals, 0, sizeof *totals);
    long done = 0;
    po->reached = 0;
    while (done < budget && !po->reached) {
        long n = budget - done < TMC_PRECISION_BATCH ? budget - done : TMC_PRECISION_BATCH;
        tmc_replica batch;
        int rc = tmc_runner_run_samples(e, done, n, x->monte_carlo.seed, threads, NULL, NULL,
                                        wall + done, samples ? samples + done : NULL, &batch,
                                        err);
        if (rc)
            return rc;
        tmc_accounting_accumulate(totals, &batch);
        done += n;
        po->reached = tmc_precision_met(&o->precision, wall, done, &x->deadline,
                                        &po->half_width, &po->value);
        if (bar)
            bar(done, budget, NULL);
    }
    if (bar && done < budget)
        bar(budget, budget, NULL); /* clears the bar */
    *used = done;
    return 0;
}

/* Run the replicas and summarise completion days; fills *days and *totals,
 * *samples (malloc'd, o->samples_path only) and *sorted (the completion
 * days in ascending order, malloc'd, o->plot_path only). e is NULL if
 * building the engine ran out of memory on this rank. */
static int run_replicas(const tmc_experiment *x, const tmc_engine *e,
                        const tmc_cli_options *o, int threads, int show, tmc_summary *days,
                        tmc_replica *totals, tmc_sample **samples, double **sorted,
                        tmc_precision_outcome *po, long *used)
{
    long n = x->monte_carlo.replicas;
    double *wall = e ? malloc((size_t)n * sizeof *wall) : NULL;
    *samples = e && o->samples_path ? malloc((size_t)n * sizeof **samples) : NULL;
    tmc_error err = {""};
    int rc = !e ? tmc_error_set(&err, "out of memory building the engine")
             : !wall || (o->samples_path && !*samples)
                 ? tmc_error_set(&err, "out of memory for %ld replicas", n) : 0;
    /* all ranks fail together, or all run (ranks.h) */
    if (!(rc = tmc_ranks_agree(rc, &err)))
        rc = run_batches(x, e, o, threads, show, wall, *samples, totals, po, used, &err);
    if (!rc) {
        for (long k = 0; k < *used; k++)
            wall[k] = x->deadline.reserve_days + wall[k] / TMC_DAY_S;
        tmc_stats_summarize(wall, *used, x->deadline.days, days); /* sorts wall */
    }
    if (!rc && o->plot_path)
        *sorted = wall, wall = NULL;
    free(wall);
    if (rc == TMC_RUNNER_STOPPED) {
        fprintf(stderr, "%strainmc: %s; no results written\n", show ? "\n" : "", err.msg);
        return 130;
    }
    if (rc)
        fprintf(stderr, "trainmc: %s\n", err.msg);
    return rc ? 1 : 0;
}

/* The output files asked for (tmc_outfile.fp NULL: not asked). */
typedef struct {
    tmc_outfile json, samples, plot;
} run_files;

/* The report's text, then its files: --samples, --plot, --json. 0, or 1. */
static int report(const tmc_report *r, const tmc_cli_options *o, const tmc_sample *samples,
                  const double *sorted, run_files *f)
{
    tmc_output_text(stdout, r);
    if (tmc_cli_check_stdout())
        return 1;
    if (o->samples_path &&
        tmc_cli_write_text(&f->samples, tmc_samples_csv(samples, r->replicas, r->x)))
        return 1;
    if (o->plot_path) {
        tmc_error err = {""};
        int drawn = tmc_cli_is_root()
            ? tmc_plot_run(fileno(f->plot.fp), sorted, r->replicas, r->x, r->cf, r->days->p_met,
                           r->days->ci_lo, r->days->ci_hi, &err) : 0;
        if (tmc_cli_finish_plot(&f->plot, drawn, &err))
            return 1;
    }
    return o->json_path ? tmc_cli_write_json(&f->json, tmc_output_json(r)) : 0;
}

static int simulate(const tmc_experiment *x, const tmc_closed_form *cf,
                    const tmc_cli_options *o, run_files *files)
{
    tmc_engine e;
    int built = tmc_engine_init(&e, x, cf) == 0;
    int threads = o->threads ? o->threads : tmc_runner_default_threads();
    tmc_replica totals;
    tmc_summary days;
    double t0 = tmc_cli_now_s();
    tmc_precision_outcome po = {.target = o->has_precision ? &o->precision : NULL};
    long used = 0;
    tmc_importance is = {.theta = {1, 1, 1}};
    tmc_sample *samples = NULL;
    double *sorted = NULL;
    int rc = built && o->importance ? prepare_importance(&e, x, o, threads, &is) : 0;
    if (!rc)
        rc = run_replicas(x, built ? &e : NULL, o, threads, !o->quiet && isatty(STDERR_FILENO),
                          &days, &totals, &samples, &sorted, &po, &used);
    if (!rc && o->importance)
        rc = estimate_importance(&e, x, threads, &is);
    if (rc) { /* always, when the engine was not built */
        if (built)
            tmc_engine_free(&e);
        free(samples);
        free(sorted);
        return rc;
    }
    tmc_report r = {.x = x, .cf = cf, .days = &days, .totals = &totals,
                    .replicas = used, .seed = x->monte_carlo.seed,
                    .threads = threads, .elapsed_s = tmc_cli_now_s() - t0,
                    .mode = tmc_engine_mode(x), .table_error = e.stragglers.max.max_error,
                    .horizon_s = e.horizon_s,
                    .overrides = o->sets, .n_overrides = o->n_sets,
                    .importance = o->importance ? &is : NULL,
                    .precision = o->has_precision ? &po : NULL};
    tmc_engine_free(&e);
    rc = report(&r, o, samples, sorted, files);
    free(samples);
    free(sorted);
    return rc;
}

int tmc_cli_run(int argc, char **argv)
{
    tmc_cli_options o;
    tmc_experiment x;
    int rc = tmc_cli_start(&command, argc, argv, &o, &x);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    /* the plan's memory line first (issue 9) */
    if ((rc = tmc_cli_check_feasible(&x, NULL, o.force)) ||
        (rc = tmc_cli_check_finishable(&x, NULL)))
        return rc;
    const char *flags[] = {"json", "samples", "plot"};
    const char *paths[] = {o.json_path, o.samples_path, o.plot_path};
    run_files files = {0};
    tmc_outfile *f[] = {&files.json, &files.samples, &files.plot};
    if ((rc = tmc_cli_open_outputs(f, flags, paths, 3, &x)))
        return rc;
    tmc_cli_catch_stop_signals();
    if ((rc = simulate(&x, &cf, &o, &files)))
        tmc_cli_abort_outputs(f, paths, 3);
    return rc;
}

