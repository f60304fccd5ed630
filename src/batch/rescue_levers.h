/* rescue_levers.h - rescue's levers, for rescue.c (rescue.h is the
 * interface): --levers parsing and the default list, and the recovery
 * levers' brackets with the closed form's threshold. */
#ifndef TMC_RESCUE_LEVERS_H
#define TMC_RESCUE_LEVERS_H

#include "rescue.h"

/* r->levers from "KEY,KEY,..." (tmc_rescue_parse_lever, no lever twice, at
 * most TMC_RESCUE_MAX_LEVERS), or for NULL the five plan levers and every
 * recovery lever that applies to r->base.x. Each lever gets its kind, cause
 * and key. 0, or -1 with err. */
int tmc_rescue_parse_levers(tmc_rescue *r, const char *list, tmc_error *err);

/* Recovery lever l of x (loaded base): its current value, a bracket down to
 * 0 and smaller helps, or NOT_APPLICABLE with why; when it applies, where
 * the closed form (Daly's, or the elastic form) meets target t in
 * [0, current], by Brent's method (l->closed, l->closed_value). */
void tmc_rescue_bracket_recovery(tmc_rescue_lever *l, const tmc_experiment *x,
                                 const tmc_sweep_target *t);

#endif
