/* sweep_grid.h - a grid sweep: every setting of one or two axes run with the
 * same replicas and seed (common random numbers, sweep.h), then compared:
 * each setting's difference from the best one, and the settings within 2
 * CRN standard errors of the best on each line along the checkpoint
 * interval's axis. `trainmc sweep --vary` and trainmc.h's
 * tmc_experiment_sweep are its clients; it prints nothing and never exits.
 *
 * One grid sweep, whoever asks, is loaded by tmc_sweep_grid_load, so that the
 * command line and the library read, check and build it the same way. Two
 * steps, so that a caller can judge the settings (memory, whether they can
 * finish) and open its outputs before any simulation:
 *   tmc_sweep_grid_load  parses the axes, loads the base, checks the grid's
 *                        size, allocates and loads every setting;
 *   tmc_sweep_grid_run   runs them and fills g->report (sweep_report.h);
 *   tmc_sweep_grid_free  after either, whatever it returned. */
#ifndef TMC_SWEEP_GRID_H
#define TMC_SWEEP_GRID_H

#include <signal.h>

#include "precision.h"
#include "runner.h"
#include "sweep.h"
#include "sweep_report.h"

/* tmc_sweep_grid_load and _run: a bad grid, experiment, setting or
 * importance tilt (err says which). The other codes: 0, -1 (memory, or a
 * failed computation: err says which), TMC_RUNNER_STOPPED, and
 * TMC_SWEEP_GRID_USAGE. */
#define TMC_SWEEP_GRID_INPUT 2
/* tmc_sweep_grid_load: a --vary text that does not parse (err =
 * "--vary SPEC: problem"), which the command line reports as bad usage */
#define TMC_SWEEP_GRID_USAGE 3

/* What a grid sweep is asked: its experiment (a file, or JSON text), the
 * overrides, and the axes as "KEY=VALUES" (tmc_sweep_parse_axis); all
 * borrowed, to outlive the grid. */
typedef struct {
    const char *path;                  /* the file, or the text's label */
    const char *text;                  /* NULL: read path */
    const char *base_dir;              /* with text: where its relative names start */
    const char *const *sets;           /* overrides, monte_carlo.replicas and .seed among them */
    int n_sets;
    const char *const *vary;           /* [n_vary] */
    int n_vary;                        /* 1 or 2 */
} tmc_sweep_grid_request;

typedef struct {
    int threads;                       /* >= 1 */
    /* done of all settings' replicas (settings x replicas), as the runner
     * calls it (runner.h); NULL: none. Not called in precision batches. */
    tmc_progress_fn progress;
    void *progress_ctx;
    /* the replicas stop soon once *stop is non-zero; NULL: once
     * tmc_stop_request is called (the command line's signals) */
    const volatile sig_atomic_t *stop;
    /* NULL: every setting runs the base's replicas. Else batches of
     * TMC_PRECISION_BATCH for every setting until all meet it or the
     * base's replicas (the budget) are spent (g->precision says which). */
    const tmc_precision *precision;
    const char *importance;            /* NULL, "auto" or "F,O,S[,R,D]" (importance.h) */
    long pilot;                        /* with importance: replicas per level, >= 1 */
    long plain_max; /* with importance: plain replicas in place of an untrusted
                       estimate, at most (tmc_importance_check_plain), >= 1 */
} tmc_sweep_grid_options;

/* A grid, its arrays indexed by setting. */
typedef struct {
    tmc_sweep_base *base;              /* borrowed */
    tmc_sweep_axis axes[TMC_SWEEP_MAX_KEYS];
    int n_axes;
    int n;                             /* settings: the product of the axes' sizes */
    tmc_sweep_setting *settings;       /* [n], in tmc_sweep_get_values' order */
    tmc_sweep_result *results;         /* [n] */
    tmc_sweep_diff *diffs;             /* [n]: T - T(reference), days */
    int *line_best, *within;           /* [n]: see tmc_sweep_report */
    double *days;                      /* [n x replicas]: by setting, then replica */
    double *restarts;                  /* [n x replicas]: likewise (restarts.h) */
    tmc_precision_outcome precision;   /* with options.precision: how it ended */
    tmc_sweep_report report;           /* once run: all the above (pointers into g) */
} tmc_sweep_grid;

/* Parse rq's axes, load the base experiment into *base (tmc_sweep_load_base
 * or _text: its keys checked), refuse fewer than 2 replicas
 * (tmc_sweep_check_replicas), check the grid against the replicas
 * (tmc_sweep_check_grid), allocate g's arrays and load every setting
 * (tmc_sweep_load_setting). Collective under MPI: a rank that fails fails
 * every rank (ranks.h). base must outlive g; g needs tmc_sweep_grid_free
 * whatever this returns. Returns 0; TMC_SWEEP_GRID_USAGE with err (a --vary
 * text); TMC_SWEEP_GRID_INPUT with err (the experiment, its replicas, too
 * many settings or completion times, a value the validation table
 * refuses); -1 with err = "out of memory ..." */
int tmc_sweep_grid_load(tmc_sweep_grid *g, tmc_sweep_base *base,
                        const tmc_sweep_grid_request *rq, tmc_error *err);

/* Run every setting (then its importance estimate, with o->importance),
 * compare them and fill g->report, whose elapsed_s is the simulation's wall
 * time and threads o->threads. With o->precision the replicas run become
 * base->x.monte_carlo.replicas and every setting's. Returns 0;
 * TMC_RUNNER_STOPPED with err ("interrupted after ..."); TMC_SWEEP_GRID_INPUT
 * with err (an importance tilt the experiment cannot take); -1 with err
 * (memory, or a failed importance computation). */
int tmc_sweep_grid_run(tmc_sweep_grid *g, const tmc_sweep_grid_options *o, tmc_error *err);

/* Frees what g holds, every setting's experiment included (not the base's,
 * which g borrows). */
void tmc_sweep_grid_free(tmc_sweep_grid *g);

#endif
