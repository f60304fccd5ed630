/* durations-1.x: saves and restores of random length and the save timeout
 * (src/model/durations.[ch], checkpoint.duration_law, save_cv, restore_cv,
 * save_timeout_s; docs/model.md 3.12; issue 14 item 5).
 * durations-1.1 the law of Y (mean 1, sd cv) for each kind at cv 0.1 and
 *               0.5: 200,000 draws; the sample mean within 4 se of 1 (se =
 *               cv / sqrt(n)) and the sample variance within 4 se of cv^2
 *               (se from the sample's own fourth central moment).
 * durations-1.2 the Laplace transform E[e^(-lambda m Y)] by quadrature
 *               against closed forms derived by hand: gamma (1 + lambda m
 *               theta)^-k, uniform (e^(-lambda m a) - e^(-lambda m b)) /
 *               (lambda m (b - a)); lognormal against an independent
 *               quadrature of its density (GSL qagiu); to 1e-9.
 * durations-1.3 the save terms of a uniform save C on [A, B] with a timeout
 *               T inside: P(C > T) = (B - T) / (B - A), finish = (e^(-l A) -
 *               e^(-l T)) / (l (B - A)), busy = (1 - reach) / l, and at
 *               l = 0 E[min(C, T)] = ((T^2 - A^2) / 2 + T (B - T)) / (B - A);
 *               to 1e-10.
 * durations-1.4 no failures (experiments/save-timeout-70b.json, jitter and
 *               failures off, 20,000 replicas): the timeouts of a run are
 *               negative binomial, S segments each failing Geometric(q)
 *               times: mean S q / (1 - q), variance S q / (1 - q)^2; the
 *               simulated mean within 4 se (se = sqrt(variance / n)) and the
 *               sample variance within 4 se (se from the fourth moment); the
 *               mean wall time against the closed form's (exact in
 *               expectation) within 4 se.
 * durations-1.5 with failures, every law (the same experiment without
 *               jitter, 16,000 replicas): the simulated mean T against
 *               Daly's formula generalised to random saves and restores and
 *               the timeout (closed_form.c random_segment) within 4 se;
 *               restore_cv alone too; per replica, the split adds up to the
 *               wall time (an identity: a committed save is counted at its
 *               drawn length).
 * durations-1.6 a save timeout is a restart: without failures and with
 *               deadline.max_restarts = 0 a run is within the budget when no
 *               save of its S timed out, probability (1 - q)^S; the share of
 *               20,000 runs within 4 se (se = sqrt(p (1 - p) / n)).
 * durations-1.7 without failures or jitter and with every segment K steps
 *               long (steps = 18 K = 119,214): a timed-out save loses its segment and
 *               the timeout, so per replica lost work = timeouts x (K t_s +
 *               T) exactly (1e-9); and the runs with exactly one timeout
 *               made exactly one restore, a draw of R = r Y: over those runs
 *               its mean within 4 se of r and its variance within 4 se of
 *               (cv r)^2 (restore_cv 0.5, lognormal; se from the sample's
 *               fourth moment). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

#include "durations.h"
#include "rng_pcg.h"
#include "support.h"

#define TOL_SE 4.0
#define DAY 86400.0

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %.3g)", what, got, want, tol);
}

static const char *const kind_names[] = {"lognormal", "gamma", "uniform"};

static void test_law(void **state)
{
    (void)state;
    enum { N = 200000 };
    static double y[N];
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    for (int kind = 0; kind < 3; kind++)
        for (int i = 0; i < 2; i++) {
            double cv = i ? 0.5 : 0.1;
            tmc_duration_law l = tmc_durations_law((tmc_duration_kind)kind, cv);
            tmc_rng_pcg_seed(r, 42 + kind, 7);
            double mean = 0, var = 0, m4 = 0;
            for (int k = 0; k < N; k++)
                mean += (y[k] = tmc_durations_draw(&l, r)) / N;
            for (int k = 0; k < N; k++) {
                double d2 = (y[k] - mean) * (y[k] - mean);
                var += d2 / (N - 1);
                m4 += d2 * d2 / N;
            }
            print_message("%s cv %.1f: mean %.5f, sd %.5f\n", kind_names[kind], cv, mean,
                          sqrt(var));
            near(mean, 1, TOL_SE * cv / sqrt(N), "mean of Y, 4 se");
            near(var, cv * cv, TOL_SE * sqrt((m4 - var * var) / N), "variance of Y, 4 se");
        }
    gsl_rng_free(r);
}

typedef struct { double mu, sigma, rate; } lognormal_case;

static double lognormal_weighted(double c, void *p)
{
    const lognormal_case *q = p;
    return c > 0 ? exp(-q->rate * c) * gsl_ran_lognormal_pdf(c, q->mu, q->sigma) : 0;
}

static void test_laplace(void **state)
{
    (void)state;
    double m = 900, rate = 1 / 3000.0;
    for (int i = 0; i < 2; i++) {
        double cv = i ? 0.8 : 0.2;
        tmc_duration_law g = tmc_durations_law(TMC_DURATION_GAMMA, cv);
        double k = 1 / (cv * cv), theta = m * cv * cv;
        near(tmc_durations_laplace(&g, m, rate), pow(1 + rate * theta, -k), 1e-9, "gamma");
        double s = sqrt(3.0) * cv;
        tmc_duration_law u = tmc_durations_law(TMC_DURATION_UNIFORM, i ? 0.5 : 0.2);
        s = sqrt(3.0) * (i ? 0.5 : 0.2);
        double a = m * (1 - s), b = m * (1 + s);
        near(tmc_durations_laplace(&u, m, rate),
             (exp(-rate * a) - exp(-rate * b)) / (rate * (b - a)), 1e-9, "uniform");
        tmc_duration_law ln = tmc_durations_law(TMC_DURATION_LOGNORMAL, cv);
        double s2 = log1p(cv * cv);
        lognormal_case q = {log(m) - s2 / 2, sqrt(s2), rate};
        gsl_function f = {lognormal_weighted, &q};
        gsl_integration_workspace *w = gsl_integration_workspace_alloc(500);
        double want, err;
        assert_int_equal(gsl_integration_qagiu(&f, 0, 1e-13, 1e-11, 500, w, &want, &err), 0);
        gsl_integration_workspace_free(w);
        near(tmc_durations_laplace(&ln, m, rate), want, 1e-9, "lognormal");
    }
}

static void test_save_terms(void **state)
{
    (void)state;
    double m = 2400, cv = 0.4, s = sqrt(3.0) * cv, A = m * (1 - s), B = m * (1 + s),
           T = 2700;
    tmc_duration_law u = tmc_durations_law(TMC_DURATION_UNIFORM, cv);
    tmc_save_terms st;
    double l = 1 / 50000.0;
    assert_int_equal(tmc_durations_save_terms(&u, m, T, l, &st), 0);
    double finish = (exp(-l * A) - exp(-l * T)) / (l * (B - A));
    double time_out = exp(-l * T) * (B - T) / (B - A);
    near(st.finish, finish, 1e-10, "finish");
    near(st.time_out, time_out, 1e-10, "time_out");
    near(st.reach, finish + time_out, 1e-10, "reach");
    near(st.busy_s, (1 - finish - time_out) / l, 1e-10 * m, "busy at rate l");
    assert_int_equal(tmc_durations_save_terms(&u, m, T, 0, &st), 0);
    near(st.time_out, (B - T) / (B - A), 1e-12, "P(C > T)");
    near(st.busy_s, ((T * T - A * A) / 2 + T * (B - T)) / (B - A), 1e-10 * m,
         "E[min(C, T)] at rate 0");
}

/* The rows of the split add up to the wall time (an identity). */
static void s_split_check(const tmc_replica *out)
{
    near(tmc_accounting_split_sum(out), out->wall_s, 1e-9 * out->wall_s,
         "the split adds up to the wall time");
}

/* save-timeout-70b without jitter, with the given overrides: mean T (days)
 * and its se, the mean and variance of the timeouts per run. */
typedef struct {
    double mean, se, timeouts, timeouts_var, timeouts_m4;
    double no_restart; /* share of runs without a restart */
} sim_stats;

static sim_stats simulate(const char *const *sets, int n_sets, long n, tmc_closed_form *cf)
{
    tmc_experiment x = test_load("save-timeout-70b", sets, n_sets);
    x.monte_carlo.replicas = n;
    tmc_engine e;
    tmc_closed_form_compute(&x, cf);
    assert_int_equal(tmc_engine_init(&e, &x, cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    double *wall = malloc((size_t)n * sizeof *wall), *count = malloc((size_t)n * sizeof *count);
    double no_restart = 0;
    for (long k = 0; k < n; k++) {
        tmc_replica out;
        tmc_engine_run(&e, 11, (uint64_t)k, rng, &out);
        wall[k] = out.wall_s / DAY;
        count[k] = out.save_timeouts;
        s_split_check(&out);
        no_restart += tmc_accounting_restarts(&out) == 0;
    }
    sim_stats s = {0};
    s.no_restart = no_restart / n;
    for (long k = 0; k < n; k++) {
        s.mean += wall[k] / n;
        s.timeouts += count[k] / n;
    }
    double var = 0;
    for (long k = 0; k < n; k++) {
        var += (wall[k] - s.mean) * (wall[k] - s.mean) / (n - 1);
        double d2 = (count[k] - s.timeouts) * (count[k] - s.timeouts);
        s.timeouts_var += d2 / (n - 1);
        s.timeouts_m4 += d2 * d2 / n;
    }
    s.se = sqrt(var / n);
    test_rngs_free(rng);
    tmc_engine_free(&e);
    free(wall);
    free(count);
    return s;
}

static void test_no_failures(void **state)
{
    (void)state;
    const char *sets[] = {"jitter.cv=0", "failures=null"};
    tmc_closed_form cf;
    long n = 20000;
    sim_stats s = simulate(sets, 2, n, &cf);
    double q = cf.save_timeout_p, S = (double)cf.segments;
    double mean = S * q / (1 - q), var = S * q / ((1 - q) * (1 - q));
    print_message("q = %.5f over %.0f segments: timeouts %.4f (NB %.4f), variance %.4f "
                  "(NB %.4f); T %.5f +- %.5f d (closed form %.5f)\n", q, S, s.timeouts, mean,
                  s.timeouts_var, var, s.mean, s.se, cf.completion_days_daly);
    assert_true(q > 0.05 && q < 0.08); /* the experiment's 45-minute timeout */
    near(s.timeouts, mean, TOL_SE * sqrt(var / n), "mean timeouts: negative binomial, 4 se");
    near(s.timeouts_var, var,
         TOL_SE * sqrt((s.timeouts_m4 - s.timeouts_var * s.timeouts_var) / n),
         "variance of the timeouts: negative binomial, 4 se");
    near(cf.save_timeouts_mean, mean, 1e-9 * mean, "the closed form's count");
    near(s.mean, cf.completion_days_daly, TOL_SE * s.se, "mean T against the closed form");
}

static void test_with_failures(void **state)
{
    (void)state;
    static const char *const cases[][4] = {
        {"jitter.cv=0", "checkpoint.duration_law=lognormal", "checkpoint.save_cv=0.08",
         "checkpoint.restore_cv=0.08"},
        {"jitter.cv=0", "checkpoint.duration_law=gamma", "checkpoint.save_cv=0.1",
         "checkpoint.restore_cv=0.6"},
        {"jitter.cv=0", "checkpoint.duration_law=uniform", "checkpoint.save_cv=0.12",
         "checkpoint.restore_cv=0.5"},
        {"jitter.cv=0", "checkpoint.save_timeout_s=0", "checkpoint.save_cv=0",
         "checkpoint.restore_cv=1.5"},
    };
    for (int i = 0; i < 4; i++) {
        tmc_closed_form cf;
        sim_stats s = simulate(cases[i], 4, 16000, &cf);
        print_message("%s, %s, %s: T %.5f +- %.5f d, Daly %.5f (%.2f se)\n", cases[i][1],
                      cases[i][2], cases[i][3], s.mean, s.se, cf.completion_days_daly,
                      (s.mean - cf.completion_days_daly) / s.se);
        assert_true(cf.daly_exact);
        near(s.mean, cf.completion_days_daly, TOL_SE * s.se, "mean T against Daly's, 4 se");
    }
}

static void test_restart_budget(void **state)
{
    (void)state;
    const char *sets[] = {"jitter.cv=0", "failures=null", "deadline.max_restarts=0"};
    tmc_closed_form cf;
    long n = 20000;
    sim_stats s = simulate(sets, 3, n, &cf);
    double p = pow(1 - cf.save_timeout_p, (double)cf.segments);
    print_message("runs without a restart %.4f, (1 - q)^S = %.4f\n", s.no_restart, p);
    near(s.no_restart, p, TOL_SE * sqrt(p * (1 - p) / n), "P(no timeout in a run), 4 se");
}

static void test_timeout_identities(void **state)
{
    (void)state;
    const char *sets[] = {"jitter.cv=0", "failures=null", "checkpoint.restore_cv=0.5",
                          "job.steps=119214"};
    tmc_experiment x = test_load("save-timeout-70b", sets, 4);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_int_equal(cf.interval_steps * 18, x.job.steps); /* K = 6,623 */
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    enum { N = 20000 };
    static double one[N];
    long n1 = 0;
    double per_timeout = cf.interval_steps * cf.step_s + x.checkpoint.save_timeout_s;
    for (long k = 0; k < N; k++) {
        tmc_replica out;
        tmc_engine_run(&e, 13, (uint64_t)k, rng, &out);
        near(out.lost_s, out.save_timeouts * per_timeout, 1e-9 * (1 + out.lost_s),
             "lost work = timeouts x (K t_s + T)");
        if (out.save_timeouts == 1)
            one[n1++] = out.restore_s;
    }
    test_rngs_free(rng);
    tmc_engine_free(&e);
    double r = x.checkpoint.restore_s, mean = 0, var = 0, m4 = 0;
    for (long k = 0; k < n1; k++)
        mean += one[k] / n1;
    for (long k = 0; k < n1; k++) {
        double d2 = (one[k] - mean) * (one[k] - mean);
        var += d2 / (n1 - 1);
        m4 += d2 * d2 / n1;
    }
    print_message("%ld runs with one timeout: restore mean %.2f s (r = %.0f), sd %.2f s "
                  "(cv r = %.0f)\n", n1, mean, r, sqrt(var), 0.5 * r);
    assert_true(n1 > 1000);
    near(mean, r, TOL_SE * 0.5 * r / sqrt(n1), "mean restore, 4 se");
    near(var, 0.25 * r * r, TOL_SE * sqrt((m4 - var * var) / n1), "restore variance, 4 se");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_law),
        cmocka_unit_test(test_laplace),
        cmocka_unit_test(test_save_terms),
        cmocka_unit_test(test_no_failures),
        cmocka_unit_test(test_with_failures),
        cmocka_unit_test(test_restart_budget),
        cmocka_unit_test(test_timeout_identities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
