/* dist.c - the distribution of one card's time, the exact quantile of the
 * maximum over N cards, and the sampler's table of it (dist.h). */
#include "dist.h"

#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>

double tmc_dist_max_quantile(double log_v, double inv_n)
{
    double log_p = log_v * inv_n; /* Phi(x) = p = v^(1/n) */
    return log_p > -M_LN2 ? gsl_cdf_ugaussian_Qinv(-expm1(log_p))
                          : gsl_cdf_ugaussian_Pinv(exp(log_p));
}

/* dQ/dv at v = e^log_v, where x = Q(v): v^(1/n - 1) / (n phi(x)). */
static double quantile_slope(double log_v, double x, double inv_n)
{
    return exp(log_v * (inv_n - 1) + 0.5 * x * x) * sqrt(2 * M_PI) * inv_n;
}

/* P(Y <= y) - p, or Q(y) - q in the upper half, for the root finder. */
typedef struct {
    const tmc_card_dist *d;
    double target; /* p, or q = 1 - p when upper */
    int upper;
} gamma_root;

static double gamma_gap(double y, void *params)
{
    const gamma_root *g = params;
    return g->upper ? g->target - gsl_cdf_gamma_Q(y, g->d->shape, g->d->scale)
                    : gsl_cdf_gamma_P(y, g->d->shape, g->d->scale) - g->target;
}

/* The gamma quantile at P = e^log_p by GSL's root finder (Brent) on GSL's
 * CDF: GSL's own inverse returns NaN at scattered points for large shapes
 * (cv 0.02: log p between -5.59 and -5.46), which would refuse a valid law
 * or turn a draw into 0. The bracket widens from the mean by sd steps. NaN
 * if no root is found. */
static double gamma_quantile_by_root(const tmc_card_dist *d, double log_p)
{
    int upper = log_p > -M_LN2;
    gamma_root g = {d, upper ? -expm1(log_p) : exp(log_p), upper};
    gsl_function f = {gamma_gap, &g};
    double mean = d->shape * d->scale, sd = sqrt(d->shape) * d->scale, lo = mean, hi = mean;
    for (int k = 0; k < 60 && gamma_gap(lo, &g) > 0; k++)
        lo = fmax(lo - sd * (1 << (k < 20 ? k : 20)), 0);
    for (int k = 0; k < 60 && gamma_gap(hi, &g) < 0; k++)
        hi += sd * (1 << (k < 20 ? k : 20));
    if (!(gamma_gap(lo, &g) <= 0 && gamma_gap(hi, &g) >= 0))
        return NAN;
    if (gamma_gap(lo, &g) == 0)
        return lo;
    gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!solver || gsl_root_fsolver_set(solver, &f, lo, hi) != GSL_SUCCESS) {
        gsl_root_fsolver_free(solver);
        return NAN;
    }
    double y = NAN;
    for (int it = 0; it < 200; it++) {
        if (gsl_root_fsolver_iterate(solver) != GSL_SUCCESS)
            break;
        y = gsl_root_fsolver_root(solver);
        if (gsl_root_test_interval(gsl_root_fsolver_x_lower(solver),
                                   gsl_root_fsolver_x_upper(solver), 0, 1e-15) == GSL_SUCCESS)
            break;
    }
    gsl_root_fsolver_free(solver);
    return y;
}

/* The gamma quantile at P = e^log_p, through the upper tail above 1/2.
 * GSL's inverse is checked against GSL's CDF: for large shapes it returns,
 * at scattered points, NaN or a finite value a whole sd off (cv 0.015:
 * 1.0117 for 1.0254); then the root finder gives it. */
static double gamma_quantile(const tmc_card_dist *d, double log_p)
{
    int upper = log_p > -M_LN2;
    double target = upper ? -expm1(log_p) : exp(log_p);
    double y = upper ? gsl_cdf_gamma_Qinv(target, d->shape, d->scale)
                     : gsl_cdf_gamma_Pinv(target, d->shape, d->scale);
    double back = upper ? gsl_cdf_gamma_Q(y, d->shape, d->scale)
                        : gsl_cdf_gamma_P(y, d->shape, d->scale);
    if (isfinite(y) && fabs(back - target) <= 1e-9 * target)
        return y;
    double root = gamma_quantile_by_root(d, log_p);
    return isfinite(root) ? root : y;
}

double tmc_dist_card_max_quantile(const tmc_card_dist *d, double log_v, double inv_n)
{
    if (d->kind == TMC_JITTER_NORMAL)
        return 1 + d->c * tmc_dist_max_quantile(log_v, inv_n);
    if (d->kind == TMC_JITTER_LOGNORMAL) /* exp is increasing: the max of the normals */
        return exp(d->m + d->s * tmc_dist_max_quantile(log_v, inv_n));
    return gamma_quantile(d, log_v * inv_n);
}

double tmc_dist_card_cdf(const tmc_card_dist *d, double y)
{
    if (d->kind == TMC_JITTER_NORMAL)
        return d->c > 0 ? gsl_cdf_ugaussian_P((y - 1) / d->c) : (y >= 1);
    if (y <= 0)
        return 0;
    if (d->kind == TMC_JITTER_LOGNORMAL)
        return gsl_cdf_ugaussian_P((log(y) - d->m) / d->s);
    return gsl_cdf_gamma_P(y, d->shape, d->scale);
}

double tmc_dist_card_sf(const tmc_card_dist *d, double y)
{
    if (d->kind == TMC_JITTER_NORMAL)
        return d->c > 0 ? gsl_cdf_ugaussian_Q((y - 1) / d->c) : (y < 1);
    if (y <= 0)
        return 1;
    if (d->kind == TMC_JITTER_LOGNORMAL)
        return gsl_cdf_ugaussian_Q((log(y) - d->m) / d->s);
    return gsl_cdf_gamma_Q(y, d->shape, d->scale);
}

/* dQ/dv of tmc_dist_card_max_quantile at v = e^log_v, where y = Q(v):
 * v^(1/n - 1) / (n f(y)), through the normal's for the normal and lognormal. */
static double card_slope(const tmc_card_dist *d, double log_v, double y, double inv_n)
{
    if (d->kind == TMC_JITTER_NORMAL)
        return d->c * quantile_slope(log_v, (y - 1) / d->c, inv_n);
    if (d->kind == TMC_JITTER_LOGNORMAL)
        return y * d->s * quantile_slope(log_v, (log(y) - d->m) / d->s, inv_n);
    return exp(log_v * (inv_n - 1)) * inv_n / gsl_ran_gamma_pdf(y, d->shape, d->scale);
}

/* mu Q of the maximum at tail probability t of one side, and its
 * derivative in t (a tmc_dist_quantile_fn). */
static void max_quantile(void *ctx, int high, double t, double *x, double *slope)
{
    const tmc_max_sampler *s = ctx;
    double log_v = high ? log1p(-t) : log(t);
    double y = tmc_dist_card_max_quantile(&s->card, log_v, s->inv_n);
    *x = s->mu * y;
    if (slope)
        *slope = s->mu * card_slope(&s->card, log_v, y, s->inv_n) * (high ? -1 : 1);
}

/* q at t = 2^-(k+2) (1 + i / TMC_MAX_SUB) of one side. */
static void side_node(tmc_dist_quantile_fn q, void *ctx, int high, int k, double i, double *x,
                      double *slope)
{
    q(ctx, high, ldexp(1.0 + i / TMC_MAX_SUB, -(k + 2)), x, slope);
}

/* The coefficients of c (in the piece's coordinate f) scaled to g = T - T0
 * = +-f H (dist.h), H = 2^(31 - k - TMC_MAX_SUB_BITS) the width of a piece
 * of octave k in T: powers of 2 and a sign, so exact. */
static void scale_to_g(double *c, int k, int high)
{
    double inv_h = ldexp(high ? -1.0 : 1.0, -(31 - k - TMC_MAX_SUB_BITS));
    c[1] *= inv_h;
    c[2] *= inv_h * inv_h;
    c[3] *= inv_h * inv_h * inv_h;
}

/* Hermite cubics of one side; returns the largest error found at the
 * quarter points of every piece, seconds, and lowers *lowest to the
 * smallest value at either end of a piece. */
static double build_side(tmc_dist_quantile_fn q, void *ctx, tmc_cubic *table, int high,
                         double *lowest)
{
    double worst = 0;
    for (int k = 0; k < TMC_MAX_OCTAVES; k++) {
        double h = ldexp(1.0 / TMC_MAX_SUB, -(k + 2)), x0, d0, x1, d1;
        side_node(q, ctx, high, k, 0, &x0, &d0);
        for (int i = 0; i < TMC_MAX_SUB; i++, x0 = x1, d0 = d1) {
            side_node(q, ctx, high, k, i + 1, &x1, &d1);
            double *c = table[TMC_MAX_PIECE(k, i)].c, m0 = d0 * h, m1 = d1 * h;
            c[0] = x0;
            c[1] = m0;
            c[2] = 3 * (x1 - x0) - 2 * m0 - m1;
            c[3] = 2 * (x0 - x1) + m0 + m1;
            *lowest = fmin(*lowest, fmin(c[0], c[0] + c[1] + c[2] + c[3]));
            for (int p = 1; p < 4; p++) {
                double f = p / 4.0, exact;
                side_node(q, ctx, high, k, i + f, &exact, NULL);
                double err = fabs(tmc_dist_cubic(c, f) - exact);
                worst = err > worst || isnan(err) ? err : worst; /* NaN stays NaN */
                if (isnan(worst))
                    return worst;
            }
            scale_to_g(c, k, high);
        }
    }
    return worst;
}

tmc_cubic *tmc_dist_table_alloc(void)
{
    return aligned_alloc(64, 2 * TMC_MAX_SIDE * sizeof(tmc_cubic)); /* a multiple of 64 */
}

double tmc_dist_table_build(tmc_cubic *table, tmc_dist_quantile_fn q, void *ctx,
                            double *lowest)
{
    *lowest = INFINITY;
    double lo = build_side(q, ctx, table, 0, lowest);
    double hi = build_side(q, ctx, table + TMC_MAX_SIDE, 1, lowest);
    return isnan(lo) || isnan(hi) ? NAN : fmax(lo, hi);
}

tmc_card_dist tmc_dist_card(const tmc_jitter *j)
{
    tmc_card_dist d = {j->kind, 0, 0, 0, 0, 0};
    double v = j->cv * j->cv;
    if (j->kind == TMC_JITTER_NORMAL)
        d.c = j->cv * sqrt(1 - j->rho);
    else if (j->kind == TMC_JITTER_LOGNORMAL)
        d.s = sqrt(log1p(v)), d.m = -0.5 * d.s * d.s;
    else
        d.shape = 1 / v, d.scale = v;
    return d;
}

int tmc_dist_max_init(tmc_max_sampler *s, const tmc_jitter *j, double mu_s, long n)
{
    s->mu = mu_s;
    s->sigma = j->cv * mu_s;
    s->common_s = j->kind == TMC_JITTER_NORMAL ? s->sigma * sqrt(j->rho) : 0;
    s->inv_n = 1.0 / (double)n;
    s->card = tmc_dist_card(j);
    s->low = s->high = NULL;
    s->max_error = 0;
    s->nonnegative = 0;
    int independent = j->cv > 0 && !(j->kind == TMC_JITTER_NORMAL && j->rho == 1);
    if (!independent)
        return 0;
    size_t pieces = TMC_MAX_SIDE; /* the high side follows the low (tmc_dist_max_at) */
    s->low = tmc_dist_table_alloc();
    if (!s->low)
        return -1;
    s->high = s->low + pieces;
    /* a piece is a cubic close to an increasing function, so it dips below
     * its ends by no more than the table's error, far less than the margin */
    double lowest;
    s->max_error = tmc_dist_table_build(s->low, max_quantile, s, &lowest) / s->sigma;
    s->nonnegative = lowest > 0.01 * s->sigma;
    return 0;
}

void tmc_dist_max_free(tmc_max_sampler *s)
{
    free(s->low);
    s->low = s->high = NULL;
}


/* mu Q at v, given log v and w = 1 - v both accurately, from the tables.
 * Only a t = min(v, w) inside the tables' range [2^-(TMC_MAX_OCTAVES+1), 1/2]
 * reads them; a smaller one (subnormal, or 0 when v = u^(n/m) underflows for
 * a small group m among many cards) takes the exact quantile from log v,
 * which stays finite: log v = log u x n / m with log u >= -23. */
static double table_at(const tmc_max_sampler *s, double log_v, double w)
{
    int high = w < 0.5;
    double t = high ? w : exp(log_v);
    if (!(t >= ldexp(1.0, -(TMC_MAX_OCTAVES + 1))))
        return s->mu * tmc_dist_card_max_quantile(&s->card, log_v, s->inv_n);
    int e;
    frexp(t, &e); /* t in [2^(e-1), 2^e): octave k = -1 - e */
    int k = -1 - e;
    if (k < 0) /* t = 1/2 exactly */
        k = 0;
    double x = (ldexp(t, k + 2) - 1.0) * TMC_MAX_SUB;
    int j = (int)x;
    if (j >= TMC_MAX_SUB)
        j = TMC_MAX_SUB - 1;
    double g = ldexp(high ? j - x : x - j, 31 - k - TMC_MAX_SUB_BITS); /* dist.h */
    return tmc_dist_cubic((high ? s->high : s->low)[TMC_MAX_PIECE(k, j)].c, g);
}

double tmc_dist_sample_max_of(const tmc_max_sampler *s, gsl_rng *r, long m)
{
    return s->low ? tmc_dist_max_of_at(s, tmc_rng_pcg_next(r), m) : s->mu;
}

double tmc_dist_max_of_at(const tmc_max_sampler *s, uint32_t u, long m)
{
    if (!s->low)
        return s->mu;
    double log_u = u < 0x80000000u ? log((u + 0.5) / 4294967296.0)
                                   : log1p(-((~u) + 0.5) / 4294967296.0);
    double log_v = log_u / (s->inv_n * (double)m); /* v = u^(n/m) */
    double x = table_at(s, log_v, -expm1(log_v));
    return x > 0 ? x : 0;
}
