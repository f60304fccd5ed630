/* fit_fragment.h - the experiment fragment `trainmc fit --write FILE` writes
 * (a failures or jitter distribution file, or SLURM accounting's sections),
 * made here once for the library's tmc_document_fragment and for the
 * command line's --write, with why there is none. Not installed. */
#ifndef TMC_FIT_FRAGMENT_H
#define TMC_FIT_FRAGMENT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "fit.h"
#include "sacct_output.h"
#include "step_fit.h"

/* Each returns the fragment, or NULL with why[n] naming the command line's
 * flags ("--write: ...", which the library's messages name as its
 * parameters): a fault log's under `law` ("exponential" or "weibull"), a
 * step-time log's jitter law, SLURM accounting's failures, outages and
 * time_limit (node failures need the report's cards_per_node). path: the
 * log as given. */
cJSON *tmc_fit_fragment_faults(const tmc_fit_result *r, const char *law, const char *path,
                               char *why, size_t n);
cJSON *tmc_fit_fragment_steps(const tmc_step_fit *r, const char *path, char *why, size_t n);
cJSON *tmc_fit_fragment_sacct(const tmc_sacct_report *rep, char *why, size_t n);

#endif
