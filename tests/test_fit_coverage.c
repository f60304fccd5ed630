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
 * fit-2.4 the failure rates per day up (issue 33 item 2): exponential up
 *         times of mean 100 days on 400 nodes over 300 days, exponential
 *         repairs of mean 3 and of mean 30 days (a node is down while in
 *         repair, so the calendar holds about 3 % and 23 % of down time),
 *         LOGS_RATE = 200 logs each (repairs kept past the span's end, so
 *         that they are a plain sample). Every rate interval the report
 *         prints covers its truth: the cluster's rate 400/100 a day
 *         (every node up) and its days between faults, the node's 1/100 and
 *         MTBF 100 days, the card's 1/800 and MTBF 800 days (8 cards), and
 *         the lifetime fit's rate. Binomial: 200 logs, SE sqrt(0.95 x 0.05 /
 *         200) = 1.54 %; asked 90.5-99.5 % (+-2.9 SE). The calendar
 *         exposure (issue 33) covered 100 days in 44 of 60 logs at 3-day
 *         repairs. The repair mean's interval (bootstrap-t here, ~1,000
 *         repairs a log) is counted the same way. The written per_card_mtbf_days
 *         (tmc_fit_output_distribution, exponential law): its mean over the
 *         logs is within 3 SE of 800 (SE from the logs' spread / sqrt 200).
 * fit-2.5 the repair mean's interval above TMC_REPAIR_BOOTSTRAP_MAX
 *         (Student's t, issue 33 item 11): 1000 samples of 10,001
 *         lognormal (0, 1) times (mean e^0.5) through
 *         tmc_repair_mean_interval, coverage asked 93-97 % as above; and
 *         logs of 12,000 exponential repairs (Student's t), 200 each.
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
#include <cjson/cJSON.h>
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

/* ---------- fit-2.4 ---------- */

#define LOGS_RATE 200
#define RATE_COVER_LO 0.905
#define RATE_COVER_HI 0.995

/* Renewals per node, exponential up times (mean_up) and exponential
 * repairs (mean_repair), over [0, span]; a repair running past the span is
 * not repaired in the log. Written here apart from fit's code. */
static void draw_exponential(gsl_rng *rng, int nodes, double span, double mean_up,
                             double mean_repair, tmc_fault_log *log)
{
    tmc_error err = {""};
    memset(log, 0, sizeof *log);
    for (int i = 0; i < nodes; i++) {
        char id[16];
        snprintf(id, sizeof id, "n%d", i);
        for (double now = 0;;) {
            double start = now + gsl_ran_exponential(rng, mean_up);
            if (start > span)
                break;
            /* the end is kept past the span: the repair times are then a
             * plain sample of their law (an open repair would censor it) */
            now = start + gsl_ran_exponential(rng, mean_repair);
            assert_int_equal(tmc_fault_log_add(log, id, start, now, "hw", &err), 0);
        }
    }
    tmc_fault_log_finish(log);
}

static int holds(const tmc_fit_interval *v, double truth)
{
    return v->lo <= truth && truth <= v->hi;
}

static void check_rate_coverage(const char *what, int covered, int n)
{
    double c = (double)covered / n, se = sqrt(0.95 * 0.05 / n);
    print_message("%s: %d of %d logs covered, %.1f %% (binomial SE %.2f %%; asked %.1f-%.1f "
                  "%%)\n", what, covered, n, 100 * c, 100 * se, 100 * RATE_COVER_LO,
                  100 * RATE_COVER_HI);
    if (!(c >= RATE_COVER_LO && c <= RATE_COVER_HI))
        fail_msg("%s: %d of %d covered (%.4f) outside [%.3f, %.3f]", what, covered, n, c,
                 RATE_COVER_LO, RATE_COVER_HI);
}

static void rate_case(double mean_repair, unsigned long seed)
{
    enum { NODES = 400, CARDS = 8, WHAT = 8 };
    const double span = 300, mean_up = 100, mean_card = CARDS * mean_up;
    const char *names[WHAT] = {"cluster rate", "cluster days between", "node rate",
                               "node MTBF", "card rate", "card MTBF", "lifetime rate",
                               "repair mean"};
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    int covered[WHAT] = {0};
    double sum = 0, sum2 = 0, repairs = 0;
    for (int k = 0; k < LOGS_RATE; k++) {
        tmc_fault_log log;
        draw_exponential(rng, NODES, span, mean_up, mean_repair, &log);
        tmc_fit_options o = {.log_path = "synthetic", .nodes = NODES, .cards_per_node = CARDS,
                             .span_days = span, .confidence = 0.95, .window_days = 7,
                             .simultaneous_s = 60};
        tmc_error err = {""};
        if (tmc_fit_compute(&log, &o, log.n_faults, NULL, &result, &err))
            fail_msg("tmc_fit_compute: %s", err.msg);
        const tmc_fit_result *r = &result;
        covered[0] += holds(&r->rate_cluster, NODES / mean_up);
        covered[1] += holds(&r->mtbf_cluster, mean_up / NODES);
        covered[2] += holds(&r->rate_node, 1 / mean_up);
        covered[3] += holds(&r->mtbf_node, mean_up);
        covered[4] += holds(&r->rate_card, 1 / mean_card);
        covered[5] += holds(&r->mtbf_card, mean_card);
        covered[6] += holds(&(tmc_fit_interval){r->life.rate, r->life.rate_lo, r->life.rate_hi},
                            1 / mean_up);
        covered[7] += holds(&r->repair_mean_days, mean_repair);
        repairs += r->repair.n;
        cJSON *doc = tmc_fit_output_distribution(r, "exponential");
        assert_non_null(doc);
        double w = cJSON_GetObjectItem(doc, "per_card_mtbf_days")->valuedouble;
        sum += w, sum2 += w * w;
        cJSON_Delete(doc);
        tmc_fit_free(&result);
        tmc_fault_log_free(&log);
    }
    gsl_rng_free(rng);
    char what[160];
    for (int i = 0; i < WHAT; i++) {
        snprintf(what, sizeof what, "fit-2.4 repairs %g d: %s", mean_repair, names[i]);
        check_rate_coverage(what, covered[i], LOGS_RATE);
    }
    double mean = sum / LOGS_RATE, sd = sqrt((sum2 - LOGS_RATE * mean * mean) / (LOGS_RATE - 1));
    double se = sd / sqrt(LOGS_RATE), z = (mean - mean_card) / se;
    print_message("fit-2.4 repairs %g d: written per_card_mtbf_days %.2f on average over %d "
                  "logs (SE %.2f; truth %.0f, %.2f SE off; %.0f repairs a log)\n", mean_repair,
                  mean, LOGS_RATE, se, mean_card, z, repairs / LOGS_RATE);
    if (!(fabs(z) <= 3))
        fail_msg("written per_card_mtbf_days %.2f, %.2f SE from %.0f", mean, z, mean_card);
}

static void test_rates_short_repairs(void **state)
{
    (void)state;
    rate_case(3, 2401);
}

static void test_rates_long_repairs(void **state)
{
    (void)state;
    rate_case(30, 2402);
}

/* ---------- fit-2.5 ---------- */

static void test_repair_mean_student(void **state)
{
    (void)state;
    enum { N = TMC_REPAIR_BOOTSTRAP_MAX + 1 };
    const double truth = exp(0.5);
    static double t[N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2501);
    int covered = 0;
    for (int k = 0; k < LOGS; k++) {
        for (int i = 0; i < N; i++)
            t[i] = gsl_ran_lognormal(rng, 0, 1);
        double lo, hi;
        assert_int_equal(tmc_repair_mean_interval(t, N, 0.95, &lo, &hi), 0);
        covered += lo <= truth && truth <= hi;
    }
    print_message("fit-2.5: %d of %d samples of %d lognormal times covered\n", covered, LOGS,
                  N);
    check_coverage("fit-2.5 lognormal repair mean, n = 10,001 (Student's t)", covered, LOGS);
    /* exponential repairs through fit: 12,000 faults, one per node */
    covered = 0;
    for (int k = 0; k < LOGS_RATE; k++) {
        tmc_fault_log log = {0};
        tmc_error err = {""};
        for (int i = 0; i < 12000; i++) {
            char id[16];
            snprintf(id, sizeof id, "n%d", i);
            double start = gsl_rng_uniform(rng) * 100;
            assert_int_equal(tmc_fault_log_add(&log, id, start,
                                               start + gsl_ran_exponential(rng, 2), "hw", &err),
                             0);
        }
        tmc_fault_log_finish(&log);
        fit(&log, 12000, 1000);
        covered += holds(&result.repair_mean_days, 2);
        tmc_fit_free(&result);
        tmc_fault_log_free(&log);
    }
    gsl_rng_free(rng);
    check_rate_coverage("fit-2.5 exponential repair mean, 12,000 a log (Student's t)", covered,
                        LOGS_RATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exponential_rate),
        cmocka_unit_test(test_weibull_shape_07),
        cmocka_unit_test(test_weibull_shape_2),
        cmocka_unit_test(test_lognormal_repair_mean),
        cmocka_unit_test(test_rates_short_repairs),
        cmocka_unit_test(test_rates_long_repairs),
        cmocka_unit_test(test_repair_mean_student),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
