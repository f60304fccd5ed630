/* output.h - a run's results as text (stdout) and JSON (cJSON), and atomic
 * output files. The closed form is printed beside every simulated figure. */
#ifndef TMC_OUTPUT_H
#define TMC_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "importance.h"
#include "precision.h"
#include "restarts.h"
#include "stats.h"
#include "window.h"

/* Everything a report shows; all pointers borrowed. */
typedef struct {
    const tmc_experiment *x;
    const tmc_closed_form *cf;
    const tmc_summary *days; /* completion time T in days, threshold = deadline */
    const tmc_replica *totals; /* sums over all replicas */
    long replicas;
    uint64_t seed;
    int threads;       /* text only: JSON is identical whatever the thread count */
    double elapsed_s;  /* text only */
    tmc_mode mode;     /* exact or aggregated (auto already resolved) */
    double horizon_s;  /* censoring horizon of the wall time, s */
    const tmc_importance *importance; /* NULL unless --importance */
    const tmc_precision_outcome *precision; /* NULL unless --precision */
    const char *const *overrides; /* the --set KEY=VALUE strings applied */
    int n_overrides;
    double table_error; /* the max sampler's measured table error, units of sigma */
    const tmc_restarts *restarts; /* restarts per run and the budget (restarts.h) */
    const tmc_summary *plug_in; /* NULL unless rates are drawn per replica
                                   (failures.mtbf_events, outages.mtbf_events,
                                   failures.repair_events): the plug-in figures, the
                                   same replicas with the rates taken as exact */
    const tmc_summary *prior; /* NULL unless a forecast's failures move its rate:
                                 the same replicas with nothing observed */
    const tmc_window_summary *window; /* NULL unless a calendar window (window.h):
                                         its goodput replaces T and P(deadline) */
} tmc_report;

/* The text summary (docs/model.md 6): closed form beside simulation, P(deadline)
 * with its Wilson interval, quantiles, histogram, events, wall-time split. */
void tmc_output_text(FILE *f, const tmc_report *r);

/* The JSON document (keys listed in README.md "Output"); caller frees with
 * cJSON_Delete. Returns NULL if memory runs out. */
cJSON *tmc_output_json(const tmc_report *r);

/* The closed forms as the run document's "closed_form" object; NULL if
 * memory runs out. */
cJSON *tmc_output_closed_form_json(const tmc_closed_form *cf);

/* An output file written atomically: opened as a temporary file beside the
 * target before any work (so a missing folder or a permission error fails
 * early), renamed over the target only when complete. */
typedef struct {
    char path[TMC_PATH_MAX];
    char tmp[TMC_PATH_MAX + 16];
    FILE *fp;
    int slot; /* its place in the list a signal handler cleans up (output.c), -1: none */
} tmc_outfile;

/* Create the temporary file. Returns 0, or -1 with err naming path and cause. */
int tmc_output_open(tmc_outfile *o, const char *path, tmc_error *err);

/* Write text, flush, sync and rename onto the target. On failure the target
 * is untouched, the temporary file removed, and -1 returned with err set. */
int tmc_output_commit(tmc_outfile *o, const char *text, tmc_error *err);

/* The temporary file (o->tmp) was filled by another program (gnuplot):
 * sync it and rename it onto the target. On failure as tmc_output_commit. */
int tmc_output_commit_written(tmc_outfile *o, tmc_error *err);

/* Remove the temporary file; the target is untouched. */
void tmc_output_abort(tmc_outfile *o);

/* Remove the temporary file of the output being written, if any: only
 * unlink(2), so a signal handler may call it (SIGTERM may come while the
 * process waits in an MPI collective for a rank that was killed, and be
 * followed by SIGKILL, which leaves no chance to clean up later). */
void tmc_output_discard_pending(void);

#endif
