/* laws.h - probability laws as types, after GSL's gsl_rng_type: a law is
 * a table of functions (tmc_law_type) with one exported pointer per law, and
 * each kind an experiment names (lifetimes, repairs, detection delays, save
 * and restore durations: experiment.h's enums) is an array of those pointers
 * indexed by its enum. A new law costs one row and its functions.
 *
 * Every law is set by its mean and a shape or a cv; tmc_law_prepare
 * derives the parameters GSL draws with, by the expressions the engine has
 * always used, so that draws keep every bit (docs/model.md 3.1, 3.12). */
#ifndef TMC_LAWS_H
#define TMC_LAWS_H

#include <gsl/gsl_rng.h>

#include "experiment.h"

/* One law, ready to draw. Plain data. */
typedef struct {
    double mean;  /* its mean, in the caller's unit (s; 1 for a factor) */
    double shape; /* Weibull: shape k; unused by the others */
    double cv;    /* lognormal, gamma, uniform: coefficient of variation;
                     unused by the others */
    double a, b;   /* derived (tmc_law_prepare): Weibull scale mean / Gamma(1 + 1/k)
                      and shape; lognormal mu, sigma of ln X; gamma shape 1 / cv^2
                      and scale mean cv^2; uniform low and high, mean (1 -+ sqrt(3) cv) */
} tmc_law;

typedef struct tmc_law_type {
    const char *name; /* as experiment files spell it ("weibull") */
    void (*prepare)(tmc_law *l);                   /* a, b from mean, shape, cv */
    double (*draw)(const tmc_law *l, gsl_rng *r);  /* fixed: the mean, nothing drawn */
    double (*cdf)(const tmc_law *l, double x);     /* P(X <= x); NULL: not needed */
    double (*quantile)(const tmc_law *l, double u); /* P^-1(u); NULL: not needed */
    /* The minimum of n independent draws: drawn with one number from r, and
     * its mean (NAN if the quadrature fails); NULL: no closed form needed */
    double (*min_draw)(const tmc_law *l, double n, gsl_rng *r);
    double (*min_mean)(const tmc_law *l, double n);
    /* E[(X - d)+], what is left at d of a time X begun at 0; NULL: no closed
     * form (the caller bounds it) */
    double (*excess_mean)(const tmc_law *l, double d);
    int memoryless; /* 1: exponential, so arrivals of n of them are one Poisson
                       process (rate n / mean) */
    int tiltable;   /* 1: importance sampling may scale its mean (its density
                       ratio is written in the engine: failures.c, weights.c) */
} tmc_law_type;

extern const tmc_law_type *const tmc_law_exponential, *const tmc_law_weibull,
    *const tmc_law_lognormal, *const tmc_law_fixed, *const tmc_law_gamma,
    *const tmc_law_uniform;

/* Indexed by the experiment's enums; a replayed trace (TMC_LIFETIME_TRACE)
 * is not a law and has no entry. */
enum {
    TMC_LIFETIME_LAW_COUNT = TMC_LIFETIME_TRACE,
    TMC_REPAIR_LAW_COUNT = TMC_REPAIR_WEIBULL + 1,
    TMC_DURATION_LAW_COUNT = TMC_DURATION_UNIFORM + 1,
    TMC_DETECTION_LAW_COUNT = TMC_DETECTION_LOGNORMAL + 1
};
extern const tmc_law_type *const tmc_lifetime_laws[TMC_LIFETIME_LAW_COUNT];
extern const tmc_law_type *const tmc_repair_laws[TMC_REPAIR_LAW_COUNT];
extern const tmc_law_type *const tmc_duration_laws[TMC_DURATION_LAW_COUNT];
extern const tmc_law_type *const tmc_detection_laws[TMC_DETECTION_LAW_COUNT];

/* 1 when failures of lifetime kind k form a Poisson process whatever the
 * cards' ages (an exponential law): 0 for the other laws and for a trace. */
static inline int tmc_laws_lifetime_memoryless(tmc_lifetime_kind k)
{
    return k != TMC_LIFETIME_TRACE && tmc_lifetime_laws[k]->memoryless;
}

/* The law of type t with this mean (> 0), Weibull shape and cv (> 0 where
 * t uses them, as the loader validates: input/config.h), its a and b derived. */
tmc_law tmc_law_prepare(const tmc_law_type *t, double mean, double shape, double cv);

/* P(N > k) for N Poisson of mean mu (events; mu >= 0): GSL's
 * gsl_cdf_poisson_Q, which returns NaN (GSL_EDOM) at mu = 0, where N = 0
 * surely and the tail is 0 (issue 33 item 5: an instant repair, a zero
 * window). NaN for a NaN or negative mu. */
double tmc_laws_poisson_over(unsigned k, double mu);

/* The p-quantile (0 < p < 1) of Gamma(shape > 0, scale > 0), in scale's
 * unit: gsl_cdf_gamma_Pinv, which fails (NaN) at some large shapes (above
 * about 8,000: shape 16,001 at p = 0.975, 256,000 at 0.025); then the
 * Wilson-Hilferty cube (Wilson and Hilferty 1931, PNAS 17:684), within
 * 6e-7 relative of GSL at shape 1,000, 1e-8 at 16,001, and better above
 * (fit-1.9 checks it on the Poisson tails up to 10 million events). NaN
 * for p or a parameter out of range.
 * Turns GSL's error handler off while it runs. */
double tmc_law_gamma_quantile(double p, double shape, double scale);

#endif
