/* sweep-1.x: `trainmc sweep`'s logic (sweep.h).
 * sweep-1.1 common random numbers: replica k meets the same card-failure
 *           arrivals at two intervals. The arrivals are rebuilt from the
 *           failure stream of (seed, k) alone; each setting's failure count
 *           must equal the number of arrivals before its own wall time.
 * sweep-1.2 the CRN standard error of a difference is honest and much
 *           smaller than the independent one: over 40 seeds the batch
 *           differences z = (d_b - mean) / se_b have variance 1 (chi-square
 *           bounds at alpha = 0.001), the CRN mean agrees with independently
 *           seeded settings within 4 se, and the variance reduction is > 3.
 * sweep-1.3 bisection on a case known in closed form: no failures, no
 *           jitter, T = reserve + (S t_s + segments x save) / 86400 exactly;
 *           the smallest card count meeting the deadline (two deadlines),
 *           and the largest step count, found by scanning closed_form.h.
 * sweep-1.4 bisection on a synthetic step function; refusal of brackets
 *           whose ends both (or neither) meet the target; bracket checks.
 * sweep-1.5 value lists and ranges, including rounding of START:STOP:STEP;
 *           their error messages; --vary and --target text.
 * sweep-1.6 the grid: setting order, lines along an axis, size limits.
 * sweep-1.7 the 48-card interval sweep (no jitter, exponential failures):
 *           the simulated overhead within 4 se of Daly's at every interval, and
 *           each setting's card-hours as 48 x 24 x (T - reserve) by hand.
 * sweep-1.8 settings: labels, an interval in steps swept on an experiment
 *           that gives seconds, and keys that cannot be varied.
 * sweep-1.11 the optimum (lowest mean T, first of a tie; not the lowest
 *           overhead, which a cards sweep gets backwards) and "within 2 se"
 *           (both signs) on hand-made results.
 * sweep-1.12 loading a grid as the command line and the library both do
 *           (sweep_grid.h): settings in the order written out by hand, the
 *           overrides in force, the same grid from the file's text, and the
 *           code of each kind of refusal (a --vary text is bad usage; the
 *           experiment, its replicas and its values are bad input).
 * sweep-1.13 a grid's progress counts on across its settings: 3 settings of
 *           4 replicas report done up to 12 of 12, never backwards, and
 *           pass 4 and 8 (each setting's end) on the way.
 * Estimators are means over replicas; SE = sd / sqrt(n); fixed seeds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "support.h"
#include "sweep.h"
#include "sweep_grid.h"

#define TOL_SE 4.0

static void experiment_path(const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s/experiments/%s.json", TMC_SOURCE_DIR, name);
}

static void base_load(tmc_sweep_base *b, const char *name, const char *const *sets, int n_sets,
                      const char *key)
{
    static char path[1024];
    experiment_path(name, path, sizeof path);
    tmc_error err = {""};
    if (tmc_sweep_load_base(b, path, sets, n_sets, &key, 1, &err))
        fail_msg("%s", err.msg);
    b->x = test_keep(&b->x); /* released when the program ends */
}

static void setting_load(const tmc_sweep_base *b, double value, tmc_sweep_setting *s)
{
    tmc_error err = {""};
    if (tmc_sweep_load_setting(b, &value, s, &err))
        fail_msg("%s", err.msg);
    s->x = test_keep(&s->x); /* released when the program ends */
}

/* Run setting s; days[replicas] in replica order. */
static void run(const tmc_sweep_setting *s, double *days, tmc_sweep_result *r)
{
    tmc_error err = {""};
    double *restarts = malloc((size_t)s->x.monte_carlo.replicas * sizeof *restarts);
    if (!restarts || tmc_sweep_run_setting(s, 2, NULL, NULL, NULL, days, restarts, r, &err))
        fail_msg("%s", err.msg);
    free(restarts);
}

/* ---------- sweep-1.1 ---------- */

/* Arrivals before `wall` of the failure process of replica k: rebuilt from
 * its own stream (engine.c draws exponential gaps with mean 1 / rate from
 * the stream TMC_STREAM_FAILURES, as absolute times). */
static long arrivals_before(gsl_rng *r, uint64_t seed, uint64_t k, double rate, double wall)
{
    tmc_rng_pcg_seed_replica(r, seed, k, TMC_STREAM_FAILURES);
    long count = 0;
    for (double t = gsl_ran_exponential(r, 1 / rate); t < wall;
         t += gsl_ran_exponential(r, 1 / rate))
        count++;
    return count;
}

static void test_same_failures(void **state)
{
    (void)state;
    const char *sets[1] = {"failures.per_card_mtbf_days=30"};
    tmc_sweep_base b;
    base_load(&b, "design-48", sets, 1, "checkpoint.interval_s");
    tmc_sweep_setting s[2];
    setting_load(&b, 900, &s[0]);
    setting_load(&b, 3600, &s[1]);
    tmc_engine e[2];
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int i = 0; i < TMC_STREAM_COUNT; i++)
        rng[i] = gsl_rng_alloc(tmc_rng_pcg32);
    gsl_rng *check = gsl_rng_alloc(tmc_rng_pcg32);
    for (int i = 0; i < 2; i++)
        assert_int_equal(tmc_engine_init(&e[i], &s[i].x, &s[i].cf), 0);
    double rate = s[0].cf.rate_failures;
    long differ = 0;
    for (uint64_t k = 0; k < 200; k++) {
        tmc_replica o[2];
        for (int i = 0; i < 2; i++) {
            tmc_engine_run(&e[i], 11, k, rng, &o[i]);
            long expect = arrivals_before(check, 11, k, rate, o[i].wall_s);
            if ((long)o[i].card_failures != expect)
                fail_msg("replica %llu at %s: %.0f failures, its stream has %ld arrivals "
                         "before %.0f s", (unsigned long long)k, s[i].label,
                         o[i].card_failures, expect, o[i].wall_s);
        }
        differ += o[0].card_failures != o[1].card_failures;
    }
    /* the settings' timelines differ, so the comparison is not trivial */
    assert_true(differ > 50);
    print_message("200 replicas: failure counts match their streams at both intervals; "
                  "%ld differ between the settings\n", differ);
    for (int i = 0; i < 2; i++)
        tmc_engine_free(&e[i]);
    for (int i = 0; i < TMC_STREAM_COUNT; i++)
        gsl_rng_free(rng[i]);
    gsl_rng_free(check);
}

/* ---------- sweep-1.2 ---------- */

enum { BATCHES = 40, BATCH_REPLICAS = 250 };

static void two_settings(tmc_sweep_setting s[2], const char *seed, long replicas)
{
    char reps[64];
    snprintf(reps, sizeof reps, "monte_carlo.replicas=%ld", replicas);
    const char *sets[3] = {"failures.per_card_mtbf_days=30", reps, seed};
    tmc_sweep_base b;
    base_load(&b, "design-48", sets, 3, "checkpoint.interval_s");
    setting_load(&b, 1200, &s[0]);
    setting_load(&b, 1500, &s[1]);
}

/* The difference T(1200 s) - T(1500 s) at seed `seed`; with `other_seed`
 * the second setting runs on independent streams. */
static tmc_sweep_diff difference(int seed, int other_seed, long replicas)
{
    char text[64];
    tmc_sweep_setting s[2], t[2];
    snprintf(text, sizeof text, "monte_carlo.seed=%d", seed);
    two_settings(s, text, replicas);
    snprintf(text, sizeof text, "monte_carlo.seed=%d", other_seed ? other_seed : seed);
    two_settings(t, text, replicas);
    double *a = malloc((size_t)replicas * sizeof *a), *c = malloc((size_t)replicas * sizeof *c);
    tmc_sweep_result r;
    run(&s[0], a, &r);
    run(&t[1], c, &r);
    tmc_sweep_diff d;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_compute_diff(a, c, replicas, &d, &err), 0);
    free(a);
    free(c);
    return d;
}

static void test_crn_standard_error(void **state)
{
    (void)state;
    double mean[BATCHES], se[BATCHES], vrf = 0;
    for (int i = 0; i < BATCHES; i++) {
        tmc_sweep_diff d = difference(100 + i, 0, BATCH_REPLICAS);
        mean[i] = d.mean;
        se[i] = d.se;
        vrf += d.reduction / BATCHES;
    }
    double grand = gsl_stats_mean(mean, 1, BATCHES), z[BATCHES];
    for (int i = 0; i < BATCHES; i++)
        z[i] = (mean[i] - grand) / se[i];
    /* sum z^2 ~ chi-square(BATCHES - 1) (approximately: se is estimated) */
    double chi2 = gsl_stats_tss_m(z, 1, BATCHES, 0) * BATCHES / (BATCHES - 1);
    double lo = gsl_cdf_chisq_Pinv(0.0005, BATCHES - 1);
    double hi = gsl_cdf_chisq_Qinv(0.0005, BATCHES - 1);
    print_message("CRN se: sum z^2 = %.1f, 99.9 %% range [%.1f, %.1f]; mean variance "
                  "reduction %.2f\n", chi2, lo, hi, vrf);
    assert_true(chi2 >= lo && chi2 <= hi);
    assert_true(vrf > 3);

    /* unbiased: the same difference on independent streams */
    tmc_sweep_diff crn = difference(7, 0, 10000), ind = difference(7, 8, 10000);
    double gap = (crn.mean - ind.mean) / hypot(crn.se, ind.se);
    print_message("CRN %.5f +- %.5f days, independent %.5f +- %.5f days (%.2f se); "
                  "se ratio %.2f\n", crn.mean, crn.se, ind.mean, ind.se, gap,
                  ind.se / crn.se);
    assert_true(fabs(gap) <= TOL_SE);
    assert_true(ind.se > 1.7 * crn.se);
}

/* ---------- sweep-1.3 ---------- */

typedef struct {
    const tmc_sweep_base *b;
    tmc_sweep_metric metric;
    int evaluations;
} eval_ctx;

static int evaluate(double value, void *ctx, double *metric, tmc_error *err)
{
    eval_ctx *c = ctx;
    tmc_sweep_setting s;
    if (tmc_sweep_load_setting(c->b, &value, &s, err))
        return -1;
    long n = s.x.monte_carlo.replicas;
    double *days = malloc((size_t)n * sizeof *days), lo, hi;
    double *restarts = malloc((size_t)n * sizeof *restarts);
    tmc_sweep_result r;
    int rc = tmc_sweep_run_setting(&s, 1, NULL, NULL, NULL, days, restarts, &r, err);
    tmc_experiment_release(&s.x);
    free(days);
    free(restarts);
    if (!rc)
        tmc_sweep_estimate_metric(&r, c->metric, metric, &lo, &hi);
    c->evaluations++;
    return rc;
}

/* T in days of the deterministic run at key=value (closed_form.h). */
static double closed_form_days(const tmc_sweep_base *b, double value)
{
    tmc_sweep_setting s;
    setting_load(b, value, &s);
    return s.x.deadline.reserve_days + s.cf.uninterrupted_s / TMC_DAY_S;
}

static void bisect_and_check(const tmc_sweep_base *b, const char *target_text,
                             tmc_sweep_bracket br, double expect, int smallest)
{
    tmc_sweep_target t;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_target(target_text, &t, &err), 0);
    eval_ctx c = {b, t.metric, 0};
    tmc_sweep_bisection out;
    if (tmc_sweep_bisect(&t, &br, 1, evaluate, &c, &out, &err))
        fail_msg("%s", err.msg);
    print_message("%s on %s in [%.0f, %.0f]: found %.0f (closed form %.0f), neighbour %.0f, "
                  "%d evaluations\n", target_text, br.key, br.lo, br.hi, out.found, expect,
                  out.neighbour, out.evaluations);
    assert_true(out.found == expect);
    assert_true(out.neighbour == expect + (smallest ? -1 : 1));
    assert_int_equal(out.smallest, smallest);
    assert_int_equal(out.evaluations, c.evaluations);
    assert_true(out.evaluations <= 2 + (int)ceil(log2(br.hi - br.lo)));
}

/* The smallest card count in [32, 64] meeting the deadline, by P(T <= D)
 * and by mean T <= D, for two deadlines. */
static void test_bisect_cards(void **state)
{
    (void)state;
    const char *deadlines[2] = {"deadline.days=30", "deadline.days=27.5"};
    for (int i = 0; i < 2; i++) {
        const char *sets[3] = {"failures=null", "monte_carlo.replicas=2", deadlines[i]};
        tmc_sweep_base b;
        base_load(&b, "design-48", sets, 3, "job.cards");
        long d = 32;
        while (closed_form_days(&b, (double)d) > b.x.deadline.days)
            d++;
        tmc_sweep_bracket br = {"job.cards", 32, 64, 0};
        char mean_target[64];
        snprintf(mean_target, sizeof mean_target, "completion_days.mean<=%g", b.x.deadline.days);
        bisect_and_check(&b, "deadline.probability>=0.95", br, (double)d, 1);
        bisect_and_check(&b, mean_target, br, (double)d, 1);
    }
}

/* The largest step count meeting a 30-day deadline: S t_s + ceil(S / K) c
 * <= 25 days, with t_s and K (52.758 s, 34) not depending on S. */
static void test_bisect_steps(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null", "monte_carlo.replicas=2"};
    tmc_sweep_base b;
    base_load(&b, "design-48", sets, 2, "job.steps");
    tmc_sweep_setting s;
    setting_load(&b, 31790, &s);
    double budget = (b.x.deadline.days - b.x.deadline.reserve_days) * TMC_DAY_S;
    double t_s = s.cf.step_s, c = b.x.checkpoint.save_s;
    long k = s.cf.interval_steps;
    long steps = (long)(budget / (t_s + c / k)) + k + 1;
    while (steps * t_s + (double)((steps + k - 1) / k) * c > budget)
        steps--;
    assert_true(closed_form_days(&b, (double)steps) <= b.x.deadline.days);
    assert_true(closed_form_days(&b, (double)steps + 1) > b.x.deadline.days);
    tmc_sweep_bracket br = {"job.steps", 10000, 60000, 0};
    bisect_and_check(&b, "deadline.probability>=0.5", br, (double)steps, 0);
}

/* ---------- sweep-1.4 ---------- */

/* A metric that steps from 0 to 1 at `edge` (ctx). */
static int step_metric(double value, void *ctx, double *metric, tmc_error *err)
{
    (void)err;
    *metric = value >= *(double *)ctx ? 1 : 0;
    return 0;
}

static void test_bisect_synthetic(void **state)
{
    (void)state;
    tmc_sweep_target at_least, at_most;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_target("deadline.probability>=0.5", &at_least, &err), 0);
    assert_int_equal(tmc_sweep_parse_target("deadline.probability<=0.5", &at_most, &err), 0);
    double edge = 1234.5;
    tmc_sweep_bisection out;
    tmc_sweep_bracket br = {"checkpoint.interval_s", 100, 3600, 0.01};
    assert_int_equal(tmc_sweep_bisect(&at_least, &br, 0, step_metric, &edge, &out, &err), 0);
    assert_true(out.smallest && out.found >= edge && out.found - edge <= 0.01);
    assert_true(out.neighbour < edge && out.found - out.neighbour <= 0.01);
    assert_int_equal(tmc_sweep_bisect(&at_most, &br, 0, step_metric, &edge, &out, &err), 0);
    assert_true(!out.smallest && out.found < edge && edge - out.found <= 0.01);
    edge = 57; /* integers: adjacent values */
    tmc_sweep_bracket cards = {"job.cards", 1, 1000, 0};
    assert_int_equal(tmc_sweep_bisect(&at_least, &cards, 1, step_metric, &edge, &out, &err), 0);
    assert_true(out.found == 57 && out.neighbour == 56);
    /* both ends meet it, then neither */
    edge = 0;
    assert_int_equal(tmc_sweep_bisect(&at_least, &cards, 1, step_metric, &edge, &out, &err), 1);
    assert_string_equal(err.msg, "--target deadline.probability>=0.5: each end meets it "
                                 "(job.cards=1 gives 1, job.cards=1000 gives 1); undecided: "
                                 "bisection needs exactly one end that meets, and the values "
                                 "inside [1, 1000] were not examined (a metric that rises and "
                                 "falls can cross the target there); give a bracket with one "
                                 "end on each side");
    edge = 5000;
    assert_int_equal(tmc_sweep_bisect(&at_least, &cards, 1, step_metric, &edge, &out, &err), 1);
    assert_string_equal(err.msg, "--target deadline.probability>=0.5: neither end meets it "
                                 "(job.cards=1 gives 0, job.cards=1000 gives 0); undecided: "
                                 "bisection needs exactly one end that meets, and the values "
                                 "inside [1, 1000] were not examined (a metric that rises and "
                                 "falls can cross the target there); give a bracket with one "
                                 "end on each side");
    /* bracket checks */
    tmc_sweep_bracket tol_int = {"job.cards", 32, 64, 2};
    assert_int_equal(tmc_sweep_check_bracket(&tol_int, 1, "job.cards=32:64:2", &err), -1);
    assert_string_equal(err.msg, "--vary job.cards=32:64:2: job.cards is an integer key: "
                                 "bisection runs to adjacent integers; give LO:HI");
    tmc_sweep_bracket no_tol = {"job.efficiency", 0.3, 0.4, 0};
    assert_int_equal(tmc_sweep_check_bracket(&no_tol, 0, "job.efficiency=0.3:0.4", &err), -1);
    assert_string_equal(err.msg, "--vary job.efficiency=0.3:0.4: job.efficiency is not an "
                                 "integer key; give LO:HI:TOL, TOL the width of the bracket "
                                 "to stop at");
    tmc_sweep_bracket tiny = {"job.efficiency", 0.3, 0.4, 1e-30};
    assert_int_equal(tmc_sweep_check_bracket(&tiny, 0, "s", &err), -1);
    /* found by fuzzing (issue 13): TOL 11 against ends near 1e18, where doubles
     * are 128 apart, bisected for ever; now refused, and the bisection stops
     * when no number lies between its ends */
    tmc_sweep_bracket wide = {"job.efficiency", 0.3, 990071992547409930.4, 11};
    assert_int_equal(tmc_sweep_check_bracket(&wide, 0, "w", &err), -1);
    assert_string_equal(err.msg, "--vary w: TOL 11 is below what numbers near "
                                 "9.900719925e+17 can resolve");
    double far = 5e17;
    assert_int_equal(tmc_sweep_bisect(&at_least, &wide, 0, step_metric, &far, &out, &err), 0);
    assert_true(fabs(out.found - 5e17) <= 256);
}

/* ---------- sweep-1.5 ---------- */

static void expect_values(const char *text, const double *want, int n)
{
    double v[TMC_SWEEP_MAX_SETTINGS];
    int got;
    tmc_error err = {""};
    if (tmc_sweep_parse_values(text, v, &got, &err))
        fail_msg("%s: %s", text, err.msg);
    assert_int_equal(got, n);
    for (int i = 0; i < n; i++)
        if (v[i] != want[i]) /* exactly: rounding must give the decimal value */
            fail_msg("%s: value %d is %.17g, expected %.17g", text, i, v[i], want[i]);
}

static void expect_error(const char *text, const char *message)
{
    double v[TMC_SWEEP_MAX_SETTINGS];
    int n;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_values(text, v, &n, &err), -1);
    assert_string_equal(err.msg, message);
}

static void test_values(void **state)
{
    (void)state;
    expect_values("300,600,900", (double[]){300, 600, 900}, 3);
    expect_values("-1.5,2e3", (double[]){-1.5, 2000}, 2);
    expect_values("300:3600:300", (double[]){300, 600, 900, 1200, 1500, 1800, 2100, 2400,
                                             2700, 3000, 3300, 3600}, 12);
    /* 0.1 + 2 x 0.1 = 0.30000000000000004 in binary: rounded to 0.3, and the
     * stop is reached within rounding */
    expect_values("0.1:0.3:0.1", (double[]){0.1, 0.2, 0.3}, 3);
    expect_values("0.3:0.4:0.025", (double[]){0.3, 0.325, 0.35, 0.375, 0.4}, 5);
    expect_values("1:2:0.3", (double[]){1, 1.3, 1.6, 1.9}, 4); /* stop not on the grid */
    expect_values("5:5:1", (double[]){5}, 1);
    expect_values("-1:1:1", (double[]){-1, 0, 1}, 3);
    expect_values("0:0.7:0.1", (double[]){0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}, 8);
    double v[TMC_SWEEP_MAX_SETTINGS];
    int n;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_values("1:1000:1", v, &n, &err), 0); /* the limit */
    assert_true(n == 1000 && v[999] == 1000);

    expect_error("300:3600:0", "step 0 is not positive");
    expect_error("300:3600:-300", "step -300 is not positive");
    expect_error("3600:300:300", "empty range: stop 300 is below start 3600");
    expect_error("1:1001:1", "1001 values; at most 1000");
    expect_error("0:1e9:1e-9", "1e+18 values; at most 1000");
    expect_error("300:3600", "a range is START:STOP:STEP");
    expect_error("1:2:3:4", "a range is START:STOP:STEP");
    expect_error("300,,600", "'' is not a number");
    expect_error("300,x", "'x' is not a number");
    expect_error("1:inf:1", "'inf' is not a finite number");
    expect_error("", "'' is not a number");
}

static void test_flags(void **state)
{
    (void)state;
    tmc_sweep_axis axis;
    tmc_sweep_bracket b;
    tmc_sweep_target t;
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_axis("job.cards=32,48", &axis, &err), 0);
    assert_string_equal(axis.key, "job.cards");
    assert_int_equal(axis.n, 2);
    assert_int_equal(tmc_sweep_parse_axis("checkpoint.interval_s=300:100:50", &axis, &err), -1);
    assert_string_equal(err.msg, "--vary checkpoint.interval_s=300:100:50: empty range: stop "
                                 "100 is below start 300");
    /* a step so small that stop / step overflows to infinity: one value, and
     * no infinity cast to an integer (issue 13; UBSan in CI would catch it) */
    assert_int_equal(tmc_sweep_parse_axis("checkpoint.interval_s=234567891:234567891:1e-300",
                                          &axis, &err), 0);
    assert_true(axis.n == 1 && axis.values[0] == 234567891);
    assert_int_equal(tmc_sweep_parse_axis("checkpoint.interval_s=1:2:1e-300", &axis, &err), -1);
    assert_int_equal(tmc_sweep_parse_axis("=1,2", &axis, &err), -1);
    assert_string_equal(err.msg, "--vary =1,2: expected KEY=V1,V2,... or KEY=START:STOP:STEP, "
                                 "KEY a dotted path such as checkpoint.interval_s");

    assert_int_equal(tmc_sweep_parse_bracket("job.efficiency=0.3:0.4:0.001", &b, &err), 0);
    assert_true(b.lo == 0.3 && b.hi == 0.4 && b.tol == 0.001);
    assert_int_equal(tmc_sweep_parse_bracket("job.cards=32:64", &b, &err), 0);
    assert_true(b.lo == 32 && b.hi == 64 && b.tol == 0);
    assert_int_equal(tmc_sweep_parse_bracket("job.cards=64:32", &b, &err), -1);
    assert_string_equal(err.msg, "--vary job.cards=64:32: LO 64 is not below HI 32");
    assert_int_equal(tmc_sweep_parse_bracket("job.cards=32,64", &b, &err), -1);
    assert_string_equal(err.msg, "--vary job.cards=32,64: with --target, expected KEY=LO:HI "
                                 "(KEY=LO:HI:TOL for a key that is not an integer)");
    assert_int_equal(tmc_sweep_parse_bracket("job.cards=a:64", &b, &err), -1);
    assert_string_equal(err.msg, "--vary job.cards=a:64: with --target, expected KEY=LO:HI "
                                 "(KEY=LO:HI:TOL for a key that is not an integer): 'a' is "
                                 "not a number");
    assert_int_equal(tmc_sweep_parse_bracket("job.efficiency=0.3:0.4:0", &b, &err), -1);
    assert_string_equal(err.msg, "--vary job.efficiency=0.3:0.4:0: TOL 0 is not positive");

    assert_int_equal(tmc_sweep_parse_target("overhead.mean<=0.05", &t, &err), 0);
    assert_true(t.metric == TMC_SWEEP_OVERHEAD && !t.at_least && t.value == 0.05);
    assert_int_equal(tmc_sweep_parse_target("completion_days.mean>=20", &t, &err), 0);
    assert_true(t.metric == TMC_SWEEP_COMPLETION && t.at_least && t.value == 20);
    assert_int_equal(tmc_sweep_parse_target("deadline.probability=0.95", &t, &err), -1);
    assert_string_equal(err.msg, "--target deadline.probability=0.95: expected METRIC>=VALUE "
                                 "or METRIC<=VALUE");
    assert_int_equal(tmc_sweep_parse_target("p>=0.95", &t, &err), -1);
    assert_string_equal(err.msg, "--target p>=0.95: unknown metric 'p'; expected "
                                 "deadline.probability, completion_days.mean, overhead.mean "
                                 "or goodput.mean");
    assert_int_equal(tmc_sweep_parse_target("goodput.mean>=0.9", &t, &err), 0);
    assert_true(t.metric == TMC_SWEEP_GOODPUT && t.at_least && t.value == 0.9);
    assert_int_equal(tmc_sweep_parse_target("goodput.mean>=0", &t, &err), -1);
    assert_string_equal(err.msg, "--target goodput.mean>=0: 0 is not a goodput in (0, 1]");
    assert_int_equal(tmc_sweep_parse_target("deadline.probability>=1.5", &t, &err), -1);
    assert_string_equal(err.msg, "--target deadline.probability>=1.5: 1.5 is not a "
                                 "probability in [0, 1]");
    assert_int_equal(tmc_sweep_parse_target("overhead.mean<=x", &t, &err), -1);
    assert_string_equal(err.msg, "--target overhead.mean<=x: 'x' is not a number");
}

/* ---------- sweep-1.6 ---------- */

static void test_grid(void **state)
{
    (void)state;
    tmc_sweep_axis axes[2];
    tmc_error err = {""};
    assert_int_equal(tmc_sweep_parse_axis("checkpoint.interval_s=300,900,1800", &axes[0], &err), 0);
    assert_int_equal(tmc_sweep_parse_axis("job.cards=32,48", &axes[1], &err), 0);
    assert_int_equal(tmc_sweep_count_settings(axes, 2), 6);
    double v[2];
    tmc_sweep_get_values(axes, 2, 3, v); /* the last axis varies fastest */
    assert_true(v[0] == 900 && v[1] == 48);
    int idx[3];
    assert_int_equal(tmc_sweep_count_lines(axes, 2, 0), 2);
    tmc_sweep_get_line(axes, 2, 0, 1, idx); /* intervals at 48 cards */
    assert_true(idx[0] == 1 && idx[1] == 3 && idx[2] == 5);
    tmc_sweep_get_line(axes, 2, 1, 2, idx); /* cards at 1,800 s */
    assert_true(idx[0] == 4 && idx[1] == 5);
    assert_int_equal(tmc_sweep_count_lines(axes, 1, 0), 1);
    tmc_sweep_get_line(axes, 1, 0, 0, idx);
    assert_true(idx[0] == 0 && idx[2] == 2);

    assert_int_equal(tmc_sweep_check_grid(axes, 2, 10000, &err), 0);
    assert_int_equal(tmc_sweep_check_grid(axes, 2, 50000000, &err), -1);
    assert_string_equal(err.msg, "6 settings x 50000000 replicas = 3e+08 completion times "
                                 "(2.4 GB) to keep for the differences; at most 268435456 "
                                 "(2 GiB): use fewer settings or replicas");
    assert_int_equal(tmc_sweep_parse_axis("job.cards=1:40:1", &axes[0], &err), 0);
    assert_int_equal(tmc_sweep_parse_axis("job.steps=1:26:1", &axes[1], &err), 0);
    assert_int_equal(tmc_sweep_check_grid(axes, 2, 2, &err), -1);
    assert_string_equal(err.msg, "--vary: 40 x 26 = 1040 settings; at most 1000");
}

/* ---------- sweep-1.7 ---------- */

static void test_daly_intervals(void **state)
{
    (void)state;
    const double intervals[] = {300, 600, 900, 1200, 1800, 3600};
    const char *sets[1] = {"monte_carlo.replicas=10000"};
    tmc_sweep_base b;
    base_load(&b, "design-48", sets, 1, "checkpoint.interval_s");
    double *days = malloc(10000 * sizeof *days);
    for (int i = 0; i < 6; i++) {
        tmc_sweep_setting s;
        tmc_sweep_result r;
        setting_load(&b, intervals[i], &s);
        assert_true(s.cf.daly_exact);
        run(&s, days, &r);
        double z = (r.overhead - s.cf.overhead_daly) / r.overhead_se;
        print_message("%s: simulated %.4f %% +- %.4f %%, Daly %.4f %% (%.2f se), Young %.4f %%\n",
                      s.label, 100 * r.overhead, 100 * r.overhead_se, 100 * s.cf.overhead_daly,
                      z, 100 * s.cf.overhead_young);
        if (!(fabs(z) <= TOL_SE))
            fail_msg("%s: %.2f standard errors from Daly", s.label, z);
        /* the setting's card-hours by hand: 48 cards held (no spare pool, no
         * reserve billed) for T - reserve days of 24 h each (cost.h) */
        double hours = 48 * 24 * (r.days.mean - s.x.deadline.reserve_days);
        if (!(fabs(r.cost.mean - hours) <= 1e-9 * hours))
            fail_msg("%s: %.6f card-hours, by hand %.6f", s.label, r.cost.mean, hours);
    }
    free(days);
}

/* ---------- sweep-1.8 ---------- */

static void test_settings(void **state)
{
    (void)state;
    tmc_sweep_base b;
    base_load(&b, "design-48", NULL, 0, "checkpoint.interval_steps");
    tmc_sweep_setting s;
    setting_load(&b, 17, &s); /* the file gives interval_s: replaced */
    assert_int_equal(s.cf.interval_steps, 17);
    assert_string_equal(s.label, "checkpoint.interval_steps=17");
    assert_int_equal(b.integer[0], 1);
    base_load(&b, "design-48", NULL, 0, "job.efficiency");
    setting_load(&b, 0.1 + 0.2, &s); /* 0.30000000000000004: printed so it reads back */
    assert_string_equal(s.label, "job.efficiency=0.30000000000000004");
    setting_load(&b, 0.3, &s);
    assert_string_equal(s.label, "job.efficiency=0.3");
    assert_int_equal(b.integer[0], 0);
    tmc_error err = {""};
    double bad = 1.5;
    assert_int_equal(tmc_sweep_load_setting(&b, &bad, &s, &err), -1);
    assert_non_null(strstr(err.msg, "job.efficiency: 1.5 is out of range; expected a number in "
                                    "(0, 1] (with the override job.efficiency=1.5)"));

    char path[1024];
    experiment_path("design-48", path, sizeof path);
    const char *keys[2][2] = {{"monte_carlo.seed", ""}, {"jitter.distribution", ""}};
    const char *msgs[] = {"--vary monte_carlo.seed: every setting runs the same replicas and "
                          "seed (common random numbers); use --replicas and --seed",
                          "--vary jitter.distribution: not a numeric key (it holds a string "
                          "or a choice)"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(tmc_sweep_load_base(&b, path, NULL, 0, keys[i], 1, &err), -1);
        assert_string_equal(err.msg, msgs[i]);
    }
    const char *unknown[1] = {"job.card"}, *twice[2] = {"job.cards", "job.cards"};
    assert_int_equal(tmc_sweep_load_base(&b, path, NULL, 0, unknown, 1, &err), -1);
    assert_string_equal(err.msg, "--vary job.card: not a key of an experiment; expected "
                                 "SECTION.KEY with a numeric value, e.g. job.cards or "
                                 "checkpoint.interval_s");
    assert_int_equal(tmc_sweep_load_base(&b, path, NULL, 0, twice, 2, &err), -1);
    assert_string_equal(err.msg, "--vary job.cards: the key is varied twice");
}

/* sweep-1.11 (mutation testing found both unchecked) */
static void test_best_and_within(void **state)
{
    (void)state;
    static tmc_sweep_result r[4];
    const double days[4] = {5.0, 4.2, 6.0, 4.2};
    const double overheads[4] = {0.01, 0.02, 0.00, 0.03}; /* lowest at the slowest */
    for (int i = 0; i < 4; i++)
        r[i].days.mean = days[i], r[i].overhead = overheads[i];
    const int idx[4] = {0, 1, 2, 3}, some[2] = {2, 0};
    assert_int_equal(tmc_sweep_find_best(r, idx, 4), 1); /* lowest; the tie keeps the first */
    assert_int_equal(tmc_sweep_find_best(r, some, 2), 0);
    tmc_sweep_diff near = {.mean = 0.019, .se = 0.01}, far_up = {.mean = 0.021, .se = 0.01};
    tmc_sweep_diff far_down = {.mean = -0.021, .se = 0.01}, zero = {.mean = 0, .se = 0};
    assert_true(tmc_sweep_is_within(&near));
    assert_false(tmc_sweep_is_within(&far_up));
    assert_false(tmc_sweep_is_within(&far_down)); /* below by more than 2 se: not within */
    assert_true(tmc_sweep_is_within(&zero));
}

/* ---------- sweep-1.12 ---------- */

/* The whole of a file, NUL-terminated (a static buffer). */
static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    assert_true(n < sizeof text - 1);
    text[n] = '\0';
    return text;
}

/* tmc_sweep_grid_load of vary[n_vary] on design-48 with sets[n_sets]: its
 * code, and err's message in msg. */
static int grid_load(tmc_sweep_grid *g, tmc_sweep_base *b, const char *const *sets, int n_sets,
                     const char *const *vary, int n_vary, char *msg, size_t n)
{
    static char path[1024];
    experiment_path("design-48", path, sizeof path);
    tmc_sweep_grid_request rq = {.path = path, .sets = sets, .n_sets = n_sets, .vary = vary,
                                 .n_vary = n_vary};
    tmc_error err = {""};
    int rc = tmc_sweep_grid_load(g, b, &rq, &err);
    snprintf(msg, n, "%s", err.msg);
    tmc_sweep_grid_free(g);
    tmc_experiment_release(&b->x); /* the base the load filled, if any */
    return rc;
}

static void test_grid_load(void **state)
{
    (void)state;
    static tmc_sweep_base b;
    tmc_sweep_grid g;
    tmc_error err = {""};
    const char *sets[] = {"monte_carlo.replicas=4"}, *one[] = {"monte_carlo.replicas=1"};
    const char *vary[] = {"checkpoint.interval_s=300:900:300", "job.cards=32,48"};
    char path[1024], dir[1024], msg[512];
    experiment_path("design-48", path, sizeof path);
    tmc_sweep_grid_request rq = {.path = path, .sets = sets, .n_sets = 1, .vary = vary,
                                 .n_vary = 2};
    assert_int_equal(tmc_sweep_grid_load(&g, &b, &rq, &err), 0);
    /* 3 intervals x 2 card counts, the last axis fastest */
    const double want[6][2] = {{300, 32}, {300, 48}, {600, 32}, {600, 48}, {900, 32}, {900, 48}};
    assert_int_equal(g.n, 6);
    assert_int_equal(g.n_axes, 2);
    for (int i = 0; i < 6; i++) {
        assert_true(g.settings[i].value[0] == want[i][0] && g.settings[i].value[1] == want[i][1]);
        assert_true(g.settings[i].x.checkpoint.interval_s == want[i][0]);
        assert_int_equal(g.settings[i].x.job.cards, (long)want[i][1]);
        assert_int_equal(g.settings[i].x.monte_carlo.replicas, 4);
    }
    assert_string_equal(g.settings[3].label, "checkpoint.interval_s=600, job.cards=48");
    assert_int_equal(b.x.monte_carlo.replicas, 4);
    tmc_sweep_grid_free(&g);
    tmc_experiment_release(&b.x);

    /* the same grid from the file's text, named by its label */
    snprintf(dir, sizeof dir, "%s/experiments", TMC_SOURCE_DIR);
    rq.text = read_whole(path);
    rq.path = "design-48 as text";
    rq.base_dir = dir;
    assert_int_equal(tmc_sweep_grid_load(&g, &b, &rq, &err), 0);
    assert_int_equal(g.n, 6);
    assert_true(g.settings[5].x.checkpoint.interval_s == 900 && g.settings[5].x.job.cards == 48);
    assert_string_equal(b.x.path, "design-48 as text");
    tmc_sweep_grid_free(&g);
    tmc_experiment_release(&b.x);

    const char *no_values[] = {"checkpoint.interval_s"}, *unknown[] = {"job.card=1,2"};
    const char *too_big[] = {"job.efficiency=0.5,1.5"};
    assert_int_equal(grid_load(&g, &b, sets, 1, no_values, 1, msg, sizeof msg),
                     TMC_SWEEP_GRID_USAGE);
    assert_true(!strncmp(msg, "--vary checkpoint.interval_s: ", 30));
    assert_int_equal(grid_load(&g, &b, sets, 1, unknown, 1, msg, sizeof msg),
                     TMC_SWEEP_GRID_INPUT);
    assert_true(!strncmp(msg, "--vary job.card: not a key of an experiment", 43));
    assert_int_equal(grid_load(&g, &b, one, 1, vary, 1, msg, sizeof msg), TMC_SWEEP_GRID_INPUT);
    assert_non_null(strstr(msg, ": monte_carlo.replicas: 1; a sweep needs at least 2"));
    assert_int_equal(grid_load(&g, &b, sets, 1, too_big, 1, msg, sizeof msg),
                     TMC_SWEEP_GRID_INPUT);
    assert_non_null(strstr(msg, "job.efficiency: 1.5 is out of range"));
}

/* ---------- sweep-1.13 ---------- */

typedef struct {
    long last_done, last_total, backwards;
    int passed[13]; /* done values seen */
} progress_seen;

static void on_progress(long done, long total, void *ctx)
{
    progress_seen *p = ctx;
    p->backwards += done < p->last_done;
    p->last_done = done;
    p->last_total = total;
    if (done >= 0 && done <= 12)
        p->passed[done] = 1;
}

static void test_grid_progress(void **state)
{
    (void)state;
    static tmc_sweep_base b;
    tmc_sweep_grid g;
    tmc_error err = {""};
    const char *sets[] = {"monte_carlo.replicas=4"};
    const char *vary[] = {"checkpoint.interval_s=300:900:300"};
    char path[1024];
    experiment_path("design-48", path, sizeof path);
    tmc_sweep_grid_request rq = {.path = path, .sets = sets, .n_sets = 1, .vary = vary,
                                 .n_vary = 1};
    progress_seen seen = {0};
    tmc_sweep_grid_options o = {.threads = 1, .progress = on_progress, .progress_ctx = &seen};
    if (tmc_sweep_grid_load(&g, &b, &rq, &err) || tmc_sweep_grid_run(&g, &o, &err))
        fail_msg("%s", err.msg);
    tmc_sweep_grid_free(&g);
    tmc_experiment_release(&b.x);
    assert_int_equal(seen.last_done, 12);
    assert_int_equal(seen.last_total, 12);
    assert_int_equal(seen.backwards, 0);
    assert_true(seen.passed[4] && seen.passed[8]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_failures),
        cmocka_unit_test(test_crn_standard_error),
        cmocka_unit_test(test_bisect_cards),
        cmocka_unit_test(test_bisect_steps),
        cmocka_unit_test(test_bisect_synthetic),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_daly_intervals),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_best_and_within),
        cmocka_unit_test(test_grid_load),
        cmocka_unit_test(test_grid_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
