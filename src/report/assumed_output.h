/* assumed_output.h - what a run assumes (assumed.h) and where the closed
 * form contradicts the simulation, as text lines and JSON, shared by the
 * run report (output.c, brief.c) and the plan. */
#ifndef TMC_ASSUMED_OUTPUT_H
#define TMC_ASSUMED_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "assumed.h"
#include "closed_form.h"
#include "experiment.h"
#include "stats.h"

/* One line per assumption: "Default, optimistic: WHY (set KEY, now VALUE)";
 * then, with a time limit whose warning is stated, what the warning does
 * ("Time limit: ..."). */
void tmc_assumed_output_text(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf);

/* The "assumed" array: [{key, value, why}]; NULL if memory runs out. */
cJSON *tmc_assumed_output_json(const tmc_experiment *x, const tmc_closed_form *cf);

/* The "time_limit" object {allocation_s, save_before_limit, notice} (notice:
 * "not stated", "holds the save", "too short", or "not read" with at_limit
 * "lose"), or a JSON null without a time limit; NULL if memory runs out. */
cJSON *tmc_assumed_output_limit_json(const tmc_experiment *x);

/* When the closed form's verdict contradicts the simulated days: a line
 * that says so and names the closed form's assumptions the run breaks
 * (assumptions.h), or that no checked assumption explains it when it breaks
 * none. The closed form judged is the one shown beside P(T <= deadline): the
 * elastic one for an elastic run, Young's otherwise. Returns 1 when it
 * printed the line. */
int tmc_assumed_output_contradiction(FILE *f, const tmc_experiment *x,
                                      const tmc_closed_form *cf, const tmc_summary *d);

/* The closed form's verdict on the deadline in words: "meets (Young)" or
 * "misses (Young)" ("(Elastic)" for an elastic run), followed by ", CONTRADICTED" when the simulation
 * contradicts it; into buf[n]. */
const char *tmc_assumed_output_verdict(const tmc_experiment *x, const tmc_closed_form *cf,
                                       const tmc_summary *d, char *buf, size_t n);

/* The same as the "closed_form_verdict" object {meets, closed_form ("Young",
 * "Elastic"), contradicts, why, left_out}. */
cJSON *tmc_assumed_output_verdict_json(const tmc_experiment *x, const tmc_closed_form *cf,
                                       const tmc_summary *d);

#endif
