/* fit-2.x: coverage of `trainmc fit`'s 95 % intervals on synthetic fault
 * logs with known truth (issue 15, done-when 1), and its maximum-likelihood
 * estimates against independent checks.
 *
 * Every log is built in memory (tmc_fault_log_add) and fitted by
 * tmc_fit_compute, the function the command calls, with the same options
 * (confidence 0.95). Each case fits LOGS = 1000 logs drawn from GSL's
 * mt19937 with a fixed seed, so the figures are the same on every run.
 *
 * Coverage: the share c of the logs whose interval holds the true value.
 * For a correct 95 % interval c is a binomial share with standard error
 * sqrt(0.95 x 0.05 / 1000) = 0.0069; the test asks 0.93 <= c <= 0.97, a
 * band of +-2.9 SE (200 logs would give SE 0.0154, and a correct interval
 * would leave 93-97 % about one time in five, so 1000 are used).
 *
 * fit-2.1 exponential up times (mean 730 days) on 200 nodes over 365 days,
 *         lognormal repairs (median 0.5 day), right-censored only at the
 *         span's end: the Garwood interval of the up-time rate
 *         (life.rate_lo, rate_hi) covers 1/730 per day. ML check: the rate
 *         equals the closed form events / time at risk, both summed here
 *         from the drawn times.
 * fit-2.2 Weibull up times, shape 0.7 (scale 380 days, 200 nodes) and
 *         shape 2 (scale 600 days, 500 nodes) over 365 days: right-
 *         censoring at the span's end, never-failed nodes (38 % and 69 %
 *         of them), repairs as above. The interval of the shape is the
 *         Wald interval k +- z SE from the observed information
 *         (lifetime_fit.h); it covers the true shape. ML check: a brute
 *         grid search of the censored Weibull log-likelihood, written here
 *         from the density, over (k, scale) within +-50 % of the truth,
 *         41 x 41 points refined 10x four times, lands on the fitted
 *         (k, scale) within 1e-3 relative, and no grid point beats the
 *         fit's log-likelihood (first 5 logs of each case).
 * fit-2.3 lognormal repairs (mu = 0, sigma = 1: mean e^0.5 = 1.6487 days)
 *         of 150 faults, one per node, over 1000 days (no censoring): the
 *         interval of the repair mean covers e^0.5. The interval is the
 *         bootstrap-t (repair_fit.h), no law assumed; it reaches further
 *         above the mean than below (on average > 1.15 x: the bootstrap-t
 *         follows the skew, a symmetric interval would not). ML check:
 *         a grid search of the lognormal log-likelihood (gsl_ran_lognormal_pdf) over mu in [-1, 1] and
 *         sigma in [0.5, 1.5], refined as above, lands on (mu, sigma)
 *         within 1e-3 (first 5 logs).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fault_log.h"
#include "fit.h"
#include "lifetime_fit.h"
#include "repair_fit.h"

#define LOGS 1000
#define COVER_LO 0.93
#define COVER_HI 0.97
#define GRID_CHECKS 5 /* logs of each case whose ML is checked by a grid */

static tmc_fit_result result; /* large: off the stack */

/* The truth of one synthetic log, summed while it is drawn. */
typedef struct {
    int events;
    double at_risk; /* node-days up: observed and censored up times */
} truth;

/* Up times drawn from Weibull(scale, shape) (shape 1: exponential), repairs
 * lognormal(ln 0.5, 0.5), renewed per node until the span's end; a repair
 * that would end after the span is not repaired in the log. */
static void draw_renewals(gsl_rng *rng, int nodes, double span, double scale, double shape,
                          tmc_fault_log *log, truth *t)
{
    tmc_error err = {""};
    memset(log, 0, sizeof *log);
    *t = (truth){0, 0};
    for (int i = 0; i < nodes; i++) {
        char id[16];
        snprintf(id, sizeof id, "n%d", i);
        double now = 0;
        for (;;) {
            double up = gsl_ran_weibull(rng, scale, shape);
            if (now + up > span) {
                t->at_risk += span - now;
                break;
            }
            t->at_risk += up;
            t->events++;
            double start = now + up, end = start + gsl_ran_lognormal(rng, -M_LN2, 0.5);
            if (end >= span) {
                assert_int_equal(tmc_fault_log_add(log, id, start, NAN, "hw", &err), 0);
                break;
            }
            assert_int_equal(tmc_fault_log_add(log, id, start, end, "hw", &err), 0);
            now = end;
        }
    }
    tmc_fault_log_finish(log);
}

static void fit(const tmc_fault_log *log, int nodes, double span)
{
    tmc_fit_options o = {.log_path = "synthetic", .nodes = nodes, .cards_per_node = 8,
                         .span_days = span, .confidence = 0.95, .window_days = 7,
                         .simultaneous_s = 60};
    tmc_error err = {""};
    if (tmc_fit_compute(log, &o, log->n_faults, NULL, &result, &err))
        fail_msg("tmc_fit_compute: %s", err.msg);
}

static void check_coverage(const char *what, int covered, int n)
{
    double c = (double)covered / n, se = sqrt(0.95 * 0.05 / n);
    print_message("%s: coverage %.1f %% of %d logs (binomial SE %.2f %%; asked %.0f-%.0f %%)\n",
                  what, 100 * c, n, 100 * se, 100 * COVER_LO, 100 * COVER_HI);
    if (!(c >= COVER_LO && c <= COVER_HI))
        fail_msg("%s: coverage %.4f outside [%.2f, %.2f]", what, c, COVER_LO, COVER_HI);
}

/* ---------- fit-2.1 ---------- */

static void test_exponential_rate(void **state)
{
    (void)state;
    const int nodes = 200;
    const double span = 365, mean_up = 730, rate = 1 / mean_up;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2101);
    int covered = 0;
    double events = 0;
    for (int k = 0; k < LOGS; k++) {
        tmc_fault_log log;
        truth t;
        draw_renewals(rng, nodes, span, mean_up, 1, &log, &t);
        fit(&log, nodes, span);
        assert_true(result.life_ok);
        const tmc_lifetime_fit *l = &result.life;
        /* closed form: events / time at risk, from the drawn times */
        assert_int_equal(l->n_events, t.events);
        if (!(fabs(l->rate - t.events / t.at_risk) <= 1e-9 * l->rate))
            fail_msg("log %d: ML rate %.12g, closed form %d / %.12g = %.12g", k, l->rate,
                     t.events, t.at_risk, t.events / t.at_risk);
        covered += l->rate_lo <= rate && rate <= l->rate_hi;
        events += t.events;
        tmc_fit_free(&result);
        tmc_fault_log_free(&log);
    }
    gsl_rng_free(rng);
    print_message("fit-2.1: %.1f events a log on average\n", events / LOGS);
    check_coverage("fit-2.1 exponential rate (Garwood)", covered, LOGS);
}

/* ---------- fit-2.2 ---------- */

/* The censored Weibull log-likelihood from the density f = (k/l)(t/l)^(k-1)
 * e^-(t/l)^k and survival e^-(t/l)^k. */
static double weibull_ll(const tmc_lifetime_sample *s, double k, double lam)
{
    double ll = 0;
    for (int i = 0; i < s->n_obs; i++)
        ll += log(k / lam) + (k - 1) * log(s->obs[i] / lam) - pow(s->obs[i] / lam, k);
    for (int i = 0; i < s->n_cens; i++)
        ll -= pow(s->cens[i] / lam, k);
    return ll;
}

/* Brute grid search of f(a, b) on 41 x 41 points of [a0 (1 +- wa)] x
 * [b0 (1 +- wb)], recentred on the best point and shrunk 10x, `levels`
 * times. */
static void grid_max(double (*f)(const void *, double, double), const void *ctx, double *a,
                     double *b, double wa, double wb, int levels)
{
    double ca = *a, cb = *b;
    for (int lev = 0; lev < levels; lev++, wa /= 10, wb /= 10) {
        double best = -INFINITY, ba = ca, bb = cb;
        for (int i = -20; i <= 20; i++)
            for (int j = -20; j <= 20; j++) {
                double x = ca * (1 + wa * i / 20), y = cb * (1 + wb * j / 20);
                double v = f(ctx, x, y);
                if (v > best)
                    best = v, ba = x, bb = y;
            }
        ca = ba, cb = bb;
    }
    *a = ca, *b = cb;
}

static double weibull_ll_at(const void *ctx, double k, double lam)
{
    return weibull_ll(ctx, k, lam);
}

static void weibull_case(double shape, double scale, int nodes, unsigned long seed,
                         const char *what)
{
    const double span = 365;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    int covered = 0, never = 0;
    double events = 0, censored_share = 0;
    for (int k = 0; k < LOGS; k++) {
        tmc_fault_log log;
        truth t;
        draw_renewals(rng, nodes, span, scale, shape, &log, &t);
        fit(&log, nodes, span);
        assert_true(result.life_ok);
        const tmc_weibull_fit *w = &result.life.weibull;
        double z = 1.959963984540054; /* Phi^-1(0.975) */
        covered += fabs(w->shape - shape) <= z * w->shape_se;
        never += nodes - log.n_nodes;
        events += t.events;
        censored_share += (double)result.sample.n_cens / (result.sample.n_cens +
                                                          result.sample.n_obs);
        if (k < GRID_CHECKS) { /* brute grid search around the truth */
            double gk = shape, gl = scale;
            grid_max(weibull_ll_at, &result.sample, &gk, &gl, 0.5, 0.5, 5);
            if (!(fabs(gk / w->shape - 1) < 1e-3 && fabs(gl / w->scale - 1) < 1e-3))
                fail_msg("%s log %d: grid maximum at shape %.6g scale %.6g, ML %.6g %.6g", what,
                         k, gk, gl, w->shape, w->scale);
            if (weibull_ll(&result.sample, gk, gl) > w->loglik + 1e-9)
                fail_msg("%s log %d: a grid point beats the ML log-likelihood", what, k);
        }
        tmc_fit_free(&result);
        tmc_fault_log_free(&log);
    }
    gsl_rng_free(rng);
    print_message("%s: %.1f events a log, %.1f %% of nodes never failed, %.1f %% of the up "
                  "times censored\n", what, events / LOGS, 100.0 * never / ((double)nodes * LOGS),
                  100 * censored_share / LOGS);
    check_coverage(what, covered, LOGS);
}

static void test_weibull_shape_07(void **state)
{
    (void)state;
    weibull_case(0.7, 380, 200, 2201, "fit-2.2 Weibull shape 0.7 (Wald, observed information)");
}

static void test_weibull_shape_2(void **state)
{
    (void)state;
    weibull_case(2, 600, 500, 2202, "fit-2.2 Weibull shape 2 (Wald, observed information)");
}

/* ---------- fit-2.3 ---------- */

typedef struct {
    const double *t;
    int n;
} sample;

/* The lognormal log-likelihood at mu = a - 10 (the grid is relative: a
 * stays far from 0). */
static double lognormal_ll(const void *ctx, double a, double sigma)
{
    const sample *s = ctx;
    double ll = 0;
    for (int i = 0; i < s->n; i++)
        ll += log(gsl_ran_lognormal_pdf(s->t[i], a - 10, sigma));
    return ll;
}

static void test_lognormal_repair_mean(void **state)
{
    (void)state;
    enum { FAULTS = 150 };
    const double mu = 0, sigma = 1, mean = exp(mu + sigma * sigma / 2), span = 1000;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2301);
    int covered = 0, lognormal_best = 0;
    double skew = 0; /* mean of (hi - xbar) / (xbar - lo) */
    for (int k = 0; k < LOGS; k++) {
        tmc_fault_log log = {0};
        tmc_error err = {""};
        double t[FAULTS];
        for (int i = 0; i < FAULTS; i++) {
            char id[16];
            snprintf(id, sizeof id, "n%d", i);
            double start = gsl_rng_uniform(rng) * span / 2;
            t[i] = gsl_ran_lognormal(rng, mu, sigma);
            assert_int_equal(tmc_fault_log_add(&log, id, start, start + t[i], "hw", &err), 0);
        }
        tmc_fault_log_finish(&log);
        fit(&log, FAULTS, span);
        assert_true(result.repair_ok);
        const tmc_repair_fit *p = &result.repair;
        assert_int_equal(p->n, FAULTS);
        const tmc_fit_interval *m = &result.repair_mean_days;
        covered += m->lo <= mean && mean <= m->hi;
        skew += (m->hi - m->value) / (m->value - m->lo) / LOGS;
        lognormal_best += p->best == TMC_REPAIR_LAW_LOGNORMAL;
        if (k < GRID_CHECKS) {
            const tmc_repair_law *l = &p->law[TMC_REPAIR_LAW_LOGNORMAL];
            sample s = {t, FAULTS};
            double ga = 10 + mu, gs = sigma; /* around the truth */
            grid_max(lognormal_ll, &s, &ga, &gs, 0.1, 0.5, 5);
            if (!(fabs(ga - 10 - l->p1) < 1e-3 && fabs(gs / l->p2 - 1) < 1e-3))
                fail_msg("log %d: lognormal grid maximum at mu %.6g sigma %.6g, ML %.6g %.6g", k,
                         ga - 10, gs, l->p1, l->p2);
        }
        tmc_fit_free(&result);
        tmc_fault_log_free(&log);
    }
    gsl_rng_free(rng);
    print_message("fit-2.3: the lognormal had the lowest AIC in %d of %d logs; the interval "
                  "reaches %.3f x as far above the mean as below\n", lognormal_best, LOGS, skew);
    /* right-skewed times: the bootstrap-t's interval is longer above */
    if (!(skew > 1.15))
        fail_msg("fit-2.3: (hi - mean) / (mean - lo) = %.3f on average; a right-skewed "
                 "sample's interval should reach further above", skew);
    check_coverage("fit-2.3 lognormal repair mean (bootstrap-t)", covered, LOGS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exponential_rate),
        cmocka_unit_test(test_weibull_shape_07),
        cmocka_unit_test(test_weibull_shape_2),
        cmocka_unit_test(test_lognormal_repair_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
