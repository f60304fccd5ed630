/* slowdown.c - the drift of a run since its last (re)start and the refresh
 * restarts against it (slowdown.h). */
#include "slowdown.h"

#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_roots.h>

#define QUAD_LIMIT 256
#define GRID 241          /* refresh periods tried, log-spaced ... */
#define GRID_LO_S 60.0    /* ... from a minute ... */
#define GRID_HI_S 1e9     /* ... to 30 years: past it, never refreshing */
#define TAIL_STRETCHES 50.0

/* The slope at h = 0, per second. */
static double slope(const tmc_slowdown *d)
{
    return d->enabled ? d->per_hour / 3600 : 0;
}

double tmc_slowdown_extra(const tmc_slowdown *d, double h_s)
{
    double a = slope(d);
    if (a == 0)
        return 0;
    if (d->max_extra > 0)
        return -d->max_extra * expm1(-a * h_s / d->max_extra);
    return a * h_s;
}

double tmc_slowdown_steps_in(const tmc_slowdown_stretch *st, double h_s)
{
    double a = slope(st->d), y = st->y_s, b = st->b_s;
    if (a == 0 || y == 0)
        return h_s / b;
    double s = st->d->max_extra;
    if (s == 0)
        return log1p(y * a * h_s / b) / (y * a);
    double theta = s / a, q = y * s;
    return (h_s + theta * log1p(-q * expm1(-h_s / theta) / b)) / (b + q);
}

typedef struct {
    const tmc_slowdown_stretch *st;
    double n;
} steps_target;

static double steps_gap(double h, void *p)
{
    const steps_target *t = p;
    return tmc_slowdown_steps_in(t->st, h) - t->n;
}

double tmc_slowdown_time_for(const tmc_slowdown_stretch *st, double n)
{
    double a = slope(st->d), y = st->y_s, b = st->b_s;
    if (a == 0 || y == 0 || n <= 0)
        return n > 0 ? n * b : 0;
    double s = st->d->max_extra;
    if (s == 0)
        return b / (y * a) * expm1(y * a * n);
    /* saturating: h / (b + y s) <= n(h) <= h / b brackets the root */
    steps_target t = {st, n};
    gsl_function f = {steps_gap, &t};
    gsl_root_fsolver *r = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!r)
        return NAN;
    double lo = n * b, hi = n * (b + y * s), h = NAN;
    if (gsl_root_fsolver_set(r, &f, lo, hi) == GSL_SUCCESS)
        for (int i = 0; i < 200; i++) {
            gsl_root_fsolver_iterate(r);
            h = gsl_root_fsolver_root(r);
            lo = gsl_root_fsolver_x_lower(r), hi = gsl_root_fsolver_x_upper(r);
            if (gsl_root_test_interval(lo, hi, 0, 1e-13) == GSL_SUCCESS)
                break;
        }
    gsl_root_fsolver_free(r);
    return h;
}

typedef struct {
    const tmc_slowdown_stretch *st;
    double lambda;
} rate_args;

/* e^(-lambda h) n'(h): the steps a second at age h of a stretch that
 * reaches it. */
static double surviving_rate(double h, void *p)
{
    const rate_args *r = p;
    const tmc_slowdown_stretch *st = r->st;
    return exp(-r->lambda * h) / (st->b_s + st->y_s * tmc_slowdown_extra(st->d, h));
}

double tmc_slowdown_mean_steps(const tmc_slowdown_stretch *st, double lambda, double w_s)
{
    if (lambda == 0)
        return isfinite(w_s) ? tmc_slowdown_steps_in(st, w_s) : NAN;
    rate_args args = {st, lambda};
    gsl_function f = {surviving_rate, &args};
    gsl_integration_workspace *ws = gsl_integration_workspace_alloc(QUAD_LIMIT);
    if (!ws)
        return NAN;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    /* no refresh: up to 50 mean stretches, past which e^(-50) of the steps
     * are left (GSL's qagiu failed on the linear drift's slow 1 / h tail) */
    double v = NAN, err, hi = isfinite(w_s) ? w_s : TAIL_STRETCHES / lambda;
    int status = gsl_integration_qag(&f, 0, hi, 0, 1e-10, QUAD_LIMIT, GSL_INTEG_GAUSS31, ws,
                                     &v, &err);
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(ws);
    return status == GSL_SUCCESS ? v : NAN;
}

double tmc_slowdown_mean_length(double lambda, double w_s)
{
    if (lambda == 0)
        return isfinite(w_s) ? w_s : NAN;
    return -expm1(-lambda * w_s) / lambda;
}

typedef struct {
    const tmc_slowdown_stretch *st;
    double lambda, cost_s;
} period_args;

/* Minus the steps a second with compute stopped for a refresh at age w. */
static double minus_pace(double w, void *p)
{
    const period_args *a = p;
    double n = tmc_slowdown_mean_steps(a->st, a->lambda, w);
    return -n / (tmc_slowdown_mean_length(a->lambda, w) + exp(-a->lambda * w) * a->cost_s);
}

/* Brent's minimisation inside [lo, hi] from mid (GSL), mid if it fails. */
static double refine(gsl_function *f, double lo, double mid, double hi)
{
    gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!m)
        return mid;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double w = mid;
    if (gsl_min_fminimizer_set(m, f, mid, lo, hi) == GSL_SUCCESS)
        for (int i = 0; i < 100; i++) {
            gsl_min_fminimizer_iterate(m);
            w = gsl_min_fminimizer_x_minimum(m);
            if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(m),
                                      gsl_min_fminimizer_x_upper(m), 0, 1e-9) == GSL_SUCCESS)
                break;
        }
    gsl_set_error_handler(old);
    gsl_min_fminimizer_free(m);
    return w;
}

/* The steps a second never refreshing: E[n] / E[L] over whole stretches
 * with restarts, or without them the limit of n(h) / h: 1 / (b + y s)
 * saturating, 0 linear. */
static double never_pace(const tmc_slowdown_stretch *st, double lambda)
{
    if (lambda > 0)
        return tmc_slowdown_mean_steps(st, lambda, INFINITY) * lambda;
    double s = st->d->max_extra;
    return s > 0 ? 1 / (st->b_s + st->y_s * s) : 0;
}

double tmc_slowdown_best_period_s(const tmc_slowdown_stretch *st, double lambda, double cost_s)
{
    if (slope(st->d) == 0 || st->y_s == 0)
        return INFINITY;
    period_args args = {st, lambda, cost_s};
    gsl_function f = {minus_pace, &args};
    double step = log(GRID_HI_S / GRID_LO_S) / (GRID - 1), best = INFINITY;
    int at = 0;
    for (int i = 0; i < GRID; i++) { /* the pace may have flat stretches: a grid first */
        double v = minus_pace(GRID_LO_S * exp(step * i), &args);
        if (v < best)
            best = v, at = i;
    }
    if (at == GRID - 1 || -best <= never_pace(st, lambda) * (1 + 1e-9))
        return INFINITY; /* no period beats never refreshing */
    double w = GRID_LO_S * exp(step * at);
    if (at == 0)
        return w;
    return refine(&f, w * exp(-step), w, w * exp(step));
}

double tmc_slowdown_first_order_period_s(const tmc_slowdown_stretch *st, double cost_s)
{
    double a = slope(st->d);
    if (a == 0 || st->y_s == 0)
        return INFINITY;
    return sqrt(2 * cost_s * st->b_s / (st->y_s * a));
}

/* The stretch's age at which compute stops for a refresh: the refresh's
 * save and, on average, half a step cut come out of refresh_hours. */
static double compute_age_s(double refresh_s, double save_s, double step_s)
{
    return refresh_s - save_s - step_s / 2;
}

void tmc_slowdown_costs_of(const tmc_experiment *x, double step_s, double fixed_s,
                           double save_s, long k, double lambda, tmc_slowdown_costs *out)
{
    const tmc_slowdown *d = &x->slowdown;
    if (!d->enabled) {
        *out = (tmc_slowdown_costs){.best_refresh_s = INFINITY,
                                    .first_order_refresh_s = INFINITY};
        return;
    }
    double y = step_s - fixed_s, b = step_s + save_s / (double)k, steps = (double)x->job.steps;
    tmc_slowdown_stretch st = {d, y, b};
    double refresh = d->enabled && d->refresh_hours > 0 ? d->refresh_hours * 3600 : INFINITY;
    double w = fmax(compute_age_s(refresh, save_s, step_s), 0);
    double restart_s = d->refresh_s >= 0 ? d->refresh_s : x->checkpoint.restore_s;
    out->refresh_cost_s = restart_s + save_s + step_s / 2;
    double shift = save_s + step_s / 2; /* compute age -> refresh_hours */
    out->best_refresh_s = tmc_slowdown_best_period_s(&st, lambda, out->refresh_cost_s) + shift;
    out->first_order_refresh_s =
        tmc_slowdown_first_order_period_s(&st, out->refresh_cost_s) + shift;
    double age;
    if (lambda == 0) { /* exact in the continuous model: whole periods, then the rest */
        double per = isfinite(w) ? tmc_slowdown_steps_in(&st, w) : INFINITY;
        double whole = isfinite(per) && per > 0 ? ceil(steps / per) - 1 : 0;
        out->refreshes = whole;
        age = tmc_slowdown_time_for(&st, whole > 0 ? steps - whole * per : steps);
        if (whole > 0)
            age += whole * w;
    } else { /* renewal-reward over stretches that end at a restart or a refresh */
        double len = tmc_slowdown_mean_length(lambda, w);
        age = steps * len / tmc_slowdown_mean_steps(&st, lambda, w);
        out->refreshes = isfinite(w) ? age / len * exp(-lambda * w) : 0;
    }
    out->step_extra_s = age / steps - b;
    out->added_s = steps * out->step_extra_s + out->refreshes * out->refresh_cost_s;
}
