/* sensitivity_inputs.h - `trainmc sensitivity --inputs FILE.json`: the
 * inputs to move and their ranges, a JSON object mapping each input's name
 * to [LOW, HIGH], e.g. {"job.efficiency": [0.30, 0.43],
 * "checkpoint.save_s": [8, 33]}. Only the file's shape is checked here;
 * whether a name is an input and a value valid is sensitivity.h's. */
#ifndef TMC_SENSITIVITY_INPUTS_H
#define TMC_SENSITIVITY_INPUTS_H

#include "error.h"
#include "experiment.h"

#define TMC_SENSITIVITY_MAX_RANGES 16

/* One input's range as written. */
typedef struct {
    char name[TMC_KEY_LEN];
    double low, high;
} tmc_sensitivity_range;

/* Read path into out[TMC_SENSITIVITY_MAX_RANGES], in the file's order.
 * Returns the count (>= 1), or -1 with err = "--inputs PATH: problem": the
 * file unreadable or not JSON, not an object, empty, more than
 * TMC_SENSITIVITY_MAX_RANGES, a name too long or twice, a value that is not
 * an array of two finite numbers, or low > high. */
int tmc_sensitivity_read_inputs(const char *path, tmc_sensitivity_range *out, tmc_error *err);

#endif
