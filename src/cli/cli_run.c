/* cli_run.c - `trainmc run`: one experiment, many replicas, one report. */
#include <getopt.h>
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
#include "precision.h"
#include "output.h"
#include "ranks.h"
#include "runner.h"
#include "stats.h"

#define MAX_SETS 64

static const char *usage_run =
    "usage: trainmc run EXPERIMENT.json [options]\n"
    "\n"
    "Simulate the experiment's training run replica by replica and print the\n"
    "completion time T (days), P(T <= deadline) with a Wilson 95 % interval, the\n"
    "overhead, event counts and the wall-time split, beside the closed forms\n"
    "(Young, Daly).\n"
    "\n"
    "options:\n"
    "  -n, --replicas N      replicas (overrides monte_carlo.replicas), 1..1e9\n"
    "  -s, --seed S          run seed (overrides monte_carlo.seed), 0..2^53-1\n"
    "  -t, --threads T       worker threads, 1..1024 (default: all cores); the\n"
    "                        numbers are identical whatever T is\n"
    "  -j, --json FILE       also write the results as JSON to FILE (atomically)\n"
    "      --set KEY=VALUE   override a key of the experiment, e.g.\n"
    "                        --set job.cards=64 --set checkpoint.interval_s=900;\n"
    "                        VALUE is JSON (number, null, object) or a string\n"
    "  -q, --quiet           no progress bar\n"
    "  -f, --force           run even if the training state does not fit in memory\n"
    "      --importance auto|F,O,S[,R,D]\n"
    "                        also estimate a small P(miss) by importance sampling:\n"
    "                        rates of failures, outages, spikes (and the means of\n"
    "                        repairs, downtimes) multiplied by a tilt chosen by\n"
    "                        cross-entropy (auto) or given (e.g. 1,4,1)\n"
    "      --importance-pilot N  replicas per cross-entropy level (default 1000)\n"
    "      --precision TARGET  add replicas in batches of 1000 until the 95 % interval\n"
    "                        is this narrow, within --replicas: e.g.\n"
    "                        deadline.probability:abs=0.001, completion_days.mean:rel=1e-4\n"
    "  -h, --help            this help\n";

typedef struct {
    const char *experiment;
    const char *json_path;
    const char *sets[MAX_SETS + 2];
    int n_sets;
    int threads;
    int quiet;
    int force;
    const char *importance;  /* NULL: off */
    int has_precision;
    tmc_precision precision;
    long pilot;
    char replicas_set[64];
    char seed_set[64];
} run_options;


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
static int prepare_importance(tmc_engine *e, const tmc_experiment *x, const run_options *o,
                              int threads, tmc_importance *is)
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

/* Numeric flags become --set overrides so the experiment's validation table
 * checks them with the same bounds and messages. */
static int parse_run_options(int argc, char **argv, run_options *o)
{
    static const struct option longs[] = {
        {"replicas", required_argument, 0, 'n'}, {"seed", required_argument, 0, 's'},
        {"threads", required_argument, 0, 't'},  {"json", required_argument, 0, 'j'},
        {"set", required_argument, 0, 'S'},      {"quiet", no_argument, 0, 'q'},
        {"force", no_argument, 0, 'f'},          {"importance", required_argument, 0, 'I'},
        {"importance-pilot", required_argument, 0, 'P'},
        {"precision", required_argument, 0, 'R'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    int c;
    long v;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":n:s:t:j:qfh", longs, NULL)) != -1) {
        switch (c) {
        case 'n':
            snprintf(o->replicas_set, sizeof o->replicas_set, "monte_carlo.replicas=%s", optarg);
            break;
        case 's':
            snprintf(o->seed_set, sizeof o->seed_set, "monte_carlo.seed=%s", optarg);
            break;
        case 't':
            if (tmc_cli_parse_long(optarg, 1, 1024, &v))
                return tmc_cli_usage_error("run", "--threads: '%s' is not an integer in [1, 1024]", optarg);
            o->threads = (int)v;
            break;
        case 'j': o->json_path = optarg; break;
        case 'S':
            if (o->n_sets >= MAX_SETS)
                return tmc_cli_usage_error("run", "--set: more than %d overrides", MAX_SETS);
            o->sets[o->n_sets++] = optarg;
            break;
        case 'q': o->quiet = 1; break;
        case 'f': o->force = 1; break;
        case 'I': o->importance = optarg; break;
        case 'R':
            if (tmc_precision_parse(optarg, &o->precision))
                return tmc_cli_usage_error("run", "--precision: '%s' is not METRIC:abs=X or "
                                                  "METRIC:rel=X with X > 0, METRIC "
                                                  "deadline.probability or "
                                                  "completion_days.mean", optarg);
            o->has_precision = 1;
            break;
        case 'P':
            if (tmc_cli_parse_long(optarg, 100, 100000000, &o->pilot))
                return tmc_cli_usage_error("run", "--importance-pilot: '%s' is not an integer "
                                                  "in [100, 100000000]", optarg);
            break;
        case 'h': fputs(usage_run, stdout); exit(tmc_cli_check_stdout());
        case ':': return tmc_cli_usage_error("run", "option %s needs a value", argv[optind - 1]);
        default: return tmc_cli_usage_error("run", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (o->replicas_set[0])
        o->sets[o->n_sets++] = o->replicas_set;
    if (o->seed_set[0])
        o->sets[o->n_sets++] = o->seed_set;
    if (optind != argc - 1)
        return tmc_cli_usage_error("run", "%s", optind >= argc ? "run needs one EXPERIMENT.json"
                                                : "run takes one EXPERIMENT.json");
    o->experiment = argv[optind];
    if (o->importance && strcmp(o->importance, "auto") != 0 &&
        tmc_importance_parse_tilt(o->importance, NULL))
        return tmc_cli_usage_error("run", "--importance: '%s' is neither auto nor three "
                                          "or five positive multipliers F,O,S[,R,D]", o->importance);
    return 0;
}



/* Run the replicas and summarise completion days; fills *days and *totals.
 * e is NULL if building the engine ran out of memory on this rank. */
/* All replicas at once, or, with a precision target, batches until it is
 * met or the budget is spent (precision.h). *used: replicas run. */
static int run_batches(const tmc_experiment *x, const tmc_engine *e, const run_options *o,
                       int threads, int show, double *wall, tmc_replica *totals,
                       tmc_precision_outcome *po, long *used, tmc_error *err)
{
    long budget = x->monte_carlo.replicas;
    tmc_progress_fn bar = show ? tmc_cli_progress_bar : NULL;
    if (!o->has_precision) {
        *used = budget;
        return tmc_runner_run(e, budget, x->monte_carlo.seed, threads, bar, NULL, wall,
                              totals, err);
    }
    memset(totals, 0, sizeof *totals);
    long done = 0;
    po->reached = 0;
    while (done < budget && !po->reached) {
        long n = budget - done < TMC_PRECISION_BATCH ? budget - done : TMC_PRECISION_BATCH;
        tmc_replica batch;
        int rc = tmc_runner_run_from(e, done, n, x->monte_carlo.seed, threads, NULL, NULL,
                                     wall + done, &batch, err);
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

static int run_replicas(const tmc_experiment *x, const tmc_engine *e, const run_options *o,
                        int threads, int show, tmc_summary *days, tmc_replica *totals,
                        tmc_precision_outcome *po, long *used)
{
    long n = x->monte_carlo.replicas;
    double *wall = e ? malloc((size_t)n * sizeof *wall) : NULL;
    tmc_error err = {""};
    int rc = !e ? tmc_error_set(&err, "out of memory building the engine")
             : !wall ? tmc_error_set(&err, "out of memory for %ld replicas", n) : 0;
    /* all ranks fail together, or all run (ranks.h) */
    if (!(rc = tmc_ranks_agree(rc, &err)))
        rc = run_batches(x, e, o, threads, show, wall, totals, po, used, &err);
    if (!rc) {
        for (long k = 0; k < *used; k++)
            wall[k] = x->deadline.reserve_days + wall[k] / TMC_DAY_S;
        tmc_stats_summarize(wall, *used, x->deadline.days, days);
    }
    free(wall);
    if (rc == TMC_RUNNER_STOPPED) {
        fprintf(stderr, "%strainmc: %s; no results written\n", show ? "\n" : "", err.msg);
        return 130;
    }
    if (rc)
        fprintf(stderr, "trainmc: %s\n", err.msg);
    return rc ? 1 : 0;
}

static int simulate(const tmc_experiment *x, const tmc_closed_form *cf,
                    const run_options *o, tmc_outfile *out)
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
    int rc = built && o->importance ? prepare_importance(&e, x, o, threads, &is) : 0;
    if (!rc)
        rc = run_replicas(x, built ? &e : NULL, o, threads, !o->quiet && isatty(STDERR_FILENO),
                          &days, &totals, &po, &used);
    if (!rc && o->importance)
        rc = estimate_importance(&e, x, threads, &is);
    if (rc) { /* always, when the engine was not built */
        if (built)
            tmc_engine_free(&e);
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
    tmc_output_text(stdout, &r);
    if (tmc_cli_check_stdout())
        return 1;
    return o->json_path ? tmc_cli_write_json(out, tmc_output_json(&r)) : 0;
}

int tmc_cli_run(int argc, char **argv)
{
    run_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_run_options(argc, argv, &o);
    if (rc)
        return rc;
    tmc_experiment x;
    if ((rc = tmc_cli_load_experiment(o.experiment, o.sets, o.n_sets, &x)))
        return rc;
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    /* the plan's memory line first (issue 9) */
    if ((rc = tmc_cli_check_feasible(&x, NULL, o.force)) ||
        (rc = tmc_cli_check_finishable(&x, NULL)))
        return rc;
    tmc_outfile out = {0};
    if (o.json_path && (rc = tmc_cli_open_output(&out, o.json_path, &x)))
        return rc;
    tmc_cli_catch_stop_signals();
    rc = simulate(&x, &cf, &o, &out);
    if (o.json_path && rc)
        tmc_output_abort(&out);
    return rc;
}

