/* cli_sweep.c - `trainmc sweep`: one experiment at several settings under
 * common random numbers (a table), or the setting where a simulated metric
 * crosses a target (bisection). The logic is in sweep.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "plot.h"
#include "sweep_html.h"
#include "output.h"
#include "plan.h"
#include "ranks.h"
#include "importance.h"
#include "precision.h"
#include "sweep.h"
#include "sweep_grid.h"
#include "sweep_search.h"
#include "sweep_output.h"

static const tmc_cli_command command = {
    "sweep", TMC_CLI_SWEEP, "EXPERIMENT.json",
    "usage: trainmc sweep EXPERIMENT.json --vary KEY=VALUES [--vary KEY2=VALUES] [options]\n"
    "       trainmc sweep EXPERIMENT.json --vary KEY=LO:HI[:TOL] --target METRIC>=VALUE\n"
    "\n"
    "Run the experiment at every setting of one or two keys (two: the full grid)\n"
    "and print per setting K, the step time, Young's L and Daly's overhead, the\n"
    "simulated overhead, mean T and P(T <= deadline), and the difference in T from\n"
    "the best setting with its standard error. Replica k draws the same random\n"
    "streams at every setting (common random numbers), so differences are far\n"
    "more precise than each value alone. With --target, find by bisection the\n"
    "smallest or largest value of KEY that meets the target.\n"};

/* What the options of a sweep must say together, beyond each alone. */
static int check_sweep_options(const tmc_cli_options *o)
{
    if (o->n_vary == 0)
        return tmc_cli_usage_error("sweep", "sweep needs --vary KEY=V1,V2,... or "
                                            "KEY=START:STOP:STEP");
    if (o->target && (o->importance || o->has_precision))
        return tmc_cli_usage_error("sweep", "--importance and --precision go with a grid, "
                                            "not --target");
    if (o->target && o->n_vary != 1)
        return tmc_cli_usage_error("sweep", "--target needs exactly one --vary KEY=LO:HI "
                                            "(got %d)", o->n_vary);
    return 0;
}

/* Everything a sweep shares once its experiment is loaded. */
typedef struct {
    const tmc_cli_options *o;
    tmc_sweep_base base;
    int threads;
    int show; /* progress bar */
    tmc_outfile out; /* --json */
    tmc_outfile csv; /* --csv */
    tmc_outfile plot; /* --plot */
    tmc_outfile html; /* --html */
} sweep_run;

/* The base experiment of a --target (with --set) and its key; replicas >= 2
 * for the standard errors. 0, or 2 with a message. */
static int load_base(sweep_run *sw, const char *key)
{
    const tmc_cli_options *o = sw->o;
    tmc_error err = {""};
    int rc = tmc_sweep_load_base(&sw->base, o->experiment, o->sets, o->n_sets, &key, 1,
                                 &err) ? 2 : 0;
    /* a rank that cannot read the file fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    if ((rc = tmc_cli_check_same_experiment(&sw->base.x, o->experiment)))
        return rc;
    if (tmc_sweep_check_replicas(&sw->base, &err) ||
        tmc_sweep_check_pace_key(&sw->base.x, "--vary ", key, &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return 2;
    }
    return 0;
}

/* Print the setting's memory line when it differs from `last` (which it
 * then becomes) or refuses, with the setting named when `named`; refuse a
 * setting that does not fit or cannot finish. 0, or 2. */
static int check_setting(const tmc_sweep_setting *s, int named, char *last, size_t n,
                         int force)
{
    char line[512];
    int fits = tmc_plan_feasibility(&s->x, line, sizeof line);
    int rc = 0;
    if (strcmp(line, last) != 0 || (fits == 0 && !force)) {
        rc = tmc_cli_check_feasible(&s->x, named ? s->label : NULL, force);
        snprintf(last, n, "%s", line);
    }
    return rc ? rc : tmc_cli_check_finishable(&s->x, s->label);
}

/* 1 when the settings' memory lines are not all the same. */
static int lines_differ(const tmc_sweep_setting *s, int n)
{
    char first[512], line[512];
    tmc_plan_feasibility(&s[0].x, first, sizeof first);
    for (int i = 1; i < n; i++) {
        tmc_plan_feasibility(&s[i].x, line, sizeof line);
        if (strcmp(line, first) != 0)
            return 1;
    }
    return 0;
}

/* Check every loaded setting s[n] (a grid, or a bisection's ends). 0, or 2. */
static int check_settings(const sweep_run *sw, const tmc_sweep_setting *s, int n)
{
    int named = lines_differ(s, n), rc = 0;
    char last[512] = "";
    for (int i = 0; i < n && !rc; i++)
        rc = check_setting(&s[i], named, last, sizeof last, sw->o->force);
    return rc;
}

/* The output files are opened before any simulation (a bad path fails at
 * once), by rank 0 alone under MPI (cli.h). */
static int open_outputs(sweep_run *sw)
{
    const tmc_cli_options *o = sw->o;
    const char *flags[] = {"json", "csv", "plot", "html"};
    const char *paths[] = {o->json_path, o->csv_path, o->plot_path, o->html_path};
    tmc_outfile *files[] = {&sw->out, &sw->csv, &sw->plot, &sw->html};
    return tmc_cli_open_outputs(files, flags, paths, 4, &sw->base.x);
}

static void abort_outputs(sweep_run *sw)
{
    const tmc_cli_options *o = sw->o;
    const char *paths[] = {o->json_path, o->csv_path, o->plot_path, o->html_path};
    tmc_outfile *files[] = {&sw->out, &sw->csv, &sw->plot, &sw->html};
    tmc_cli_abort_outputs(files, paths, 4);
}

static int write_json(sweep_run *sw, cJSON *doc)
{
    return tmc_cli_write_json(&sw->out, doc);
}

/* Exit code of a failed run (tmc_sweep_grid_run, tmc_sweep_run_setting): 130
 * when stopped by a signal. */
static int run_failed(const sweep_run *sw, int rc, const tmc_error *err)
{
    if (rc == TMC_RUNNER_STOPPED) {
        fprintf(stderr, "%strainmc: %s; no results written\n", sw->show ? "\n" : "", err->msg);
        return 130;
    }
    fprintf(stderr, "trainmc: %s\n", err->msg);
    return rc == TMC_SWEEP_GRID_INPUT ? 2 : 1; /* a tilt the experiment cannot take */
}

/* ---------- a grid ---------- */

/* --html: the page (sweep_html.h) with the picture --plot draws. 0, or 1. */
static int write_html(sweep_run *sw, const tmc_sweep_report *r)
{
    char *svg = NULL, *page = NULL;
    tmc_error err = {""};
    if (tmc_cli_is_root()) {
        if (!(svg = tmc_plot_sweep_text(r, &err))) {
            fprintf(stderr, "trainmc: %s\n", err.msg);
            return 1;
        }
        tmc_html_meta m = {TMC_VERSION, sw->o->command_line};
        page = tmc_sweep_html(r, svg, &m);
        free(svg);
    }
    return tmc_cli_write_text(&sw->html, page);
}

/* The text table (and precision line), then --csv, --plot, --html and --json. */
static int report_grid(sweep_run *sw, const tmc_sweep_grid *g)
{
    const tmc_sweep_report *r = &g->report;
    tmc_sweep_output_text(stdout, r);
    if (sw->o->has_precision)
        printf("\nPrecision target %s: %s after %ld replicas per setting (widest 95 %% "
               "half-width %.3g)\n", sw->o->precision.text,
               g->precision.reached ? "reached" : "NOT reached: the replica budget ran out",
               sw->base.x.monte_carlo.replicas, g->precision.half_width);
    if (tmc_cli_check_stdout())
        return 1;
    if (sw->o->csv_path && tmc_cli_write_text(&sw->csv, tmc_sweep_output_csv(r)))
        return 1;
    if (sw->o->plot_path) {
        tmc_error err = {""};
        int drawn = tmc_cli_is_root() ? tmc_plot_sweep(fileno(sw->plot.fp), r, &err) : 0;
        if (tmc_cli_finish_plot(&sw->plot, drawn, &err))
            return 1;
    }
    if (sw->o->html_path && write_html(sw, r))
        return 1;
    if (!sw->o->json_path)
        return 0;
    cJSON *doc = tmc_sweep_output_json(r);
    if (doc && sw->o->has_precision) {
        cJSON *p = cJSON_AddObjectToObject(doc, "precision");
        cJSON_AddStringToObject(p, "target", sw->o->precision.text);
        cJSON_AddBoolToObject(p, "reached", g->precision.reached);
        cJSON_AddNumberToObject(p, "half_width", g->precision.half_width);
    }
    return write_json(sw, doc);
}

/* The grid, as trainmc.h's tmc_experiment_sweep loads it (sweep_grid.h).
 * 0, or the exit code after a message. */
static int load_grid(sweep_run *sw, tmc_sweep_grid *g)
{
    const tmc_cli_options *o = sw->o;
    tmc_sweep_grid_request rq = {.path = o->experiment, .sets = o->sets, .n_sets = o->n_sets,
                                 .vary = o->vary, .n_vary = o->n_vary};
    tmc_error err = {""};
    int rc = tmc_sweep_grid_load(g, &sw->base, &rq, &err);
    if (rc == TMC_SWEEP_GRID_USAGE)
        return tmc_cli_usage_error("sweep", "%s", err.msg);
    if (rc) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc == TMC_SWEEP_GRID_INPUT ? 2 : 1;
    }
    return tmc_cli_check_same_experiment(&sw->base.x, o->experiment);
}

static int sweep_grid(sweep_run *sw)
{
    const tmc_cli_options *o = sw->o;
    tmc_error err = {""};
    tmc_sweep_grid g;
    int rc = load_grid(sw, &g);
    if (!rc && !(rc = check_settings(sw, g.settings, g.n)) && !(rc = open_outputs(sw))) {
        /* the stop flag is the process's (tmc_stop_flag), which the signals set */
        tmc_sweep_grid_options go = {
            .threads = sw->threads, .progress = sw->show ? tmc_cli_progress_bar : NULL,
            .precision = o->has_precision ? &o->precision : NULL,
            .importance = o->importance, .pilot = o->pilot ? o->pilot : 1000,
            .plain_max = o->plain_max ? o->plain_max : TMC_IMPORTANCE_PLAIN_MAX};
        tmc_cli_catch_stop_signals();
        rc = tmc_sweep_grid_run(&g, &go, &err);
        rc = rc ? run_failed(sw, rc, &err) : report_grid(sw, &g);
        if (rc)
            abort_outputs(sw);
    }
    tmc_sweep_grid_free(&g);
    return rc;
}

/* ---------- a target ---------- */

int tmc_cli_refuse_setting(const tmc_sweep_setting *s, void *ctx, char *why, size_t n)
{
    (void)why, (void)n; /* it says why on stderr */
    const tmc_cli_options *o = ctx;
    char line[512];
    if (!o->force && tmc_plan_feasibility(&s->x, line, sizeof line) == 0)
        return tmc_cli_check_feasible(&s->x, s->label, o->force);
    return tmc_cli_check_finishable(&s->x, s->label);
}

/* Load and check both ends before any simulation. 0, or 2. */
static int check_ends(const sweep_run *sw, const tmc_sweep_bracket *b)
{
    tmc_sweep_setting end[2];
    memset(end, 0, sizeof end); /* owning nothing until loaded */
    tmc_error err = {""};
    int rc = 0;
    for (int i = 0; i < 2 && !rc; i++)
        if (tmc_sweep_load_setting(&sw->base, i ? &b->hi : &b->lo, &end[i], &err)) {
            fprintf(stderr, "trainmc: %s\n", err.msg);
            rc = 2;
        }
    if (!rc)
        rc = check_settings(sw, end, 2);
    tmc_experiment_release(&end[0].x);
    tmc_experiment_release(&end[1].x);
    return rc;
}

/* The exit code of a failed evaluation (sweep_search.h). */
static int search_failed(const sweep_run *sw, const tmc_sweep_search *s, const tmc_error *err)
{
    if (s->failure == TMC_RUNNER_STOPPED)
        return run_failed(sw, TMC_RUNNER_STOPPED, err);
    if (err->msg[0])
        fprintf(stderr, "trainmc: %s\n", err->msg);
    return s->failure == TMC_SWEEP_SEARCH_REFUSED ? 2 : 1;
}

static int bisect(sweep_run *sw, tmc_sweep_search *s, const tmc_sweep_bracket *b)
{
    tmc_sweep_bisection bis;
    tmc_error err = {""};
    double t0 = tmc_cli_now_s();
    int rc = tmc_sweep_bisect(s->target, b, sw->base.integer[0], tmc_sweep_search_evaluate, s,
                              &bis, &err);
    if (rc == 1) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return 2;
    }
    if (rc)
        return search_failed(sw, s, &err);
    tmc_sweep_target_report r = {.base = &sw->base, .target = s->target, .bracket = b,
                                 .bisection = &bis, .n = s->n, .settings = s->settings,
                                 .results = s->results,
                                 .found = tmc_sweep_search_find(s, bis.found),
                                 .neighbour = tmc_sweep_search_find(s, bis.neighbour),
                                 .threads = sw->threads, .elapsed_s = tmc_cli_now_s() - t0};
    tmc_sweep_output_target_text(stdout, &r);
    if (tmc_cli_check_stdout())
        return 1;
    return sw->o->json_path ? write_json(sw, tmc_sweep_output_target_json(&r)) : 0;
}

static int sweep_target(sweep_run *sw)
{
    const tmc_cli_options *o = sw->o;
    tmc_sweep_target target;
    tmc_sweep_bracket b;
    tmc_error err = {""};
    if (o->csv_path || o->plot_path || o->html_path)
        return tmc_cli_usage_error("sweep", "--%s is for a grid (--vary KEY=VALUES); with "
                                            "--target, use --json", o->csv_path ? "csv"
                                   : o->plot_path ? "plot" : "html");
    if (tmc_sweep_parse_target(o->target, &target, &err) ||
        tmc_sweep_parse_bracket(o->vary[0], &b, &err))
        return tmc_cli_usage_error("sweep", "%s", err.msg);
    int rc = load_base(sw, b.key);
    if (!rc && tmc_sweep_check_bracket(&b, sw->base.integer[0], o->vary[0], &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        rc = 2;
    }
    if (rc || (rc = check_ends(sw, &b)))
        return rc;
    tmc_sweep_search s;
    if (tmc_sweep_search_init(&s, &sw->base, &target, &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        rc = 1;
    } else if (!(rc = open_outputs(sw))) {
        s.threads = sw->threads;
        s.progress = sw->show ? tmc_cli_progress_bar : NULL;
        s.check = tmc_cli_refuse_setting;
        s.check_ctx = (void *)o;
        tmc_cli_catch_stop_signals();
        rc = bisect(sw, &s, &b);
        if (rc && o->json_path)
            tmc_output_abort(&sw->out);
    }
    tmc_sweep_search_free(&s);
    return rc;
}

int tmc_cli_sweep(int argc, char **argv)
{
    tmc_cli_options o;
    memset(&o, 0, sizeof o);
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (!rc)
        rc = check_sweep_options(&o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    /* its base owns nothing until loaded */
    sweep_run sw = {.o = &o, .threads = o.threads ? o.threads : tmc_runner_default_threads(),
                    .show = !o.quiet && isatty(STDERR_FILENO)};
    rc = o.target ? sweep_target(&sw) : sweep_grid(&sw);
    tmc_experiment_release(&sw.base.x);
    return rc;
}
