/* interval_search.h - checkpoint.interval_s "optimal" (issue 34 part 5):
 * the checkpoint interval of the lowest simulated mean completion time,
 * searched before a run, so that an experiment follows its own failure
 * rate where the closed forms' optimum is off (restores struck, spares,
 * time limits, two levels, saves that vary).
 *
 * The search: integer steps K, a golden-section search on a bracket of a
 * quarter to four times the closed form's K0 (the loader's start: Daly's,
 * or the two-level tau*(m)), widened when the best lies on its edge; each
 * K is run on the same TMC_INTERVAL_SEARCH_REPLICAS replicas (common
 * random numbers), replicas TMC_INTERVAL_SEARCH_FIRST onward of the run's
 * seed, which no run draws: the run's own replicas then estimate T at the
 * chosen K without the bias of having chosen it on them. Reproducible for
 * any thread or rank count, as every run. Called by `run` (the library's
 * tmc_experiment_run), each setting of `sweep`, `rescue`, `cheapest`,
 * `sensitivity`, and each snapshot of `forecast`. */
#ifndef TMC_INTERVAL_SEARCH_H
#define TMC_INTERVAL_SEARCH_H

#include <signal.h>

#include "experiment.h"
#include "error.h"

#define TMC_INTERVAL_SEARCH_REPLICAS 2000L
#define TMC_INTERVAL_SEARCH_FIRST (1L << 40)
#define TMC_INTERVAL_SEARCH_MAX 64 /* evaluations, at most */

typedef struct {
    int searched;            /* 1: the fields below hold a search */
    long steps;              /* K found */
    double interval_s;       /* its work, K x the closed form's step time, s */
    long form_steps;         /* K0, the closed form's, where the search started */
    long lo, hi;             /* the last bracket searched, steps */
    int evaluations;         /* intervals run */
    long replicas;           /* each one's */
    double mean_days;        /* mean T at K over the search's replicas */
    double form_minus_days;  /* mean T at K0 less that at K, paired */
    double form_minus_se_days; /* its standard error (sd of the differences / sqrt n) */
} tmc_interval_search;

/* When x asks for "optimal" and has not been searched: search, set
 * x->checkpoint.interval_steps to the K found (interval_s 0,
 * interval_searched 1) and fill *out; else out->searched = 0 and nothing
 * changes. `threads` >= 1; stop: NULL, or a flag that stops the replicas.
 * Returns 0; or TMC_RUNNER_STOPPED (runner.h) or -1 (memory) with err. */
int tmc_interval_search_resolve(tmc_experiment *x, int threads,
                                const volatile sig_atomic_t *stop, tmc_interval_search *out,
                                tmc_error *err);

#endif
