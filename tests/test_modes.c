/* modes-1.x: the segments mode against the steps mode (issues 5, 35).
 * The two modes draw different random numbers, so their completion-time
 * samples are compared as distributions: a two-sample Kolmogorov-Smirnov
 * statistic D against its critical value at alpha = 0.001,
 * c sqrt((n + m) / (n m)), c = sqrt(-ln(alpha / 2) / 2) = 1.9495; and the
 * means within 4 standard errors of their difference. Fixed seeds.
 * modes-1.1 design-48-stress (5 % jitter, failures, outages, spikes);
 * modes-1.2 the same at 1,024 cards;
 * modes-1.3 power: the same comparison tells apart jitter cv 0.050 and
 *           0.051 (T shifts by about 0.4 of its standard deviation);
 * modes-1.4 the segments mode gives the segment sum's exact skewness on
 *           one lognormal card (the old approximate mode matched it too,
 *           but not the shape beyond). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "runner.h"
#include "support.h"

#define N_REPLICAS 3000

typedef struct {
    double wall[N_REPLICAS];
    double mean, se;
} sample;

static void simulate(const char *cards, const char *mode, const char *cv, uint64_t seed,
                     sample *out)
{
    const char *sets[3] = {cards, mode, cv};
    tmc_experiment x = test_load("design-48-stress", sets, 3);
    tmc_closed_form cf;
    test_run(&x, &cf, N_REPLICAS, seed, out->wall);
    out->mean = gsl_stats_mean(out->wall, 1, N_REPLICAS);
    out->se = gsl_stats_sd(out->wall, 1, N_REPLICAS) / sqrt(N_REPLICAS);
    gsl_sort(out->wall, 1, N_REPLICAS);
}

/* 1 when the two samples pass both checks. */
static int same_distribution(const sample *a, const sample *b, const char *what)
{
    double d = ks_statistic(a->wall, b->wall, N_REPLICAS);
    double crit = KS_CRITICAL_001(N_REPLICAS);
    double z = (a->mean - b->mean) / sqrt(a->se * a->se + b->se * b->se);
    print_message("%s: KS D = %.4f (critical %.4f), means %.1f s vs %.1f s (%.2f se)\n", what,
                  d, crit, a->mean, b->mean, z);
    return d < crit && fabs(z) < 4;
}

static sample a, b;

static void test_design_case(void **state)
{
    (void)state;
    simulate("job.cards=48", "monte_carlo.mode=\"steps\"", "jitter.cv=0.05", 201, &a);
    simulate("job.cards=48", "monte_carlo.mode=\"segments\"", "jitter.cv=0.05", 202, &b);
    assert_true(same_distribution(&a, &b, "48 cards, steps vs segments"));
}

static void test_1024_cards(void **state)
{
    (void)state;
    simulate("job.cards=1024", "monte_carlo.mode=\"steps\"", "jitter.cv=0.05", 203, &a);
    simulate("job.cards=1024", "monte_carlo.mode=\"segments\"", "jitter.cv=0.05", 204, &b);
    assert_true(same_distribution(&a, &b, "1,024 cards, steps vs segments"));
}

static void test_power(void **state)
{
    (void)state;
    simulate("job.cards=48", "monte_carlo.mode=\"steps\"", "jitter.cv=0.05", 205, &a);
    simulate("job.cards=48", "monte_carlo.mode=\"steps\"", "jitter.cv=0.051", 206, &b);
    assert_false(same_distribution(&a, &b, "48 cards, cv 0.050 vs 0.051 (must differ)"));
}

/* modes-1.4 the segments mode gives the segment sum's exact skewness: one
 * segment of n = 16 steps on one lognormal card, cv 0.5, nothing else. A
 * card's time has skewness (cv^2 + 3) cv = 1.625, so the sum's is
 * 1.625 / sqrt(16) = 0.40625 (the skewness of a sum of n iid terms is
 * theirs over sqrt(n)). Estimator: gsl_stats_skew over 40,000 replicas;
 * SE from 40 batches of 1,000 (the sd of their skewness / sqrt(40));
 * tolerance 4 SE. */
static void test_segment_skew(void **state)
{
    (void)state;
    static const char json[] =
        "{\"name\":\"skew\",\"job\":{\"steps\":16,\"cards\":1,\"flop_per_step\":10,"
        "\"peak_flops\":1,\"efficiency\":1},\"jitter\":{\"distribution\":\"lognormal\","
        "\"cv\":0.5},\"checkpoint\":{\"interval_steps\":16,\"save_s\":0,\"restore_s\":0},"
        "\"deadline\":{\"days\":1},\"monte_carlo\":{\"mode\":\"segments\"}}";
    tmc_experiment x = test_parse(json);
    enum { N = 40000, B = 40 };
    static double wall[N];
    double batch[B];
    tmc_closed_form cf;
    test_run(&x, &cf, N, 77, wall);
    for (int b = 0; b < B; b++)
        batch[b] = gsl_stats_skew(wall + b * (N / B), 1, N / B);
    double want = 1.625 / sqrt(16.0);
    double got = gsl_stats_skew(wall, 1, N), se = gsl_stats_sd(batch, 1, B) / sqrt((double)B);
    if (fabs(got - want) > 4 * se)
        fail_msg("segment skewness %.4f, exact %.4f, se %.4f", got, want, se);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design_case),
        cmocka_unit_test(test_1024_cards),
        cmocka_unit_test(test_power),
        cmocka_unit_test(test_segment_skew),
    };
    return cmocka_run_group_tests_name("modes-1", tests, NULL, NULL);
}
