/* rescue_html.h - `trainmc rescue --html FILE`: the rescue's report to share
 * (html.h): the plan's metric as it stands with its interval and, when it
 * misses, each lever's smallest change that meets the target with the
 * metric there (or why none does), a recovery lever's closed form beside;
 * the plan's T beside the closed forms, what the plan assumes, each lever's
 * bisection as the text report prints it, the experiment, the version and
 * the command line. No picture: rescue draws none (it has no --plot). */
#ifndef TMC_RESCUE_HTML_H
#define TMC_RESCUE_HTML_H

#include "html.h"
#include "rescue_output.h"

/* The page of r (its plan run, its levers run or not applicable). A
 * malloc'ed string the caller frees; NULL if memory runs out. */
char *tmc_rescue_html(const tmc_rescue_report *r, const tmc_html_meta *m);

#endif
