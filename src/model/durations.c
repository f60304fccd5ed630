/* durations.c - random save and restore times (durations.h). */
#include "durations.h"

#include <math.h>
#include <gsl/gsl_integration.h>

tmc_duration_law tmc_durations_law(tmc_duration_kind kind, double cv)
{
    tmc_duration_law l = {.type = tmc_duration_laws[kind], .y = {.mean = 1, .cv = cv}};
    if (cv > 0)
        l.y = tmc_law_prepare(l.type, 1, 0, cv);
    return l;
}

double tmc_durations_draw(const tmc_duration_law *l, gsl_rng *r)
{
    return l->y.cv > 0 ? l->type->draw(&l->y, r) : 1;
}

double tmc_durations_cdf(const tmc_duration_law *l, double y)
{
    return l->y.cv > 0 ? l->type->cdf(&l->y, y) : y >= 1;
}

static double quantile(const tmc_duration_law *l, double u)
{
    return l->type->quantile(&l->y, u);
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
    if (l->y.cv <= 0) { /* C = mean_s */
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
    if (l->y.cv <= 0)
        return exp(-rate * mean_s);
    integrand g = {l, mean_s, rate, 0};
    double v;
    return expect_below(&g, 1, &v) ? NAN : v;
}
