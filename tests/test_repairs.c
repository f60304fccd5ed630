/* repairs-1.x: the repair pipeline of a spare pool (issue 19 item 4;
 * failures.repair_distribution lognormal / weibull, repair_cv,
 * repair_shape, repair_auto_share, repair_auto_hours, repair_fail_share;
 * docs/reference/simulation-semantics.md 5, docs/model.md 3.17).
 *
 * The job is uncertainty-1's, 2,000 steps of 50 s on 64 cards (repairs-1.1),
 * or the same 100,000 s (or 150,000 s) in steps of 500 s (the rest: a
 * replica's wait does not depend on the steps, and 10 times fewer cost 10
 * times less), K = 1, saves and restores free, no jitter, so a replica's
 * spare wait is exactly the time the job waits for cards. Failures are replayed from a
 * trace (no lifetime drawn), so the only randomness is the repairs'.
 * Statistical checks: fixed seeds, N = 20,000 replicas, tolerance |z| < 4.
 * Estimators: the sample mean m of a replica's wait (se s / sqrt(N), s the
 * sample sd), and a sample proportion p^ (binomial se sqrt(p (1 - p) / N)
 * at the expected p).
 *
 * repairs-1.1 the new keys at their defaults (given explicitly) and
 *             repair_auto_share 0 with any repair_auto_hours reproduce the
 *             runs without them, replica for replica (memcmp of the whole
 *             replica record), on a pool that runs dry: no extra draw.
 * repairs-1.2 P = 0, one failure (day 1.0): the job waits for its own
 *             card's repair and, after each silent failure (probability f,
 *             independent), for the next: W = R_1 + ... + R_K, K geometric
 *             on {1, 2, ...} with success 1 - f, so E[W] = E[R] / (1 - f),
 *             E[R] = A + (1 - a) M (automatic stage A hours for every
 *             repair, a share a ends there, the rest add a manual draw of
 *             mean M). Lognormal (cv 2) and Weibull (shape 0.6) manual
 *             stages, a = 0.3, A = 0.5 h, M = 4 h, f = 0.2: E[W] = 4.125 h.
 * repairs-1.3 the manual law's shape, P = 0, a = 0, f = 0 (W = one manual
 *             draw of mean M = 4 h): P(W <= M). Lognormal of cv c:
 *             sigma^2 = ln(1 + c^2), mu = ln M - sigma^2 / 2, so
 *             P(W <= M) = Phi((ln M - mu) / sigma) = Phi(sigma / 2); c = 2:
 *             sigma = 1.26864, Phi(0.63432) = 0.73707. Weibull of shape k
 *             and scale lambda = M / Gamma(1 + 1/k): P(W <= M) =
 *             1 - exp(-Gamma(1 + 1/k)^k); k = 0.6: 0.72134. A sigma of c
 *             instead (Phi(1) = 0.841) or a scale of M (0.632) is 33 and 28
 *             se away. The means (M) are checked too.
 * repairs-1.4 P = 1, fixed repairs of R = 4 h, f = 0.5, two failures; the
 *             answer is derived by hand (below) and, for the second case,
 *             summed independently in the test:
 *             (a) failures at day 1.0 and 1.5 (the first card is back in the
 *             pool, good or bad, before the second failure). The first takes
 *             the good spare: no wait. The second finds the first card in
 *             the pool: good (1 - f): no wait; bad (f): it fails at once
 *             and goes back to repair at t2, beside the second card's own
 *             repair from t2; each chain returns a good card after K R, K
 *             geometric (success 1 - f), so the wait is R min(K1, K2),
 *             min geometric of success 1 - f^2: E[W] = f R / (1 - f^2) =
 *             9,600 s, P(W = 0) = 1 - f = 0.5.
 *             (b) failures at day 1.0 and 1.1 (8,640 s apart, inside the
 *             first repair): the second waits for the first good card of
 *             two chains, min(t1 + K1 R, t2 + K2 R) - t2, K1 and K2
 *             geometric: its mean is summed over K1, K2 <= 60 in the test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "support.h"

#define TOL_SE 4.0
enum { N = 20000 };

/* Replicas 0 .. n - 1 of the experiment in `text` (run seed `seed`): their
 * records into out[n]. */
static void replicas(const char *text, uint64_t seed, tmc_replica *out, int n)
{
    tmc_experiment x = test_parse(text);
    test_replicas(&x, seed, out, n);
}

/* The spare wait of every replica, s. */
static void waits(const char *text, uint64_t seed, double *w, int n)
{
    static tmc_replica r[N];
    assert_true(n <= N);
    replicas(text, seed, r, n);
    for (int i = 0; i < n; i++)
        w[i] = r[i].spare_wait_s;
}

/* `steps` steps of step_s on 64 cards, K = 1, free saves and restores, no
 * jitter, with the given failures. */
static void job_text(char *buf, size_t n, long steps, double step_s, const char *failures)
{
    snprintf(buf, n,
             "{\"name\": \"repairs\", \"job\": {\"steps\": %ld, \"cards\": 64, "
             "\"flop_per_step\": %.17g, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": %s, \"outages\": null, \"checkpoint\": {\"interval_steps\": 1, "
             "\"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 30}}",
             steps, 64 * step_s, failures);
}

/* A trace file with the given failure times (days); its path into path[n]. */
static void write_trace(char *dir, char *path, size_t n, const char *times)
{
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/trace.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "time_days # replayed failures\n%s", times);
    assert_int_equal(fclose(f), 0);
}

static void drop_trace(char *dir, char *path)
{
    remove(path);
    rmdir(dir);
}

/* |m - mean| <= TOL_SE se, m the sample mean of w[n], se its sample sd / sqrt(n). */
static void mean_agrees(const double *w, int n, double mean, const char *what)
{
    double m = gsl_stats_mean(w, 1, n), se = gsl_stats_sd(w, 1, n) / sqrt(n);
    double z = (m - mean) / se;
    print_message("%s: mean wait %.6g s, se %.4g, expected %.6g s, z = %.2f\n", what, m, se,
                  mean, z);
    if (!(fabs(z) <= TOL_SE))
        fail_msg("%s: mean wait %.6g s, se %.4g, expected %.6g s: z = %.2f, |z| > %g", what,
                 m, se, mean, z, TOL_SE);
}

/* |p^ - p| <= TOL_SE sqrt(p (1 - p) / n), p^ the share of w[n] with at(w). */
static void share_agrees(const double *w, int n, int (*at)(double), double p, const char *what)
{
    long k = 0;
    for (int i = 0; i < n; i++)
        k += at(w[i]);
    double got = (double)k / n, se = sqrt(p * (1 - p) / n), z = (got - p) / se;
    print_message("%s: share %.5f, se %.4g, expected %.5f, z = %.2f\n", what, got, se, p, z);
    if (!(fabs(z) <= TOL_SE))
        fail_msg("%s: share %.5f, se %.4g, expected %.5f: z = %.2f, |z| > %g", what, got, se,
                 p, z, TOL_SE);
}

static void test_defaults_unchanged(void **state)
{
    (void)state;
    enum { M = 2000 };
    static tmc_replica a[M], b[M];
    /* about 10 failures a replica, one spare, 2 h repairs: the pool runs dry */
    const char *cards = "{\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "7.407407407407407, \"spares\": 1, \"repair_mean_hours\": 2%s}";
    static const char *const variants[] = {
        ", \"repair_cv\": 1, \"repair_shape\": 1, \"repair_auto_share\": 0, "
        "\"repair_auto_hours\": 0.5, \"repair_fail_share\": 0",
        ", \"repair_auto_share\": 0",
        ", \"repair_auto_share\": 0, \"repair_auto_hours\": 3",
    };
    char plain[256], given[512], text[1024];
    snprintf(plain, sizeof plain, cards, "");
    job_text(text, sizeof text, 2000, 50, plain);
    replicas(text, 24, a, M);
    double waited = 0;
    for (int i = 0; i < M; i++)
        waited += a[i].spare_wait_s;
    assert_true(waited > 0); /* the pool does run dry: repairs are drawn and waited for */
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        snprintf(given, sizeof given, cards, variants[v]);
        job_text(text, sizeof text, 2000, 50, given);
        replicas(text, 24, b, M);
        for (int i = 0; i < M; i++)
            if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
                fail_msg("repairs-1.1 variant %zu (%s): replica %d differs: wall %.17g s "
                         "against %.17g s, spare wait %.17g against %.17g", v, variants[v], i,
                         b[i].wall_s, a[i].wall_s, b[i].spare_wait_s, a[i].spare_wait_s);
    }
    print_message("repairs-1.1: %d replicas identical to the bit in %zu variants (mean spare "
                  "wait %.4g s)\n", M, sizeof variants / sizeof *variants, waited / M);
}

static void test_no_spare_mean(void **state)
{
    (void)state;
    static double w[N];
    char dir[] = "/tmp/tmc-repairs-XXXXXX", csv[64], failures[512], text[1024];
    write_trace(dir, csv, sizeof csv, "1.0\n");
    const double a = 0.3, A = 0.5 * 3600, M = 4 * 3600, f = 0.2;
    const double mean = (A + (1 - a) * M) / (1 - f);
    static const char *const law[] = {"\"lognormal\", \"repair_cv\": 2",
                                      "\"weibull\", \"repair_shape\": 0.6"};
    static const char *const what[] = {"repairs-1.2 lognormal manual stage",
                                       "repairs-1.2 weibull manual stage"};
    for (int k = 0; k < 2; k++) {
        snprintf(failures, sizeof failures,
                 "{\"distribution\": \"trace\", \"trace\": \"%s\", \"spares\": 0, "
                 "\"repair_mean_hours\": 4, \"repair_distribution\": %s, "
                 "\"repair_auto_share\": 0.3, \"repair_auto_hours\": 0.5, "
                 "\"repair_fail_share\": 0.2}", csv, law[k]);
        job_text(text, sizeof text, 200, 500, failures);
        waits(text, (uint64_t)(31 + k), w, N);
        mean_agrees(w, N, mean, what[k]);
    }
    drop_trace(dir, csv);
}

static double manual_mean_s = 4 * 3600;
static int at_most_mean(double w)
{
    return w <= manual_mean_s;
}

static void test_manual_law(void **state)
{
    (void)state;
    static double w[N];
    char dir[] = "/tmp/tmc-repairs-XXXXXX", csv[64], failures[512], text[1024];
    write_trace(dir, csv, sizeof csv, "1.0\n");
    double c = 2, sigma = sqrt(log1p(c * c)), k = 0.6;
    double p_log = gsl_cdf_ugaussian_P(sigma / 2);
    double p_wei = 1 - exp(-pow(gsl_sf_gamma(1 + 1 / k), k));
    static const char *const law[] = {"\"lognormal\", \"repair_cv\": 2",
                                      "\"weibull\", \"repair_shape\": 0.6"};
    static const char *const what[][2] = {
        {"repairs-1.3 lognormal cv 2: P(W <= M)", "repairs-1.3 lognormal cv 2: mean"},
        {"repairs-1.3 weibull shape 0.6: P(W <= M)", "repairs-1.3 weibull shape 0.6: mean"}};
    const double p[] = {p_log, p_wei};
    for (int j = 0; j < 2; j++) {
        snprintf(failures, sizeof failures,
                 "{\"distribution\": \"trace\", \"trace\": \"%s\", \"spares\": 0, "
                 "\"repair_mean_hours\": 4, \"repair_distribution\": %s}", csv, law[j]);
        job_text(text, sizeof text, 200, 500, failures);
        waits(text, (uint64_t)(41 + j), w, N);
        share_agrees(w, N, at_most_mean, p[j], what[j][0]);
        mean_agrees(w, N, manual_mean_s, what[j][1]);
    }
    drop_trace(dir, csv);
}

static int no_wait(double w)
{
    return w == 0;
}

/* repairs-1.4 (b): E[min(t1 + K1 R, t2 + K2 R)] - t2 for K1, K2 iid geometric
 * on {1, 2, ...} with success 1 - f, summed over K1, K2 <= 60 (the rest
 * weighs f^60 < 1e-18). */
static double two_chains_mean(double gap, double R, double f)
{
    double sum = 0;
    for (int k1 = 1; k1 <= 60; k1++)
        for (int k2 = 1; k2 <= 60; k2++) {
            double p = pow(f, k1 - 1) * (1 - f) * pow(f, k2 - 1) * (1 - f);
            sum += p * fmin(k1 * R - gap, k2 * R);
        }
    return sum;
}

static void test_one_spare(void **state)
{
    (void)state;
    static double w[N];
    const double R = 4 * 3600, f = 0.5;
    char dir[] = "/tmp/tmc-repairs-XXXXXX", csv[64], failures[512], text[1024];
    const char *fmt = "{\"distribution\": \"trace\", \"trace\": \"%s\", \"spares\": 1, "
                      "\"repair_mean_hours\": 4, \"repair_distribution\": \"fixed\", "
                      "\"repair_fail_share\": 0.5}";
    write_trace(dir, csv, sizeof csv, "1.0\n1.5\n");
    snprintf(failures, sizeof failures, fmt, csv);
    job_text(text, sizeof text, 300, 500, failures);
    waits(text, 51, w, N);
    mean_agrees(w, N, f * R / (1 - f * f), "repairs-1.4a P = 1, a bad card in the pool");
    share_agrees(w, N, no_wait, 1 - f, "repairs-1.4a P = 1: P(no wait)");
    drop_trace(dir, csv);

    char dir2[] = "/tmp/tmc-repairs-XXXXXX";
    write_trace(dir2, csv, sizeof csv, "1.0\n1.1\n");
    snprintf(failures, sizeof failures, fmt, csv);
    job_text(text, sizeof text, 300, 500, failures);
    waits(text, 52, w, N);
    mean_agrees(w, N, two_chains_mean(0.1 * 86400, R, f),
                "repairs-1.4b P = 1, waiting on two repair chains");
    drop_trace(dir2, csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_unchanged),
        cmocka_unit_test(test_no_spare_mean),
        cmocka_unit_test(test_manual_law),
        cmocka_unit_test(test_one_spare),
    };
    return cmocka_run_group_tests_name("repairs-1", tests, NULL, NULL);
}
