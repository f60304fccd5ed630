/* brief.h - `trainmc run`'s default report (issue 32): the answer first
 * (P(deadline) with its interval, T's mean and p05/p50/p95, the overhead,
 * each beside the closed forms), what the run assumes, the card-hours, the
 * events by part in their units and the wall-time rows above
 * TMC_BRIEF_MIN_SHARE; warnings only when they fire; the experiment's
 * source in one line when the report fits TMC_BRIEF_LINES. --detail prints
 * the full report (output.h). */
#ifndef TMC_BRIEF_H
#define TMC_BRIEF_H

#include <stdio.h>

#include "output.h"

#define TMC_BRIEF_MIN_SHARE 0.001 /* wall-time rows below this share are left out */
#define TMC_BRIEF_LINES 20        /* the experiment's source is shown when the report,
                                     the memory line before it included, fits in this */
#define TMC_BRIEF_SOURCE_CHARS 100 /* the source's line is cut to this */

/* Every kind of run has one: a plain run (P(deadline), T, the overhead), a
 * forecast (P from its day, the time left, the pace used, the rates'
 * posteriors; forecast_output.h), a calendar window (the goodput), rates
 * drawn per replica (the plug-in P and T beside the predictive ones),
 * importance sampling (the rare miss's P and its interval first) and
 * elastic groups (P, T and the overhead beside the elastic closed form). */

void tmc_brief_text(FILE *f, const tmc_report *r);

/* The answer lines of the brief report alone (the P(deadline), T and
 * overhead lines of r's kind, the warnings that fire, the interval search
 * and the plug-in line): the HTML report (run_html.h) shows the same. */
void tmc_brief_answer(FILE *f, const tmc_report *r);

/* The events row of the brief report (failures by part, bursts and the
 * spares they took, outages, restarts beside Poisson), and the censored
 * line when replicas were still running: what --html shows as printed. */
void tmc_brief_events(FILE *f, const tmc_report *r);

/* One line when retirements left a fleet fewer nodes than the job needs in
 * some run (failures.retire_after_failures): how many runs, and that the
 * job waited to the horizon (or the window's end) in them; nothing else. */
void tmc_brief_fleet_short(FILE *f, const tmc_report *r);

#endif
