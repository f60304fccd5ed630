/* result.h - what a run leaves behind (trainmc.h's tmc_result), open to the
 * command line, which prints the report, the samples and the plot from it.
 * Not installed. */
#ifndef TMC_RESULT_H
#define TMC_RESULT_H

#include <cjson/cJSON.h>

#include "closed_form.h"
#include "config.h"
#include "importance.h"
#include "interval_search.h"
#include "output.h"
#include "precision.h"
#include "restarts.h"
#include "stats.h"
#include "api_internal.h"
#include "trainmc.h"

struct tmc_result {
    tmc_experiment x;      /* the experiment as run (replicas and seed in force): a deep
                              copy, owned (tmc_result_free releases it) */
    tmc_closed_form cf;
    tmc_summary days;      /* completion days against the deadline */
    tmc_replica totals;    /* sums over the replicas */
    tmc_importance importance;
    tmc_precision precision;
    tmc_precision_outcome precision_outcome;
    tmc_report report;     /* points into this struct; threads, elapsed_s: text only */
    /* the experiment's overrides, then replicas and seed given as options
     * (as the command line's -n and --seed are overrides) */
    const char *overrides[TMC_OVERRIDES_BYTES / 2 + 2];
    char option_overrides[2][64];
    long replicas;         /* run (fewer than asked when a precision target was met) */
    double *completion_days; /* [replicas], replica order */
    double *restarts;        /* [replicas], replica order (restarts.h) */
    tmc_restarts restart_summary;
    tmc_cost_summary cost;   /* card-hours (and money) of days (cost.h) */
    tmc_sample *samples;     /* [replicas], replica order; NULL with summary_only */
    int has_plug_in;         /* 1 when rates are drawn per replica (docs/model.md 3.11) */
    tmc_summary plug_in_days; /* then: the same replicas with the rates as given */
    tmc_restarts plug_in_restarts;
    int has_prior;           /* 1 for a forecast whose failures move the rate */
    tmc_summary prior_days;  /* then: the same replicas with nothing observed */
    tmc_restarts prior_restarts;
    double *window_steps;    /* [replicas], replica order: a window's committed steps at
                                its end; NULL without a window */
    tmc_window_summary window; /* then: the goodput over it */
    tmc_interval_search interval_search; /* checkpoint.interval_s "optimal": its search */
    tmc_api_document document; /* the run document */
};

#endif
