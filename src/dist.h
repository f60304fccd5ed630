/* dist.h - per-card compute-time distributions and the exact sampler of
 * their maximum over N cards.
 *
 * A step ends when the slowest of N cards is done (MODEL.md section 2), so the
 * engine needs max_i X_i, not the X_i themselves. For X_i iid with a known
 * inverse CDF, max_i X_i = F^-1(U^(1/N)) for one uniform U, which costs O(1)
 * whatever N is. We evaluate it through the upper tail q = 1 - U^(1/N) =
 * -expm1(log(U) / N) so that large N keeps full precision. */
#ifndef TMC_DIST_H
#define TMC_DIST_H

#include <gsl/gsl_rng.h>

typedef enum {
    TMC_JITTER_NORMAL = 0 /* X_i ~ Normal(mu, (cv mu)^2), MODEL.md 2 */
} tmc_jitter_kind;

/* Per-card jitter as written in an experiment: the distribution of one card's
 * compute time per step relative to its mean mu. */
typedef struct {
    tmc_jitter_kind kind;
    double cv; /* coefficient of variation sigma / mu, dimensionless, [0, 1] */
} tmc_jitter;

/* Sampler of max over n cards of their compute time (seconds). Plain data. */
typedef struct {
    double mu;    /* mean per-card compute time per step, seconds */
    double sigma; /* standard deviation per card, seconds */
    double inv_n; /* 1 / n */
} tmc_max_sampler;

/* Prepare a sampler for n >= 1 cards with mean compute time mu seconds. */
void tmc_dist_max_init(tmc_max_sampler *s, const tmc_jitter *j, double mu_s, long n);

/* One draw of the slowest card's compute time, seconds. Uses one uniform from
 * r, or none when sigma is 0 (then returns mu exactly). */
static inline double tmc_dist_sample_max(const tmc_max_sampler *s, gsl_rng *r);

/* c_N = E[max of n iid standard normals] by GSL adaptive quadrature over the
 * real line (gsl_integration_qagi), and the standard deviation of that maximum
 * in *sd_out (may be NULL). Reproduces MODEL.md 2: c_8 = 1.4236,
 * c_48 = 2.2331, c_1024 = 3.2482. Returns NaN if n < 1 or quadrature fails. */
double tmc_dist_normal_emax(long n, double *sd_out);

/* Expected slowest-card compute time E[max_i X_i] in seconds for n cards with
 * mean mu_s: mu + c_n sigma (MODEL.md 2). */
double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n);

/* ---- inline implementation ---- */
#include <math.h>
#include <gsl/gsl_cdf.h>

static inline double tmc_dist_sample_max(const tmc_max_sampler *s, gsl_rng *r)
{
    if (s->sigma == 0.0)
        return s->mu;
    double u = gsl_rng_uniform_pos(r);
    double q = -expm1(log(u) * s->inv_n);
    return s->mu + s->sigma * gsl_cdf_ugaussian_Qinv(q);
}

#endif
