/* dist.c - max-of-N sampler set-up and the c_N quadrature. */
#include "dist.h"

#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

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

/* Q at t = 2^-(k+2) (1 + i / TMC_MAX_SUB) of one side (t = w = 1 - v on the
 * high side), and dQ/dt. */
static void side_node(int high, int k, int i, double inv_n, double *x, double *slope)
{
    double t = ldexp(1.0 + (double)i / TMC_MAX_SUB, -(k + 2));
    double log_v = high ? log1p(-t) : log(t);
    *x = tmc_dist_max_quantile(log_v, inv_n);
    *slope = quantile_slope(log_v, *x, inv_n) * (high ? -1 : 1);
}

/* Hermite cubics of one side; returns the largest error found at the
 * quarter points of every piece. */
static double build_side(tmc_cubic *table, int high, double inv_n)
{
    double worst = 0;
    for (int k = 0; k < TMC_MAX_OCTAVES; k++) {
        double h = ldexp(1.0 / TMC_MAX_SUB, -(k + 2)), x0, d0, x1, d1;
        side_node(high, k, 0, inv_n, &x0, &d0);
        for (int i = 0; i < TMC_MAX_SUB; i++, x0 = x1, d0 = d1) {
            side_node(high, k, i + 1, inv_n, &x1, &d1);
            double *c = table[k * TMC_MAX_SUB + i].c, m0 = d0 * h, m1 = d1 * h;
            c[0] = x0;
            c[1] = m0;
            c[2] = 3 * (x1 - x0) - 2 * m0 - m1;
            c[3] = 2 * (x0 - x1) + m0 + m1;
            for (int q = 1; q < 4; q++) {
                double f = q / 4.0, t = ldexp(1.0 + (i + f) / TMC_MAX_SUB, -(k + 2));
                double exact = tmc_dist_max_quantile(high ? log1p(-t) : log(t), inv_n);
                double err = fabs(c[0] + f * (c[1] + f * (c[2] + f * c[3])) - exact);
                worst = err > worst ? err : worst;
            }
        }
    }
    return worst;
}

int tmc_dist_max_init(tmc_max_sampler *s, const tmc_jitter *j, double mu_s, long n)
{
    s->mu = mu_s;
    s->sigma = j->cv * mu_s;
    s->inv_n = 1.0 / (double)n;
    s->low = s->high = NULL;
    s->max_error = 0;
    if (s->sigma == 0.0)
        return 0;
    size_t pieces = (size_t)TMC_MAX_OCTAVES * TMC_MAX_SUB;
    s->low = malloc(2 * pieces * sizeof *s->low);
    if (!s->low)
        return -1;
    s->high = s->low + pieces;
    double lo = build_side(s->low, 0, s->inv_n), hi = build_side(s->high, 1, s->inv_n);
    s->max_error = lo > hi ? lo : hi;
    return 0;
}

void tmc_dist_max_free(tmc_max_sampler *s)
{
    free(s->low);
    s->low = s->high = NULL;
}

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
    return p->power == 1 ? x * f : p->power == 2 ? x * x * f : x * x * x * f;
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

double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n)
{
    if (j->cv == 0.0)
        return mu_s;
    return mu_s + tmc_dist_normal_emax(n, NULL) * j->cv * mu_s;
}
