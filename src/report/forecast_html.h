/* forecast_html.h - `trainmc forecast --html FILE`: the history's report to
 * share (html.h): P(deadline) at the latest snapshot with its interval and
 * its change first, what that run assumes, P(deadline) against the elapsed
 * day (the picture --plot draws), the table of snapshots as the text report
 * prints it, the experiment, the version and the command line. */
#ifndef TMC_FORECAST_HTML_H
#define TMC_FORECAST_HTML_H

#include "forecast_history_output.h"
#include "html.h"

/* The page of r (tmc_forecast_history_run done). A malloc'ed string the
 * caller frees; NULL if memory runs out. */
char *tmc_forecast_html(const tmc_forecast_history_report *r, const tmc_html_meta *m);

#endif
