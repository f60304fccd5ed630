/* rescue_output.h - `trainmc rescue` (rescue.h) as text (stdout) and JSON
 * (cJSON). Keys and lines are listed in README.md ("trainmc rescue"). */
#ifndef TMC_RESCUE_OUTPUT_H
#define TMC_RESCUE_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "rescue.h"

/* The search and how it ran (text only: the numbers do not depend on them). */
typedef struct {
    const tmc_rescue *rescue; /* borrowed; its plan run, its levers run or not applicable */
    int threads;
    double elapsed_s;         /* wall time of every simulation, s */
} tmc_rescue_report;

/* The heading, the plan's metric with its 95 % interval; when it misses,
 * per lever its direction, bracket and evaluations, then the value found and
 * its neighbour with their intervals (flagged when the target lies inside
 * either), or why it does not reach or apply; then a summary table. */
void tmc_rescue_output_text(FILE *f, const tmc_rescue_report *r);

/* The parts of that text the HTML report (rescue_html.h) shows too: the
 * answer (the plan's metric; when it misses, the summary of the levers),
 * and below it each lever's bracket, bisection, value found and neighbour
 * (nothing when the plan meets). */
void tmc_rescue_output_answer_text(FILE *f, const tmc_rescue_report *r);
void tmc_rescue_output_levers_text(FILE *f, const tmc_rescue_report *r);

/* "; Daly: VALUE" (or the elastic form's) beside a recovery lever: where
 * its closed form meets the target, that it meets now or misses even at 0;
 * "" for a plan lever. Into buf[n]. */
void tmc_rescue_output_closed_text(const tmc_rescue *r, const tmc_rescue_lever *l, char *buf,
                                   size_t n);

/* The simulations made: the plan's, then each lever's besides the plan's
 * (its first evaluation, reused). */
int tmc_rescue_output_simulations(const tmc_rescue *r);

/* The JSON document; caller frees with cJSON_Delete. NULL if memory runs out. */
cJSON *tmc_rescue_output_json(const tmc_rescue_report *r);

#endif
