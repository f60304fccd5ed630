/* observed_input.h - a run's progress given apart from its experiment
 * (issue 18): `trainmc run --progress FILE`, a JSON object a training job
 * writes, and `trainmc forecast --history FILE.jsonl`, the JSON-lines file
 * of such objects it appends to, one snapshot a line.
 *
 * Either replaces the experiment's progress section (experiment.h,
 * tmc_observed) and is validated exactly as that section is: the same
 * reader (config_sections.c, the validation table's progress keys) and the
 * same consistency checks (config_progress.c), so the messages are the
 * section's, "LABEL: progress.KEY: problem", with LABEL the file, or
 * "FILE:LINE" for a line of a history. */
#ifndef TMC_OBSERVED_INPUT_H
#define TMC_OBSERVED_INPUT_H

#include <cjson/cJSON.h>

#include "config.h"
#include "error.h"

#define TMC_PROGRESS_MAX_SNAPSHOTS 10000 /* lines of a history: a snapshot an hour for a year */

/* x's progress section replaced by the object obj (its keys as the section's,
 * config_fields.c), read and checked against the rest of x as the section
 * is; label leads every message. Returns 0, or -1 with err, x->observed
 * then unchanged. */
int tmc_observed_input_apply(tmc_experiment *x, const cJSON *obj, const char *label,
                             tmc_error *err);

/* `--progress FILE`: the JSON object in the file at path as x's progress
 * section (tmc_observed_input_apply, label path; a syntax error as
 * "FILE:LINE:COL: invalid JSON ..."). The file is listed among x's inputs
 * (no output may overwrite it) and recorded among its overrides as
 * "progress=@FILE", so a result names it. Returns 0, or -1 with err. */
int tmc_observed_input_load(tmc_experiment *x, const char *path, tmc_error *err);

/* The same with the object made elsewhere from the file at path (forecast
 * --log: a training log read into a progress object): applied with label
 * path, the file listed among x's inputs and recorded as "progress=@FILE".
 * Returns 0, or -1 with err. */
int tmc_observed_input_load_object(tmc_experiment *x, const cJSON *obj, const char *path,
                                   tmc_error *err);

/* One line of a history: its number in the file (1-based) and the state. */
typedef struct {
    long line;
    tmc_observed observed; /* enabled */
} tmc_observed_snapshot;

/* Every snapshot of the JSON-lines file at path, each checked against base
 * (tmc_observed_input_apply on a copy of it, label "FILE:LINE"), into a
 * malloc'd *out[*n] in file order. Empty (blank) lines are skipped; a line
 * that is not a JSON object, a bad key or value, a file without any
 * snapshot, or more than TMC_PROGRESS_MAX_SNAPSHOTS, is an error before any
 * snapshot is returned. The file is listed among base's inputs. Returns 0,
 * or -1 with err ("FILE:LINE: ..." for a line, "FILE: ..." for the file)
 * and *out NULL. */
int tmc_observed_input_read_history(tmc_experiment *base, const char *path,
                                    tmc_observed_snapshot **out, int *n, tmc_error *err);

#endif
