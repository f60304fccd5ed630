/* sacct_output.h - `trainmc fit --sacct`'s text and JSON reports and the
 * experiment fragment --write makes (docs/fit.md 11, docs/commands/fit.md). */
#ifndef TMC_SACCT_OUTPUT_H
#define TMC_SACCT_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "sacct.h"
#include "sacct_fit.h"

/* What the reports say besides the fit: the file and the table in use. */
typedef struct {
    const char *path;
    const tmc_sacct_log *log;
    const tmc_sacct_map *map;
    const tmc_sacct_fit *fit;
    long cards_per_node; /* 0: not given (the fragment then has no cards_per_node) */
} tmc_sacct_report;

/* The experiment fragment: the sections failures (per_node_mtbf_days from
 * node-hours over node failures, cards_per_node, per_job_mtbf_days from
 * job-hours over job failures), outages (mean_interval_days, mtbf_events,
 * downtime_s and downtime_cv from the waits after them) and time_limit
 * (wall_hours, the median Elapsed of the TIMEOUT allocations; requeue_s,
 * the mean wait after them), each only when the log shows its events; a
 * "source". NULL when memory runs out. */
cJSON *tmc_sacct_output_fragment(const tmc_sacct_report *p);

/* The text report, the answer first. */
void tmc_sacct_output_text(FILE *f, const tmc_sacct_report *p);

/* The JSON report; NULL if memory runs out. */
cJSON *tmc_sacct_output_json(const tmc_sacct_report *p);

#endif
