/* standbys-1.x: warm standbys and cold spares' provisioning (issue 19 item 5,
 * docs/model.md 3.20, docs/reference/simulation-semantics.md 5).
 *
 * 1.1 by hand: failures replayed from a trace, fixed repairs, no detection:
 *     every wait is a sum of given times.
 * 1.2 unlimited spares against the closed form of the Poisson count: the
 *     spare wait's mean s E[min(K, W)] + H E[(K - W)+], K ~ Poisson(lambda
 *     S t_s), and the closed form's delay per failure.
 * 1.3 switched off: keys at 0 (a swap time without standbys) leave every
 *     replica as it was, bit for bit.
 * 1.4 a forecast: W standbys of which u were used runs as W - u unused.
 * 1.5 a refilled pool against Erlang's loss formula.
 * 1.6 the closed form by hand when failures take nodes, and some none.
 * 1.7 elastic groups' closed form counts the provisioning. */
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
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "support.h"

/* A trace of the given failure times (s) in a temporary CSV: its path. */
static void write_trace(char *path, const double *at_s, int n)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    fprintf(out, "time_days\n");
    for (int i = 0; i < n; i++)
        fprintf(out, "%.17g\n", at_s[i] / 86400);
    fclose(out);
}

/* One replica of 64 cards (steps of 50 s, free saves and restores) whose
 * failures are the trace's, with `pool` (JSON keys of failures) and `more`
 * (more sections, each after a comma, or ""). */
static tmc_replica trace_replica(const char *csv, const char *pool, const char *more)
{
    char text[2048];
    snprintf(text, sizeof text,
             "{\"name\": \"standbys\", \"job\": {\"steps\": 2000, \"cards\": 64, "
             "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": {\"distribution\": \"trace\", \"trace\": \"%s\", "
             "\"repair_mean_hours\": 10, \"repair_distribution\": \"fixed\", %s}, "
             "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
             "\"deadline\": {\"days\": 100}%s}", csv, pool, more);
    tmc_experiment x = test_parse(text);
    tmc_replica r;
    test_replicas(&x, 3, &r, 1);
    return r;
}

static void expect_waits(const tmc_replica *r, double wait_s, double standbys, double cold,
                         const char *what)
{
    print_message("standbys-1.1 %s: spare wait %.3f s (by hand %.0f), %.0f standbys and "
                  "%.0f cold cards taken (by hand %.0f, %.0f)\n", what, r->spare_wait_s,
                  wait_s, r->standby_swaps, r->spare_provisions, standbys, cold);
    if (!(fabs(r->spare_wait_s - wait_s) < 1e-6 && r->standby_swaps == standbys &&
          r->spare_provisions == cold))
        fail_msg("%s: waited %.6f s, took %.0f standbys and %.0f cold cards; by hand %.0f s, "
                 "%.0f and %.0f", what, r->spare_wait_s, r->standby_swaps, r->spare_provisions,
                 wait_s, standbys, cold);
}

/* standbys-1.1, by hand. Repairs of R = 10 h = 36,000 s, a swap s = 120 s,
 * provisioning H = 1,800 s; failures at 8,640, 12,240, 16,000 and 80,640 s.
 * (a) W = 1 standby, P = 1 spare:
 *   8,640: card A to repair until 44,640; the standby: 120 s;
 *   12,240: B until 48,240; the pool's spare: 1,800 s;
 *   16,000: C until 52,000; the pool is empty, A's repair ends first:
 *     ready at 44,640 + 1,800 = 46,440, a wait of 30,440 s;
 *   80,640: B and C are back; one of them: 1,800 s.
 *   In all 120 + 1,800 + 30,440 + 1,800 = 34,160 s; 1 standby, 3 cold.
 * (b) W = 1, unlimited spares: 120 + 3 x 1,800 = 5,520 s.
 * (c) nodes of g = 4 (a cause of scope "node"), W = 2, P = 4: the first
 *   failure takes the 2 standbys and 2 cold cards, provisioned side by
 *   side: 1,800 s; the second the pool's other 2 and 2 of the first node's
 *   repair (ends 44,640): ready at 46,440, a wait of 34,200 s; the third
 *   (16,000) strikes while the job waits and is swapped in that recovery;
 *   the fourth takes 4 of the 6 back from repair: 1,800 s. 37,800 s; 2
 *   standbys, 2 + 4 + 4 = 10 cold.
 * (d) as (a), the standby refilled 2 h after it is taken: the first takes
 *   it (120 s; refilled at 15,840), the second the pool's spare (1,800 s),
 *   the third the refilled standby (120 s; refilled at 23,200), the fourth
 *   it again (120 s): 2,160 s; 3 standbys, 1 cold.
 * (e) as (d) with no spare: the card the standby replaced (A) is repaired
 *   outside the job, so the second failure waits for its own card's repair
 *   (48,240) and its provisioning: 50,040 - 12,240 = 37,800 s; the third
 *   strikes during that wait; the fourth takes the refilled standby: 120 +
 *   37,800 + 120 = 38,040 s; 2 standbys, 1 cold.
 * (f) a forecast from 4,320 s (nothing done yet) with 1 standby, used,
 *   refilled 2 h after each take, unlimited spares: the standby is warm
 *   again at 4,320 + 7,200 = 11,520, so the first failure (8,640) takes a
 *   cold card (1,800 s), the second the standby (120 s; back at 19,440),
 *   the third a cold card (1,800 s), the fourth the standby (120 s):
 *   3,840 s; 2 standbys, 2 cold. */
static void test_by_hand(void **state)
{
    (void)state;
    /* every case: a swap of 120 s and provisioning of 1,800 s, then its keys */
#define SB "\"standby_swap_s\": 120, \"spare_provision_s\": 1800, "
    static const struct {
        const char *pool, *more, *what;
        double wait_s, standbys, cold;
    } cases[] = {
        {SB "\"spares\": 1, \"standbys\": 1", "", "(a) 1 standby, 1 spare", 34160, 1, 3},
        {SB "\"standbys\": 1", "", "(b) 1 standby, unlimited spares", 5520, 1, 3},
        {SB "\"spares\": 4, \"standbys\": 2, \"cards_per_node\": 4, \"causes\": "
            "[{\"name\": \"host\", \"share\": 1, \"scope\": \"node\"}]", "",
         "(c) nodes of 4, 2 standbys, 4 spares", 37800, 2, 10},
        {SB "\"spares\": 1, \"standbys\": 1, \"standby_refill_hours\": 2", "",
         "(d) 1 standby refilled in 2 h, 1 spare", 2160, 3, 1},
        {SB "\"spares\": 0, \"standbys\": 1, \"standby_refill_hours\": 2", "",
         "(e) 1 standby refilled in 2 h, no spare", 38040, 2, 1},
        {SB "\"standbys\": 1, \"standby_refill_hours\": 2",
         ", \"progress\": {\"elapsed_days\": 0.05, \"steps_done\": 0, "
         "\"committed_step\": 0, \"standbys_used\": 1}",
         "(f) a forecast, the standby used, refilled in 2 h", 3840, 2, 2},
    };
#undef SB
    char csv[] = "/tmp/trainmc-standbys-XXXXXX";
    const double at[] = {8640, 12240, 16000, 80640};
    write_trace(csv, at, 4);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tmc_replica r = trace_replica(csv, cases[i].pool, cases[i].more);
        expect_waits(&r, cases[i].wait_s, cases[i].standbys, cases[i].cold, cases[i].what);
    }
    remove(csv);
}

/* standbys-1.2. 100 cards of a 1-day MTBF (lambda = 100 / day) run 6,000
 * steps of 1 s (a struck step loses at most 1 s, so the failures K are
 * Poisson of mean k = lambda x 6,000 s = 6.944 to about 1e-4), W = 3
 * standbys swapped in 300 s, unlimited cold spares provisioned in 3,600 s.
 * Estimator: the mean spare wait of 20,000 replicas against
 * 300 E[min(K, 3)] + 3,600 (k - E[min(K, 3)]), E[min(K, 3)] summed from the
 * Poisson law by GSL here; its standard error from the replicas; |z| < 4,
 * seed 17. The closed form's delay per failure is that mean over k
 * (relative 1e-12). */
static void test_poisson(void **state)
{
    (void)state;
    const int n = 20000, w = 3;
    const double swap = 300, prov = 3600, k = 100.0 / 86400 * 6000;
    tmc_experiment x = test_parse(
        "{\"name\": \"standbys\", \"job\": {\"steps\": 6000, \"cards\": 100, "
        "\"flop_per_step\": 100, \"peak_flops\": 1, \"efficiency\": 1}, "
        "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1, "
        "\"standbys\": 3, \"standby_swap_s\": 300, \"spare_provision_s\": 3600}, "
        "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
        "\"deadline\": {\"days\": 100}, \"monte_carlo\": {\"replicas\": 20000, \"seed\": 17}}");
    double warm = 0; /* E[min(K, W)] = sum_j min(j, W) P(K = j) */
    for (unsigned j = 0; j < 200; j++)
        warm += (j < (unsigned)w ? j : w) * gsl_ran_poisson_pdf(j, k);
    double want = swap * warm + prov * (k - warm);
    tmc_replica *r = malloc((size_t)n * sizeof *r);
    test_replicas(&x, 17, r, n);
    double *wait = malloc((size_t)n * sizeof *wait), taken = 0;
    for (int i = 0; i < n; i++) {
        wait[i] = r[i].spare_wait_s;
        taken += r[i].standby_swaps;
    }
    double mean = gsl_stats_mean(wait, 1, n), se = gsl_stats_sd(wait, 1, n) / sqrt(n);
    double z = (mean - want) / se;
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double per_failure = want / k;
    print_message("standbys-1.2: spare wait %.1f +- %.1f s against %.1f s by Poisson (z = "
                  "%.2f); standbys taken %.4f against %.4f; closed form's delay %.4f s "
                  "against %.4f s\n", mean, se, want, z, taken / n, warm, cf.delay_mean_s,
                  per_failure);
    if (!(fabs(z) < 4))
        fail_msg("spare wait %.2f s against %.2f s, SE %.2f: z = %.2f (seed 17, 4 SE)", mean,
                 want, se, z);
    if (!(fabs(cf.delay_mean_s - per_failure) <= 1e-12 * per_failure))
        fail_msg("closed form's delay %.12g s per failure, by Poisson %.12g s",
                 cf.delay_mean_s, per_failure);
    free(wait);
    free(r);
}

/* Replicas of design-48 with its failures (optionally sets) are equal bit
 * for bit to those with `other` overrides. */
static void same_replicas(const char *name, const char *const *a, int na,
                          const char *const *b, int nb, const char *what)
{
    enum { N = 200 };
    tmc_experiment x = test_load(name, a, na), y = test_load(name, b, nb);
    tmc_replica *ra = malloc(N * sizeof *ra), *rb = malloc(N * sizeof *rb);
    test_replicas(&x, 5, ra, N);
    test_replicas(&y, 5, rb, N);
    int same = memcmp(ra, rb, N * sizeof *ra) == 0;
    double f = 0;
    for (int i = 0; i < N; i++)
        f += ra[i].card_failures;
    print_message("%s: %d replicas, %.0f failures, %s\n", what, N, f,
                  same ? "identical" : "DIFFERENT");
    if (!same)
        fail_msg("%s: the replicas differ", what);
    free(ra);
    free(rb);
}

/* standbys-1.3: switched off, nothing moves: no keys against standbys 0
 * with a swap time and provisioning 0, for a pool of 2 and for unlimited
 * spares (spares-repro, about 7 failures a run). */
static void test_off(void **state)
{
    (void)state;
    const char *off[] = {"failures.standbys=0", "failures.standby_swap_s=900",
                         "failures.spare_provision_s=0", "monte_carlo.replicas=200"};
    const char *none[] = {"monte_carlo.replicas=200"};
    same_replicas("spares-repro", none, 1, off, 4, "standbys-1.3 a pool of 1");
    const char *u_off[] = {"failures.standbys=0", "failures.standby_swap_s=900",
                           "failures.spare_provision_s=0", "failures.spares=-1"};
    const char *u_none[] = {"failures.spares=-1"};
    same_replicas("spares-repro", u_none, 1, u_off, 4, "standbys-1.3 unlimited spares");
}

/* standbys-1.4: a forecast on day 9 of design-48 (2 spares in repair) with
 * W = 3 standbys of which 2 were used is one with W = 1 unused: replicas bit
 * for bit. With standbys_used = 2 the cards in repair may be 4 (the pool's
 * 2 and the standbys' failed cards). */
static void test_forecast(void **state)
{
    (void)state;
    const char *used[] = {"failures.standbys=3", "failures.standby_swap_s=120",
                          "failures.spare_provision_s=1800", "progress.standbys_used=2"};
    const char *left[] = {"failures.standbys=1", "failures.standby_swap_s=120",
                          "failures.spare_provision_s=1800"};
    same_replicas("forecast-design-48-day9", used, 4, left, 3,
                  "standbys-1.4 3 standbys, 2 used, against 1");
    /* 4 cards in repair for long (1,000 h repairs, a 30-day MTBF): the pool
     * and its repairs hold P + W = 4 cards and more fail; every replica runs */
    const char *four[] = {"failures.standbys=2", "progress.standbys_used=2",
                          "progress.cards_in_repair=4", "failures.repair_mean_hours=1000",
                          "failures.per_card_mtbf_days=30", "monte_carlo.replicas=50"};
    tmc_experiment x = test_load("forecast-design-48-day9", four, 6);
    tmc_replica r[50];
    test_replicas(&x, 7, r, 50);
    for (int i = 0; i < 50; i++)
        if (r[i].failed || !(r[i].spare_wait_s > 0))
            fail_msg("replica %d with 4 cards in repair: failed %d, spare wait %g s", i,
                     r[i].failed, r[i].spare_wait_s);
    /* the closed form of a forecast whose standbys are all used (no refill)
     * is that of none */
    const char *gone[] = {"failures.standbys=2", "progress.standbys_used=2",
                          "failures.spare_provision_s=1800", "failures.standby_swap_s=20"};
    const char *none[] = {"failures.spare_provision_s=1800"};
    tmc_experiment a = test_load("forecast-design-48-day9", gone, 4);
    tmc_experiment b = test_load("forecast-design-48-day9", none, 1);
    tmc_closed_form ca, cb;
    tmc_closed_form_compute(&a, &ca);
    tmc_closed_form_compute(&b, &cb);
    print_message("standbys-1.4: forecast, both standbys used: closed form %.6f days, with "
                  "none %.6f days\n", ca.completion_days, cb.completion_days);
    if (!(ca.completion_days == cb.completion_days))
        fail_msg("closed form %.9f days with both standbys used, %.9f with none",
                 ca.completion_days, cb.completion_days);
}

/* standbys-1.7: elastic groups' closed form. With unlimited spares and no
 * standbys a group failure waits the provisioning H more (elastic-300):
 * its down time rises by exactly H. */
static void test_elastic_form(void **state)
{
    (void)state;
    const char *with[] = {"failures.spare_provision_s=300"};
    tmc_experiment a = test_load("elastic-300", NULL, 0), b = test_load("elastic-300", with, 1);
    tmc_closed_form ca, cb;
    tmc_elastic_form ea, eb;
    tmc_closed_form_compute(&a, &ca);
    tmc_closed_form_compute(&b, &cb);
    tmc_closed_form_elastic(&a, &ca, &ea);
    tmc_closed_form_elastic(&b, &cb, &eb);
    print_message("standbys-1.7: elastic group down %.3f s, with 300 s provisioning %.3f s\n",
                  ea.down_s, eb.down_s);
    if (!(fabs(eb.down_s - ea.down_s - 300) < 1e-9))
        fail_msg("a group's down time %.6f s with 300 s provisioning, %.6f s without",
                 eb.down_s, ea.down_s);
}

/* standbys-1.5: refills as Erlang's loss system. Unlimited spares, no
 * restore, a swap of 0 and a provisioning of 1 s: the job is (nearly)
 * never down, so failures are Poisson in wall time at l = 100 a day, and
 * W = 2 standbys each replaced d = 0.48 h after it is taken are 2 servers
 * of a loss system at load a = l d = 2: the share of failures that find
 * none is B(2, 2) = (a^2 / 2) / (1 + a + a^2 / 2) = 0.4, whatever the law of
 * d. 100 replicas of 20 days (about 2,000 failures each; the start, every
 * standby warm, is about 0.1 % of a run). Estimator: the mean over
 * replicas of each one's cold share, its standard error from their spread;
 * |z| < 4, seed 23. The closed form's delay per failure (1 s x the cold
 * share) is B(2, 2) s (relative 1e-12). */
static void test_erlang(void **state)
{
    (void)state;
    enum { N = 100 };
    tmc_experiment x = test_parse(
        "{\"name\": \"erlang\", \"job\": {\"steps\": 172800, \"cards\": 100, "
        "\"flop_per_step\": 1000, \"peak_flops\": 1, \"efficiency\": 1}, "
        "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1, "
        "\"standbys\": 2, \"standby_refill_hours\": 0.48, \"spare_provision_s\": 1}, "
        "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
        "\"deadline\": {\"days\": 100}}");
    const double a = 2, b = a * a / 2 / (1 + a + a * a / 2);
    tmc_replica *r = malloc(N * sizeof *r);
    test_replicas(&x, 23, r, N);
    double share[N], failures = 0;
    for (int i = 0; i < N; i++) {
        share[i] = r[i].spare_provisions / (r[i].spare_provisions + r[i].standby_swaps);
        failures += r[i].card_failures;
    }
    double mean = gsl_stats_mean(share, 1, N), se = gsl_stats_sd(share, 1, N) / sqrt(N);
    double z = (mean - b) / se;
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    print_message("standbys-1.5: cold share %.5f +- %.5f against Erlang B(2, 2) = %.5f (z = "
                  "%.2f; %.0f failures a run); closed form's delay %.12f s\n", mean, se, b, z,
                  failures / N, cf.delay_mean_s);
    if (!(fabs(z) < 4))
        fail_msg("cold share %.5f against Erlang's %.5f, SE %.5f: z = %.2f (seed 23, 4 SE)",
                 mean, b, se, z);
    if (!(fabs(cf.delay_mean_s - b) <= 1e-12 * b))
        fail_msg("closed form's delay %.12g s per failure, by Erlang %.12g s", cf.delay_mean_s,
                 b);
    free(r);
}

/* standbys-1.6: the closed form's delay by hand. 64 cards in nodes of 8,
 * every card failure takes its node (rate 64 / 64 days = 1 a day), job
 * failures take nothing (1 a day); 17 standby cards serve floor(17 / 8) = 2
 * node failures; a swap of 100 s, provisioning of 1,000 s; one day of
 * failure-free work, so the node failures K are Poisson of mean 1:
 * E[min(K, 2)] = P(K = 1) + 2 P(K >= 2) = 2 - 3/e, a cold share 3/e - 1,
 * and half the failures take hardware: the delay per failure is
 * (100 + 900 (3/e - 1)) / 2 s (relative 1e-12). */
static void test_closed_form_nodes(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"nodes\", \"job\": {\"steps\": 8640, \"cards\": 64, "
        "\"flop_per_step\": 640, \"peak_flops\": 1, \"efficiency\": 1, "
        "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "
        "\"jitter\": {\"distribution\": \"normal\", \"cv\": 0}, "
        "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 64, "
        "\"per_job_mtbf_days\": 1, \"cards_per_node\": 8, \"causes\": [{\"name\": "
        "\"host\", \"share\": 1, \"scope\": \"node\"}], \"standbys\": 17, "
        "\"standby_swap_s\": 100, \"spare_provision_s\": 1000}, "
        "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
        "\"deadline\": {\"days\": 100}}");
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    double want = (100 + 900 * (3 / M_E - 1)) / 2;
    print_message("standbys-1.6: closed form's delay %.9f s per failure, by hand %.9f s\n",
                  cf.delay_mean_s, want);
    if (!(fabs(cf.delay_mean_s - want) <= 1e-12 * want))
        fail_msg("closed form's delay %.12g s per failure, by hand %.12g s", cf.delay_mean_s,
                 want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_poisson),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_forecast),
        cmocka_unit_test(test_erlang),
        cmocka_unit_test(test_closed_form_nodes),
        cmocka_unit_test(test_elastic_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
