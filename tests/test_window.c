/* test_window.c - goodput over a calendar window (issue 19 item 6;
 * src/engine/engine.c, checkpoint.c, src/batch/window.c;
 * docs/reference/simulation-semantics.md 11, docs/model.md 3.18):
 * - window-1.1: no failures, no jitter, synchronous saves of c s every K
 *   steps of t s: the committed steps at W are K floor(W / (K t + c)) exactly
 *   (the partial segment, computed but not saved, gives nothing), the split
 *   is the whole segments' plus the rest under way, G exact; a commit at W
 *   itself counts;
 * - window-1.2: Poisson failures, synchronous saves, no jitter, exponential
 *   restores: the mean committed steps at W against a small simulation of
 *   the same renewal process written here (its own gsl_rng and loop), and
 *   against the renewal closed form with Wald's and Lorden's edge bounds;
 * - window-1.3: window absent and window.days = 0 give the same replicas,
 *   bit for bit;
 * - window-1.4: with every process the window accepts, the split's rows and
 *   the time under way add up to W for every replica, and the committed
 *   steps are whole segments;
 * - window-1.5: the same numbers at 1 and 3 threads (runner.h).
 * Invalid inputs: tests/invalid/window-*. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "support.h"
#include "window.h"

#define TOL_SE 4.0

static void expect_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %.3g)", what, got, want, tol);
}

/* 16 cards, steps of t = 64 s (compute mu = 60 s: 960 FLOP at 1 FLOP/s a
 * card; and 4 s of input wait), no jitter, a save of save_s every 10 steps;
 * failures and window given as JSON members (or ""). */
static tmc_experiment plain_case(double save_s, const char *failures, const char *restore,
                                 const char *window)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"name\": \"window\", \"source\": \"test_window.c\","
             " \"job\": {\"steps\": 1000000000, \"cards\": 16, \"flop_per_step\": 960,"
             "         \"peak_flops\": 1, \"efficiency\": 1, \"input_wait_s\": 4},"
             " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0},"
             " %s"
             " \"checkpoint\": {\"interval_steps\": 10, \"save_s\": %.17g, %s},"
             " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
             " %s \"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}",
             failures, save_s, restore, window);
    return test_parse(json);
}

/* window-1.1: W = 1 day = 86,400 s, K = 10 steps of t = 64 s (mu = 60 s
 * compute, 4 s input wait), segments of 640 s + c. Committed segments
 * floor(W / (640 + c)), the rest of the window is under way and gives
 * nothing:
 *   c = 30:  670 s, 128 commit (the last at 85,760 s); the 129th has
 *            computed its 10 steps exactly at W but not saved them: 1,280
 *            steps, 640 s under way;
 *   c = 160: 800 s, 108 end at W exactly: that commit counts (t <= W),
 *            1,080 steps, nothing under way;
 *   c = 500: 1,140 s, 75 commit (85,500 s); at W the 76th is 260 s into its
 *            save: 750 steps, 900 s under way.
 * G = steps x 64 / W (the plan's step time), steps x 60 / W at the compute
 * time alone; the split: compute steps x 60, input steps x 4, saves
 * segments x c, and the time under way. */
static void test_deterministic(void **state)
{
    (void)state;
    const double W = 86400, t = 64, mu = 60, c[3] = {30, 160, 500};
    const long want_segments[3] = {128, 108, 75};
    const double want_open[3] = {640, 0, 900};
    for (int i = 0; i < 3; i++) {
        tmc_experiment x = plain_case(c[i], "", "\"restore_s\": 100",
                                      "\"window\": {\"days\": 1},");
        long segments = (long)floor(W / (10 * t + c[i]));
        double steps = 10.0 * (double)segments;
        double open_s = W - (double)segments * (10 * t + c[i]);
        assert_true(segments == want_segments[i] && open_s == want_open[i]);
        tmc_replica r[3];
        test_replicas(&x, 7, r, 3);
        for (int k = 0; k < 3; k++) {
            assert_true(r[k].censored == 1);
            assert_true(r[k].wall_s == W);
            assert_true(r[k].window_steps == steps);
            assert_true(r[k].window_open_s == open_s);
            assert_true(r[k].compute_s == steps * mu);
            assert_true(r[k].fixed_s == steps * (t - mu));
            assert_true(r[k].lost_s == 0);
            assert_true(r[k].save_s == (double)segments * c[i]);
            assert_true(tmc_accounting_split_sum(&r[k]) + r[k].window_open_s == W);
        }
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        double steps_arr[3] = {r[0].window_steps, r[1].window_steps, r[2].window_steps};
        tmc_replica totals;
        memset(&totals, 0, sizeof totals);
        for (int k = 0; k < 3; k++)
            tmc_accounting_accumulate(&totals, &r[k]);
        tmc_window_summary w;
        assert_int_equal(tmc_window_summarize(&x, &cf, steps_arr, 3, &totals, &w), 0);
        assert_true(cf.step_s == t);
        expect_near(w.goodput_mean, steps * t / W, 1e-15, "G by hand");
        expect_near(w.compute_mean, steps * mu / W, 1e-15, "G at the compute time by hand");
        assert_true(w.goodput_se == 0);
        expect_near(w.p10, w.goodput_mean, 1e-15, "P10 of equal replicas");
        expect_near(w.p90, w.goodput_mean, 1e-15, "P90 of equal replicas");
        assert_true(w.finished == 0);
        printf("window-1.1: c = %g s: %g steps committed at W, G = %.10f (by hand %.10f), "
               "%g s under way\n", c[i], steps, w.goodput_mean, steps * t / W, open_s);
    }
}

/* The renewal process of window-1.2, simulated here without the engine:
 * segments of a = K t + c seconds; Poisson failures of rate lambda strike
 * computing, saving and restoring alike; after one, a restore of an
 * exponential time of mean r, started again by a failure during it. A
 * segment commits at its end if no failure came first; only commits at
 * t <= W count. Returns the committed segments; adds each completed
 * segment's time (start to commit) and its square to *s1, *s2 and their
 * count to *m. */
static long independent_replica(gsl_rng *g, double W, double a, double lambda, double r,
                                double *s1, double *s2, double *m)
{
    double t = 0, seg_start = 0;
    long commits = 0;
    for (;;) {
        double fail = t + gsl_ran_exponential(g, 1 / lambda);
        if (fail >= t + a) { /* the attempt completes */
            t += a;
            if (t > W)
                return commits;
            commits++;
            *s1 += t - seg_start;
            *s2 += (t - seg_start) * (t - seg_start);
            *m += 1;
            seg_start = t;
            continue;
        }
        t = fail; /* struck: restore until one restore completes */
        for (;;) {
            double restore = gsl_ran_exponential(g, r);
            double next = gsl_ran_exponential(g, 1 / lambda);
            if (next < restore) {
                t += next;
                continue;
            }
            t += restore;
            break;
        }
        if (t > W)
            return commits;
    }
}

/* window-1.2: 16 cards of 2 days' MTBF (lambda = 8 a day, M = 10,800 s),
 * segments a = 10 x 64 + 30 = 670 s, exponential restores of mean r =
 * 300 s, W = 2 days. Estimator: the mean committed steps over n replicas of
 * the engine and over m of the independent simulation; SE of each the
 * sample sd / sqrt(n); |z| < 4 on their difference (seed 11 and gsl seed
 * 12345). Closed form (renewal reward, each segment a cycle): the mean
 * segment time mu = (e^(lambda a) - 1)(1 / lambda + r) (Daly 2006 with a
 * restore of mean r: a restore struck by a failure is drawn again, and by
 * memorylessness its completion takes r on average), long-run goodput
 * K t / mu; over a window the committed segments N(W) satisfy
 * W / mu - 1 <= E N(W) <= W / mu + sigma^2 / mu^2 (Wald; Lorden), sigma^2
 * the segment time's variance, taken from the independent simulation. The
 * engine's mean must lie in those bounds widened by 4 SE. */
static void test_poisson_renewal(void **state)
{
    (void)state;
    const double W = 2 * 86400.0, a = 670, K = 10, t = 64, r = 300;
    const double lambda = 16 / (2 * 86400.0);
    tmc_experiment x = plain_case(30,
                                  "\"failures\": {\"distribution\": \"exponential\","
                                  " \"per_card_mtbf_days\": 2},",
                                  "\"restore_s\": 300, \"duration_law\": \"gamma\","
                                  " \"restore_cv\": 1",
                                  "\"window\": {\"days\": 2},");
    const long n = 4000, m = 40000;
    tmc_replica *rep = malloc((size_t)n * sizeof *rep);
    assert_non_null(rep);
    test_replicas(&x, 11, rep, (int)n);
    double sum = 0, sum2 = 0;
    for (long k = 0; k < n; k++) {
        sum += rep[k].window_steps;
        sum2 += rep[k].window_steps * rep[k].window_steps;
        assert_true(fmod(rep[k].window_steps, K) == 0);
    }
    free(rep);
    double mean_e = sum / n, se_e = sqrt((sum2 / n - mean_e * mean_e) / (n - 1));

    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 12345);
    double isum = 0, isum2 = 0, s1 = 0, s2 = 0, segs = 0;
    for (long k = 0; k < m; k++) {
        double steps = K * (double)independent_replica(g, W, a, lambda, r, &s1, &s2, &segs);
        isum += steps;
        isum2 += steps * steps;
    }
    gsl_rng_free(g);
    double mean_i = isum / m, se_i = sqrt((isum2 / m - mean_i * mean_i) / (m - 1));
    double z = (mean_e - mean_i) / sqrt(se_e * se_e + se_i * se_i);
    printf("window-1.2: committed steps at W: engine %.3f +- %.3f, independent %.3f +- %.3f, "
           "z = %.3f\n", mean_e, se_e, mean_i, se_i, z);
    assert_true(fabs(z) < TOL_SE);

    double mu = expm1(lambda * a) * (1 / lambda + r);
    double seg_mean = s1 / segs, seg_var = s2 / segs - seg_mean * seg_mean;
    double lo = K * (W / mu - 1), hi = K * (W / mu + seg_var / (mu * mu));
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double g_long = K * t / mu, g_young = 1 / (1 + cf.overhead_young);
    printf("window-1.2: segment mean %.3f s (closed form %.3f s), var %.1f s^2; long-run G "
           "%.6f (Young %.6f); E steps in [%.3f, %.3f] (Wald, Lorden); engine G %.6f +- "
           "%.6f\n", seg_mean, mu, seg_var, g_long, g_young, lo, hi, mean_e * t / W,
           se_e * t / W);
    expect_near(seg_mean, mu, 4 * sqrt(seg_var / segs), "the segment time against mu");
    assert_true(mean_e >= lo - TOL_SE * se_e && mean_e <= hi + TOL_SE * se_e);
}

/* A busy case for window-1.3 and 1.4: jitter, failures with a spare pool,
 * detection, outages with downtime, loss spikes, slow cards, pauses. */
static tmc_experiment busy_case(const char *steps, const char *window)
{
    char json[2048];
    snprintf(json, sizeof json,
             "{\"name\": \"busy\", \"source\": \"test_window.c\","
             " \"job\": {\"steps\": %s, \"cards\": 16, \"flop_per_step\": 960,"
             "         \"peak_flops\": 1, \"efficiency\": 1, \"input_wait_s\": 0.5},"
             " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0.05},"
             " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 10,"
             "   \"spares\": 1, \"repair_mean_hours\": 6},"
             " \"checkpoint\": {\"interval_s\": 900, \"save_s\": 20, \"restore_s\": 120,"
             "   \"save_cv\": 0.3, \"restore_cv\": 0.3},"
             " \"outages\": {\"mean_interval_days\": 3, \"downtime_s\": 3600},"
             " \"loss_spikes\": {\"mean_interval_days\": 4},"
             " \"slow_cards\": {\"fraction\": 0.05, \"factor\": 1.5, \"detect_after_steps\": 100},"
             " \"pauses\": {\"every_steps\": 50, \"duration_s\": 10},"
             " \"deadline\": {\"days\": 10, \"reserve_days\": 0},"
             " %s \"monte_carlo\": {\"replicas\": 200, \"seed\": 1}}",
             steps, window);
    return test_parse(json);
}

/* window-1.3: no window and window.days = 0 run the same replicas bit for
 * bit (the same engine: window_s 0, the same horizon). */
static void test_off_is_plain(void **state)
{
    (void)state;
    tmc_experiment a = busy_case("3000", "");
    tmc_experiment b = busy_case("3000", "\"window\": {\"days\": 0},");
    assert_true(b.window.enabled && !tmc_window_on(&b) && !tmc_window_on(&a));
    const long n = 200;
    tmc_replica *ra = malloc((size_t)n * sizeof *ra), *rb = malloc((size_t)n * sizeof *rb);
    assert_non_null(ra);
    assert_non_null(rb);
    memset(ra, 0xA5, (size_t)n * sizeof *ra); /* padding too: tmc_engine_run memsets */
    memset(rb, 0x5A, (size_t)n * sizeof *rb);
    test_replicas(&a, 3, ra, (int)n);
    test_replicas(&b, 3, rb, (int)n);
    assert_memory_equal(ra, rb, (size_t)n * sizeof *ra);
    for (long k = 0; k < n; k++)
        assert_true(ra[k].window_steps == 0 && ra[k].window_open_s == 0);
    free(ra);
    free(rb);
}

/* window-1.4: every replica cut at W = 3 days: wall W, the split's rows and
 * the time under way add up to W (to rounding), the committed steps are
 * whole segments of K (no emergency saves here) and at most what the
 * committed saves hold. */
static void test_split_adds_up(void **state)
{
    (void)state;
    tmc_experiment x = busy_case("1000000000", "\"window\": {\"days\": 3},");
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    const long n = 300;
    const double W = 3 * 86400.0;
    tmc_replica *r = malloc((size_t)n * sizeof *r);
    assert_non_null(r);
    test_replicas(&x, 5, r, (int)n);
    double worst = 0;
    for (long k = 0; k < n; k++) {
        assert_true(r[k].censored == 1 && r[k].wall_s == W);
        double sum = tmc_accounting_split_sum(&r[k]) + r[k].window_open_s;
        worst = fmax(worst, fabs(sum - W));
        expect_near(sum, W, 1e-9 * W, "rows + under way");
        assert_true(r[k].window_open_s >= 0);
        assert_true(fmod(r[k].window_steps, (double)cf.interval_steps) == 0);
        assert_true(r[k].window_steps <= r[k].saves * (double)cf.interval_steps);
        assert_true(r[k].window_steps > 0);
    }
    printf("window-1.4: %ld replicas, |rows + under way - W| at most %.3g s\n", n, worst);
    free(r);
}

/* window-1.5: committed steps per replica and the sums at 1 and 3 threads. */
static void test_threads(void **state)
{
    (void)state;
    tmc_experiment x = busy_case("1000000000", "\"window\": {\"days\": 3},");
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &cf), 0);
    const long n = 100;
    double wall[2][100], steps[2][100];
    tmc_replica totals[2];
    tmc_error err = {""};
    for (int i = 0; i < 2; i++) {
        tmc_runner_out out = {wall[i], NULL, NULL, steps[i], NULL};
        if (tmc_runner_run_samples(&e, 0, n, 9, i ? 3 : 1, NULL, NULL, &out, &totals[i], &err))
            fail_msg("%s", err.msg);
    }
    tmc_engine_free(&e);
    assert_memory_equal(steps[0], steps[1], sizeof steps[0]);
    assert_memory_equal(&totals[0], &totals[1], sizeof totals[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_poisson_renewal),
        cmocka_unit_test(test_off_is_plain),
        cmocka_unit_test(test_split_adds_up),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
