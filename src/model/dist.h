/* dist.h - per-card compute-time distributions and the exact sampler of
 * their maximum over N cards.
 *
 * A step ends when the slowest of N cards is done (MODEL.md section 2), so the
 * engine needs max_i X_i, not the X_i themselves. For X_i iid with a known
 * inverse CDF, max_i X_i = F^-1(U^(1/N)) for one uniform U, which costs O(1)
 * whatever N is. The exact quantile goes through the upper tail
 * q = 1 - U^(1/N) = -expm1(log(U) / N) so that large N keeps full precision;
 * the sampler reads it from a table of that exact function (below), whose
 * error is measured when it is built, so a draw costs a few nanoseconds. */
#ifndef TMC_DIST_H
#define TMC_DIST_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

typedef enum {
    TMC_JITTER_NORMAL = 0,    /* X_i ~ Normal(mu, (cv mu)^2), MODEL.md 2 */
    TMC_JITTER_LOGNORMAL = 1, /* X_i = mu exp(m + s Z), s^2 = ln(1 + cv^2), m = -s^2/2 */
    TMC_JITTER_GAMMA = 2      /* X_i ~ mu Gamma(shape 1/cv^2, scale cv^2) */
} tmc_jitter_kind;

/* Per-card jitter as written in an experiment: the distribution of one card's
 * compute time per step, with mean mu and standard deviation cv mu. For the
 * normal, a share rho of the variance may be common to all cards of a step
 * (X_i = mu + cv mu (sqrt(rho) Z_0 + sqrt(1 - rho) Z_i)): rho = 1 makes the
 * cards equal, so the step costs mu, not mu + c_N sigma (issue 4). */
typedef struct {
    tmc_jitter_kind kind;
    double cv;  /* coefficient of variation sigma / mu: normal [0, 0.2], else [0, 2] */
    double rho; /* correlation between cards within a step, [0, 1]; normal only */
} tmc_jitter;

/* One card's time relative to its mean, Y = X / mu, without the common part:
 * the parameters of its distribution. Plain data. */
typedef struct {
    tmc_jitter_kind kind;
    double c;        /* normal: Y = 1 + c Z, c = cv sqrt(1 - rho) */
    double m, s;     /* lognormal: Y = exp(m + s Z) */
    double shape, scale; /* gamma */
} tmc_card_dist;

/* Quantile table of the standard maximum Z_n = max of n standard normals,
 * Q(v) = Phi^-1(v^(1/n)), by octaves of v (and of w = 1 - v): octave k covers
 * [2^-(k+2), 2^-(k+1)) and is cut into TMC_MAX_SUB equal pieces, each holding
 * the cubic Hermite interpolant of Q (values and exact derivatives
 * dQ/dv = v^(1/n - 1) / (n phi(Q)) at its ends). Pieces are narrow against
 * their distance from v = 0 or 1, where Q is singular, so the error is
 * uniformly small: it is measured at build time (max_error). The 2^-21
 * probability beyond the last octave is drawn by the exact formula. */
#define TMC_MAX_OCTAVES 20
#define TMC_MAX_SUB_BITS 7
#define TMC_MAX_SUB (1 << TMC_MAX_SUB_BITS)
#define TMC_MAX_SIDE (TMC_MAX_OCTAVES * TMC_MAX_SUB) /* pieces per side */
/* Piece j of octave k is row TMC_MAX_PIECE(k, j) of its side: the deepest
 * octave first, so that a row is read off the exponent and mantissa of
 * 2^33 t (tmc_dist_max_at). Octave k holds 2^33 t in [2^(31-k), 2^(32-k)),
 * biased exponent 1054 - k; the deepest, k = TMC_MAX_OCTAVES - 1, starts
 * the table. */
#define TMC_MAX_PIECE(k, j) ((TMC_MAX_OCTAVES - 1 - (k)) * TMC_MAX_SUB + (j))
#define TMC_MAX_FIRST_ROW ((uint32_t)(1023 + 32 - TMC_MAX_OCTAVES) << TMC_MAX_SUB_BITS)

typedef struct {
    double c[4]; /* Q = c0 + f (c1 + f (c2 + f c3)), f in [0, 1] */
} tmc_cubic;

/* The distribution of Y = X / mu, independent part, for jitter j. */
tmc_card_dist tmc_dist_card(const tmc_jitter *j);

/* Sampler of max over n cards of their compute time (seconds). */
typedef struct {
    double mu;         /* mean per-card compute time per step, seconds */
    double sigma;      /* standard deviation per card, seconds: cv mu */
    double common_s;   /* sd of the part common to all cards, s: cv sqrt(rho) mu */
    double inv_n;      /* 1 / n */
    tmc_card_dist card;
    tmc_cubic *low;    /* [TMC_MAX_OCTAVES][TMC_MAX_SUB], v < 1/2, in seconds;
                          NULL when there is no independent jitter */
    tmc_cubic *high;   /* the same in w = 1 - v, v > 1/2: low + TMC_MAX_SIDE */
    double max_error;  /* largest |table - exact| found at build, in units of sigma */
    int nonnegative;   /* 1 when no table read or exact tail value can fall below 0
                          (the sampler's clamp at 0 is then a no-op) */
} tmc_max_sampler;

/* GSL's error handler must be off (gsl_set_error_handler_off; trainmc's main
 * and tmc_config_parse turn it off): GSL's gamma inverse may fail, and its
 * status is checked here rather than aborting. */

/* Prepare a sampler for n >= 1 cards with mean compute time mu seconds,
 * building its quantile table (160 KiB, a few milliseconds) when the jitter
 * is not zero. Returns 0, or -1 if memory runs out. Free with
 * tmc_dist_max_free. */
int tmc_dist_max_init(tmc_max_sampler *s, const tmc_jitter *j, double mu_s, long n);

void tmc_dist_max_free(tmc_max_sampler *s);

/* One draw of the slowest card's compute time, seconds: mu Q(v) for
 * v = (u + 1/2) / 2^32 from one 32-bit output u of r, which must be a
 * tmc_rng_pcg32 generator, plus the common part (one ziggurat normal) when
 * rho > 0; never below 0. Draws nothing and returns mu without jitter. */
static inline double tmc_dist_sample_max(const tmc_max_sampler *s, gsl_rng *r);

/* One draw of the maximum over m of the sampler's n cards (1 <= m <= n),
 * independent part only, seconds: the same table read at v^(n/m), since
 * F^-1(U^(1/m)) = Q_n(U^(n/m)). Costs a log and an exp more than
 * tmc_dist_sample_max; used for groups of cards whose size varies by replica
 * (slow cards). Never below 0. */
double tmc_dist_sample_max_of(const tmc_max_sampler *s, gsl_rng *r, long m);

/* The independent part of the two draws above for a given 32-bit output u
 * (v = (u + 1/2) / 2^32), seconds, so that tests can walk every extreme of
 * u: tmc_dist_max_at for all n cards (inline below; needs a table), and
 * tmc_dist_max_of_at for m of them (1 <= m <= n; mu without a table). The
 * table is read only inside its range; beyond it, and for v^(n/m)
 * underflowing to 0, the exact quantile is used. */
static inline double tmc_dist_max_at(const tmc_max_sampler *s, uint32_t u);
double tmc_dist_max_of_at(const tmc_max_sampler *s, uint32_t u, long m);

/* The exact standard quantile Q from log v (v in (0, 1)): the slow path of
 * the sampler and the reference its table is checked against. */
double tmc_dist_max_quantile(double log_v, double inv_n);

/* The exact quantile of max_i Y_i (Y = X / mu, independent part) at v = e^log_v. */
double tmc_dist_card_max_quantile(const tmc_card_dist *d, double log_v, double inv_n);

/* P(Y <= y) for one card's Y = X / mu (independent part). */
double tmc_dist_card_cdf(const tmc_card_dist *d, double y);

/* E[max(A, B + p)] / mu where A is the maximum of n - 1 cards, B one card
 * and p = pause_s / mu: the expected slowest-card time of a step in which one
 * card pauses (issue 4), by GSL quadrature of P(max > y) over y >= 0; the
 * common part of correlated jitter has mean 0 and drops out. NaN if the
 * quadrature fails. */
double tmc_dist_paused_max_mean(const tmc_jitter *j, long n, double pause_rel);

/* Mean, standard deviation and skewness of max_i X_i / mu over n cards,
 * common part included, by GSL quadrature. Returns 0, or -1 if the
 * quadrature fails. The closed form and the aggregated engine use them. */
int tmc_dist_max_moments(const tmc_jitter *j, long n, double *mean, double *sd,
                         double *skew);

/* c_N = E[max of n iid standard normals] by GSL adaptive quadrature over the
 * real line (gsl_integration_qagi), and the standard deviation of that maximum
 * in *sd_out (may be NULL). Reproduces MODEL.md 2: c_8 = 1.4236,
 * c_48 = 2.2331, c_1024 = 3.2482. Returns NaN if n < 1 or quadrature fails. */
double tmc_dist_normal_emax(long n, double *sd_out);

/* Mean, standard deviation and skewness of the maximum of n iid standard
 * normals by GSL quadrature (its first three moments). Returns 0, or -1 if
 * n < 1 or the quadrature fails. The aggregated engine matches them. */
int tmc_dist_normal_max_moments(long n, double *mean, double *sd, double *skew);

/* Expected slowest-card compute time E[max_i X_i] in seconds for n cards with
 * mean mu_s: for the normal mu + c_n sigma sqrt(1 - rho) (MODEL.md 2); NaN if
 * the quadrature fails. */
double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n);

/* ---- inline implementation ---- */
#include <math.h>

#include <gsl/gsl_randist.h>

#include "rng_pcg.h"

/* The deep tail beyond the table (t < 2^-(TMC_MAX_OCTAVES+1) on either
 * side, probability 2^-20 a draw): mu Q exactly, for a = u or ~u < 2^31. */
double tmc_dist_max_tail(const tmc_max_sampler *s, uint32_t a, int high);

/* mu Q(v) for v = (u + 1/2) 2^-32, without a branch between the halves
 * (which one a draw falls in is a coin toss, so a branch would mispredict
 * half the time): above v = 1/2 the table of w = 1 - v is read with a = ~u,
 * below it that of v with a = u, and t = (a + 1/2) 2^-32 < 1/2 either way.
 * 2^33 t = 2a + 1 is exact as a double; its exponent is t's octave and the
 * first TMC_MAX_SUB_BITS bits of its mantissa the piece, so the two read
 * together, less the first piece's value, are the row (TMC_MAX_PIECE); the
 * mantissa's other bits are the place f in the piece, read as 1 + f with 1
 * then taken off. Every step is exact: f is, bit for bit, the fraction of
 * (t 2^(k+2) - 1) TMC_MAX_SUB. A row past the table is the deep tail. */
static inline double tmc_dist_max_at(const tmc_max_sampler *s, uint32_t u)
{
    uint32_t high = (uint32_t)0 - (u >> 31); /* all ones above v = 1/2 */
    uint32_t a = u ^ high;
    union { double d; uint64_t u; } t = {(double)(2 * (uint64_t)a + 1)}; /* 2^33 t */
    uint32_t row = (uint32_t)(t.u >> (52 - TMC_MAX_SUB_BITS)) - TMC_MAX_FIRST_ROW;
    if (row >= TMC_MAX_SIDE) /* k >= TMC_MAX_OCTAVES: deep tail */
        return tmc_dist_max_tail(s, a, (int)(high & 1));
    union { uint64_t u; double d; } one_f = {
        0x3ff0000000000000u | ((t.u << TMC_MAX_SUB_BITS) & 0x000fffffffffffffu)};
    double f = one_f.d - 1.0;
    const double *c = s->low[(high & TMC_MAX_SIDE) + row].c;
    return c[0] + f * (c[1] + f * (c[2] + f * c[3]));
}

static inline double tmc_dist_sample_max(const tmc_max_sampler *s, gsl_rng *r)
{
    double x = s->mu;
    if (s->low)
        x = tmc_dist_max_at(s, tmc_rng_pcg_next(r));
    if (s->common_s > 0)
        x += s->common_s * gsl_ran_gaussian_ziggurat(r, 1.0);
    return x > 0 ? x : 0; /* a compute time is never negative (see jitter.cv's bound) */
}

#endif
