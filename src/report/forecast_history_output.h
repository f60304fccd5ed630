/* forecast_history_output.h - `trainmc forecast --history` (forecast_history.h)
 * as a table (stdout), a JSON document and an SVG picture of P(deadline)
 * against the elapsed day. Columns and keys are listed in README.md ("A
 * history of forecasts"). */
#ifndef TMC_FORECAST_HISTORY_OUTPUT_H
#define TMC_FORECAST_HISTORY_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "forecast_history.h"

/* The history and how it ran (text only: the numbers do not depend on it). */
typedef struct {
    const tmc_forecast_history *h; /* borrowed; tmc_forecast_history_run done */
    int threads;
    double elapsed_s;              /* wall time of every simulation, s */
} tmc_forecast_history_report;

/* The heading (experiment, history, replicas, seed, overrides), then a row
 * per snapshot: its line, elapsed day, step, last commit and failures; mean
 * T (days from the job's start) +- se; the mean time left (days); P(T <=
 * deadline) with its Wilson 95 % interval; the change of P from the previous
 * row +- its common-random-numbers se. */
void tmc_forecast_history_output_text(FILE *f, const tmc_forecast_history_report *r);

/* The parts of that text the HTML report (forecast_html.h) shows too:
 * what the run at the latest snapshot assumes (assumed_output.h), and the
 * legend with the table of snapshots. */
void tmc_forecast_history_output_assumed_text(FILE *f, const tmc_forecast_history *h);
void tmc_forecast_history_output_table_text(FILE *f, const tmc_forecast_history_report *r);

/* The same as a JSON document; caller frees with cJSON_Delete. NULL if
 * memory runs out. */
cJSON *tmc_forecast_history_output_json(const tmc_forecast_history_report *r);

/* P(deadline) (y) against the elapsed day (x), a point per snapshot joined
 * in order, each with its Wilson 95 % interval; the snapshot's line beside
 * it. Malloc'd SVG text (forecast_history_svg.c); NULL if memory runs out. */
char *tmc_forecast_history_output_svg(const tmc_forecast_history_report *r);

#endif
