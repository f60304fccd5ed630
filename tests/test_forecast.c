/* test_forecast.c - a forecast from a run's progress (issue 18;
 * src/engine/checkpoint.c, src/model/forecast.c; docs/reference/simulation-semantics.md
 * 10, docs/model.md 3.15):
 * - forecast-1.1: progress at step 0 with nothing observed is the plain run,
 *   replica for replica, bit for bit (synchronous and asynchronous saves);
 * - forecast-1.2: a forecast from the state one replica of the engine is in
 *   when its commits reach step 1,200 gives the distribution of the rest of
 *   the plain runs from that moment (two-sample Kolmogorov-Smirnov);
 * - forecast-1.3: from the middle of a segment, the steps done since the
 *   commit are kept unless the segment is struck: the split by hand without
 *   failures, and the mean time left against a renewal closed form with them;
 * - forecast-1.4: the Gamma-Poisson update by hand, and the failures the
 *   engine counts after the forecast's start against the negative binomial;
 * - forecast-1.5, 1.6: replays by hand: a card in repair at the start, an
 *   outage with notice whose emergency save holds the steps done before it;
 * - forecast-1.7: the forecast's Daly line against the simulation;
 * - forecast-1.8: every feature a forecast accepts, in combination;
 * - forecast-1.9: only the final save left (synchronous and asynchronous);
 * - forecast-1.10: the observed pace: the efficiency that gives the observed
 *   step by hand, the closed form at it, job.pace = plan the plan's.
 * Invalid inputs: tests/invalid/progress-*. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "forecast.h"
#include "support.h"

#define TOL_SE 4.0

static void expect_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %.3g)", what, got, want, tol);
}

/* Replicas 0 .. n - 1 of x with `seed`, one by one (mark_step set on the
 * engine); out[n]. */
static void run_replicas(const tmc_experiment *x, long mark_step, uint64_t seed, long n,
                         tmc_replica *out)
{
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, x, &cf), 0);
    e.mark_step = mark_step;
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    for (long k = 0; k < n; k++)
        tmc_engine_run(&e, seed, (uint64_t)k, rng, &out[k]);
    test_rngs_free(rng);
    tmc_engine_free(&e);
}

/* 16 cards, steps of about 60 s with 5 % jitter, failures (a rate known
 * from 20 events, 2 spares), outages (from 6) and loss spikes; the checkpoint
 * section and a progress key (or "") given. */
static tmc_experiment busy_case(const char *checkpoint, const char *progress)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"name\": \"busy\", \"source\": \"test_forecast.c\","
             " \"job\": {\"steps\": 3000, \"cards\": 16, \"flop_per_step\": 960,"
             "         \"peak_flops\": 1, \"efficiency\": 1},"
             " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0.05},"
             " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 30,"
             "   \"mtbf_events\": 20, \"spares\": 2, \"repair_mean_hours\": 24},"
             " \"checkpoint\": %s,"
             " \"outages\": {\"mean_interval_days\": 5, \"downtime_s\": 3600,"
             "   \"mtbf_events\": 6},"
             " \"loss_spikes\": {\"mean_interval_days\": 4},"
             " \"deadline\": {\"days\": 10, \"reserve_days\": 0},"
             " %s \"monte_carlo\": {\"replicas\": 200, \"seed\": 1}}",
             checkpoint, progress);
    return test_parse(json);
}

static void identity(const char *checkpoint)
{
    enum { N = 200 };
    tmc_experiment plain = busy_case(checkpoint, "");
    tmc_experiment zero = busy_case(checkpoint, "\"progress\": {\"elapsed_days\": 0, "
                                                "\"steps_done\": 0, \"committed_step\": 0},");
    static tmc_replica a[N], b[N];
    run_replicas(&plain, 0, 7, N, a);
    run_replicas(&zero, 0, 7, N, b);
    long failures = 0;
    for (long k = 0; k < N; k++) {
        if (memcmp(&a[k], &b[k], sizeof a[k]) != 0)
            fail_msg("replica %ld: wall %.17g against %.17g", k, a[k].wall_s, b[k].wall_s);
        failures += (long)a[k].card_failures;
    }
    assert_true(failures > 100); /* the processes did strike */
}

/* forecast-1.1: progress at 0, nothing observed, is the plain run. */
static void test_forecast_at_zero_is_the_run(void **state)
{
    (void)state;
    identity("{\"interval_s\": 1800, \"save_s\": 30, \"restore_s\": 120}");
    identity("{\"interval_s\": 1800, \"save_s\": 5, \"restore_s\": 120, \"mode\": \"async\","
             " \"write_s\": 60}");
}

/* 16 cards failing every 10 days each, outages every 2 days (1,800 s down),
 * 2,400 steps of about 60 s with 5 % jitter, a save of 30 s every 30 steps. */
static tmc_experiment rest_case(const char *progress)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"name\": \"rest\", \"source\": \"test_forecast.c\","
             " \"job\": {\"steps\": 2400, \"cards\": 16, \"flop_per_step\": 960,"
             "         \"peak_flops\": 1, \"efficiency\": 1},"
             " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0.05},"
             " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 10},"
             " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
             " \"outages\": {\"mean_interval_days\": 2, \"downtime_s\": 1800},"
             " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
             " %s \"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}",
             progress);
    return test_parse(json);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* forecast-1.2: the plain runs' time from the commit of step 1,200 to
 * their end, against forecasts from that state (elapsed: replica 0's
 * moment; memoryless processes, so any moment gives the same law). Two
 * independent samples of n = 4,000 (seeds 1 and 2); reject at alpha =
 * 0.001 (two-sample KS critical value, support.h). */
static void test_forecast_from_engine_state(void **state)
{
    (void)state;
    enum { N = 4000, MARK = 1200 };
    static tmc_replica plain[N], fore[N];
    static double a[N], b[N];
    tmc_experiment x = rest_case("");
    run_replicas(&x, MARK, 1, N, plain);
    for (long k = 0; k < N; k++) {
        assert_true(plain[k].mark_s > 0);
        a[k] = plain[k].wall_s - plain[k].mark_s;
    }
    char progress[256];
    snprintf(progress, sizeof progress,
             "\"progress\": {\"elapsed_days\": %.17g, \"steps_done\": %d, "
             "\"committed_step\": %d},", plain[0].mark_s / TMC_DAY_S, MARK, MARK);
    tmc_experiment y = rest_case(progress);
    run_replicas(&y, 0, 2, N, fore);
    for (long k = 0; k < N; k++)
        b[k] = fore[k].wall_s - plain[0].mark_s;
    qsort(a, N, sizeof a[0], cmp_double);
    qsort(b, N, sizeof b[0], cmp_double);
    double d = ks_statistic(a, b, N);
    print_message("forecast-1.2: KS D %.4f (critical %.4f at 0.001), medians %.1f and %.1f s\n",
                  d, KS_CRITICAL_001(N), a[N / 2], b[N / 2]);
    if (!(d < KS_CRITICAL_001(N)))
        fail_msg("KS D = %.4f >= %.4f: medians %.1f s and %.1f s", d, KS_CRITICAL_001(N),
                 a[N / 2], b[N / 2]);
}

/* 8 cards failing every mtbf_days each, steps of exactly 60 s, a save of
 * 30 s every 30 steps, restore 120 s, 1,200 steps; the state: step 610
 * done, the commit at 600, day 1. */
static tmc_experiment mid_case(double mtbf_days)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"name\": \"mid\", \"source\": \"test_forecast.c\","
             " \"job\": {\"steps\": 1200, \"cards\": 8, \"flop_per_step\": 480,"
             "         \"peak_flops\": 1, \"efficiency\": 1},"
             " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": %.17g},"
             " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
             " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
             " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 610, \"committed_step\": 600},"
             " \"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}",
             mtbf_days);
    return test_parse(json);
}

/* forecast-1.3: without failures the 590 steps left and 20 saves, by hand,
 * in the split; with them, the mean time left against the renewal sum: the
 * first segment's work a = 20 x 60 + 30 s, if struck redone in full
 * (w = 30 x 60 + 30 s) after a restore r = 120 s, a failure in either
 * starting both again: from a failure to the segment's end F = (e^(l (r +
 * w)) - 1) / l (a block of r + w restarted until it runs through); from a
 * commit E0 = E[min(X, w)] + P(X < w) F = (1 - e^(-l w)) / l (1 + l F),
 * which is Daly's e^(l r) (e^(l w) - 1) / l [Daly 2006, eq. 5]; E1 the
 * same with a for the first attempt; total E1 + 19 E0. 20,000 replicas,
 * 4 standard errors. */
static void test_forecast_mid_segment(void **state)
{
    (void)state;
    tmc_experiment quiet = test_parse(
        "{\"name\": \"mid\", \"source\": \"test_forecast.c\","
        " \"job\": {\"steps\": 1200, \"cards\": 8, \"flop_per_step\": 480,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
        " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 610, \"committed_step\": 600},"
        " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}");
    tmc_replica o;
    run_replicas(&quiet, 0, 1, 1, &o);
    expect_near(o.wall_s, TMC_DAY_S + 590 * 60.0 + 20 * 30.0, 1e-6, "wall, no failures");
    expect_near(o.before_s, TMC_DAY_S, 0, "before the forecast");
    expect_near(o.compute_s, 590 * 60.0, 1e-6, "compute: the steps done now only");
    expect_near(o.saves, 20, 0, "saves");
    expect_near(tmc_accounting_split_sum(&o), o.wall_s, 1e-6, "rows add to the wall");

    enum { N = 20000 };
    static tmc_replica r[N];
    tmc_experiment x = mid_case(2); /* 8 cards: l = 4 per day */
    run_replicas(&x, 0, 3, N, r);
    double sum = 0, sum2 = 0, fails = 0;
    for (long k = 0; k < N; k++) {
        double left = r[k].wall_s - TMC_DAY_S;
        sum += left, sum2 += left * left, fails += r[k].card_failures;
        expect_near(tmc_accounting_split_sum(&r[k]), r[k].wall_s, 1e-6 * r[k].wall_s, "rows");
    }
    double l = 4.0 / TMC_DAY_S, a = 20 * 60.0 + 30, w = 30 * 60.0 + 30, rs = 120;
    double f = expm1(l * (rs + w)) / l;
    double e1 = -expm1(-l * a) / l * (1 + l * f), e0 = -expm1(-l * w) / l * (1 + l * f);
    double want = e1 + 19 * e0, mean = sum / N;
    double se = sqrt((sum2 / N - mean * mean) / (N - 1));
    assert_true(fails / N > 1); /* failures did strike */
    print_message("forecast-1.3: mean left %.2f s, renewal sum %.2f s, z %.2f\n", mean, want,
                  (mean - want) / se);
    expect_near(mean, want, TOL_SE * se, "mean time left against the renewal sum");
}

/* forecast-1.4a: n = 20 events for 48 cards of 337 days, 3 failures seen
 * over 9 days: Gamma(23, 20 + 48 x 9 / 337); outages the same way. */
static void test_forecast_posterior_by_hand(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"post\", \"source\": \"test_forecast.c\","
        " \"job\": {\"steps\": 1000, \"cards\": 48, \"flop_per_step\": 480,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 337,"
        "   \"mtbf_events\": 20},"
        " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
        " \"outages\": {\"mean_interval_days\": 20, \"downtime_s\": 600, \"mtbf_events\": 4},"
        " \"progress\": {\"elapsed_days\": 9, \"steps_done\": 500, \"committed_step\": 480,"
        "   \"failures\": 3, \"outages\": 2},"
        " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}");
    tmc_forecast_rate p;
    assert_int_equal(tmc_forecast_failure_rate(&x, &p), 0);
    double rate = 20 + 48.0 * 9 / 337;
    expect_near(p.shape, 23, 0, "shape");
    expect_near(p.rate, rate, 1e-12, "rate");
    expect_near(p.mean, 23 / rate, 1e-12, "posterior mean");
    assert_true(p.lo < p.mean && p.mean < p.hi);
    /* the predictive count over 10 more days: a probability law of mean
     * 23 / rate x 48 x 10 / 337 */
    double total = 0, mean = 0, f_s = 10 * TMC_DAY_S;
    for (unsigned k = 0; k < 400; k++) {
        double q = tmc_forecast_count_pmf(&p, f_s, k);
        total += q, mean += k * q;
    }
    expect_near(total, 1, 1e-9, "pmf sums to 1");
    expect_near(mean, 23 / rate * 48.0 * 10 / 337, 1e-9, "predictive mean");
    /* outages: n = 4, 2 seen over 9 days of a 20-day mean: Gamma(6, 4.45) */
    tmc_forecast_rate o;
    assert_int_equal(tmc_forecast_outage_rate(&x, &o), 0);
    expect_near(o.shape, 6, 0, "outage shape");
    expect_near(o.rate, 4 + 9.0 / 20, 1e-12, "outage rate");
    expect_near(o.mean, 6 / 4.45, 1e-12, "outage posterior mean");
}

/* forecast-1.4b: 10 cards of 10 days (one failure a day), the rate known
 * from n = 5 events, 4 failures seen over 2 days: Gamma(9, 7). Free
 * restores and saves and no spare pool: the job is never down, so the
 * failures counted from day 2 to the horizon, day 12, are a Poisson count
 * over F = 10 days whose rate is the posterior's: negative binomial, mean
 * 9 / 7 x 10, variance mean + mean^2 / 9; the outages alike (free too:
 * a 2-day mean known from 4, 2 seen in the 2 days). The segments are 300 s,
 * so the
 * run's last one passes the horizon by at most 300 s (a bias of 0.0045 in
 * the mean, a twentieth of its standard error). 5,000 replicas; mean,
 * variance (se from the fourth moment) and P(none) within 4 se. */
static void test_forecast_predictive_count(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"count\", \"source\": \"test_forecast.c\","
        " \"job\": {\"steps\": 100000000, \"cards\": 10, \"flop_per_step\": 10,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 10,"
        "   \"mtbf_events\": 5},"
        " \"checkpoint\": {\"interval_steps\": 300, \"save_s\": 0, \"restore_s\": 0},"
        " \"outages\": {\"mean_interval_days\": 2, \"downtime_s\": 0, \"mtbf_events\": 4},"
        " \"deadline\": {\"days\": 5, \"reserve_days\": 0},"
        " \"progress\": {\"elapsed_days\": 2, \"steps_done\": 0, \"committed_step\": 0,"
        "   \"failures\": 4, \"outages\": 2},"
        " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1, \"horizon_days\": 12,"
        "   \"mode\": \"steps\"}}");
    enum { N = 5000 };
    static tmc_replica r[N];
    run_replicas(&x, 0, 5, N, r);
    double s1 = 0, s2 = 0, s3 = 0, s4 = 0, zero = 0, o[5] = {0};
    for (long k = 0; k < N; k++) {
        double c = r[k].card_failures;
        assert_true(r[k].censored == 1);
        s1 += c, s2 += c * c, s3 += c * c * c, s4 += c * c * c * c, zero += c == 0;
        for (int j = 1; j < 5; j++)
            o[j] += pow(r[k].outages, j) / N;
    }
    /* outages (free too): Gamma(4 + 2, 4 + 2 / 2) = Gamma(6, 5) over 10
     * days of a 2-day mean: mean 6, variance 6 + 36 / 6 = 12 */
    double om = o[1], ov = o[2] - om * om;
    double om4 = o[4] - 4 * om * o[3] + 6 * om * om * o[2] - 3 * pow(om, 4);
    print_message("forecast-1.4b: outages mean %.4f (6), variance %.3f (12)\n", om, ov);
    expect_near(om, 6, TOL_SE * sqrt(ov / N), "mean outage count");
    expect_near(ov, 12, TOL_SE * sqrt((om4 - ov * ov) / N), "variance of the outage count");
    double m = s1 / N, var = s2 / N - m * m;
    double m4 = s4 / N - 4 * m * s3 / N + 6 * m * m * s2 / N - 3 * m * m * m * m;
    double want_m = 9.0 / 7 * 10, want_var = want_m + want_m * want_m / 9;
    tmc_forecast_rate p;
    tmc_forecast_failure_rate(&x, &p);
    double p0 = tmc_forecast_count_pmf(&p, 10 * TMC_DAY_S, 0);
    print_message("forecast-1.4b: failures mean %.4f (%.4f), variance %.3f (%.3f), P0 %.4f "
                  "(%.4f)\n", m, want_m, var, want_var, zero / N, p0);
    expect_near(m, want_m, TOL_SE * sqrt(var / N), "mean count");
    expect_near(var, want_var, TOL_SE * sqrt((m4 - var * var) / N), "variance of the count");
    expect_near(zero / N, p0, TOL_SE * sqrt(p0 * (1 - p0) / N), "P(no failure)");
}

/* A one-line trace file of `day` under /tmp; its path in path[n]. */
static void trace_file(const char *name, double day, char *path, size_t n)
{
    snprintf(path, n, "/tmp/tmc-test-forecast-%s.csv", name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "time_days\n%.17g\n", day);
    fclose(f);
}

/* forecast-1.5: a card in repair at the start keeps the pool short. The
 * mid case without jitter from step 600 committed at day 1 (86,400 s), a
 * pool of 1 spare with fixed 24 h repairs, its card in repair from the
 * start (back at 172,800 s), one failure replayed at day 1.2 (103,680 s):
 * 9 segments of 1,830 s end at 102,870; the failure loses 810 s; the pool
 * is empty, so the job waits for the repair that started at the forecast
 * (the failed card's own ends at 190,080): 69,120 s; restore 120 s; then 11
 * segments from step 870: wall 193,050 s. Without the card in repair the
 * spare is there: 123,930 s. */
static void test_forecast_cards_in_repair(void **state)
{
    (void)state;
    char csv[256], json[2048];
    trace_file("repair", 1.2, csv, sizeof csv);
    const long in_repair[2] = {1, 0};
    const double want[2] = {193050, 123930};
    for (int i = 0; i < 2; i++) {
        snprintf(json, sizeof json,
                 "{\"name\": \"repair\", \"source\": \"test_forecast.c\","
                 " \"job\": {\"steps\": 1200, \"cards\": 8, \"flop_per_step\": 480,"
                 "         \"peak_flops\": 1, \"efficiency\": 1},"
                 " \"failures\": {\"distribution\": \"trace\", \"trace\": \"%s\", \"spares\": 1,"
                 "   \"repair_distribution\": \"fixed\", \"repair_mean_hours\": 24},"
                 " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
                 " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
                 " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 600,"
                 "   \"committed_step\": 600, \"cards_in_repair\": %ld},"
                 " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}",
                 csv, in_repair[i]);
        tmc_experiment x = test_parse(json);
        tmc_replica o;
        run_replicas(&x, 0, 1, 1, &o);
        expect_near(o.wall_s, want[i], 1e-6, "wall");
        expect_near(o.spare_wait_s, i == 0 ? 69120 : 0, 1e-6, "spare wait");
        expect_near(o.lost_s, 810, 1e-6, "lost work");
        expect_near(o.card_failures, 1, 0, "failures");
    }
}

/* forecast-1.6: an outage with notice saves the steps done before the
 * forecast too. The mid case without jitter (step 610 done, 600 committed,
 * day 1), an outage replayed at day 1.01 (87,264 s) with 60 s of notice
 * and 1,000 s down: compute stops 30 s (a save) before it, at 87,234, after
 * 13 more steps (780 s; 54 s of the 14th lost); the emergency save commits
 * step 623 as the outage strikes; down 1,000 s, restore 120 s (88,384);
 * 7 steps and a save to step 630 (450 s), then 19 segments of 1,830 s:
 * wall 123,604 s, 21 saves, compute 590 x 60 s. */
static void test_forecast_notice_saves_the_steps_before(void **state)
{
    (void)state;
    char csv[256], json[2048];
    trace_file("notice", 1.01, csv, sizeof csv);
    snprintf(json, sizeof json,
             "{\"name\": \"notice\", \"source\": \"test_forecast.c\","
             " \"job\": {\"steps\": 1200, \"cards\": 8, \"flop_per_step\": 480,"
             "         \"peak_flops\": 1, \"efficiency\": 1},"
             " \"checkpoint\": {\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120},"
             " \"outages\": {\"trace\": \"%s\", \"downtime_s\": 1000, \"notice_s\": 60},"
             " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
             " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 610, \"committed_step\": 600},"
             " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}",
             csv);
    tmc_experiment x = test_parse(json);
    tmc_replica o;
    run_replicas(&x, 0, 1, 1, &o);
    expect_near(o.wall_s, 123604, 1e-6, "wall");
    expect_near(o.lost_s, 54, 1e-6, "lost: the step under way");
    expect_near(o.saves, 21, 0, "saves");
    expect_near(o.compute_s, 590 * 60.0, 1e-6, "compute");
    expect_near(o.downtime_s, 1000, 1e-6, "downtime");
    expect_near(tmc_accounting_split_sum(&o), o.wall_s, 1e-6, "rows add to the wall");
}

/* forecast-1.7: the closed form of a forecast is Daly's for the steps left
 * after the elapsed time. The mid case from a commit (step 600 at day 1),
 * no jitter, exponential failures, one restore: Daly's assumptions, so his
 * T_wall of 600 steps plus a day is the mean wall time; 20,000 replicas, 4
 * standard errors. */
static void test_forecast_closed_form(void **state)
{
    (void)state;
    tmc_experiment x = mid_case(2);
    x.observed.steps_done = 600;
    enum { N = 20000 };
    static tmc_replica r[N];
    run_replicas(&x, 0, 4, N, r);
    double sum = 0, sum2 = 0;
    for (long k = 0; k < N; k++)
        sum += r[k].wall_s, sum2 += r[k].wall_s * r[k].wall_s;
    double mean = sum / N, se = sqrt((sum2 / N - mean * mean) / (N - 1));
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_true(cf.daly_exact);
    double daly = TMC_DAY_S + tmc_closed_form_daly_wall_s(600, 60, 30, 30, 120,
                                                          TMC_DAY_S / 4);
    expect_near(cf.daly_wall_s, daly, 1e-6, "the forecast's Daly line");
    print_message("forecast-1.7: mean wall %.2f s, Daly %.2f s, z %.2f\n", mean, daly,
                  (mean - daly) / se);
    expect_near(mean, daly, TOL_SE * se, "simulated mean wall against Daly");
    expect_near(cf.remaining_free_s, 600 * 60.0, 1e-9, "the work the overhead is over");
}

/* forecast-1.8: a forecast with every feature it accepts, in combination
 * (asynchronous or synchronous saves, pauses, loss spikes, outages with or
 * without notice, a mix of causes with detection delays, per-node and
 * per-job failures, a rate known from few events updated by the run's
 * failures, random save and restore times, a spare pool with cards in
 * repair), each from a state in the middle of a segment: every replica's
 * rows add up to its wall time, it starts at the elapsed time and ends
 * after at least the work left (the steps after the current one at the
 * mean compute time, and a save per segment), and no replica fails. */
static void test_forecast_combinations(void **state)
{
    (void)state;
    static const char *const saves[] = {
        "{\"interval_steps\": 25, \"save_s\": 20, \"restore_s\": 90}",
        "{\"interval_steps\": 25, \"save_s\": 5, \"restore_s\": 90, \"mode\": \"async\","
        " \"write_s\": 40}",
        "{\"interval_steps\": 25, \"save_s\": 20, \"restore_s\": 90,"
        " \"duration_law\": \"lognormal\", \"save_cv\": 0.3, \"restore_cv\": 0.5}"};
    static const char *const outages[] = {
        "{\"mean_interval_days\": 0.5, \"downtime_s\": 600}",
        "{\"mean_interval_days\": 0.5, \"downtime_s\": 600, \"notice_s\": 60}"};
    enum { N = 300 };
    static tmc_replica r[N];
    for (int c = 0; c < 6; c++) {
        char json[4096];
        int async = c % 3 == 1;
        snprintf(json, sizeof json,
                 "{\"name\": \"combo\", \"source\": \"test_forecast.c\","
                 " \"job\": {\"steps\": 2000, \"cards\": 16, \"flop_per_step\": 960,"
                 "         \"peak_flops\": 1, \"efficiency\": 1, \"exposed_comm_s\": 0.5},"
                 " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0.1,"
                 "   \"correlation\": 0.3},"
                 " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 20,"
                 "   \"mtbf_events\": 8, \"spares\": 4, \"repair_mean_hours\": 6,"
                 "   \"per_node_mtbf_days\": 40, \"cards_per_node\": 4,"
                 "   \"per_job_mtbf_days\": 30,"
                 "   \"causes\": [{\"name\": \"gpu\", \"share\": 0.7, \"detection_s\": 120},"
                 "              {\"name\": \"hang\", \"share\": 0.3, \"detection_s\": 600,"
                 "               \"restore_s\": 200}]},"
                 " \"checkpoint\": %s, \"outages\": %s,"
                 " \"loss_spikes\": {\"mean_interval_days\": 1},"
                 " \"pauses\": {\"every_steps\": 40, \"duration_s\": 30, \"cards\": \"all\"},"
                 " \"deadline\": {\"days\": 10, \"reserve_days\": 0},"
                 " \"progress\": {\"elapsed_days\": 0.5, \"steps_done\": 610,"
                 "   \"committed_step\": 600, \"failures\": %d, \"cards_in_repair\": %d},"
                 " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}",
                 saves[c % 3], async ? outages[0] : outages[c % 2], c, c % 5);
        tmc_experiment x = test_parse(json);
        run_replicas(&x, 0, 11 + (uint64_t)c, N, r);
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        long k_left = (2000 - 610 + 24) / 25; /* segments from step 610 */
        double floor_s = 0.5 * TMC_DAY_S + (2000 - 610) * cf.compute_s +
                         (double)k_left * (async ? 5 : 20) * (c % 3 == 2 ? 0 : 1);
        for (long k = 0; k < N; k++) {
            assert_int_equal(r[k].failed, 0);
            expect_near(r[k].before_s, 0.5 * TMC_DAY_S, 0, "before the forecast");
            expect_near(tmc_accounting_split_sum(&r[k]), r[k].wall_s, 1e-6 * r[k].wall_s,
                        "rows add up to the wall");
            if (!(r[k].wall_s >= floor_s))
                fail_msg("case %d replica %ld: wall %.1f s below the work left %.1f s", c, k,
                         r[k].wall_s, floor_s);
        }
    }
}

/* forecast-1.9: every step done, the last ten unsaved: one save (sync: 30
 * s) or one copy and its write (async: 5 + 40 s) commits them, with
 * nothing computed, and the run ends. */
static void test_forecast_final_save_pending(void **state)
{
    (void)state;
    static const char *const saves[] = {
        "{\"interval_steps\": 30, \"save_s\": 30, \"restore_s\": 120}",
        "{\"interval_steps\": 30, \"save_s\": 5, \"restore_s\": 120, \"mode\": \"async\","
        " \"write_s\": 40}"};
    const double want[] = {30, 45};
    for (int i = 0; i < 2; i++) {
        char json[2048];
        snprintf(json, sizeof json,
                 "{\"name\": \"last\", \"source\": \"test_forecast.c\","
                 " \"job\": {\"steps\": 1200, \"cards\": 8, \"flop_per_step\": 480,"
                 "         \"peak_flops\": 1, \"efficiency\": 1},"
                 " \"checkpoint\": %s,"
                 " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
                 " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 1200,"
                 "   \"committed_step\": 1190},"
                 " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}",
                 saves[i]);
        tmc_experiment x = test_parse(json);
        tmc_replica o;
        run_replicas(&x, 0, 1, 1, &o);
        expect_near(o.wall_s, TMC_DAY_S + want[i], 1e-6, "wall: the final save alone");
        expect_near(o.compute_s, 0, 0, "nothing computed");
        expect_near(tmc_accounting_split_sum(&o), o.wall_s, 1e-6, "rows add to the wall");
    }
}

/* forecast-1.10: the observed pace (issue 32 item 4; job.pace). 16 cards,
 * 960 FLOP at 1 FLOP/s and efficiency 1: mu = 60 s, no jitter, a 30 s
 * pause every 100 steps (0.3 s a step): t_plan = 60.3 s. An observed 66.3 s
 * is 66 s of compute, which efficiency 60 / 66 = 10 / 11 gives; by hand,
 * with the pause on all cards (the exact formula) and on one card (the
 * bisection: without jitter max(A, B + p) = mu + p, the same 0.3 s). The
 * closed form at the observed pace is that efficiency's; job.pace = plan
 * keeps the plan's; a step at or below F = 0.3 s is refused. */
static void test_forecast_observed_pace(void **state)
{
    (void)state;
    for (int one = 0; one < 2; one++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"name\": \"pace\", \"source\": \"test_forecast.c\","
                 " \"job\": {\"steps\": 3000, \"cards\": 16, \"flop_per_step\": 960,"
                 "         \"peak_flops\": 1, \"efficiency\": 1},"
                 " \"checkpoint\": {\"interval_s\": 1800, \"save_s\": 30, \"restore_s\": 120},"
                 " \"pauses\": {\"every_steps\": 100, \"duration_s\": 30, \"cards\": \"%s\"},"
                 " \"deadline\": {\"days\": 10, \"reserve_days\": 0},"
                 " \"progress\": {\"elapsed_days\": 1, \"steps_done\": 1000,"
                 "   \"committed_step\": 990, \"step_s\": 66.3},"
                 " \"monte_carlo\": {\"replicas\": 10, \"seed\": 1}}",
                 one ? "one" : "all");
        tmc_experiment x = test_parse(json);
        expect_near(tmc_closed_form_step_floor_s(&x), 0.3, 1e-15, "F");
        expect_near(tmc_closed_form_efficiency_for_step(&x, 66.3), 10.0 / 11, 1e-12,
                    "the efficiency that gives 66.3 s");
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        assert_true(tmc_closed_form_paced(&x));
        expect_near(cf.compute_s, 66, 1e-9, "mu at the observed pace");
        expect_near(cf.step_s, 66.3, 1e-9, "t_s at the observed pace");
        expect_near(cf.plan_step_s, 60.3, 1e-9, "the plan's t_s");
        expect_near(cf.remaining_free_s, 2000 * 66.3, 1e-6, "the work left at the pace");
        /* the step range job.efficiency's row (0, 1] gives: [t at 1, the
         * step_s row's 1e7]; t at e inverts e' */
        expect_near(tmc_closed_form_step_at_efficiency(&x, 10.0 / 11), 66.3, 1e-9, "t at e'");
        expect_near(tmc_closed_form_step_at_efficiency(&x, 1), 60.3, 1e-9, "t at 1");
        assert_true(isinf(tmc_closed_form_step_at_efficiency(&x, 0)));
        double lo, hi;
        tmc_config_pace_step_range(&x, &lo, &hi);
        expect_near(lo, 60.3, 1e-9, "the fastest step efficiency 1 gives");
        expect_near(hi, 1e7, 0, "no step too slow: step_s's own bound");
        /* no efficiency gives F or less (not a huge or negative e') */
        assert_true(isnan(tmc_closed_form_efficiency_for_step(&x, 0.3)));
        assert_true(isnan(tmc_closed_form_efficiency_for_step(&x, 0.2)));
        expect_near(tmc_closed_form_efficiency_for_step(&x, 30.3), 2, 1e-9,
                    "30 s of compute: e' = 2, outside the row (the loader refuses it)");
        /* the keys the pace fixes do nothing at it: mu and t_s stay */
        for (int k = 0; k < 3; k++) {
            static const char *const key[] = {"job.efficiency", "job.peak_flops",
                                              "job.flop_per_step"};
            tmc_experiment y = x; /* a view: the job changed, never released */
            *(k == 0 ? &y.job.efficiency : k == 1 ? &y.job.peak_flops
                                                  : &y.job.flop_per_step) *= k == 0 ? 0.5 : 3;
            assert_true(tmc_closed_form_pace_fixes_key(key[k]));
            tmc_closed_form cy;
            tmc_closed_form_compute(&y, &cy);
            expect_near(cy.compute_s, 66, 1e-9, key[k]);
            expect_near(cy.step_s, 66.3, 1e-9, key[k]);
        }
        assert_false(tmc_closed_form_pace_fixes_key("job.cards"));
        assert_false(tmc_closed_form_pace_fixes_key("job.exposed_comm_s"));
        /* a spread too wide: the interval's lower end clipped at F = 0.3 s,
         * the work left there 2000 x 0.3 s, never negative */
        x.observed.step_sd_s = 1000;
        x.observed.step_count = 100;
        tmc_forecast_pace_spread sp;
        assert_true(tmc_forecast_pace_spread_of(&x, &sp));
        assert_true(sp.lo_clipped);
        expect_near(sp.lo_s, 0.3, 1e-15, "lower end at F");
        expect_near(sp.days_lo, 2000 * (0.3 - 66.3) / TMC_DAY_S, 1e-12, "work at F");
        x.observed.step_sd_s = 1;
        tmc_forecast_pace_spread_of(&x, &sp);
        assert_false(sp.lo_clipped);
        expect_near(sp.lo_s, 66.3 - 1.959963984540054 * 0.1, 1e-12, "two-sided");
        x.observed.step_sd_s = 0;
        x.observed.step_count = 0;
        x.job.pace = TMC_PACE_PLAN;
        tmc_closed_form_compute(&x, &cf);
        expect_near(cf.step_s, 60.3, 1e-9, "pace plan: the plan's t_s");
        expect_near(cf.pace_efficiency, 1, 0, "pace plan: job.efficiency");
    }
}

/* forecast-1.12: daly_exact claims no more than Daly's form holds (issue
 * 33 item 6): from a commit (steps_done = committed_step) with known rates
 * it holds (forecast-1.7 checks the figure); 10 steps past the commit, which
 * a failure in the first segment redoes and the form leaves out
 * (docs/model.md 3.15), or a rate drawn per replica (mtbf_events > 0: Daly's
 * T at the mean rate is below the mean of T, T convex in the rate), and the
 * flag is off. */
static void test_forecast_daly_exact_flag(void **state)
{
    (void)state;
    tmc_closed_form cf;
    tmc_experiment x = mid_case(2); /* steps_done 610, committed_step 600 */
    tmc_closed_form_compute(&x, &cf);
    assert_false(cf.daly_exact);
    x.observed.steps_done = 600;
    tmc_closed_form_compute(&x, &cf);
    assert_true(cf.daly_exact);
    x.failures.mtbf_events = 10;
    tmc_closed_form_compute(&x, &cf);
    assert_false(cf.daly_exact);
    x.observed.enabled = 0; /* a plain run with a drawn rate */
    tmc_closed_form_compute(&x, &cf);
    assert_false(cf.daly_exact);
    x.failures.mtbf_events = 0;
    tmc_closed_form_compute(&x, &cf);
    assert_true(cf.daly_exact);
}

/* forecast-1.13: no rate or no exposure, the predictive count is 0 surely:
 * P(0) = 1 and P(2) = 0, exact or not (GSL's Poisson and negative binomial
 * pdfs are NaN at k = 0, mean 0: issue 33 item 5). */
static void test_forecast_count_pmf_mean_zero(void **state)
{
    (void)state;
    tmc_forecast_rate r = {.exact = 1, .base_rate = 1e-5, .shape = 3, .rate = 2};
    for (int exact = 0; exact < 2; exact++) {
        r.exact = exact;
        assert_true(tmc_forecast_count_pmf(&r, 0, 0) == 1);
        assert_true(tmc_forecast_count_pmf(&r, 0, 2) == 0);
        double p0 = tmc_forecast_count_pmf(&r, 1e5, 0); /* mean 1 */
        double want = exact ? exp(-1) : pow(2.0 / 3, 3); /* (rate / (rate + 1))^shape */
        expect_near(p0, want, 1e-12, "P(0) at mean 1");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forecast_at_zero_is_the_run),
        cmocka_unit_test(test_forecast_from_engine_state),
        cmocka_unit_test(test_forecast_mid_segment),
        cmocka_unit_test(test_forecast_posterior_by_hand),
        cmocka_unit_test(test_forecast_predictive_count),
        cmocka_unit_test(test_forecast_cards_in_repair),
        cmocka_unit_test(test_forecast_notice_saves_the_steps_before),
        cmocka_unit_test(test_forecast_closed_form),
        cmocka_unit_test(test_forecast_combinations),
        cmocka_unit_test(test_forecast_final_save_pending),
        cmocka_unit_test(test_forecast_observed_pace),
        cmocka_unit_test(test_forecast_daly_exact_flag),
        cmocka_unit_test(test_forecast_count_pmf_mean_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
