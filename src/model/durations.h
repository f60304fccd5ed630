/* durations.h - random save and restore times (docs/model.md 3.12).
 *
 * A save or a restore of planned (mean) duration m takes m Y, Y a random
 * factor of mean 1 and coefficient of variation cv drawn afresh for every
 * save and every restore attempt (storage contention differs from one to
 * the next). A save still running after a timeout T fails the job. The
 * closed form needs a few expectations of C = m Y against an exponential
 * failure clock of rate lambda; they are computed here by GSL quadrature
 * over Y's quantile function. */
#ifndef TMC_DURATIONS_H
#define TMC_DURATIONS_H

#include <gsl/gsl_rng.h>

#include "experiment.h"
#include "laws.h"

/* Y's law, ready to draw. Plain data. cv = 0: Y = 1, nothing drawn. */
typedef struct {
    const tmc_law_type *type; /* tmc_duration_laws[kind] (laws.h) */
    tmc_law y;                /* mean 1, cv; its parameters (cv > 0 only) */
} tmc_duration_law;

/* The law of Y (mean 1, sd cv) for a validated kind and cv (input/config.h). */
tmc_duration_law tmc_durations_law(tmc_duration_kind kind, double cv);

/* One draw of Y (dimensionless, mean 1) from r; 1 without drawing when cv = 0. */
double tmc_durations_draw(const tmc_duration_law *l, gsl_rng *r);

/* P(Y <= y). */
double tmc_durations_cdf(const tmc_duration_law *l, double y);

/* What a save of mean mean_s seconds (C = mean_s Y) and timeout timeout_s
 * (0: none) means to a failure clock of rate `rate` per second:
 *   finish   E[e^(-rate C); C <= T]    (the save ends, nothing struck it)
 *   time_out e^(-rate T) P(C > T)       (it times out, nothing struck it)
 *   reach    E[e^(-rate min(C, T))]     (= finish + time_out)
 *   busy_s   E[min(C, T)], seconds      (rate 0's E[(1 - e^(-rate x)) / rate])
 * The save's share of a segment's renewal formula (closed_form.c). Returns
 * 0, or -1 if the quadrature fails. Source: docs/model.md 3.12. */
typedef struct {
    double finish, time_out, reach, busy_s;
} tmc_save_terms;
int tmc_durations_save_terms(const tmc_duration_law *l, double mean_s, double timeout_s,
                             double rate, tmc_save_terms *out);

/* E[e^(-rate R)] for a restore R = mean_s Y (the Laplace transform of the
 * restore time, docs/model.md 3.12). NaN if the quadrature fails. */
double tmc_durations_laplace(const tmc_duration_law *l, double mean_s, double rate);

#endif
