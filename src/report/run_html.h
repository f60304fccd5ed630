/* run_html.h - `trainmc run --html FILE`: the run's report to share
 * (html.h): P(deadline) with its interval first, T beside the closed forms,
 * what the run assumes, the completion time's histogram and CDF with the
 * deadline (the picture --plot draws), the wall-time split, the experiment,
 * the version and the command line. */
#ifndef TMC_RUN_HTML_H
#define TMC_RUN_HTML_H

#include "html.h"
#include "output.h"

/* The page of r; svg: the completion time's picture (tmc_plot_run_text),
 * NULL to leave it out (a calendar window draws none). A malloc'ed string
 * the caller frees; NULL if memory runs out. */
char *tmc_run_html(const tmc_report *r, const char *svg, const tmc_html_meta *m);

#endif
