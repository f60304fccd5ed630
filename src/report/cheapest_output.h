/* cheapest_output.h - `trainmc cheapest` (cheapest.h) as text (stdout),
 * JSON (cJSON) and an SVG picture of its cost-probability frontier. Keys
 * and lines are listed in README.md ("trainmc cheapest"). */
#ifndef TMC_CHEAPEST_OUTPUT_H
#define TMC_CHEAPEST_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "cheapest.h"

/* The search and how it ran (text only: the numbers do not depend on them). */
typedef struct {
    const tmc_cheapest *c; /* borrowed; tmc_cheapest_run done */
    int threads;
    double elapsed_s;      /* wall time of every simulation, s */
    /* the chosen plan's experiment (tmc_cheapest_load_setting), whose
     * defaults the report states ("Default, optimistic:"); NULL: the
     * experiment as given (c->base.x) */
    const tmc_sweep_setting *chosen;
} tmc_cheapest_report;

/* The heading (target, cost unit, levers, simulations), per combination its
 * fewest cards meeting the target, the final comparison on fresh
 * replicas, the chosen plan with its cost and P(deadline) and their 95 %
 * intervals (or, when no plan meets, the closest ones), and the frontier. */
void tmc_cheapest_output_text(FILE *f, const tmc_cheapest_report *r);

/* The parts of that text the HTML report (cheapest_html.h) shows too: the
 * answer (the chosen plan, or why none, and the closest), the chosen plan's
 * defaults that flatter it (else the experiment's), and the tables below
 * (the search, the final comparison, the frontier). */
void tmc_cheapest_output_answer_text(FILE *f, const tmc_cheapest_report *r);
void tmc_cheapest_output_assumed_text(FILE *f, const tmc_cheapest_report *r);
void tmc_cheapest_output_tables_text(FILE *f, const tmc_cheapest_report *r);

/* The JSON document; caller frees with cJSON_Delete. NULL if memory runs out. */
cJSON *tmc_cheapest_output_json(const tmc_cheapest_report *r);

/* The picture: every search plan's expected cost (x) against its
 * P(deadline) (y), the frontier joined with its Wilson intervals, the
 * target as a dashed line and the chosen plan (fresh replicas) marked.
 * Malloc'd SVG text (cheapest_svg.c); NULL if memory runs out. */
char *tmc_cheapest_output_svg(const tmc_cheapest_report *r);

/* The fresh plans (the final comparison) by their cost, refused ones last,
 * as indices of c->plans into idx[2 TMC_CHEAPEST_FINALISTS]; their count. */
int tmc_cheapest_output_finalists(const tmc_cheapest *c, int *idx);

/* "money" or "card-hours": what the cost counts. */
const char *tmc_cheapest_name_unit(const tmc_cheapest *c);

/* The plan's label: "job.cards=N, COMBINATION" into buf. */
void tmc_cheapest_format_plan(const tmc_cheapest *c, const tmc_cheapest_plan *p, char *buf,
                              size_t n);

#endif
