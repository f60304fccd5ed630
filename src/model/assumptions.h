/* assumptions.h - when the closed forms stop holding, and why (issue 14).
 *
 * Young's overhead L = c / tau + (tau / 2 + r + D) / M and Daly's wall time
 * (closed_form.h; docs/model.md 3.4, 3.5) rest on assumptions that a run can
 * break. Each check below names one, with the measure that breaks it and
 * its threshold:
 *   interval_vs_mtbf  Young is first order in (tau + c) / M: beyond 0.1 the
 *                     neglected terms, about ((tau + c) / M)^2 / 6 of the
 *                     segment, are no longer small (J. W. Young, CACM 17(9),
 *                     1974; J. T. Daly, FGCS 22(3), 2006, section 3);
 *   restore_vs_mtbf   (r + D) / M beyond 0.1: restores are struck often, which
 *                     Young leaves out (Daly includes it);
 *   save_vs_interval  c / tau beyond 0.5: the saves take a third of the time or
 *                     more, the interval is far from the optimum (the message
 *                     gives Daly's tau_opt and the factor);
 *   failure_law       lifetimes not exponential (Weibull with shape other than
 *                     1, lognormal, a replayed trace): both formulas assume
 *                     memoryless failures at a constant rate;
 *   spares            a finite pool of spares: waits for spares and repairs
 *                     are in no closed form (without spares each failure
 *                     waits for its own repair, which the delay D holds);
 *   slow_cards        persistently slow cards: in no closed form;
 *   slowdown          steps that slow down since the last restart: the
 *                     closed forms take a continuous flow of steps and saves
 *                     and restarts as renewal cycles (docs/model.md 3.22);
 *   save_times        saves of random length (checkpoint.save_cv > 0) or that
 *                     may time out (P(C > T) > 0): Daly's wall time includes
 *                     them (docs/model.md 3.12), but Young's and Daly's optimum
 *                     interval assume a fixed save that always succeeds;
 *   scale             the failure rates were measured at failures.measured_cards
 *                     cards and the job has more than 8 times as many, or fewer
 *                     than an eighth: per-card, per-node and per-job failures
 *                     grow differently with the card count, so a rate measured
 *                     at one scale is extrapolated (docs/model.md 3.13: one
 *                     cluster's 8-GPU MTTF is 13 % off its 1,024-GPU one
 *                     scaled, a factor of 128).
 * A check that does not apply (nothing fails: M infinite) is silent. */
#ifndef TMC_ASSUMPTIONS_H
#define TMC_ASSUMPTIONS_H

#include "closed_form.h"
#include "experiment.h"

#define TMC_ASSUMPTIONS_MAX 14
#define TMC_ASSUMPTIONS_RATIO 0.1 /* (tau + c) / M and (r + D) / M beyond this */
#define TMC_ASSUMPTIONS_SAVE_RATIO 0.5 /* c / tau beyond this */
#define TMC_ASSUMPTIONS_LIMIT_ARRIVALS 1.0 /* other interruptions per allocation beyond this */
#define TMC_ASSUMPTIONS_SCALE_RATIO 8.0 /* cards / measured_cards beyond this, either way */

typedef struct {
    int n;
    const char *key[TMC_ASSUMPTIONS_MAX];   /* the check's name, as above */
    char message[TMC_ASSUMPTIONS_MAX][256]; /* what fails, with its figures */
} tmc_assumptions;

/* The assumptions of the closed forms that x breaks, in the order above. */
void tmc_assumptions_check(const tmc_experiment *x, const tmc_closed_form *cf,
                           tmc_assumptions *out);

#endif
