/* brief.h - `trainmc run`'s default report (issue 32): the answer first
 * (P(deadline) with its interval, T's mean and p05/p50/p95, the overhead,
 * each beside the closed forms), what the run assumes, the card-hours, the
 * events by part in their units and the wall-time rows above
 * TMC_BRIEF_MIN_SHARE; warnings only when they fire. --detail prints the
 * full report (output.h). */
#ifndef TMC_BRIEF_H
#define TMC_BRIEF_H

#include <stdio.h>

#include "output.h"

#define TMC_BRIEF_MIN_SHARE 0.001 /* wall-time rows below this share are left out */

/* 1 when r is a plain run the brief report covers (no calendar window,
 * forecast, drawn rates or importance sampling, which print in full). */
int tmc_brief_covers(const tmc_report *r);

void tmc_brief_text(FILE *f, const tmc_report *r);

#endif
