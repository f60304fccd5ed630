/* test_causes.c - causes-1.x: what a cause of failures takes (issue 19,
 * item 3): takes_spare, the law of its detection delay and its scope
 * (docs/reference/simulation-semantics.md 5, docs/model.md 3.16).
 *
 * Every experiment here is 2,000 steps of 50 s on 64 cards with free saves
 * and restores after every step, so that a failure costs exactly its
 * detection delay and its spare wait (and the part of a step it cuts), and
 * the per-card MTBF of 7.4074 days makes a job rate of 1e-4 / s: about ten
 * failures a replica. Statistical tests state their estimator, its standard
 * error and |z| < 4 at a fixed seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "failures.h"
#include "rng_pcg.h"
#include "support.h"

/* The experiment above with `failures` as the failures section's keys. */
static tmc_experiment small(const char *failures)
{
    static char text[4096];
    snprintf(text, sizeof text,
             "{\"name\": \"causes\", \"job\": {\"steps\": 2000, \"cards\": 64, "
             "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
             "7.407407407407407, %s}, \"checkpoint\": {\"interval_steps\": 1, "
             "\"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 30}}", failures);
    return test_parse(text);
}

/* Replicas 0 .. n - 1 of x one by one (seed `seed`), each into out[i]. */
static void replicas(const tmc_experiment *x, uint64_t seed, tmc_replica *out, int n)
{
    test_replicas(x, seed, out, n);
}

#define N_SAME 200
static tmc_replica ra[N_SAME], rb[N_SAME];

/* causes-1.1: the new keys written at their defaults change no bit: 200
 * replicas of design-48 with a spare pool, exponential repairs and two
 * causes, once without the keys and once with takes_spare true,
 * detection_distribution "fixed", detection_cv 1 and scope "card" written
 * out (memcmp of every replica's record). */
static void test_defaults_identical(void **state)
{
    (void)state;
    const char *absent[4] = {
        "failures.per_card_mtbf_days=20", "failures.spares=1",
        "failures.repair_mean_hours=30",
        "failures.causes=[{\"name\": \"gpu\", \"share\": 0.7, \"detection_s\": 180}, "
        "{\"name\": \"hang\", \"share\": 0.3, \"detection_s\": 1200, \"restore_s\": 300}]"};
    const char *given[4] = {
        "failures.per_card_mtbf_days=20", "failures.spares=1",
        "failures.repair_mean_hours=30",
        "failures.causes=[{\"name\": \"gpu\", \"share\": 0.7, \"detection_s\": 180, "
        "\"takes_spare\": true, \"detection_distribution\": \"fixed\", \"detection_cv\": 1, "
        "\"scope\": \"card\"}, {\"name\": \"hang\", \"share\": 0.3, \"detection_s\": 1200, "
        "\"restore_s\": 300, \"takes_spare\": true, \"detection_distribution\": \"fixed\", "
        "\"detection_cv\": 1, \"scope\": \"card\"}]"};
    tmc_experiment xa = test_load("design-48", absent, 4);
    tmc_experiment xb = test_load("design-48", given, 4);
    replicas(&xa, 7, ra, N_SAME);
    replicas(&xb, 7, rb, N_SAME);
    double failures = 0, waited = 0;
    for (int i = 0; i < N_SAME; i++) {
        if (memcmp(&ra[i], &rb[i], sizeof ra[i]) != 0)
            fail_msg("replica %d: %.9f s without the new keys, %.9f s with them at their "
                     "defaults", i, ra[i].wall_s, rb[i].wall_s);
        failures += ra[i].card_failures;
        waited += ra[i].spare_wait_s;
    }
    /* the case is not empty: failures happened and some waited for a spare */
    if (!(failures > 200 && waited > 0))
        fail_msg("%.0f failures, %.0f s of spare wait: the case tests nothing", failures,
                 waited);
}

#define N_REP 2000
static tmc_replica rs[N_REP];

/* causes-1.2: no spares (P = 0), repairs of mean R = 1 h, about ten
 * failures a replica; cause "hang" (share h = 0.3) takes no spare, "gpu"
 * (0.7) does. With P = 0 a failure that takes a spare waits for its own
 * card's repair (no other is in progress: every earlier one was taken), so
 * its wait is the repair time X and a hang's is 0.
 *   (a) exponential repairs: the mean wait per failure is (1 - h) R =
 *       2,520 s. Estimator: the summed spare wait over the summed failure
 *       count F of 2,000 replicas (seed 21). Per failure W = B X, B ~
 *       Bernoulli(1 - h): Var W = 2 (1 - h) R^2 - ((1 - h) R)^2, so SE =
 *       sqrt(Var W / F) (the count depends on the up time only: failures
 *       while down are discarded and the process forgets).
 *   (b) fixed repairs of exactly R: each spare wait is R, so the count of
 *       spare waits K = (summed wait) / R exactly; K ~ Binomial(F, 1 - h),
 *       SE = sqrt(F h (1 - h)) (seed 22).
 * And the closed forms' delay per failure is (1 - h) R exactly, and with
 * a detection delay D = 1,800 s on "gpu" (1 - h) (D + R e^(-D/R)) for
 * exponential repairs, (1 - h) (D + (R - D)) for fixed ones: the repair
 * runs while the failure goes undetected. */
static void test_hang_takes_no_spare(void **state)
{
    (void)state;
    const double h = 0.3, repair = 3600;
    const char *causes = "\"spares\": 0, \"repair_mean_hours\": 1, \"causes\": ["
                         "{\"name\": \"hang\", \"share\": 0.3, \"takes_spare\": false}, "
                         "{\"name\": \"gpu\", \"share\": 0.7}]";
    tmc_experiment x = small(causes);
    /* the closed forms' delay per failure (docs/model.md 3.16): (1 - h) R */
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    if (!(fabs(cf.delay_mean_s - (1 - h) * repair) < 1e-9))
        fail_msg("closed-form delay per failure %.6f s, by hand (1 - h) R = %.1f s",
                 cf.delay_mean_s, (1 - h) * repair);
    /* with a detection delay D on "gpu" its repair has run D when the job
     * needs the card: the rest of an exponential repair is R e^(-D/R)
     * (memoryless), of a fixed one (R - D)+; the hang's D is 0 */
    const char *detected[2] = {
        "\"spares\": 0, \"repair_mean_hours\": 1, \"causes\": ["
        "{\"name\": \"hang\", \"share\": 0.3, \"takes_spare\": false}, "
        "{\"name\": \"gpu\", \"share\": 0.7, \"detection_s\": 1800}]",
        "\"spares\": 0, \"repair_mean_hours\": 1, \"repair_distribution\": \"fixed\", "
        "\"causes\": [{\"name\": \"hang\", \"share\": 0.3, \"takes_spare\": false}, "
        "{\"name\": \"gpu\", \"share\": 0.7, \"detection_s\": 1800}]"};
    const double left[2] = {repair * exp(-0.5), repair - 1800};
    for (int k = 0; k < 2; k++) {
        tmc_experiment y = small(detected[k]);
        tmc_closed_form_compute(&y, &cf);
        double hand = (1 - h) * (1800 + left[k]);
        if (!(fabs(cf.delay_mean_s - hand) < 1e-9))
            fail_msg("closed-form delay with detection (%s repairs) %.6f s, by hand %.6f s",
                     k ? "fixed" : "exponential", cf.delay_mean_s, hand);
    }
    replicas(&x, 21, rs, N_REP);
    double f = 0, w = 0;
    for (int i = 0; i < N_REP; i++)
        f += rs[i].card_failures, w += rs[i].spare_wait_s;
    double want = (1 - h) * repair, est = w / f;
    double se = sqrt((2 * (1 - h) * repair * repair - want * want) / f), z = (est - want) / se;
    print_message("causes-1.2a: mean spare wait per failure %.2f s over %.0f failures, by "
                  "hand (1 - h) R = %.2f s, SE %.2f s, z = %.2f\n", est, f, want, se, z);
    if (!(fabs(z) < 4))
        fail_msg("mean spare wait per failure %.2f s, (1 - h) R = %.2f s, SE %.2f s: z = "
                 "%.2f (seed 21, tolerance 4 SE)", est, want, se, z);

    char fixed[512];
    snprintf(fixed, sizeof fixed, "%s, \"repair_distribution\": \"fixed\"", causes);
    x = small(fixed);
    replicas(&x, 22, rs, N_REP);
    f = w = 0;
    for (int i = 0; i < N_REP; i++)
        f += rs[i].card_failures, w += rs[i].spare_wait_s;
    double k = w / repair, kr = round(k);
    if (!(fabs(k - kr) < 1e-6 * fmax(1, kr)))
        fail_msg("summed spare wait %.6f s is not a whole number of %.0f s repairs", w, repair);
    double kwant = (1 - h) * f, kse = sqrt(f * h * (1 - h)), kz = (kr - kwant) / kse;
    print_message("causes-1.2b: %.0f spare waits of %.0f failures, by hand (1 - h) F = %.1f, "
                  "SE %.1f, z = %.2f\n", kr, f, kwant, kse, kz);
    if (!(fabs(kz) < 4))
        fail_msg("%.0f spare waits of %.0f failures, (1 - h) F = %.1f, SE %.1f: z = %.2f "
                 "(seed 22, tolerance 4 SE)", kr, f, kwant, kse, kz);
}

/* causes-1.3: random detection delays of mean D = 600 s, one cause.
 * Replica i's summed delay S_i over its F_i failures. Two estimators:
 *   mean   M = sum S_i / sum F_i, against D; SE = sd / sqrt(sum F_i) with
 *          the law's sd (exponential: D; lognormal: cv D);
 *   spread V = sum (S_i - D F_i)^2 / sum F_i, against the law's variance
 *          (E[(S_i - D F_i)^2 | F_i] = F_i Var X): exponential D^2, lognormal
 *          (cv D)^2, fixed 0. Its SE is the ratio estimator's,
 *          sqrt(sum (Y_i - V F_i)^2) / sum F_i with Y_i = (S_i - D F_i)^2.
 * The spread tells the laws apart (a fixed delay has V = 0; a lognormal
 * with cv 1 instead of 0.5 has four times the variance). Seeds 31 and 32. */
static void detection_case(const char *law, double sd, uint64_t seed, const char *id)
{
    const double d = 600;
    char keys[256];
    snprintf(keys, sizeof keys, "\"causes\": [{\"name\": \"c\", \"share\": 1, "
             "\"detection_s\": 600, %s}]", law);
    tmc_experiment x = small(keys);
    replicas(&x, seed, rs, N_REP);
    double f = 0, s = 0, y = 0;
    for (int i = 0; i < N_REP; i++) {
        double dev = rs[i].detection_s - d * rs[i].card_failures;
        f += rs[i].card_failures, s += rs[i].detection_s, y += dev * dev;
    }
    double mean = s / f, mse = sd / sqrt(f), mz = (mean - d) / mse;
    double v = y / f, vwant = sd * sd, r2 = 0;
    for (int i = 0; i < N_REP; i++) {
        double dev = rs[i].detection_s - d * rs[i].card_failures;
        double r = dev * dev - v * rs[i].card_failures;
        r2 += r * r;
    }
    double vse = sqrt(r2) / f, vz = (v - vwant) / vse;
    print_message("%s: %.0f failures; mean delay %.2f s (D = %.0f s, SE %.2f, z = %.2f); "
                  "variance %.0f s^2 (by hand %.0f, SE %.0f, z = %.2f)\n", id, f, mean, d,
                  mse, mz, v, vwant, vse, vz);
    if (!(fabs(mz) < 4))
        fail_msg("%s: mean detection delay %.2f s against %.0f s, SE %.2f s: z = %.2f (seed "
                 "%d, tolerance 4 SE)", id, mean, d, mse, mz, (int)seed);
    if (!(fabs(vz) < 4))
        fail_msg("%s: variance of the detection delay %.0f s^2 against %.0f s^2, SE %.0f: "
                 "z = %.2f (seed %d, tolerance 4 SE)", id, v, vwant, vse, vz, (int)seed);
}

static void test_detection_laws(void **state)
{
    (void)state;
    detection_case("\"detection_distribution\": \"exponential\"", 600, 31,
                   "causes-1.3a exponential");
    detection_case("\"detection_distribution\": \"lognormal\", \"detection_cv\": 0.5", 300, 32,
                   "causes-1.3b lognormal cv 0.5");
}

/* causes-1.4: the lognormal delay's median, drawn directly. Mean D = 600 s
 * and cv 2: sigma^2 = ln(1 + cv^2) = ln 5, mu = ln D - sigma^2 / 2, so the
 * median is e^mu = D / sqrt(1 + cv^2) = 600 / sqrt 5 = 268.33 s. The share
 * of 40,000 draws below it is 1/2 with SE sqrt(1/4 / 40,000) = 0.0025 (seed
 * 41); a cv taken as 1 puts the median at 424.26 s and the share at about
 * 0.33. A fixed law draws nothing: the stream is left as it was. */
static void test_lognormal_median(void **state)
{
    (void)state;
    tmc_experiment x = small("\"causes\": [{\"name\": \"c\", \"share\": 1, \"detection_s\": "
                             "600, \"detection_distribution\": \"lognormal\", "
                             "\"detection_cv\": 2}]");
    tmc_failure_model m;
    tmc_failures_model(&m, &x);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    gsl_rng_set(r, 41);
    const int n = 40000;
    const double median = 600 / sqrt(5.0);
    int below = 0;
    for (int i = 0; i < n; i++)
        below += tmc_failures_detection(&m, 0, r) < median;
    double p = (double)below / n, se = sqrt(0.25 / n), z = (p - 0.5) / se;
    print_message("causes-1.4: %.4f of %d draws below the hand median %.2f s (SE %.4f, "
                  "z = %.2f)\n", p, n, median, se, z);
    if (!(fabs(z) < 4))
        fail_msg("%.4f of the lognormal delays lie below its median %.2f s by hand, SE "
                 "%.4f: z = %.2f (seed 41, tolerance 4 SE)", p, median, se, z);
    /* fixed: exactly detection_s, and no draw */
    m.detection_law[0] = TMC_DETECTION_FIXED;
    gsl_rng_set(r, 42);
    double d = tmc_failures_detection(&m, 0, r);
    unsigned long next = gsl_rng_get(r);
    gsl_rng_set(r, 42);
    if (!(d == 600 && gsl_rng_get(r) == next))
        fail_msg("a fixed delay gave %.6f s, or drew from the stream", d);
    gsl_rng_free(r);
}

/* causes-1.5: scope "node", by hand. Nodes of g = 4 cards, a pool of P = 4
 * spares, fixed repairs of R = 10 h, no detection delay, free saves and
 * restores; the failures are replayed from a trace at 8,640 s, 12,240 s
 * (an hour later) and 80,640 s (20 h after the first).
 *   scope "card": each failure takes 1 of the pool (4, 3, then at least 2
 *     left): no wait, 0 s in all.
 *   scope "node": the first takes all 4 spares (no wait); the second finds
 *     the pool empty and waits for the earliest repair in progress, the
 *     first node's, which ends at 8,640 + 36,000 = 44,640 s: a wait of
 *     44,640 - 12,240 = 32,400 s (9 h), and it takes that node's 4 cards;
 *     at the third the second node's repair has ended (12,240 + 36,000 =
 *     48,240 s < 80,640 s): 4 in the pool, no wait. 32,400 s in all, and
 *     the run is longer by exactly that.
 * A node-scope cause that takes no spare waits for nothing. */
static void test_node_scope(void **state)
{
    (void)state;
    char csv[] = "/tmp/trainmc-causes-XXXXXX";
    int fd = mkstemp(csv);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    fprintf(out, "time_days\n0.1\n%.17g\n%.17g\n", 12240 / 86400.0, 80640 / 86400.0);
    fclose(out);
    static const char *const scopes[3] = {"\"scope\": \"card\"", "\"scope\": \"node\"",
                                          "\"scope\": \"node\", \"takes_spare\": false"};
    double wait[3], wall[3];
    for (int k = 0; k < 3; k++) {
        char text[2048];
        snprintf(text, sizeof text,
                 "{\"name\": \"node\", \"job\": {\"steps\": 2000, \"cards\": 64, "
                 "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
                 "\"failures\": {\"distribution\": \"trace\", \"trace\": \"%s\", "
                 "%s\"spares\": 4, \"repair_mean_hours\": 10, "
                 "\"repair_distribution\": \"fixed\", \"causes\": [{\"name\": \"host\", "
                 "\"share\": 1, %s}]}, \"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, "
                 "\"restore_s\": 0}, \"deadline\": {\"days\": 30}}", csv,
                 k ? "\"cards_per_node\": 4, " : "", scopes[k]); /* alone it is refused */
        tmc_experiment x = test_parse(text);
        replicas(&x, 51, rs, 1);
        if (rs[0].card_failures != 3)
            fail_msg("%s: %.0f failures replayed, 3 in the trace", scopes[k],
                     rs[0].card_failures);
        wait[k] = rs[0].spare_wait_s;
        wall[k] = rs[0].wall_s;
    }
    remove(csv);
    print_message("causes-1.5: spare wait %.3f s (card), %.3f s (node; by hand 32400), "
                  "%.3f s (node, no spare); wall %.3f s against %.3f s\n", wait[0], wait[1],
                  wait[2], wall[1], wall[0]);
    if (!(wait[0] == 0 && fabs(wait[1] - 32400) < 1e-6 && wait[2] == 0))
        fail_msg("spare waits %.6f s (card), %.6f s (node), %.6f s (node, no spare); by "
                 "hand 0, 32400 and 0", wait[0], wait[1], wait[2]);
    if (!(fabs(wall[1] - wall[0] - 32400) < 1e-6 && wall[2] == wall[0]))
        fail_msg("the node's run is %.6f s longer than the card's, by hand 32400 s; without "
                 "spares %.6f s", wall[1] - wall[0], wall[2] - wall[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_identical), cmocka_unit_test(test_hang_takes_no_spare),
        cmocka_unit_test(test_detection_laws),     cmocka_unit_test(test_lognormal_median),
        cmocka_unit_test(test_node_scope),
    };
    return cmocka_run_group_tests_name("causes-1", tests, NULL, NULL);
}
