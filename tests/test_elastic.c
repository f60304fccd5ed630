/* test_elastic.c - elastic replica groups (src/engine/elastic.c,
 * docs/reference/simulation-semantics.md 9, docs/model.md 3.14): hand-derived
 * replays (elastic-1.1, 1.2), the closed form against the simulation
 * (elastic-1.3), the limit min_groups = G, which is checkpoint-restart
 * (elastic-1.4). Invalid inputs: tests/invalid/elastic-*. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>

#include "finishable.h"
#include "laws.h"
#include "support.h"

#define TOL_SE 4.0

/* |got - want| <= tol, else fail naming what. */
static void expect_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.12g, want %.12g (tolerance %.3g)", what, got, want, tol);
}

/* Two cards in G = 2 groups of one, steps of 10 s (20 FLOP on 2 cards of 1
 * FLOP/s), no jitter, a save of 5 s every 50 steps, restore 100 s, one
 * failure replayed at 0.002 days = 172.8 s, heal 35 s, unlimited spares. */
static tmc_experiment hand_case(long min_groups)
{
    const char *csv = "/tmp/tmc-test-elastic-one.csv";
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs("time_days\n0.002\n", f);
    fclose(f);
    char json[1024];
    snprintf(json, sizeof json,
             "{\"name\": \"hand\", \"source\": \"test_elastic.c\","
             " \"job\": {\"steps\": 100, \"cards\": 2, \"flop_per_step\": 20,"
             "         \"peak_flops\": 1, \"efficiency\": 1},"
             " \"failures\": {\"distribution\": \"trace\", \"trace\": \"%s\"},"
             " \"checkpoint\": {\"interval_steps\": 50, \"save_s\": 5, \"restore_s\": 100},"
             " \"elastic\": {\"groups\": 2, \"min_groups\": %ld, \"heal_s\": 35},"
             " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
             " \"monte_carlo\": {\"replicas\": 1, \"seed\": 1}}",
             csv, min_groups);
    return test_parse(json);
}

static tmc_replica run_one(const tmc_experiment *x)
{
    tmc_replica out;
    test_replicas(x, 1, &out, 1);
    assert_int_equal(out.failed, 0);
    assert_true(fabs(tmc_accounting_split_sum(&out) - out.wall_s) < 1e-9);
    return out;
}

/* elastic-1.1. Steps 1..17 end at 170 s (17 steps of progress). The failure
 * at 172.8 s cuts step 18 (2.8 s lost) and takes group 2 down until
 * 172.8 + 35 = 207.8 s. Group 1 alone: steps end at 182.8, 192.8, 202.8
 * and, the one under way at 207.8, at 212.8 s: 4 steps worth 2 of progress
 * (19 steps), 20 s beyond their worth. Group 2 rejoins at 212.8 s (40 s
 * down). The save at 50 steps: 31 more steps to 522.8 s, saved at 527.8 s;
 * 50 steps and a save: 1032.8 s = 1000 + 2 x 5 + 2.8 + 20. */
static void test_hand_group_failure(void **state)
{
    (void)state;
    tmc_experiment x = hand_case(1);
    tmc_replica r = run_one(&x);
    expect_near(r.wall_s, 1032.8, 1e-9, "wall time");
    expect_near(r.lost_s, 2.8, 1e-9, "the step the failure cut");
    expect_near(r.shrunk_s, 20, 1e-9, "4 steps on one group of two");
    expect_near(r.compute_s, 1000, 1e-9, "useful compute");
    expect_near(r.save_s, 10, 1e-9, "two saves");
    expect_near(r.group_down_s, 40, 1e-9, "group 2 down");
    expect_near(r.group_failures, 1, 0, "one group failure");
    expect_near(r.heals, 1, 0, "one heal");
    expect_near(r.card_failures, 0, 0, "no global restart");
    expect_near(r.restore_s, 0, 0, "no restore");
}

/* elastic-1.2. min_groups 2: the failure at 172.8 s leaves one group of
 * two, a global restart: the 172.8 s since the start are lost, the card is
 * replaced at once (unlimited spares) and both groups restore (100 s, no
 * heal), then 100 steps and 2 saves: 272.8 + 1010 = 1282.8 s. */
static void test_hand_global_restart(void **state)
{
    (void)state;
    tmc_experiment x = hand_case(2);
    tmc_replica r = run_one(&x);
    expect_near(r.wall_s, 1282.8, 1e-9, "wall time");
    expect_near(r.lost_s, 172.8, 1e-9, "lost since the start");
    expect_near(r.restore_s, 100, 1e-9, "one restore");
    expect_near(r.card_failures, 1, 0, "one global restart");
    expect_near(r.group_failures, 0, 0, "no group failure alone");
    expect_near(r.heals, 0, 0, "no heal");
    expect_near(r.shrunk_s, 0, 0, "no step on fewer groups");
}

/* Mean and standard error of n wall times, s. */
static void mean_se(const double *wall, long n, double *mean, double *se)
{
    double s = 0, s2 = 0;
    for (long i = 0; i < n; i++)
        s += wall[i];
    *mean = s / n;
    for (long i = 0; i < n; i++)
        s2 += (wall[i] - *mean) * (wall[i] - *mean);
    *se = sqrt(s2 / (n - 1) / n);
}

/* elastic-1.3. 64 cards in 8 groups, per-card MTBF 2 days (a group up
 * 6 h on average), heal 600 s, no jitter, steps of 10 s: A = 0.973,
 * P(no group up) = 3e-13, so global restarts never happen and the closed
 * form (docs/model.md 3.14) holds: within 4 se of the mean T. */
static void test_closed_form(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"cf\", \"source\": \"test_elastic.c\","
        " \"job\": {\"steps\": 20000, \"cards\": 64, \"flop_per_step\": 640,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 2},"
        " \"checkpoint\": {\"interval_steps\": 500, \"save_s\": 20, \"restore_s\": 60},"
        " \"elastic\": {\"groups\": 8, \"min_groups\": 1, \"heal_s\": 600},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
        " \"monte_carlo\": {\"replicas\": 4000, \"seed\": 5}}");
    long n = 4000;
    double *wall = malloc((size_t)n * sizeof *wall), mean, se;
    assert_non_null(wall);
    tmc_closed_form cf;
    tmc_replica t = test_run(&x, &cf, n, 5, wall);
    mean_se(wall, n, &mean, &se);
    tmc_elastic_form ef;
    tmc_closed_form_elastic(&x, &cf, &ef);
    print_message("elastic: closed form %.2f s, simulated %.2f +- %.2f s (%.2f se); "
                  "A %.6f, P(global) %.3g, global restarts %.4f a run\n", ef.wall_s, mean, se,
                  (mean - ef.wall_s) / se, ef.availability, ef.p_global,
                  t.card_failures / n);
    assert_true(ef.p_global < 1e-9);
    expect_near(mean, ef.wall_s, TOL_SE * se, "closed form against the simulation");
    assert_true(t.group_failures / n > 50);
    free(wall);
}

/* elastic-1.3b. The closed form's global restarts by hand: 3 groups of 2
 * cards of a 1-day MTBF (a group up 43,200 s), heal 3,600 s and unlimited
 * spares (down 3,600 + t_s / 2 = 3,605 s), min_groups 2: the up groups fall
 * from 2 to 1 at P(2 up) x 2 / up = 3 A^2 (1 - A) x 2 / 43,200 a second,
 * A = 43,200 / (43,200 + 3,605) (relative 1e-12). */
static void test_global_rate(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"g\", \"source\": \"test_elastic.c\","
        " \"job\": {\"steps\": 1000, \"cards\": 6, \"flop_per_step\": 60,"
        "         \"peak_flops\": 1, \"efficiency\": 1, \"exposed_comm_s\": 0,"
        "         \"input_wait_s\": 0},"
        " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1},"
        " \"checkpoint\": {\"interval_steps\": 100, \"save_s\": 1, \"restore_s\": 1},"
        " \"elastic\": {\"groups\": 3, \"min_groups\": 2, \"heal_s\": 3600},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0}}");
    tmc_closed_form cf;
    tmc_elastic_form ef;
    tmc_closed_form_compute(&x, &cf);
    tmc_closed_form_elastic(&x, &cf, &ef);
    double a = 43200.0 / (43200 + 3605), want = 3 * a * a * (1 - a) * 2 / 43200;
    print_message("elastic-1.3b: global restarts %.9g a second, by hand %.9g (A %.6f)\n",
                  ef.global_rate, want, ef.availability);
    if (!(fabs(ef.global_rate - want) <= 1e-12 * want))
        fail_msg("global restarts %.12g a second, by hand %.12g", ef.global_rate, want);
    /* against min_groups 1 (3 A (1 - A)^2 / up restarts a second): the job
     * progresses only with at least m groups up, at R(m) = sum_{g >= m}
     * P(g up) (g / 3) l_g / (e^(l_g t_s) - 1), l_g = g x 2 cards / 86,400 s,
     * so the wall is (1,000 / R(m) + 10 saves of 1 s)(1 + rho_m X), each
     * restart costing X = tau / (2A) + r = 1,000 / (2A) + 1 s */
    tmc_elastic_form one;
    x.elastic.min_groups = 1;
    tmc_closed_form_elastic(&x, &cf, &one);
    double rho1 = 3 * a * (1 - a) * (1 - a) / 43200, big_x = 1000 / (2 * a) + 1;
    double r1 = 0, r2 = 0;
    for (unsigned g = 1; g <= 3; g++) {
        double l = g * 2 / 86400.0, prog = gsl_ran_binomial_pdf(g, a, 3) * g / 3.0 * l /
                                           expm1(l * 10);
        r1 += prog;
        r2 += g >= 2 ? prog : 0;
    }
    double ratio = (1000 / r2 + 10) * (1 + want * big_x) / ((1000 / r1 + 10) * (1 + rho1 * big_x));
    print_message("elastic-1.3b: wall %.6f s against %.6f s at min_groups 1: ratio %.12f, "
                  "by hand %.12f\n", ef.wall_s, one.wall_s, ef.wall_s / one.wall_s, ratio);
    if (!(fabs(ef.wall_s / one.wall_s - ratio) <= 1e-12 * ratio))
        fail_msg("wall ratio %.12f, by hand %.12f", ef.wall_s / one.wall_s, ratio);
}

/* elastic-1.4. min_groups = G: every failure leaves fewer than G groups up,
 * a global restart, which is checkpoint-restart: with spares 0 and repairs
 * of 0.5 h the job waits for the failed card, then restores. Thinning keeps
 * every arrival (g = G) and draws from a stream the plain engine does not
 * use, so the replicas are the same ones: equal means (to rounding). */
static void test_limit_min_groups(void **state)
{
    (void)state;
    const char *json =
        "{\"name\": \"lim\", \"source\": \"test_elastic.c\","
        " \"job\": {\"steps\": 5000, \"cards\": 16, \"flop_per_step\": 160,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 2,"
        "              \"spares\": 0, \"repair_mean_hours\": 0.5},"
        " \"checkpoint\": {\"interval_steps\": 100, \"save_s\": 10, \"restore_s\": 60},"
        " %s"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0},"
        " \"monte_carlo\": {\"replicas\": 2000, \"seed\": 3}}";
    char with[1024], without[1024];
    snprintf(with, sizeof with, json,
             "\"elastic\": {\"groups\": 4, \"min_groups\": 4, \"heal_s\": 30},");
    snprintf(without, sizeof without, json, "");
    tmc_experiment a = test_parse(with), b = test_parse(without);
    long n = 2000;
    double *wa = malloc((size_t)n * sizeof *wa), *wb = malloc((size_t)n * sizeof *wb);
    assert_true(wa && wb);
    tmc_closed_form cfa, cfb;
    tmc_replica ta = test_run(&a, &cfa, n, 3, wa), tb = test_run(&b, &cfb, n, 3, wb);
    double ma, sa, mb, sb;
    mean_se(wa, n, &ma, &sa);
    mean_se(wb, n, &mb, &sb);
    print_message("min_groups = G: %.4f +- %.4f s, checkpoint-restart %.4f +- %.4f s; "
                  "failures %.3f and %.3f a run\n", ma, sa, mb, sb, ta.card_failures / n,
                  tb.card_failures / n);
    assert_true(ta.card_failures / n > 2); /* failures do strike */
    expect_near(ta.group_failures, 0, 0, "every failure a global restart");
    expect_near(ma, mb, TOL_SE * sqrt(sa * sa + sb * sb), "mean T within 4 se");
    expect_near(ma, mb, 1e-9 * mb, "the same replicas");
    free(wa);
    free(wb);
}

/* elastic-1.6: a spare pool with instant repairs (issue 33 item 5). The
 * pool's wait is R x P(more than P cards in repair), the count Poisson of
 * mean rate x R; with R = 0 that mean is 0 and the wait 0 (GSL's Poisson
 * tail is NaN there), so a group is up A = 43,200 / (43,200 + 3,605) as
 * with unlimited spares (elastic-1.3b's case, by hand; relative 1e-12). */
static void test_instant_repairs_pool(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"g\", \"source\": \"test_elastic.c\","
        " \"job\": {\"steps\": 1000, \"cards\": 6, \"flop_per_step\": 60,"
        "         \"peak_flops\": 1, \"efficiency\": 1, \"exposed_comm_s\": 0,"
        "         \"input_wait_s\": 0},"
        " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1,"
        "              \"spares\": 2, \"repair_mean_hours\": 0},"
        " \"checkpoint\": {\"interval_steps\": 100, \"save_s\": 1, \"restore_s\": 1},"
        " \"elastic\": {\"groups\": 3, \"min_groups\": 2, \"heal_s\": 3600},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0}}");
    tmc_closed_form cf;
    tmc_elastic_form ef;
    tmc_closed_form_compute(&x, &cf);
    tmc_closed_form_elastic(&x, &cf, &ef);
    double a = 43200.0 / (43200 + 3605);
    if (!(fabs(ef.availability - a) <= 1e-12 * a))
        fail_msg("availability %.12g, by hand %.12g", ef.availability, a);
    assert_true(isfinite(ef.wall_s) && isfinite(ef.down_s));
    char why[1024];
    assert_int_equal(tmc_finishable_check(&x, why, sizeof why), 0);
    assert_true(tmc_laws_poisson_over(0, 0) == 0 && tmc_laws_poisson_over(7, 0) == 0);
    double p1 = tmc_laws_poisson_over(0, 1); /* 1 - e^-1 */
    if (!(fabs(p1 - (1 - exp(-1))) <= 1e-15))
        fail_msg("P(N > 0 | mean 1) %.17g, by hand %.17g", p1, 1 - exp(-1));
    assert_true(isnan(tmc_laws_poisson_over(0, -1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_group_failure),
        cmocka_unit_test(test_hand_global_restart),
        cmocka_unit_test(test_closed_form),
        cmocka_unit_test(test_global_rate),
        cmocka_unit_test(test_instant_repairs_pool),
        cmocka_unit_test(test_limit_min_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
