/* slowdown.h - runs that slow down since their last (re)start, and the
 * refresh restarts that pay for themselves (issue 34 part 3; the drift law
 * is experiment.h's tmc_slowdown; docs/model.md 3.22).
 *
 * Continuous model of one stretch between restarts: a step's slowest-card
 * time y is multiplied by f(h) = 1 + e(h) at age h (seconds since the
 * restart), the rest of a step's share of time, b - y (the fixed part, its
 * share of a save), is not. Steps then accrue at n'(h) = 1 / (b + y e(h)),
 * so that in h seconds n(h) = integral_0^h n'. Linear e(h) = a h:
 * n(h) = ln(1 + y a h / b) / (y a). Saturating e(h) = s (1 - e^(-h/theta)),
 * theta = s / a: with B = b + y s and Q = y s,
 * n(h) = [h + theta ln((B - Q e^(-h/theta)) / (B - Q))] / B. */
#ifndef TMC_SLOWDOWN_H
#define TMC_SLOWDOWN_H

#include "experiment.h"

/* e(h) = f(h) - 1 at h seconds since the (re)start: the fraction a
 * slowest-card time grows by; 0 when d is off. */
double tmc_slowdown_extra(const tmc_slowdown *d, double h_s);

/* A stretch's step costs: y the slowest-card time a step (drifts), b the
 * whole share of time a step (y, the fixed part, a save's share), s. */
typedef struct {
    const tmc_slowdown *d;
    double y_s, b_s;
} tmc_slowdown_stretch;

/* n(h): steps done in the first h seconds after a restart (above). */
double tmc_slowdown_steps_in(const tmc_slowdown_stretch *st, double h_s);

/* The inverse: the seconds n steps take after a restart, s. */
double tmc_slowdown_time_for(const tmc_slowdown_stretch *st, double n);

/* With restarts of other causes at rate lambda (per second of age,
 * memoryless) and a refresh at age w (INFINITY: none): the mean steps a
 * stretch does, E[n] = integral_0^w e^(-lambda h) n'(h) dh, and its mean
 * length, E[L] = (1 - e^(-lambda w)) / lambda (w when lambda is 0), by
 * renewal-reward; lambda 0 and w INFINITY have no finite mean (returns
 * NAN). GSL quadrature; NAN if it fails. */
double tmc_slowdown_mean_steps(const tmc_slowdown_stretch *st, double lambda, double w_s);
double tmc_slowdown_mean_length(double lambda, double w_s);

/* The refresh period of compute w* (age at which compute stops) that
 * maximises the steps a second, E[n] / (E[L] + e^(-lambda w) cost_s), for a
 * refresh costing cost_s (restart, save, half a step lost), s; INFINITY
 * when no finite w does better than never refreshing (a saturating drift
 * whose whole loss is below the cost). */
double tmc_slowdown_best_period_s(const tmc_slowdown_stretch *st, double lambda, double cost_s);

/* The first-order optimum for small drift: w* = sqrt(2 cost b / (y a)),
 * a the slope at 0 (per second), from ln(1 + x) ~ x - x^2 / 2 (the same
 * trade as Young's interval); INFINITY without drift. */
double tmc_slowdown_first_order_period_s(const tmc_slowdown_stretch *st, double cost_s);

/* What a slowdown costs a run of S steps of mean time step_s (fixed_s of
 * it not drifting), a save of save_s every k steps, restarts of other
 * causes at lambda per second up: the mean extra time a step, the refresh
 * restarts and what each costs (refresh_s, its save, half a step lost to
 * the cut), and the best refresh period, all first order in the
 * interruptions (docs/model.md 3.22). Without interruptions the stretches
 * are exact in the continuous model: floor-like whole periods, then the
 * rest of the steps from a restart. Refresh periods are reported as
 * slowdown.refresh_hours reads them (the save and the cut step inside). */
typedef struct {
    double step_extra_s;   /* mean drift a step: E[L] / E[n] - b, s */
    double refreshes;      /* refresh restarts a run */
    double refresh_cost_s; /* each: refresh_s + save + step / 2, s */
    double added_s;        /* S step_extra_s + refreshes x refresh_cost_s, s */
    double best_refresh_s; /* tmc_slowdown_best_period_s at lambda, as refresh_hours
                              reads it, s; INFINITY: never refresh */
    double first_order_refresh_s; /* tmc_slowdown_first_order_period_s, likewise, s */
} tmc_slowdown_costs;

void tmc_slowdown_costs_of(const tmc_experiment *x, double step_s, double fixed_s,
                           double save_s, long k, double lambda, tmc_slowdown_costs *out);

#endif
