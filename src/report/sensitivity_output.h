/* sensitivity_output.h - `trainmc sensitivity` (sensitivity.h) as text
 * (stdout), JSON (cJSON) and a tornado chart (SVG, written directly: bars
 * are <rect> elements a test can count). Keys, lines and the chart are
 * described in README.md ("trainmc sensitivity"). */
#ifndef TMC_SENSITIVITY_OUTPUT_H
#define TMC_SENSITIVITY_OUTPUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "sensitivity.h"

/* A report that has run (tmc_sensitivity_run_all). */
typedef struct {
    const tmc_sensitivity *s; /* borrowed */
    int threads;              /* text only: the numbers do not depend on it */
    double elapsed_s;         /* wall time of every simulation, s; text only */
} tmc_sensitivity_report;

/* The heading, the base's mean T and P(deadline); the inputs ranked by the
 * swing of mean T, with T(end) - T(base) at each end and the swing, each
 * with its CRN standard error; the same for P(deadline); each input's range
 * and its source (the link's exposed communication at each end); the
 * inputs left out and why; with a compound case, its T and P, each
 * degradation alone and the gain from fixing each alone. */
void tmc_sensitivity_output_text(FILE *f, const tmc_sensitivity_report *r);

/* The parts of that text the HTML report (sensitivity_html.h) shows too:
 * the answer (the inputs that move T and P most), and the tables below it
 * (the base, the inputs by the swing of T and of P, the ranges, the
 * compound case). */
void tmc_sensitivity_output_answer_text(FILE *f, const tmc_sensitivity *s);
void tmc_sensitivity_output_tables_text(FILE *f, const tmc_sensitivity_report *r);

/* The JSON document; caller frees with cJSON_Delete. NULL if memory runs out. */
cJSON *tmc_sensitivity_output_json(const tmc_sensitivity_report *r);

/* The tornado chart as SVG text (caller frees; NULL if memory runs out):
 * two panels, T(end) - T(base) in days and P(end) - P(base), one row per
 * input in the order of the swing of T, each with two bars drawn from the
 * base (0): the low end's (upper half of the row, class "bar low") and the
 * high end's (lower half, class "bar high"), labelled with the input's value
 * there; every bar carries data-input (the input's name). */
char *tmc_sensitivity_output_svg(const tmc_sensitivity_report *r);

#endif
