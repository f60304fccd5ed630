/* sweep_output.h - `trainmc sweep` as text tables (stdout) and JSON (cJSON).
 * Keys and columns are listed in README.md ("trainmc sweep"). */
#ifndef TMC_SWEEP_OUTPUT_H
#define TMC_SWEEP_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "sweep_report.h"

/* The table: per setting the value(s), K, simulated overhead, Daly's
 * overhead, mean T, P(deadline) with its Wilson interval, T - T(reference)
 * with its CRN standard error; then the optimum interval when one axis is an
 * interval. Within 100 columns for one key (the rest: CSV and JSON). */
void tmc_sweep_output_text(FILE *f, const tmc_sweep_report *r);

/* The table alone, below the heading and the answer (its legend, the cost,
 * the optimum interval and importance sampling's lines included): the
 * HTML report (sweep_html.h) shows the same. */
void tmc_sweep_output_table_text(FILE *f, const tmc_sweep_report *r);

/* The setting of the highest P(T <= deadline), the lowest mean T on a tie
 * (the answer's second line when it is not the reference). */
int tmc_sweep_output_best_p(const tmc_sweep_report *r);

/* The JSON document; caller frees with cJSON_Delete. NULL if memory runs out. */
cJSON *tmc_sweep_output_json(const tmc_sweep_report *r);

/* The keys every document of the commands built on sweeps opens with:
 * `command`, `experiment`, `source`, `experiment_path`, `replicas` and
 * `seed` (raw digits: cJSON rounds integers near 2^53). Also used by
 * rescue_output.c and sensitivity_output.c. */
void tmc_sweep_output_json_heading(cJSON *root, const char *command, const tmc_experiment *x);

/* A common-random-numbers difference as JSON: `mean`, `se`,
 * `se_independent`, `variance_reduction` (null when undefined). */
cJSON *tmc_sweep_output_json_diff(const tmc_sweep_diff *d);

/* The table as CSV (RFC 4180, one header line, a row per setting in the
 * table's order): the setting's number, the swept keys' values, then
 * interval_steps, step_s (s), young_overhead and daly_overhead (fractions,
 * closed forms), overhead and overhead_se (fractions), mean_days, se_days,
 * sd_days, the quantiles p01..p99_days, p_deadline with its Wilson 95 %
 * interval, difference_days and difference_se (T - T(ref), days; 0 for the
 * reference), variance_reduction and replicas; numbers with 17 digits, an
 * empty field where there is none. Caller frees; NULL if memory runs out. */
char *tmc_sweep_output_csv(const tmc_sweep_report *r);

/* "VALUE [LO, HI]" of the metric at res, its 95 % interval
 * (tmc_sweep_estimate_metric), to 6 decimals for the goodput, 5 for the
 * overhead, else 4. */
void tmc_sweep_output_metric_text(tmc_sweep_metric metric, const tmc_sweep_result *res,
                                  char *buf, size_t n);

/* The evaluations (value, K, step time, metric with its 95 % interval,
 * whether it meets the target), the value found and its neighbour, and a
 * warning when the target lies inside either one's interval. */
void tmc_sweep_output_target_text(FILE *f, const tmc_sweep_target_report *r);

cJSON *tmc_sweep_output_target_json(const tmc_sweep_target_report *r);

#endif
