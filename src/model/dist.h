/* dist.h - per-card compute-time distributions and the exact sampler of
 * their maximum over N cards.
 *
 * A step ends when the slowest of N cards is done (docs/model.md section 2), so the
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

#include "experiment.h" /* tmc_jitter */
#include "rng_pcg.h"

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
 * uniformly small: it is measured at build time (max_error). The 32 octaves
 * reach t = 2^-33, below the smallest t a 32-bit draw gives (2^-33 itself),
 * so every draw reads the table and none takes a branch to the exact
 * formula. */
#define TMC_MAX_OCTAVE_BITS 5
#define TMC_MAX_OCTAVES (1 << TMC_MAX_OCTAVE_BITS) /* 32 */
#define TMC_MAX_SUB_BITS 7
#define TMC_MAX_SUB (1 << TMC_MAX_SUB_BITS)
#define TMC_MAX_SIDE_BITS (TMC_MAX_OCTAVE_BITS + TMC_MAX_SUB_BITS)
#define TMC_MAX_SIDE (1 << TMC_MAX_SIDE_BITS) /* pieces per side */
/* A draw u is read through T = 2^33 t, signed: T = 2 d + 1 where d is u
 * taken as a two's-complement int32, so |T| = 2a + 1 (a = u, or ~u above
 * v = 1/2) and T < 0 on the high side. Piece j of octave k is row
 * TMC_MAX_PIECE(k, j) of its side, the deepest octave first, so that the row
 * is read off T's exponent and first mantissa bits: octave k has biased
 * exponent 1054 - k. The high side's rows follow the low side's. */
#define TMC_MAX_PIECE(k, j) ((TMC_MAX_OCTAVES - 1 - (k)) * TMC_MAX_SUB + (j))
#define TMC_MAX_FIRST_ROW ((uint32_t)(1023 + 32 - TMC_MAX_OCTAVES) << TMC_MAX_SUB_BITS)
/* T's bits below a piece's: T less these bits is the piece's start. T's
 * bits above them: the sign at bit TMC_MAX_SIGN_BIT, then the exponent and
 * the piece. */
#define TMC_MAX_ROW_SHIFT (52 - TMC_MAX_SUB_BITS)
#define TMC_MAX_SIGN_BIT (63 - TMC_MAX_ROW_SHIFT)

/* u's bits as a two's-complement int32 (which int32_t is by definition). */
static inline int32_t tmc_dist_as_int32(uint32_t u)
{
    union { uint32_t u; int32_t d; } as = {u};
    return as.d;
}

/* A piece's cubic Q = (c0 + g c1) + g^2 (c2 + g c3) in g = T - T0, T0 the
 * piece's start (g < 0 on the high side, where T is). The coefficients are
 * those in the piece's own coordinate f = |g| / H in [0, 1), H its width (a
 * power of 2), scaled by powers of +-1/H: an exact scaling, so the value is
 * bit for bit the one computed in f, and g costs one subtraction. */
typedef struct {
    double c[4]; /* Q = (c0 + g c1) + g^2 (c2 + g c3), seconds */
} tmc_cubic;

/* The cubic of c at x, in the order every reader of the table uses (the
 * sampler's pairs too): two independent halves, so that a draw waits for
 * two multiply-adds in turn, not three. */
static inline double tmc_dist_cubic(const double *c, double x)
{
    return (c[0] + x * c[1]) + (x * x) * (c[2] + x * c[3]);
}

/* The distribution of Y = X / mu, independent part, for jitter j. */
tmc_card_dist tmc_dist_card(const tmc_jitter *j);

/* Sampler of max over n cards of their compute time (seconds). */
typedef struct {
    double mu;         /* mean per-card compute time per step, seconds */
    double sigma;      /* standard deviation per card, seconds: cv mu */
    double common_s;   /* sd of the part common to all cards, s: cv sqrt(rho) mu */
    double inv_n;      /* 1 / n */
    tmc_card_dist card;
    tmc_cubic *low;    /* [TMC_MAX_SIDE], v < 1/2, by TMC_MAX_PIECE; NULL when
                          there is no independent jitter */
    tmc_cubic *high;   /* the same in w = 1 - v, v > 1/2: low + TMC_MAX_SIDE */
    double max_error;  /* largest |table - exact| found at build, in units of sigma */
    int nonnegative;   /* 1 when no table read can fall below 0 (the sampler's
                          clamp at 0 is then a no-op) */
} tmc_max_sampler;

/* A quantile function for tmc_dist_table_build: the value at tail
 * probability t of one side (v = t on the low side, v = 1 - t on the
 * high side) into *x, seconds, and when slope is not NULL dx/dt there. */
typedef void (*tmc_dist_quantile_fn)(void *ctx, int high, double t, double *x,
                                     double *slope);

/* Memory for a table of 2 TMC_MAX_SIDE pieces (free with free()), each
 * piece in one cache line: a draw reads one line, not two (malloc's large
 * blocks start 16 bytes into a page, so every other 32-byte piece would
 * straddle two). NULL if memory runs out. */
tmc_cubic *tmc_dist_table_alloc(void);

/* Fill a table of 2 TMC_MAX_SIDE pieces (low side, then high) with the
 * Hermite cubics of q; returns the largest error found at the quarter
 * points of every piece, seconds (NaN if q gave one), and sets *lowest to
 * the smallest value at either end of a piece. */
double tmc_dist_table_build(tmc_cubic *table, tmc_dist_quantile_fn q, void *ctx,
                            double *lowest);

/* GSL's error handler must be off (gsl_set_error_handler_off; trainmc's main
 * and tmc_config_parse turn it off): GSL's gamma inverse may fail, and its
 * status is checked here rather than aborting. */

/* Prepare a sampler for n >= 1 cards with mean compute time mu seconds,
 * building its quantile table (256 KiB; a few milliseconds for normal and
 * lognormal cards, a few tenths of a second for gamma cards) when the jitter
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
 * tmc_dist_max_of_at for m of them (1 <= m <= n; mu without a table). Every
 * u reads the table; v^(n/m) below its range (down to 0 when it underflows)
 * takes the exact quantile. */
static inline double tmc_dist_max_at(const tmc_max_sampler *s, uint32_t u);
double tmc_dist_max_of_at(const tmc_max_sampler *s, uint32_t u, long m);

/* n >= 0 draws of the slowest card (all n cards, independent part, needs a
 * table) from the stream st, each clamped at 0, added in order to `start`:
 * p[i] = start + y_0 + ... + y_i, seconds; returns p[n - 1] (start if
 * n = 0) and leaves st after the n-th draw. Bit for bit the sums of
 * tmc_dist_max_at's values, two draws at a time where SSE2 is available
 * (the engine's hot loop: the steps of a segment are such sums). */
double tmc_dist_max_sums(const tmc_max_sampler *s, tmc_pcg32_state *st, double start,
                         double *p, int n);

/* The exact standard quantile Q from log v (v in (0, 1)): the slow path of
 * the sampler and the reference its table is checked against. */
double tmc_dist_max_quantile(double log_v, double inv_n);

/* The exact quantile of max_i Y_i (Y = X / mu, independent part) at v = e^log_v. */
double tmc_dist_card_max_quantile(const tmc_card_dist *d, double log_v, double inv_n);

/* P(Y <= y) for one card's Y = X / mu (independent part). */
double tmc_dist_card_cdf(const tmc_card_dist *d, double y);

/* P(Y > y), accurate where it is small (the upper tail). */
double tmc_dist_card_sf(const tmc_card_dist *d, double y);

/* E[max(A, B + p)] / mu where A is the maximum of n - 1 cards, B one card
 * and p = pause_s / mu: the expected slowest-card time of a step in which one
 * card pauses (issue 4), by GSL quadrature of P(max > y) over y >= 0; the
 * common part of correlated jitter has mean 0 and drops out. NaN if the
 * quadrature fails. */
double tmc_dist_paused_max_mean(const tmc_jitter *j, long n, double pause_rel);

/* Mean, standard deviation and skewness of max_i X_i / mu over n cards,
 * common part included, by GSL quadrature. Returns 0, or -1 if the
 * quadrature fails. The configuration check and the segment laws use them. */
int tmc_dist_max_moments(const tmc_jitter *j, long n, double *mean, double *sd,
                         double *skew);

/* c_N = E[max of n iid standard normals] by GSL adaptive quadrature over the
 * real line (gsl_integration_qagi), and the standard deviation of that maximum
 * in *sd_out (may be NULL). Reproduces docs/model.md 2: c_8 = 1.4236,
 * c_48 = 2.2331, c_1024 = 3.2482. Returns NaN if n < 1 or quadrature fails. */
double tmc_dist_normal_emax(long n, double *sd_out);

/* Mean, standard deviation and skewness of the maximum of n iid standard
 * normals by GSL quadrature (its first three moments). Returns 0, or -1 if
 * n < 1 or the quadrature fails. c_N (tmc_dist_normal_emax) and tmc_dist_max_moments use them. */
int tmc_dist_normal_max_moments(long n, double *mean, double *sd, double *skew);

/* Expected slowest-card compute time E[max_i X_i] in seconds for n cards with
 * mean mu_s: for the normal mu + c_n sigma sqrt(1 - rho) (docs/model.md 2); NaN if
 * the quadrature fails. */
double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n);

/* ---- inline implementation ---- */
#include <math.h>

#include <gsl/gsl_randist.h>

/* The row and the place in it of a draw u (TMC_MAX_PIECE) in a table whose
 * low side is `low` (the high side follows it): T = 2 d + 1 is
 * exact as a double; its exponent is t's octave, its first TMC_MAX_SUB_BITS
 * mantissa bits the piece and its sign bit (bit 18 of `raw`) the side,
 * moved to TMC_MAX_SIDE. No branch: which side a draw falls on is a coin
 * toss, and a branch would mispredict half the time. */
static inline const tmc_cubic *tmc_dist_table_row(const tmc_cubic *low, uint32_t u,
                                                  double *g)
{
    union { double d; uint64_t u; } t = {2.0 * tmc_dist_as_int32(u) + 1.0};
    uint32_t raw = (uint32_t)(t.u >> TMC_MAX_ROW_SHIFT);
    uint32_t side = (raw >> TMC_MAX_SIGN_BIT) << TMC_MAX_SIDE_BITS;
    uint32_t row = (raw & ((1u << TMC_MAX_SIGN_BIT) - 1)) - TMC_MAX_FIRST_ROW + side;
    union { uint64_t u; double d; } start = {t.u & ~(((uint64_t)1 << TMC_MAX_ROW_SHIFT) - 1)};
    *g = t.d - start.d; /* exact: start <= |T| < 2 start */
    return low + row;
}

/* A quantile table's value at v = (u + 1/2) 2^-32, seconds. */
static inline double tmc_dist_table_at(const tmc_cubic *low, uint32_t u)
{
    double g;
    const tmc_cubic *row = tmc_dist_table_row(low, u, &g);
    return tmc_dist_cubic(row->c, g);
}

/* Ask the cache for the piece a draw u will read from the table: a hint
 * that changes no value (tables outgrow the core's caches: 256 KiB each). */
static inline void tmc_dist_table_prefetch(const tmc_cubic *low, uint32_t u)
{
#if defined(__GNUC__)
    double g;
    __builtin_prefetch(tmc_dist_table_row(low, u, &g));
#else
    (void)low, (void)u;
#endif
}

/* mu Q(v) for v = (u + 1/2) 2^-32 from the table; needs s->low. */
static inline double tmc_dist_max_at(const tmc_max_sampler *s, uint32_t u)
{
    return tmc_dist_table_at(s->low, u);
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
