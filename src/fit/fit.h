/* fit.h - `trainmc fit`: a fault log's failure model, every part of it
 * (docs/fit.md): rates with exact intervals, the lifetime law, the repair
 * law, the cause mix, and the evidence against the Poisson assumption. */
#ifndef TMC_FIT_H
#define TMC_FIT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "dispersion.h"
#include "node_mixture.h"
#include "error.h"
#include "burst_fit.h"
#include "fault_log.h"
#include "lifetime_fit.h"
#include "repair_fit.h"

#define TMC_FIT_MAX_EXCLUDE 64
#define TMC_FIT_MAX_CAUSES 64 /* distinct causes listed; the rest as "(others)" */
#define TMC_FIT_MIXTURE_BOOTSTRAP 199 /* `trainmc fit`'s sets for the bad-node test's p */

/* What the log cannot show, and the settings. */
typedef struct {
    const char *log_path;  /* as given: cited in the outputs */
    long nodes;            /* nodes watched, >= the nodes in the log */
    long cards_per_node;   /* >= 1 */
    double span_days;      /* <= 0: the last event's time */
    double confidence;     /* of every interval, (0, 1) */
    double window_days;    /* counts per time window */
    double simultaneous_s; /* simultaneous faults: starts this close, s */
    int mixture_sets;      /* bad nodes (node_mixture.h): 0, no mixture fit; else the
                              bootstrap sets of its p-value (the command line's
                              TMC_FIT_MIXTURE_BOOTSTRAP) */
    const char *exclude[TMC_FIT_MAX_EXCLUDE]; /* causes left out */
    int n_exclude;
    int bursts;            /* 1: the groups of simultaneous faults are bursts (burst_fit.h):
                              the per-node counts and the written single-node rate leave
                              their faults out (docs/fit.md 5) */
} tmc_fit_options;

/* A figure with its interval. */
typedef struct {
    double value, lo, hi;
} tmc_fit_interval;

typedef struct {
    char name[128];
    int count;
} tmc_fit_cause;

typedef struct {
    tmc_fit_options opt;
    int n_read;                            /* faults in the log */
    int excluded[TMC_FIT_MAX_EXCLUDE];     /* faults each exclusion removed */
    int n_excluded, n_faults, nodes_seen, unmatched_ends;
    int duplicates_dropped; /* exact repeats `fit --dedupe` dropped (set by its caller) */
    double span_days, node_days, card_days; /* calendar exposure: nodes (cards) x span */
    double up_node_days, up_card_days; /* exposure: the time up, repairs left out */
    /* faults per day up, and days up between faults (Garwood intervals): the
     * cluster's with every node up, a node's, a card's */
    tmc_fit_interval rate_cluster, rate_node, rate_card, mtbf_cluster, mtbf_node, mtbf_card;
    /* calendar days between faults, down time included (point values; not
     * a failure law's MTBF: repair time inflates them by about repair/MTBF) */
    double calendar_cluster, calendar_node, calendar_card;
    tmc_lifetime_sample sample;
    tmc_lifetime_fit life;
    int life_ok;
    char life_note[256];
    tmc_repair_fit repair;
    tmc_fit_interval repair_mean_days; /* sample mean, BCa bootstrap interval */
    int repair_ok;
    char repair_note[256];
    tmc_fit_cause causes[TMC_FIT_MAX_CAUSES + 1];
    int n_causes; /* the last may be "(others)" */
    tmc_dispersion per_node;
    const char *worst_node; /* id of the node with the most faults */
    tmc_node_mixture bad_nodes; /* the counts per node as good and bad nodes */
    int bad_nodes_ok;
    tmc_dispersion per_window;
    int windows_ok;
    tmc_simultaneous simultaneous;
    tmc_burst_fit bursts;  /* the groups as bursts (always found; used with opt.bursts) */
    int bursts_ok;
} tmc_fit_result;

/* Fit log (causes in opt->exclude already dropped by the caller with
 * tmc_fault_log_exclude, their counts in excluded). 0, or -1 with err for
 * an exposure that does not fit the log: fewer nodes than it names, a span
 * before its last fault start. A part that cannot be fitted (too few
 * events) is marked (life_ok, repair_ok, windows_ok = 0) with a note. */
int tmc_fit_compute(const tmc_fault_log *log, const tmc_fit_options *opt, int n_read,
                    const int *excluded, tmc_fit_result *r, tmc_error *err);

void tmc_fit_free(tmc_fit_result *r);

/* The text report. */
void tmc_fit_output_text(FILE *f, const tmc_fit_result *r);

/* The JSON report (docs/fit.md 7); NULL if memory runs out. */
cJSON *tmc_fit_output_json(const tmc_fit_result *r);

/* A failures distribution file (docs/reference/experiment-keys.md, Failures) an
 * experiment names as its "failures": distribution `law` ("exponential":
 * per_card_mtbf_days = card-days up / faults; "weibull": the fitted shape and
 * cards_per_node x the Weibull mean of a node's up time), repair_mean_hours
 * (the mean of the positive repair times), repair_distribution exponential,
 * a "source" naming the data and the exposure and a "description" with the
 * interval of every figure. NULL if memory runs out or law is unknown or
 * not fitted. */
cJSON *tmc_fit_output_distribution(const tmc_fit_result *r, const char *law);

#endif
