/* dist_moments.c - moments of the maximum over N cards by GSL quadrature:
 * c_N for docs/model.md 2, and the mean, sd and skewness that the closed form and
 * the segment laws use. */
#include "dist.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>

typedef struct {
    double n;
    int power; /* k: x^k f(x) */
} emax_params;

/* Density of the maximum of n standard normals: n phi(x) Phi(x)^(n-1),
 * with Phi^(n-1) taken through logs so that n = 16384 does not underflow. */
static double max_density_moment(double x, void *vp)
{
    const emax_params *p = vp;
    double log_cdf = x < 0 ? log(gsl_cdf_ugaussian_P(x))
                           : log1p(-gsl_cdf_ugaussian_Q(x));
    double log_pdf = -0.5 * x * x - 0.5 * log(2 * M_PI);
    double log_f = log_pdf;
    if (p->n > 1) /* n = 1: Phi^0 = 1 even where Phi underflows to 0 */
        log_f += (p->n - 1) * log_cdf;
    double f = p->n * exp(log_f);
    for (int k = 0; k < p->power; k++)
        f *= x;
    return f;
}

static double integrate_moment(double n, int power, int *ok)
{
    emax_params p = {n, power};
    gsl_function f = {&max_density_moment, &p};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(512);
    double result = NAN, err = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int status = gsl_integration_qagi(&f, 1e-12, 1e-10, 512, w, &result, &err);
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(w);
    if (status)
        *ok = 0;
    return result;
}

int tmc_dist_normal_max_moments(long n, double *mean, double *sd, double *skew)
{
    if (n < 1)
        return -1;
    int ok = 1;
    double m1 = integrate_moment((double)n, 1, &ok);
    double m2 = integrate_moment((double)n, 2, &ok);
    double m3 = integrate_moment((double)n, 3, &ok);
    if (!ok)
        return -1;
    double var = m2 - m1 * m1;
    *mean = m1;
    *sd = sqrt(var);
    *skew = (m3 - 3 * m1 * var - m1 * m1 * m1) / (var * *sd);
    return 0;
}

double tmc_dist_normal_emax(long n, double *sd_out)
{
    double mean, sd, skew;
    if (tmc_dist_normal_max_moments(n, &mean, &sd, &skew))
        return NAN;
    if (sd_out)
        *sd_out = sd;
    return mean;
}

/* ---- any card distribution: raw moments of max_i Y_i ---- */

typedef struct {
    double n;
    int power;
    const tmc_card_dist *d;
} card_params;

/* Lognormal: E[Y_max^k] = E[exp(k (m + s Z_max))], over the normal maximum. */
static double lognormal_moment(double z, void *vp)
{
    const card_params *p = vp;
    emax_params unit = {p->n, 0};
    return exp(p->power * (p->d->m + p->d->s * z)) * max_density_moment(z, &unit);
}

/* Gamma: y^k n f(y) F(y)^(n-1). */
static double gamma_moment(double y, void *vp)
{
    const card_params *p = vp;
    double f = gsl_ran_gamma_pdf(y, p->d->shape, p->d->scale);
    if (f == 0)
        return 0;
    double log_cdf = log(gsl_cdf_gamma_P(y, p->d->shape, p->d->scale));
    return pow(y, p->power) * p->n * f * (p->n > 1 ? exp((p->n - 1) * log_cdf) : 1);
}

static double integrate_card(const tmc_card_dist *d, double n, int power, int *ok)
{
    card_params p = {n, power, d};
    gsl_function f = {d->kind == TMC_JITTER_GAMMA ? &gamma_moment : &lognormal_moment, &p};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(512);
    double result = NAN, err = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    /* between the maximum's quantiles at 1e-15 and 1 - 1e-15 (of y for the
     * gamma, of the normal z for the lognormal): a finite range lets the
     * adaptive rule find the peak, which is narrow for small cv */
    double lo_v = log(1e-15), hi_v = log1p(-1e-15), lo, hi;
    if (d->kind == TMC_JITTER_GAMMA) {
        lo = tmc_dist_card_max_quantile(d, lo_v, 1 / n);
        hi = tmc_dist_card_max_quantile(d, hi_v, 1 / n);
    } else {
        lo = tmc_dist_max_quantile(lo_v, 1 / n);
        hi = tmc_dist_max_quantile(hi_v, 1 / n);
    }
    int status = gsl_integration_qags(&f, lo, hi, 1e-13, 1e-11, 512, w, &result, &err);
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(w);
    if (status)
        *ok = 0;
    return result;
}

int tmc_dist_max_moments(const tmc_jitter *j, long n, double *mean, double *sd,
                         double *skew)
{
    *mean = 1, *sd = 0, *skew = 0;
    if (j->cv == 0)
        return 0;
    if (j->kind == TMC_JITTER_NORMAL) { /* exactly from the standard normal's */
        double c = j->cv * sqrt(1 - j->rho), zm = 0, zsd = 0, zskew = 0;
        if (c > 0 && tmc_dist_normal_max_moments(n, &zm, &zsd, &zskew))
            return -1;
        double var = c * c * zsd * zsd + j->cv * j->cv * j->rho; /* + common part */
        *mean = 1 + c * zm;
        *sd = sqrt(var);
        *skew = var > 0 ? pow(c * zsd, 3) * zskew / pow(var, 1.5) : 0;
        return 0;
    }
    tmc_card_dist d = tmc_dist_card(j);
    int ok = 1;
    double m1 = integrate_card(&d, (double)n, 1, &ok);
    double m2 = integrate_card(&d, (double)n, 2, &ok);
    double m3 = integrate_card(&d, (double)n, 3, &ok);
    if (!ok)
        return -1;
    double var = m2 - m1 * m1;
    *mean = m1;
    *sd = sqrt(var);
    *skew = (m3 - 3 * m1 * m2 + 2 * m1 * m1 * m1) / pow(var, 1.5);
    return 0;
}

double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n)
{
    double mean, sd, skew;
    return tmc_dist_max_moments(j, n, &mean, &sd, &skew) ? NAN : mu_s * mean;
}

/* ---- a step in which one card pauses ---- */

typedef struct {
    tmc_card_dist d;
    double n, p;
} paused_params;

/* P(max(A, B + p) > y) = 1 - F(y)^(n-1) F(y - p). */
static double paused_tail(double y, void *vp)
{
    const paused_params *q = vp;
    double fa = q->n > 1 ? pow(tmc_dist_card_cdf(&q->d, y), q->n - 1) : 1;
    return 1 - fa * tmc_dist_card_cdf(&q->d, y - q->p);
}

double tmc_dist_paused_max_mean(const tmc_jitter *j, long n, double pause_rel)
{
    paused_params q = {tmc_dist_card(j), (double)n, pause_rel};
    if (j->cv == 0 || (q.d.c == 0 && j->kind == TMC_JITTER_NORMAL))
        return 1 + pause_rel; /* every card at its mean: the paused one is last */
    /* E[Z] = integral of P(Z > y) over y >= 0 for Z >= 0 (times never go
     * below 0); beyond the quantile at 1 - 1e-15 the tail is negligible */
    double hi = tmc_dist_card_max_quantile(&q.d, log1p(-1e-15), 1.0 / n) + pause_rel +
                tmc_dist_card_max_quantile(&q.d, log1p(-1e-15), 1.0);
    gsl_function f = {&paused_tail, &q};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(512);
    double result = NAN, err = 0;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int status = gsl_integration_qags(&f, 0, hi, 1e-13, 1e-11, 512, w, &result, &err);
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(w);
    return status ? NAN : result;
}
