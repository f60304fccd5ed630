/* cheapest_html.h - `trainmc cheapest --html FILE`: the search's report to
 * share (html.h): the cheapest plan that meets the target first, with its
 * P(deadline) and its cost and their intervals (or that none meets, and the
 * closest), its T beside the closed forms, what it assumes, the
 * cost-probability frontier (the picture --plot draws), the final
 * comparison on fresh replicas, the tables as the text report prints them,
 * the experiment, the version and the command line. */
#ifndef TMC_CHEAPEST_HTML_H
#define TMC_CHEAPEST_HTML_H

#include "cheapest_output.h"
#include "html.h"

/* The page of r (tmc_cheapest_run done; r->chosen the chosen plan's
 * setting when a plan was chosen). A malloc'ed string the caller frees;
 * NULL if memory runs out. */
char *tmc_cheapest_html(const tmc_cheapest_report *r, const tmc_html_meta *m);

#endif
