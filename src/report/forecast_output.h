/* forecast_output.h - a forecast's own lines in run's report (issue 18;
 * docs/model.md 3.15): where the run stands, what its failures say about
 * the failure rate (prior and posterior), and the time left. */
#ifndef TMC_FORECAST_OUTPUT_H
#define TMC_FORECAST_OUTPUT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "output.h"

/* A pace (the observed step time against the plan's, or the steps a day
 * so far against the plan's) this share or more off the plan's is warned
 * of, whichever pace the forecast uses (issue 32 item 4; was 10 %, and the
 * step's difference was never warned of). */
#define TMC_FORECAST_PACE_WARN 0.05

/* The "Forecast" block of the text report; nothing when r->x has no
 * progress section. */
void tmc_forecast_output_text(FILE *f, const tmc_report *r);

/* The brief report's forecast lines (brief.h), after its P(deadline): the
 * time left (T's mean and closed_t, the closed forms' T, beside it), the
 * pace the steps left run at, the rates' posteriors in one line, then the
 * warnings that fire. Nothing without a progress section. */
void tmc_forecast_output_brief(FILE *f, const tmc_report *r, const char *closed_t);

/* The same as the run document's "forecast" object (null without a progress
 * section), added to root. Returns 0, or -1 if memory runs out. */
int tmc_forecast_output_json(cJSON *root, const tmc_report *r);

#endif
