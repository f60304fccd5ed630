/* sweep_html.h - `trainmc sweep --html FILE` (a grid): the sweep's report to
 * share (html.h): the lowest mean T and the highest P(deadline) with their
 * intervals first, what the reference setting assumes, the sweep's curve
 * (the picture --plot draws), every setting's T and P, the table as the text
 * report prints it, the experiment, the version and the command line. */
#ifndef TMC_SWEEP_HTML_H
#define TMC_SWEEP_HTML_H

#include "html.h"
#include "sweep_report.h"

/* The page of r; svg: the sweep's picture (tmc_plot_sweep_text). A
 * malloc'ed string the caller frees; NULL if memory runs out. */
char *tmc_sweep_html(const tmc_sweep_report *r, const char *svg, const tmc_html_meta *m);

#endif
