/* sensitivity_html.h - `trainmc sensitivity --html FILE`: the report to
 * share (html.h): the base's P(deadline) with its interval and the inputs
 * that move T and P most first, what the base assumes, the tornado (the
 * picture --plot draws), the tables as printed, the experiment, the version
 * and the command line. */
#ifndef TMC_SENSITIVITY_HTML_H
#define TMC_SENSITIVITY_HTML_H

#include "html.h"
#include "sensitivity_output.h"

/* The page of r (run). A malloc'ed string the caller frees; NULL if memory
 * runs out. */
char *tmc_sensitivity_html(const tmc_sensitivity_report *r, const tmc_html_meta *m);

#endif
