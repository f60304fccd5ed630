/* slowdown_output.h - a run that slows down, in the report: the drift, the
 * refresh restarts and the closed form's best period (docs/model.md 3.22). */
#ifndef TMC_SLOWDOWN_OUTPUT_H
#define TMC_SLOWDOWN_OUTPUT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "closed_form.h"
#include "experiment.h"

/* One line "Slowdown: ..." when x has a slowdown; nothing otherwise. */
void tmc_slowdown_output_text(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf);

/* {"step_extra_s", "refreshes", "refresh_cost_s", "best_refresh_hours",
 * "first_order_refresh_hours", "never_refresh_days"}, hours null when no
 * finite refresh period pays; JSON null without a slowdown. */
cJSON *tmc_slowdown_output_json(const tmc_experiment *x, const tmc_closed_form *cf);

#endif
