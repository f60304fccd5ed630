/* fit-1.x: the estimators of `trainmc fit` (src/fit/, docs/fit.md) on cases
 * derived by hand or from published tables.
 * fit-1.1 Garwood's Poisson interval: 0 events [0, 3.689] (-ln 0.025 =
 *         3.68888), 10 events [4.7954, 18.3904] (the standard tables, e.g.
 *         Ulm 1990, Am J Epidemiol 131:373); a rate divides by the exposure.
 * fit-1.2 censored exponential ML: observed {1, 2, 3}, censored {4, 10}:
 *         rate = 3 / 20 = 0.15 exactly, log-lik 3 ln 0.15 - 3.
 * fit-1.3 Weibull ML on 2,000 draws of gsl_ran_weibull (mt19937, seed 1)
 *         at shape 2, scale 10: the shape within 3 standard errors of 2,
 *         SE = k sqrt(6 / (pi^2 n)) = 0.0349 (the Fisher information of a
 *         complete Weibull sample; Cohen 1965, Technometrics 7:579), and the
 *         code's SE from the observed information within 10 % of it.
 * fit-1.4 censored Weibull ML is the maximum: no point of a grid around it
 *         (shape x scale, +-30 %) has a higher log-likelihood (computed
 *         here from the formula), and with shape fixed at 1 the
 *         exponential log-likelihood is reproduced.
 * fit-1.5 Kolmogorov's Q: Q(1.0) = 0.2700, Q(1.36) = 0.0495, Q(0.5) =
 *         0.9639 (tables of the Kolmogorov distribution), and Kolmogorov's
 *         alternating series summed here at 0.6 ... 1.2; the p-value
 *         applies Stephens' n correction: n = 100, D = 1 / 10.131 gives
 *         Q(1.0); D of {0.1, 0.4, 0.7} against U(0, 1) is 0.3 and of the
 *         tie {0.5, 0.5} is 0.5.
 * fit-1.6 lognormal ML on {1, e, e^2}: mu = 1, sigma = sqrt(2/3); the
 *         exponential's mean is the sample mean; the lowest AIC wins.
 * fit-1.7 dispersion of counts {0, 1, 2, 3, 4}: mean 2, variance 2.5, index
 *         1.25, chi-square 5 on 4 dof, p = e^-2.5 (1 + 2.5) = 0.287297;
 *         P(any of 5 Poisson(2) >= 4) = 1 - (e^-2 (1 + 2 + 2 + 4/3))^5.
 * fit-1.8 a CSV log (hours), read, excluded, cut into up times and
 *         simultaneous pairs by hand: see the case's comment.
 * fit-1.9 bad input: a JSON event with a wrong event_type names its path
 *         and the allowed values; a CSV time names file, line and column. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "burst_fit.h"
#include "dispersion.h"
#include "fault_log.h"
#include "ks.h"
#include "lifetime_fit.h"
#include "poisson_ci.h"
#include "repair_fit.h"

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.10g, expected %.10g +- %g", what, got, want, tol);
}

static void test_poisson_ci(void **state)
{
    (void)state;
    double lo, hi, rate;
    assert_int_equal(tmc_poisson_ci_compute(0, 0.95, &lo, &hi), 0);
    near(lo, 0, 0, "0 events: lower");
    near(hi, -log(0.025), 1e-9, "0 events: upper");
    near(hi, 3.689, 5e-4, "0 events: upper, table");
    assert_int_equal(tmc_poisson_ci_compute(10, 0.95, &lo, &hi), 0);
    near(lo, 4.7954, 5e-4, "10 events: lower");
    near(hi, 18.3904, 5e-4, "10 events: upper");
    assert_int_equal(tmc_poisson_ci_rate(10, 2, 0.95, &rate, &lo, &hi), 0);
    near(rate, 5, 0, "10 events over 2: rate");
    near(lo, 4.7954 / 2, 3e-4, "rate lower");
    near(hi, 18.3904 / 2, 3e-4, "rate upper");
    assert_int_equal(tmc_poisson_ci_compute(-1, 0.95, &lo, &hi), -1);
    assert_true(isnan(lo) && isnan(hi));
    assert_int_equal(tmc_poisson_ci_rate(3, 0, 0.95, &rate, &lo, &hi), -1);
}

static void test_censored_exponential(void **state)
{
    (void)state;
    const double obs[] = {1, 2, 3}, cens[] = {4, 10};
    double rate, ll;
    tmc_error err = {""};
    assert_int_equal(tmc_lifetime_fit_exponential(obs, 3, cens, 2, &rate, &ll, &err), 0);
    assert_true(rate == 0.15); /* exactly 3 / 20 */
    near(ll, 3 * log(0.15) - 3, 1e-12, "log-likelihood");
}

static void test_weibull_recovers_shape(void **state)
{
    (void)state;
    enum { N = 2000 };
    static double x[N];
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 1);
    for (int i = 0; i < N; i++)
        x[i] = gsl_ran_weibull(rng, 10, 2); /* scale a = 10, shape b = 2 */
    gsl_rng_free(rng);
    tmc_weibull_fit w;
    tmc_error err = {""};
    assert_int_equal(tmc_lifetime_fit_weibull(x, N, NULL, 0, &w, &err), 0);
    double se = 2 * sqrt(6 / (M_PI * M_PI * N)); /* 0.0349 */
    near(se, 0.0349, 1e-4, "asymptotic SE");
    near(w.shape, 2, 3 * se, "shape within 3 SE");
    near(w.shape_se, se, 0.1 * se, "observed-information SE");
    near(w.scale, 10, 3 * 10 / (2 * sqrt(N)) * 1.1, "scale within 3 SE (SE ~ 1.053 lambda/(k sqrt n))");
}

/* The censored Weibull log-likelihood, written out. */
static double weibull_ll(const double *obs, int n, const double *cens, int m, double k,
                         double lam)
{
    double ll = 0;
    for (int i = 0; i < n; i++)
        ll += log(k / lam) + (k - 1) * log(obs[i] / lam) - pow(obs[i] / lam, k);
    for (int i = 0; i < m; i++)
        ll -= pow(cens[i] / lam, k);
    return ll;
}

static void test_weibull_censored_is_maximum(void **state)
{
    (void)state;
    const double obs[] = {0.3, 1.2, 2.5, 4.1, 0.05, 7.7, 3.3, 0.9};
    const double cens[] = {10, 10, 6.5, 2.0, 10};
    tmc_weibull_fit w;
    tmc_error err = {""};
    assert_int_equal(tmc_lifetime_fit_weibull(obs, 8, cens, 5, &w, &err), 0);
    double best = weibull_ll(obs, 8, cens, 5, w.shape, w.scale);
    near(w.loglik, best, 1e-9, "log-likelihood at the fit");
    for (int i = -15; i <= 15; i++)
        for (int j = -15; j <= 15; j++) {
            double k = w.shape * (1 + 0.02 * i), lam = w.scale * (1 + 0.02 * j);
            if (weibull_ll(obs, 8, cens, 5, k, lam) > best + 1e-12)
                fail_msg("grid point k %g, scale %g beats the fit (k %g, scale %g)", k, lam,
                         w.shape, w.scale);
        }
    double rate, ll;
    assert_int_equal(tmc_lifetime_fit_exponential(obs, 8, cens, 5, &rate, &ll, &err), 0);
    near(weibull_ll(obs, 8, cens, 5, 1, 1 / rate), ll, 1e-9, "Weibull at k = 1");
    assert_true(w.loglik >= ll);
    const double same[] = {2, 2, 2};
    assert_int_equal(tmc_lifetime_fit_weibull(same, 3, NULL, 0, &w, &err), -1);
}

static double uniform_cdf(double x, void *ctx)
{
    (void)ctx;
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

static void test_ks(void **state)
{
    (void)state;
    near(tmc_ks_kolmogorov_q(1.0), 0.2700, 5e-5, "Q(1.0)");
    near(tmc_ks_kolmogorov_q(1.36), 0.0495, 1e-4, "Q(1.36)");
    near(tmc_ks_kolmogorov_q(0.5), 0.9639, 1e-4, "Q(0.5)");
    for (double x = 0.6; x < 1.3; x += 0.1) { /* the theta form below 1.18 = the series */
        double q = 0;
        for (int j = 1; j <= 200; j++)
            q += 2 * (j % 2 ? 1 : -1) * exp(-2.0 * j * j * x * x);
        near(tmc_ks_kolmogorov_q(x), q, 1e-12, "Q against Kolmogorov's series");
    }
    near(tmc_ks_pvalue(1 / 10.131, 100), 0.2700, 5e-5, "p-value, Stephens' correction");
    const double a[] = {0.1, 0.4, 0.7}, b[] = {0.5, 0.5};
    near(tmc_ks_compute_statistic(a, 3, uniform_cdf, NULL), 0.3, 1e-12, "D of 3 points");
    near(tmc_ks_compute_statistic(b, 2, uniform_cdf, NULL), 0.5, 1e-12, "D of a tie");
}

static void test_repair_laws(void **state)
{
    (void)state;
    const double t[] = {1, M_E, M_E * M_E};
    tmc_repair_fit r;
    tmc_error err = {""};
    assert_int_equal(tmc_repair_fit_times(t, 3, &r, &err), 0);
    const tmc_repair_law *ln = &r.law[TMC_REPAIR_LAW_LOGNORMAL];
    near(ln->p1, 1, 1e-12, "lognormal mu");
    near(ln->p2, sqrt(2.0 / 3), 1e-12, "lognormal sigma");
    near(r.law[TMC_REPAIR_LAW_EXPONENTIAL].p1, (1 + M_E + M_E * M_E) / 3, 1e-12, "mean");
    for (int i = 0; i < TMC_REPAIR_LAWS; i++)
        assert_true(r.law[r.best].aic <= r.law[i].aic);
}

static void test_dispersion(void **state)
{
    (void)state;
    const long c[] = {0, 1, 2, 3, 4};
    tmc_dispersion d;
    tmc_error err = {""};
    assert_int_equal(tmc_dispersion_compute_index(c, 5, &d, &err), 0);
    near(d.mean, 2, 0, "mean");
    near(d.var, 2.5, 1e-12, "variance");
    near(d.index, 1.25, 1e-12, "index");
    near(d.chi2, 5, 1e-12, "chi-square");
    near(d.p, exp(-2.5) * 3.5, 1e-9, "p");
    assert_int_equal(d.max, 4);
    assert_int_equal(d.argmax, 4);
    near(d.p_max, 1 - pow(exp(-2) * (5 + 4.0 / 3), 5), 1e-9, "p of the max");
}

static const char *write_temp(const char *name, const char *text)
{
    static char path[256]; /* the process id: parallel runs do not collide; each case removes
                              the file once read */
    snprintf(path, sizeof path, "%s/%ld-%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Hours, span 240 h = 10 days, 5 nodes (2 never fail):
 *   a 24 -> 36, b 24.12 -> 28.8, c 120 -> 122.4, a 168 -> 180 (cause Test)
 * days: a 1 -> 1.5, b 1.005 -> 1.2, c 5 -> 5.1, a 7 -> 7.5.
 * Up times: a 1 and 7 - 1.5 = 5.5, censored 10 - 7.5 = 2.5; b 1.005,
 * censored 8.8; c 5, censored 4.9; two nodes censored 10 each: rate 4 /
 * 48.705. Pairs within 0.01 days on different nodes: (a, b) only;
 * expected (2q - q^2) (4^2 - (2^2 + 1 + 1)) / 2, q = 0.01 / 10. Without
 * "test" (case ignored) a has up time 1, censored 8.5. */
static void test_csv_log(void **state)
{
    (void)state;
    const char *path = write_temp("test_fit_log.csv",
                                  "# a hand case\nnode,start,end,cause\n"
                                  "a,24,36,GPU\nb,24.12,28.8,\"G\"\"PU\"\n\n"
                                  "c,120,122.4,NIC\na,168,180,Test\n");
    tmc_fault_log_columns cols = {"node", "start", "end", "cause", 1, 0, 0};
    tmc_fault_log log;
    tmc_error err = {""};
    if (tmc_fault_log_read_csv(path, &cols, &log, &err))
        fail_msg("%s", err.msg);
    remove(path);
    assert_int_equal(log.n_faults, 4);
    assert_int_equal(log.n_nodes, 3);
    assert_string_equal(log.faults[1].cls, "G\"PU");
    near(log.faults[1].start_days, 1.005, 1e-12, "hours to days");
    tmc_lifetime_sample s;
    assert_int_equal(tmc_lifetime_collect_intervals(&log, 5, 10, &s, &err), 0);
    assert_int_equal(s.n_obs, 4);
    assert_int_equal(s.n_cens, 5);
    near(s.exposure_days, 48.705, 1e-9, "up time");
    double rate, ll;
    assert_int_equal(tmc_lifetime_fit_exponential(s.obs, s.n_obs, s.cens, s.n_cens, &rate, &ll,
                                                  &err), 0);
    near(rate, 4 / 48.705, 1e-12, "events / exposure");
    tmc_lifetime_sample_free(&s);
    tmc_simultaneous m;
    assert_int_equal(tmc_dispersion_count_simultaneous(&log, 10, 0.01, &m, &err), 0);
    assert_int_equal(m.pairs, 1);
    double q = 0.001;
    near(m.expected, (2 * q - q * q) * 5, 1e-12, "expected pairs");
    tmc_burst_fit b; /* the pair is one group of 2 nodes (burst_fit.h) */
    assert_int_equal(tmc_burst_fit_compute(&log, 0.01, 10, 0.95, &b, &err), 0);
    assert_int_equal(b.groups, 1);
    assert_int_equal(b.largest, 2);
    tmc_burst_fit_free(&b);
    long counts[5];
    tmc_dispersion_count_nodes(&log, 5, counts);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[4], 0);
    const char *ex[] = {"test"};
    int removed[1];
    assert_int_equal(tmc_fault_log_exclude(&log, ex, 1, removed), 1);
    assert_int_equal(removed[0], 1);
    assert_int_equal(tmc_lifetime_collect_intervals(&log, 5, 10, &s, &err), 0);
    near(s.exposure_days, 1 + 8.5 + 1.005 + 8.8 + 5 + 4.9 + 20, 1e-9, "up time, excluded");
    tmc_lifetime_sample_free(&s);
    tmc_fault_log_free(&log);
}

static void test_bad_input(void **state)
{
    (void)state;
    tmc_fault_log log;
    tmc_error err = {""};
    const char *path = write_temp("test_fit_bad.json",
                                  "[{\"node_id\": \"a\", \"event_time\": 1, \"event_type\": "
                                  "\"fault_start\"},\n {\"node_id\": \"a\", \"event_time\": 2, "
                                  "\"event_type\": \"repaired\"}]");
    assert_int_equal(tmc_fault_log_read_json(path, &log, &err), -1);
    remove(path);
    assert_non_null(strstr(err.msg, "[1].event_type: 'repaired' is not one of: fault_start, "
                                    "fault_end"));
    path = write_temp("test_fit_bad.csv", "node,start,end\na,1,2\nb,-3,4\n");
    tmc_fault_log_columns cols = {"node", "start", "end", NULL, 0, 0, 0};
    assert_int_equal(tmc_fault_log_read_csv(path, &cols, &log, &err), -1);
    remove(path);
    assert_non_null(strstr(err.msg, "test_fit_bad.csv:3: column 'start': '-3' is not a number "
                                    "of days >= 0"));
    path = write_temp("test_fit_ok.json",
                      "{\"node_id\": 7, \"event_time\": 1, \"event_type\": \"fault_start\"}\n"
                      "{\"node_id\": 7, \"event_time\": 1.5, \"event_type\": \"fault_end\"}\n"
                      "{\"node_id\": 8, \"event_time\": 2, \"event_type\": \"fault_end\"}\n");
    if (tmc_fault_log_read_json(path, &log, &err))
        fail_msg("%s", err.msg);
    remove(path);
    assert_int_equal(log.n_faults, 1);
    assert_int_equal(log.unmatched_ends, 1);
    near(log.faults[0].end_days, 1.5, 0, "JSON lines: the end");
    near(log.last_event_days, 2, 0, "the last event");
    tmc_fault_log_free(&log);
}

/* fit-1.10: simultaneous pairs count pairs on different nodes only: a at
 * day 1 and 1.0001, b at 1.0002, c at 5, window 0.001 day: (a, b) twice,
 * never (a, a) nor c: 2 pairs (issue 33: the count became a sliding window
 * with counts per node). */
static void test_simultaneous_same_node(void **state)
{
    (void)state;
    tmc_fault_log log = {0};
    tmc_error err = {""};
    assert_int_equal(tmc_fault_log_add(&log, "a", 1, 1.00005, "hw", &err), 0);
    assert_int_equal(tmc_fault_log_add(&log, "a", 1.0001, 2, "hw", &err), 0);
    assert_int_equal(tmc_fault_log_add(&log, "b", 1.0002, 2, "hw", &err), 0);
    assert_int_equal(tmc_fault_log_add(&log, "c", 5, 6, "hw", &err), 0);
    tmc_fault_log_finish(&log);
    tmc_simultaneous m;
    assert_int_equal(tmc_dispersion_count_simultaneous(&log, 10, 0.001, &m, &err), 0);
    assert_int_equal(m.pairs, 2);
    tmc_burst_fit b;
    assert_int_equal(tmc_burst_fit_compute(&log, 0.001, 10, 0.95, &b, &err), 0);
    assert_int_equal(b.groups, 1);
    assert_int_equal(b.largest, 2);
    tmc_burst_fit_free(&b);
    tmc_fault_log_free(&log);
}

/* fit-1.9: Garwood's interval at 16,001 to 10 million events (issue 33
 * item 11: GSL's chi-square inverse returned NaN there, from 16,000 events
 * on). Checked against its definition on the Poisson CDF, written apart:
 * P(X >= n; lo) = a/2 and P(X <= n; hi) = a/2, each tail summed here term
 * by term from the Poisson pmf in logs (lgamma; GSL's own Poisson CDF
 * fails above a million), to 1e-6 absolute. */
static double poisson_tail(long n, double mu, int upper)
{
    double sum = 0; /* upper: P(X >= n), else P(X <= n); terms past 12 sd are < 1e-30 */
    long span = 12 * (long)sqrt(mu) + 50;
    for (long k = n, d = 0; d < span && k >= 0; d++, k += upper ? 1 : -1)
        sum += exp((double)k * log(mu) - mu - lgamma((double)k + 1));
    return sum;
}

static void test_poisson_ci_large(void **state)
{
    (void)state;
    const long ns[] = {16001, 256000, 1000000, 10000000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        double lo, hi;
        assert_int_equal(tmc_poisson_ci_compute(ns[i], 0.95, &lo, &hi), 0);
        double p_lo = poisson_tail(ns[i], lo, 1), p_hi = poisson_tail(ns[i], hi, 0);
        print_message("fit-1.9: %ld events: [%.10g, %.10g], tails %.8f %.8f\n", ns[i], lo, hi,
                      p_lo, p_hi);
        if (!(fabs(p_lo - 0.025) < 1e-6 && fabs(p_hi - 0.025) < 1e-6))
            fail_msg("%ld events: [%g, %g] has tails %g and %g, not 0.025", ns[i], lo, hi, p_lo,
                     p_hi);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_poisson_ci),
        cmocka_unit_test(test_poisson_ci_large),
        cmocka_unit_test(test_simultaneous_same_node),
        cmocka_unit_test(test_censored_exponential),
        cmocka_unit_test(test_weibull_recovers_shape),
        cmocka_unit_test(test_weibull_censored_is_maximum),
        cmocka_unit_test(test_ks),
        cmocka_unit_test(test_repair_laws),
        cmocka_unit_test(test_dispersion),
        cmocka_unit_test(test_csv_log),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
