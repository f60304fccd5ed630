/* durations.c - random save and restore times (durations.h). */
#include "durations.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

tmc_duration_law tmc_durations_law(tmc_duration_kind kind, double cv)
{
    tmc_duration_law l = {.kind = kind, .cv = cv, .a = 0, .b = 0};
    if (cv <= 0)
        return l;
    if (kind == TMC_DURATION_LOGNORMAL) {
        l.b = sqrt(log1p(cv * cv));
        l.a = -0.5 * l.b * l.b;
    } else if (kind == TMC_DURATION_GAMMA) {
        l.a = 1 / (cv * cv);
        l.b = cv * cv;
    } else {
        l.a = 1 - sqrt(3.0) * cv;
        l.b = 1 + sqrt(3.0) * cv;
    }
    return l;
}

double tmc_durations_draw(const tmc_duration_law *l, gsl_rng *r)
{
    if (l->cv <= 0)
        return 1;
    if (l->kind == TMC_DURATION_LOGNORMAL)
        return gsl_ran_lognormal(r, l->a, l->b);
    if (l->kind == TMC_DURATION_GAMMA)
        return gsl_ran_gamma(r, l->a, l->b);
    return gsl_ran_flat(r, l->a, l->b);
}

double tmc_durations_cdf(const tmc_duration_law *l, double y)
{
    if (l->cv <= 0)
        return y >= 1;
    if (l->kind == TMC_DURATION_LOGNORMAL)
        return y > 0 ? gsl_cdf_lognormal_P(y, l->a, l->b) : 0;
    if (l->kind == TMC_DURATION_GAMMA)
        return y > 0 ? gsl_cdf_gamma_P(y, l->a, l->b) : 0;
    return y <= l->a ? 0 : y >= l->b ? 1 : (y - l->a) / (l->b - l->a);
}

static double quantile(const tmc_duration_law *l, double u)
{
    if (l->kind == TMC_DURATION_LOGNORMAL)
        return gsl_cdf_lognormal_Pinv(u, l->a, l->b);
    if (l->kind == TMC_DURATION_GAMMA)
        return gsl_cdf_gamma_Pinv(u, l->a, l->b);
    return l->a + u * (l->b - l->a);
}

typedef struct {
    const tmc_duration_law *l;
    double mean_s, rate;
    int busy; /* 1: (1 - e^(-rate c)) / rate (c itself at rate 0); 0: e^(-rate c) */
} integrand;

static double at_quantile(double u, void *p)
{
    const integrand *g = p;
    double c = g->mean_s * quantile(g->l, u);
    if (!isfinite(c)) /* u = 0 or 1 exactly is a null set; elsewhere GSL failed */
        return u <= 0 || u >= 1 ? 0 : NAN;
    if (!g->busy)
        return exp(-g->rate * c);
    return g->rate > 0 ? -expm1(-g->rate * c) / g->rate : c;
}

/* E[h(C); C <= T] = the integral of h(Q(u)) over u in [0, F(T)]: bounded
 * on a bounded range, whatever the law's tail. */
static int expect_below(const integrand *g, double u_top, double *out)
{
    if (u_top <= 0) {
        *out = 0;
        return 0;
    }
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    if (!w)
        return -1;
    gsl_function f = {at_quantile, (void *)g};
    double err;
    int st = gsl_integration_qags(&f, 0, u_top, 1e-13, 1e-10, 200, w, out, &err);
    gsl_integration_workspace_free(w);
    return st || !isfinite(*out) ? -1 : 0;
}

int tmc_durations_save_terms(const tmc_duration_law *l, double mean_s, double timeout_s,
                             double rate, tmc_save_terms *out)
{
    double T = timeout_s > 0 ? timeout_s : INFINITY;
    if (l->cv <= 0) { /* C = mean_s */
        int fits = mean_s <= T;
        double busy = fits ? mean_s : T;
        out->finish = fits ? exp(-rate * mean_s) : 0;
        out->time_out = fits ? 0 : exp(-rate * T);
        out->busy_s = rate > 0 ? -expm1(-rate * busy) / rate : busy;
        out->reach = out->finish + out->time_out;
        return 0;
    }
    double below = isinf(T) ? 1 : tmc_durations_cdf(l, T / mean_s);
    integrand fin = {l, mean_s, rate, 0}, busy = {l, mean_s, rate, 1};
    double busy_below;
    if (expect_below(&fin, below, &out->finish) || expect_below(&busy, below, &busy_below))
        return -1;
    double beyond = 1 - below;
    out->time_out = isinf(T) ? 0 : exp(-rate * T) * beyond;
    out->reach = out->finish + out->time_out;
    out->busy_s = busy_below +
                  (beyond > 0 ? beyond * (rate > 0 ? -expm1(-rate * T) / rate : T) : 0);
    return 0;
}

double tmc_durations_laplace(const tmc_duration_law *l, double mean_s, double rate)
{
    if (l->cv <= 0)
        return exp(-rate * mean_s);
    integrand g = {l, mean_s, rate, 0};
    double v;
    return expect_below(&g, 1, &v) ? NAN : v;
}
