/* laws.c - the law types and the kinds' tables (laws.h). Each law's
 * functions are written beside its row; sources: GSL's manual for the
 * draws, docs/model.md 3.1 (the minimum of n lifetimes) and 3.12. */
#include "laws.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "rng_pcg.h"

/* Subintervals for the minimum's mean by quadrature. */
#define TMC_LAW_QUAD_LIMIT 1000

double tmc_laws_poisson_over(unsigned k, double mu)
{
    if (mu == 0)
        return 0; /* N = 0 surely; GSL refuses the mean 0 */
    return mu > 0 ? gsl_cdf_poisson_Q(k, mu) : NAN;
}

tmc_law tmc_law_prepare(const tmc_law_type *t, double mean, double shape, double cv)
{
    tmc_law l = {.mean = mean, .shape = shape, .cv = cv, .a = 0, .b = 0};
    if (t->prepare)
        t->prepare(&l);
    return l;
}

/* NAME_draw, NAME_cdf and NAME_quantile of a GSL law of positive values
 * with two parameters, a and b (gsl_ran_NAME, gsl_cdf_NAME_P and _Pinv). */
#define GSL_POSITIVE_LAW(name)                                                                \
    static double name##_draw(const tmc_law *l, gsl_rng *r)                                  \
    {                                                                                          \
        return gsl_ran_##name(r, l->a, l->b);                                                  \
    }                                                                                          \
    static double name##_cdf(const tmc_law *l, double x)                                       \
    {                                                                                          \
        return x > 0 ? gsl_cdf_##name##_P(x, l->a, l->b) : 0;                                  \
    }                                                                                          \
    static double name##_quantile(const tmc_law *l, double u)                                  \
    {                                                                                          \
        return gsl_cdf_##name##_Pinv(u, l->a, l->b);                                           \
    }

/* ---------- exponential: mean m, memoryless ---------- */

static double exponential_draw(const tmc_law *l, gsl_rng *r)
{
    return tmc_rng_exponential(r, l->mean);
}

static double exponential_min_mean(const tmc_law *l, double n)
{
    return l->mean / n;
}

static double exponential_excess_mean(const tmc_law *l, double d)
{
    return l->mean * exp(-d / l->mean); /* memoryless: P(X > d) times the mean */
}

static double exponential_quantile(const tmc_law *l, double u)
{
    return -l->mean * log1p(-u);
}

static const tmc_law_type exponential = {
    .name = "exponential", .draw = exponential_draw, .quantile = exponential_quantile,
    .min_mean = exponential_min_mean,
    .excess_mean = exponential_excess_mean, .memoryless = 1, .tiltable = 1};

/* ---------- Weibull: mean m, shape k, scale m / Gamma(1 + 1/k) ---------- */

static void weibull_prepare(tmc_law *l)
{
    l->a = l->mean / gsl_sf_gamma(1 + 1 / l->shape);
    l->b = l->shape;
}

static double weibull_draw(const tmc_law *l, gsl_rng *r)
{
    return gsl_ran_weibull(r, l->a, l->b);
}

/* The minimum of n is Weibull again, of scale lambda n^(-1/k). */
static double weibull_min_draw(const tmc_law *l, double n, gsl_rng *r)
{
    return gsl_ran_weibull(r, l->a * pow(n, -1 / l->b), l->b);
}

static double weibull_min_mean(const tmc_law *l, double n)
{
    return l->mean * pow(n, -1 / l->shape);
}

static double weibull_cdf(const tmc_law *l, double x)
{
    return gsl_cdf_weibull_P(x, l->a, l->b);
}

static const tmc_law_type weibull = {
    .name = "weibull", .prepare = weibull_prepare, .draw = weibull_draw, .cdf = weibull_cdf,
    .min_draw = weibull_min_draw, .min_mean = weibull_min_mean};

/* ---------- lognormal: mean m, cv; sigma^2 = ln(1 + cv^2) ---------- */

static void lognormal_prepare(tmc_law *l)
{
    l->b = sqrt(log1p(l->cv * l->cv));
    l->a = log(l->mean) - 0.5 * l->b * l->b;
}

GSL_POSITIVE_LAW(lognormal)

/* S(x)^n = U: x = S^-1(U^(1/n)) = P^-1(1 - U^(1/n)), accurate near 0. */
static double lognormal_min_draw(const tmc_law *l, double n, gsl_rng *r)
{
    double p = -expm1(log(gsl_rng_uniform_pos(r)) / n);
    return gsl_cdf_lognormal_Pinv(p, l->a, l->b);
}

/* The standardised integrand Q(z)^n e^(sigma z) sigma (params: sigma, n),
 * ln Q(z) by log1p where Q is near 1. */
static double min_integrand(double z, void *params)
{
    const double *q = params;
    double log_q = z < 0 ? log1p(-gsl_cdf_ugaussian_P(z)) : log(gsl_cdf_ugaussian_Q(z));
    return exp(q[1] * log_q + q[0] * z) * q[0];
}

/* E[min] = the integral of S(t)^n over t > 0; with t = e^(mu + sigma z) it
 * is e^mu times the integral of Q(z)^n e^(sigma z) sigma over all z, free of
 * the mean's scale (GSL qagi; the integral in t failed at some means, as at
 * 40,924 s, cv 0.3, n 8). */
static double lognormal_min_mean(const tmc_law *l, double n)
{
    double s2 = log1p(l->cv * l->cv), q[2] = {sqrt(s2), n}, result, abserr;
    gsl_function fn = {min_integrand, q};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(TMC_LAW_QUAD_LIMIT);
    int rc = w ? gsl_integration_qagi(&fn, 0, 1e-10, TMC_LAW_QUAD_LIMIT, w, &result, &abserr)
               : -1;
    gsl_integration_workspace_free(w);
    return rc ? NAN : l->mean * exp(-s2 / 2) * result;
}

static const tmc_law_type lognormal = {
    .name = "lognormal", .prepare = lognormal_prepare, .draw = lognormal_draw,
    .cdf = lognormal_cdf, .quantile = lognormal_quantile, .min_draw = lognormal_min_draw,
    .min_mean = lognormal_min_mean};

/* ---------- fixed: exactly m, nothing drawn ---------- */

static double fixed_draw(const tmc_law *l, gsl_rng *r)
{
    (void)r; /* the stream is left as it was */
    return l->mean;
}

static double fixed_excess_mean(const tmc_law *l, double d)
{
    return fmax(l->mean - d, 0);
}

static const tmc_law_type fixed = {
    .name = "fixed", .draw = fixed_draw, .excess_mean = fixed_excess_mean};

/* ---------- gamma: mean m, cv; shape 1 / cv^2, scale m cv^2 ---------- */

static void gamma_prepare(tmc_law *l)
{
    l->a = 1 / (l->cv * l->cv);
    l->b = l->mean * l->cv * l->cv;
}

GSL_POSITIVE_LAW(gamma)

static const tmc_law_type gamma_law = {
    .name = "gamma", .prepare = gamma_prepare, .draw = gamma_draw, .cdf = gamma_cdf,
    .quantile = gamma_quantile};

/* ---------- uniform: mean m, cv; on m (1 -+ sqrt(3) cv) ---------- */

static void uniform_prepare(tmc_law *l)
{
    l->a = l->mean * (1 - sqrt(3.0) * l->cv);
    l->b = l->mean * (1 + sqrt(3.0) * l->cv);
}

static double uniform_draw(const tmc_law *l, gsl_rng *r)
{
    return gsl_ran_flat(r, l->a, l->b);
}

static double uniform_cdf(const tmc_law *l, double x)
{
    return x <= l->a ? 0 : x >= l->b ? 1 : (x - l->a) / (l->b - l->a);
}

static double uniform_quantile(const tmc_law *l, double u)
{
    return l->a + u * (l->b - l->a);
}

static const tmc_law_type uniform = {
    .name = "uniform", .prepare = uniform_prepare, .draw = uniform_draw,
    .cdf = uniform_cdf, .quantile = uniform_quantile};

const tmc_law_type *const tmc_law_exponential = &exponential, *const tmc_law_weibull = &weibull,
                          *const tmc_law_lognormal = &lognormal, *const tmc_law_fixed = &fixed,
                          *const tmc_law_gamma = &gamma_law, *const tmc_law_uniform = &uniform;

/* ---------- the kinds: indexed by experiment.h's enums ---------- */

_Static_assert(TMC_LIFETIME_EXPONENTIAL == 0 && TMC_LIFETIME_WEIBULL == 1 &&
                   TMC_LIFETIME_LOGNORMAL == 2 && TMC_LIFETIME_TRACE == 3,
               "tmc_lifetime_laws follows tmc_lifetime_kind; the trace, last, is no law");
const tmc_law_type *const tmc_lifetime_laws[TMC_LIFETIME_LAW_COUNT] = {
    [TMC_LIFETIME_EXPONENTIAL] = &exponential, [TMC_LIFETIME_WEIBULL] = &weibull,
    [TMC_LIFETIME_LOGNORMAL] = &lognormal};

_Static_assert(TMC_REPAIR_EXPONENTIAL == 0 && TMC_REPAIR_FIXED == 1 &&
                   TMC_REPAIR_LOGNORMAL == 2 && TMC_REPAIR_WEIBULL == 3,
               "tmc_repair_laws follows tmc_repair_kind");
const tmc_law_type *const tmc_repair_laws[TMC_REPAIR_LAW_COUNT] = {
    [TMC_REPAIR_EXPONENTIAL] = &exponential, [TMC_REPAIR_FIXED] = &fixed,
    [TMC_REPAIR_LOGNORMAL] = &lognormal, [TMC_REPAIR_WEIBULL] = &weibull};

_Static_assert(TMC_DURATION_LOGNORMAL == 0 && TMC_DURATION_GAMMA == 1 &&
                   TMC_DURATION_UNIFORM == 2,
               "tmc_duration_laws follows tmc_duration_kind");
const tmc_law_type *const tmc_duration_laws[TMC_DURATION_LAW_COUNT] = {
    [TMC_DURATION_LOGNORMAL] = &lognormal, [TMC_DURATION_GAMMA] = &gamma_law,
    [TMC_DURATION_UNIFORM] = &uniform};

_Static_assert(TMC_DETECTION_FIXED == 0 && TMC_DETECTION_EXPONENTIAL == 1 &&
                   TMC_DETECTION_LOGNORMAL == 2,
               "tmc_detection_laws follows tmc_detection_kind");
const tmc_law_type *const tmc_detection_laws[TMC_DETECTION_LAW_COUNT] = {
    [TMC_DETECTION_FIXED] = &fixed, [TMC_DETECTION_EXPONENTIAL] = &exponential,
    [TMC_DETECTION_LOGNORMAL] = &lognormal};

double tmc_law_gamma_quantile(double p, double shape, double scale)
{
    if (!(p > 0 && p < 1 && shape > 0 && scale > 0) || !isfinite(shape) || !isfinite(scale))
        return NAN;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double x = gsl_cdf_gamma_Pinv(p, shape, 1);
    if (!isfinite(x)) { /* GSL gave up: the Wilson-Hilferty cube, no Newton step (GSL's
                           CDF is off there too: 0.975 at 10006189 for shape 1e7 + 1,
                           whose quantile is 10006199.9) */
        double c = 1 / (9 * shape), w = 1 - c + gsl_cdf_ugaussian_Pinv(p) * sqrt(c);
        x = shape * w * w * w;
    }
    gsl_set_error_handler(old);
    return x * scale;
}
