/* uncertainty-1.x: outage rates and repair means estimated from few events
 * (outages.mtbf_events, failures.repair_events; docs/model.md 3.11), drawn
 * per replica on their own streams (TMC_STREAM_OUTAGE_RATE,
 * TMC_STREAM_REPAIR_MEAN). Statistical checks: fixed seeds, 20,000
 * replicas, tolerance 4 standard errors. The estimators are the sample
 * mean m (se sqrt(v / n)) and the sample variance v (se sqrt((m4 - v^2) /
 * n), m4 the fourth central moment: the delta method for a variance).
 *
 * uncertainty-1.1 outages at 1e-4 /s over the exposure of failures-1.10
 *                 (2,000 steps of 50 s, saves, restores and downtimes
 *                 free, a cut step the only loss: lambda W = 10 / (1 - 25
 *                 lambda) = 10.0251). With the rate known the count is
 *                 Poisson (variance 10.0251); with outages.mtbf_events = 5
 *                 each replica's rate is lambda u, u ~ Gamma(5, 1/5), so
 *                 the count is negative binomial: mean lambda W, variance
 *                 lambda W + (lambda W)^2 / 5 = 30.126.
 * uncertainty-1.2 a replayed failure at day 1.0 with no spare waits for
 *                 its own repair, exponential of mean R = 1 h: the wait W
 *                 has mean R and variance R^2 with the mean known; with
 *                 failures.repair_events = n = 10 the mean is R m, m = n /
 *                 G, G ~ Gamma(n, 1), so E[W] = R n / (n - 1) = 4,000 s and
 *                 E[W^2] = 2 R^2 E[m^2] = 2 R^2 n^2 / ((n - 1)(n - 2)):
 *                 variance 3.6e7 - 1.6e7 = 2.0e7 s^2.
 * uncertainty-1.3 the draws leave every other stream alone: a replica's
 *                 wall time is the same, to the bit, with
 *                 outages.mtbf_events = 3 on outages too rare to strike
 *                 (one in 1e9 days) and with failures.repair_events = 4 on
 *                 a pool of spares too large to run out (100 cards, about
 *                 10 failures a replica), as without them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "support.h"

#define TOL_SE 4.0
enum { N = 20000 };

/* What a replica gives the checks. */
typedef enum { OUTAGES, SPARE_WAIT, WALL } figure;

/* Replicas 0 .. n - 1 of the experiment in `text` (run seed `seed`): the
 * figure of each into out[n]. */
static void per_replica(const char *text, uint64_t seed, figure what, double *out, int n)
{
    tmc_experiment x = test_parse(text);
    tmc_replica *r = malloc((size_t)n * sizeof *r);
    assert_non_null(r);
    test_replicas(&x, seed, r, n);
    for (int i = 0; i < n; i++)
        out[i] = what == OUTAGES ? r[i].outages : what == SPARE_WAIT ? r[i].spare_wait_s
                                                                     : r[i].wall_s;
    free(r);
}

static void moments_agree(const double *c, int n, double mean, double var, const char *what)
{
    double m = gsl_stats_mean(c, 1, n), v = gsl_stats_variance(c, 1, n), m4 = 0;
    for (int i = 0; i < n; i++)
        m4 += pow(c[i] - m, 4) / n;
    double se_m = sqrt(v / n), se_v = sqrt((m4 - v * v) / n);
    print_message("%s: mean %.4g (z = %.2f against %.4g), variance %.4g (z = %.2f against "
                  "%.4g)\n", what, m, (m - mean) / se_m, mean, v, (v - var) / se_v, var);
    if (!(fabs(m - mean) <= TOL_SE * se_m) || !(fabs(v - var) <= TOL_SE * se_v))
        fail_msg("%s: the moments are off", what);
}

/* 2,000 steps of 50 s on 64 cards, K = 1, free saves and restores, no
 * jitter (failures-1.10's job), with the given failures and outages. */
static void job_text(char *buf, size_t n, const char *failures, const char *outages)
{
    snprintf(buf, n,
             "{\"name\": \"uncertain\", \"job\": {\"steps\": 2000, \"cards\": 64, "
             "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": %s, \"outages\": %s, \"checkpoint\": {\"interval_steps\": 1, "
             "\"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 30}}",
             failures, outages);
}

/* 1e-4 outages a second (mean interval 10,000 s). */
#define OUTAGE_DAYS "0.11574074074074074"

static void test_outage_rate(void **state)
{
    (void)state;
    static double c[N];
    char text[768];
    double mu = 10 / (1 - 25e-4);
    job_text(text, sizeof text, "null", "{\"mean_interval_days\": " OUTAGE_DAYS "}");
    per_replica(text, 21, OUTAGES, c, N);
    moments_agree(c, N, mu, mu, "uncertainty-1.1 outage rate known (Poisson)");
    job_text(text, sizeof text, "null",
             "{\"mean_interval_days\": " OUTAGE_DAYS ", \"mtbf_events\": 5}");
    per_replica(text, 21, OUTAGES, c, N);
    moments_agree(c, N, mu, mu + mu * mu / 5,
                  "uncertainty-1.1 outage rate from 5 outages (negative binomial)");
}

/* A trace file with one failure at day 1.0; its path into path[n]. */
static void write_trace(char *dir, char *path, size_t n)
{
    assert_non_null(mkdtemp(dir));
    snprintf(path, n, "%s/trace.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("time_days # one failure, a day in\n1.0\n", f);
    assert_int_equal(fclose(f), 0);
}

static void test_repair_mean(void **state)
{
    (void)state;
    static double w[N];
    char dir[] = "/tmp/tmc-uncertain-XXXXXX", csv[64], failures[256], text[768];
    write_trace(dir, csv, sizeof csv);
    double r = 3600, n = 10;
    snprintf(failures, sizeof failures, "{\"distribution\": \"trace\", \"trace\": \"%s\", "
             "\"spares\": 0, \"repair_mean_hours\": 1}", csv);
    job_text(text, sizeof text, failures, "null");
    per_replica(text, 22, SPARE_WAIT, w, N);
    moments_agree(w, N, r, r * r, "uncertainty-1.2 repair mean known (exponential)");
    snprintf(failures, sizeof failures, "{\"distribution\": \"trace\", \"trace\": \"%s\", "
             "\"spares\": 0, \"repair_mean_hours\": 1, \"repair_events\": %g}", csv, n);
    job_text(text, sizeof text, failures, "null");
    per_replica(text, 22, SPARE_WAIT, w, N);
    double mean = r * n / (n - 1), second = 2 * r * r * n * n / ((n - 1) * (n - 2));
    moments_agree(w, N, mean, second - mean * mean,
                  "uncertainty-1.2 repair mean from 10 repairs (inverse-gamma)");
    remove(csv);
    rmdir(dir);
}

/* Replicas of `a` and `b` give the same figure, replica for replica. */
static void same_replicas(const char *a, const char *b, figure what, const char *label)
{
    enum { M = 2000 };
    static double x[M], y[M];
    per_replica(a, 23, what, x, M);
    per_replica(b, 23, what, y, M);
    for (int i = 0; i < M; i++)
        if (x[i] != y[i])
            fail_msg("%s: replica %d: %g against %g", label, i, x[i], y[i]);
}

static void test_streams_apart(void **state)
{
    (void)state;
    char a[768], b[768], plain[256], drawn[256];
    const char *cards = "{\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "7.407407407407407, \"spares\": 100, \"repair_mean_hours\": 2%s}";
    snprintf(plain, sizeof plain, cards, "");
    snprintf(drawn, sizeof drawn, cards, ", \"repair_events\": 4");
    job_text(a, sizeof a, plain, "{\"mean_interval_days\": 1e9}");
    job_text(b, sizeof b, plain, "{\"mean_interval_days\": 1e9, \"mtbf_events\": 3}");
    same_replicas(a, b, WALL, "uncertainty-1.3 outages.mtbf_events");
    job_text(b, sizeof b, drawn, "{\"mean_interval_days\": 1e9}");
    same_replicas(a, b, WALL, "uncertainty-1.3 failures.repair_events");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outage_rate),
        cmocka_unit_test(test_repair_mean),
        cmocka_unit_test(test_streams_apart),
    };
    return cmocka_run_group_tests_name("uncertainty-1", tests, NULL, NULL);
}
