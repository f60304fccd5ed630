/* output.h - a run's results as text (stdout) and JSON (cJSON), the closed
 * form printed beside every simulated figure; the files they go to are
 * written atomically (outfile.h). */
#ifndef TMC_OUTPUT_H
#define TMC_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "closed_form.h"
#include "cost.h"
#include "config.h"
#include "engine.h"
#include "importance.h"
#include "interval_search.h"
#include "precision.h"
#include "restarts.h"
#include "stats.h"
#include "outfile.h"
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
    tmc_mode mode;     /* steps or segments (auto already resolved) */
    double horizon_s;  /* censoring horizon of the wall time, s */
    const tmc_importance *importance; /* NULL unless --importance */
    const tmc_precision_outcome *precision; /* NULL unless --precision */
    const char *const *overrides; /* the --set KEY=VALUE strings applied */
    int n_overrides;
    double table_error; /* the max sampler's measured table error, units of sigma */
    double segment_error; /* segments mode: the largest measured error bound of the
                             segment laws in use, units of their sd (0: none used) */
    size_t segment_bytes; /* their tables' memory */
    const tmc_restarts *restarts; /* restarts per run and the budget (restarts.h) */
    const tmc_cost_summary *cost; /* card-hours and money of days (cost.h) */
    const tmc_summary *plug_in; /* NULL unless rates are drawn per replica
                                   (failures.mtbf_events, outages.mtbf_events,
                                   failures.repair_events): the plug-in figures, the
                                   same replicas with the rates taken as exact */
    const tmc_summary *prior; /* NULL unless a forecast's failures move its rate:
                                 the same replicas with nothing observed */
    const tmc_window_summary *window; /* NULL unless a calendar window (window.h):
                                         its goodput replaces T and P(deadline) */
    int detail;        /* text only: 1 prints the full report (--detail), 0 the brief
                          one (brief.h) */
    const tmc_interval_search *interval_search; /* NULL unless checkpoint.interval_s
                                                  "optimal" was searched for this run */
} tmc_report;

/* The text summary (docs/model.md 6): closed form beside simulation, P(deadline)
 * with its Wilson interval, quantiles, histogram, events, wall-time split;
 * without r->detail, the brief report (brief.h). */
void tmc_output_text(FILE *f, const tmc_report *r);

/* The JSON document (keys listed in docs/reference/json-output.md); caller frees with
 * cJSON_Delete. Returns NULL if memory runs out. */
cJSON *tmc_output_json(const tmc_report *r);

/* The keys that draw rates per replica, "failures.mtbf_events 5, ..."
 * into buf[n] ("" when none). */
void tmc_output_drawn_keys(const tmc_experiment *x, char *buf, size_t n);

/* The closed forms as the run document's "closed_form" object; NULL if
 * memory runs out. */
cJSON *tmc_output_closed_form_json(const tmc_closed_form *cf);

/* The Pareto k-hat line of an importance estimate and, when it is not
 * trusted (tmc_importance_trusted), why and what stands in its place. */
void tmc_output_pareto_k(FILE *f, const tmc_importance *is);

/* Into an importance object: "trusted", "plain_needed" and "plain" (null,
 * or the plain replicas run in the estimate's place: replicas, misses,
 * p_miss, ci95). */
void tmc_output_importance_plain_json(cJSON *o, const tmc_importance *is);

/* The rare miss's answer line: "LABEL P [lo, hi] 95 %, ..." by importance
 * sampling, or by the plain replicas run in its place, or without an
 * interval (importance.h, tmc_importance_check_plain). */
void tmc_output_importance_answer(FILE *f, const char *label, const tmc_importance *is);

/* checkpoint.interval_s "optimal": the interval found, how, and the closed
 * form's beside it (one line). */
void tmc_output_interval_search_text(FILE *f, const tmc_interval_search *s);

#endif
