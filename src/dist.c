/* dist.c - max-of-N sampler set-up and the c_N quadrature. */
#include "dist.h"

#include <gsl/gsl_integration.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>

void tmc_dist_max_init(tmc_max_sampler *s, const tmc_jitter *j, double mu_s, long n)
{
    s->mu = mu_s;
    s->sigma = j->cv * mu_s;
    s->inv_n = 1.0 / (double)n;
}

typedef struct {
    double n;
    int power; /* 1: x f(x), 2: x^2 f(x) */
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
    return p->power == 1 ? x * f : x * x * f;
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

double tmc_dist_normal_emax(long n, double *sd_out)
{
    if (n < 1)
        return NAN;
    int ok = 1;
    double m1 = integrate_moment((double)n, 1, &ok);
    double m2 = integrate_moment((double)n, 2, &ok);
    if (!ok)
        return NAN;
    if (sd_out)
        *sd_out = sqrt(m2 - m1 * m1);
    return m1;
}

double tmc_dist_expected_max(const tmc_jitter *j, double mu_s, long n)
{
    if (j->cv == 0.0)
        return mu_s;
    return mu_s + tmc_dist_normal_emax(n, NULL) * j->cv * mu_s;
}
