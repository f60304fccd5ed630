/* finishable.h - whether a run can finish in practice: the judgement
 * `trainmc run` and `trainmc sweep` (tmc_cli_check_finishable, cli.h) and
 * the library's sweep (trainmc.h) make before simulating. No printing. */
#ifndef TMC_FINISHABLE_H
#define TMC_FINISHABLE_H

#include <stddef.h>

#include "config.h"

/* Refuse runs whose expected wall time (Daly) exceeds this many times the
 * uninterrupted one: a replica would practically never finish. */
#define TMC_FINISHABLE_MAX_DALY_FACTOR 1000.0

/* Whether x's run can finish: its step time is finite, asynchronous saves
 * keep up, and its expected wall time (Daly's formula, closed_form.h) is at
 * most TMC_FINISHABLE_MAX_DALY_FACTOR times the uninterrupted one. Replayed
 * traces are left out of the judgement: a trace is finite, so it cannot stop
 * a run from finishing. Returns 0 when it can; 1 when it cannot, with why[n]
 * the reason and advice that fits the cause (Daly's optimum interval when it
 * would finish there, else fewer interruptions or faster saves), e.g. "the
 * run cannot finish in practice: ..." (no path, no setting: the caller puts
 * them before it); -1 with why = "out of memory ..." if the copy of x it
 * judges cannot be had. Safe to call from several threads. */
int tmc_finishable_check(const tmc_experiment *x, char *why, size_t n);

#endif
