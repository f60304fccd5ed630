/* spares-1.x: the spare pool against a simulation of it written here
 * (docs/simulation-semantics.md 5; issue 19's spares-repro case).
 *
 * The case: 1,000 steps of 6 s on 100 cards of a 1-day MTBF, a save (free)
 * after every step, free restores, exponential repairs of mean 48 h, 0, 1,
 * 2 or 4 spares; about 7 failures a run, so the run is nearly all waiting
 * for cards. The check below knows nothing of the engine: it steps through
 * one run with its own generator, by the rules of the semantics alone:
 *   - failures are a Poisson process of rate N / MTBF while the job
 *     computes; one that strikes loses the step under way;
 *   - the failed card goes to repair at once (exponential, mean R); repairs
 *     that have ended are back in the pool; the job takes a spare if the
 *     pool has one, else waits for the earliest repair in progress (its
 *     own card's included) and takes that card;
 *   - failures while the job waits are swapped within the same recovery
 *     (they take nothing: by memorylessness the next failure is drawn
 *     afresh when the job computes again).
 * Estimator: the mean completion time of 20,000 replicas each way; the
 * difference of the two means against sqrt(se1^2 + se2^2), |z| < 4. The
 * issue's own figures (14.01, 6.00, 3.36, 1.27 days) are printed beside. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "support.h"

enum { N = 20000, STEPS = 1000, CARDS = 100, MAX_POOL = 8 };
#define STEP_S 6.0
#define RATE (CARDS / 86400.0)      /* failures per second while computing */
#define REPAIR_S (48 * 3600.0)
#define DAY 86400.0

/* One run by the rules above: its wall time, s. */
static double independent_run(gsl_rng *r, int spares)
{
    double t = 0, repairs[MAX_POOL + 1];
    int n_rep = 0, pool = spares;
    for (long done = 0; done < STEPS;) {
        double gap = gsl_ran_exponential(r, 1 / RATE);
        if (gap >= STEP_S) { /* the step completes and commits */
            t += STEP_S;
            done++;
            continue;
        }
        t += gap; /* struck: the step is lost */
        repairs[n_rep++] = t + gsl_ran_exponential(r, REPAIR_S);
        for (int i = 0; i < n_rep;) /* repairs ended by t are back */
            if (repairs[i] <= t) {
                pool++;
                repairs[i] = repairs[--n_rep];
            } else {
                i++;
            }
        if (pool > 0) {
            pool--;
            continue;
        }
        int first = 0;
        for (int i = 1; i < n_rep; i++)
            if (repairs[i] < repairs[first])
                first = i;
        t = repairs[first]; /* wait for it and take its card */
        repairs[first] = repairs[--n_rep];
    }
    return t;
}

static void pool_agrees(int spares, double issue_days)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"name\": \"spares-repro\", \"job\": {\"steps\": %d, \"cards\": %d, "
             "\"flop_per_step\": 6e14, \"peak_flops\": 1e12, \"efficiency\": 1.0, "
             "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "
             "\"jitter\": {\"distribution\": \"normal\", \"cv\": 0}, "
             "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1, "
             "\"spares\": %d, \"repair_mean_hours\": 48}, "
             "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
             "\"deadline\": {\"days\": 1000, \"reserve_days\": 0}, "
             "\"monte_carlo\": {\"replicas\": %d, \"seed\": 1}}",
             STEPS, CARDS, spares, N);
    tmc_experiment x = test_parse(text);
    tmc_replica *r = malloc(N * sizeof *r);
    test_replicas(&x, 1, r, N);
    gsl_rng *own = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(own, 2024 + (unsigned long)spares);
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = r[i].wall_s / DAY;
        b[i] = independent_run(own, spares) / DAY;
    }
    free(r);
    double ma = gsl_stats_mean(a, 1, N), mb = gsl_stats_mean(b, 1, N);
    double se = sqrt(gsl_stats_variance(a, 1, N) / N + gsl_stats_variance(b, 1, N) / N);
    print_message("spares %d: engine %.4f d, independent %.4f d (z = %.2f); the issue's %.2f\n",
                  spares, ma, mb, (ma - mb) / se, issue_days);
    if (!(fabs(ma - mb) <= 4 * se))
        fail_msg("spares %d: engine %.5f against %.5f days, %.2f se", spares, ma, mb,
                 (ma - mb) / se);
    free(a);
    free(b);
    gsl_rng_free(own);
}

static void spares_1_1_none(void **state)
{
    (void)state;
    pool_agrees(0, 14.01);
}

static void spares_1_2_one(void **state)
{
    (void)state;
    pool_agrees(1, 6.00);
}

static void spares_1_3_two(void **state)
{
    (void)state;
    pool_agrees(2, 3.36);
}

static void spares_1_4_four(void **state)
{
    (void)state;
    pool_agrees(4, 1.27);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spares_1_1_none),
        cmocka_unit_test(spares_1_2_one),
        cmocka_unit_test(spares_1_3_two),
        cmocka_unit_test(spares_1_4_four),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
