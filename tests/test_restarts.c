/* restarts-1.x: restarts per run and the restart budget (restarts.h,
 * deadline.max_restarts; issue 14).
 * restarts-1.1 the summary of hand-made runs: days {1, 2, 3, 4}, restarts
 *              {0, 1, 2, 5}, deadline 3.5 days, budget 1: runs 0 and 1 meet
 *              both, so P = 0.5; 2 runs are over the budget; mean 2, max 5;
 *              the closed form's Poisson mean W / M = 2 (W = 2 days, M = 1
 *              day) and P(Poisson(2) > 1) = 1 - 3 e^-2 = 0.593994.
 * restarts-1.2 two replayed outages (tests/restarts/two-outages.json, hand
 *              derived: 1000 steps of 100 s, a 10 s save every 250 steps,
 *              outages at 0.2 and 0.5 days, no restore time): every run
 *              restarts twice and takes 100,040 + 17,280 + 910 s, T = 0.5 +
 *              118,230 / 86,400 days < 2 days; budget 1: P = 0 (also for a
 *              precision target's figure), budget 2: P = 1; --samples' met
 *              column follows the budget.
 * restarts-1.3 no budget (-1, the default) and a budget no run reaches give
 *              the same P as before the feature, bit for bit.
 * restarts-1.4 an independent oracle: with exponential failures and little
 *              lost work the restarts of a run are Poisson; the simulated
 *              P(N > 3) equals the Poisson tail at the simulated mean within
 *              4 standard errors (estimator: share of 20,000 runs; se =
 *              sqrt(p (1 - p) / n)); the mean is near 5.78 (issue 14's
 *              example, P(N > 3) = 0.83).
 * restarts-1.5 a sweep through the library gives the run's P at the same
 *              setting and seed, budget included. */
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

#include "api_support.h"
#include "restarts.h"
#include "samples.h"

#define TOL_SE 4.0

#define expect_near api_expect_near

static void test_summary(void **state)
{
    (void)state;
    tmc_experiment x;
    memset(&x, 0, sizeof x);
    x.deadline.days = 3.5;
    x.deadline.reserve_days = 0.5;
    x.deadline.max_restarts = 1;
    tmc_closed_form cf;
    memset(&cf, 0, sizeof cf);
    cf.completion_days = cf.completion_days_daly = 2.5; /* W = 2 days */
    cf.mtbf_s = TMC_DAY_S;
    cf.rate_failures = 1 / TMC_DAY_S; /* one restart a day */
    double days[] = {1, 2, 3, 4}, restarts[] = {0, 1, 2, 5};
    tmc_summary d = {.met = 3, .p_met = 0.75};
    tmc_restarts r;
    tmc_error err = {""};
    assert_int_equal(tmc_restarts_summarize(restarts, days, 4, &x, &cf, &d, &r, &err), 0);
    assert_int_equal(d.met, 2);
    expect_near(d.p_met, 0.5, 0, "p_met");
    assert_int_equal(r.over, 2);
    expect_near(r.count.mean, 2, 1e-15, "mean restarts");
    expect_near(r.count.max, 5, 0, "max restarts");
    expect_near(r.poisson_mean, 2, 1e-12, "poisson mean");
    expect_near(r.poisson_p_over, 1 - 3 * exp(-2), 1e-12, "poisson tail");
    assert_true(tmc_restarts_met(3.5, 1, &x.deadline));
    assert_false(tmc_restarts_met(3.5, 2, &x.deadline));
    x.deadline.max_restarts = -1;
    assert_true(tmc_restarts_met(3.5, 1e9, &x.deadline));
}

static char *path_of(const char *rel)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", TMC_SOURCE_DIR, rel);
    return path;
}

static tmc_result *run_with(const char *rel, const char *const *sets, int n,
                            const char *precision)
{
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.precision = precision;
    return api_run_free(api_load(rel, sets, n), &o);
}

static void test_two_outages(void **state)
{
    (void)state;
    const char *one[] = {"deadline.max_restarts=1"}, *two[] = {"deadline.max_restarts=2"};
    tmc_result *r = run_with("tests/restarts/two-outages.json", one, 1, NULL);
    const double *days = tmc_result_completion_days(r);
    for (long k = 0; k < tmc_result_replicas(r); k++)
        expect_near(days[k], 0.5 + 118230.0 / 86400, 1e-12, "T");
    expect_near(tmc_result_number(r, "restarts.mean"), 2, 0, "restarts.mean");
    expect_near(tmc_result_number(r, "restarts.p_over_budget"), 1, 0, "p over budget");
    expect_near(tmc_result_number(r, "deadline.probability"), 0, 0, "P, budget 1");
    assert_non_null(strstr(tmc_result_json(r), "\"max_restarts\":1"));

    /* --samples marks each run a miss */
    tmc_sample s[2];
    memset(s, 0, sizeof s);
    s[0].wall_s = s[1].wall_s = 118230;
    s[0].count[TMC_COUNT_outages] = 2;
    s[1].count[TMC_COUNT_outages] = 1;
    tmc_status st;
    tmc_experiment *x = tmc_experiment_load(path_of("tests/restarts/two-outages.json"), one, 1,
                                            &st);
    char *csv = tmc_samples_csv(s, 2, x);
    assert_non_null(strstr(csv, "\n0,1.86840277777777"));
    assert_non_null(strstr(csv, ",0,0,0,2,")); /* replica 0: a miss (met 0) */
    assert_non_null(strstr(csv, ",1,0,0,1,")); /* replica 1: met */
    free(csv);
    tmc_experiment_free(x);
    tmc_result_free(r);

    r = run_with("tests/restarts/two-outages.json", one, 1, "deadline.probability:abs=0.5");
    expect_near(tmc_result_number(r, "precision.value"), 0, 0, "precision figure, budget 1");
    tmc_result_free(r);
    r = run_with("tests/restarts/two-outages.json", two, 1, NULL);
    expect_near(tmc_result_number(r, "deadline.probability"), 1, 0, "P, budget 2");
    expect_near(tmc_result_number(r, "restarts.p_over_budget"), 0, 0, "p over budget 2");
    tmc_result_free(r);
}

static void test_no_budget(void **state)
{
    (void)state;
    /* a deadline near the median T, so P is far from 0 and 1 */
    const char *none[] = {"deadline.max_restarts=-1", "monte_carlo.replicas=3000",
                          "deadline.days=27.08"};
    const char *huge[] = {"deadline.max_restarts=1000000", "monte_carlo.replicas=3000",
                          "deadline.days=27.08"};
    const char *plain[] = {"monte_carlo.replicas=3000", "deadline.days=27.08"};
    tmc_result *a = run_with("experiments/design-48-stress.json", none, 3, NULL);
    tmc_result *b = run_with("experiments/design-48-stress.json", huge, 3, NULL);
    tmc_result *c = run_with("experiments/design-48-stress.json", plain, 2, NULL);
    double pa = tmc_result_number(a, "deadline.probability");
    assert_true(pa > 0.05 && pa < 0.95); /* the stress case misses sometimes */
    expect_near(tmc_result_number(b, "deadline.probability"), pa, 0, "P, huge budget");
    expect_near(tmc_result_number(c, "deadline.probability"), pa, 0, "P, no key");
    assert_true(isnan(tmc_result_number(a, "restarts.p_over_budget")));
    tmc_result_free(a);
    tmc_result_free(b);
    tmc_result_free(c);
}

/* 1000 steps of 100 s on 64 cards, a save after every step (50 s lost a failure),
 * per-card MTBF 12.8 days: about 5.79 failures per run. */
static const char poisson_case[] =
    "{\"name\": \"poisson\", \"source\": \"test_restarts.c\","
    " \"job\": {\"steps\": 1000, \"cards\": 64, \"flop_per_step\": 6.4e15,"
    "         \"peak_flops\": 1e12, \"efficiency\": 1.0},"
    " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 12.8},"
    " \"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0.001, \"restore_s\": 0.001},"
    " \"deadline\": {\"days\": 100, \"reserve_days\": 0, \"max_restarts\": 3},"
    " \"monte_carlo\": {\"replicas\": 20000, \"seed\": 17}}";

static void test_poisson(void **state)
{
    (void)state;
    tmc_status st;
    tmc_experiment *x = tmc_experiment_parse(poisson_case, "poisson", NULL, NULL, 0, &st);
    if (!x)
        fail_msg("%s", st.message);
    tmc_result *r = tmc_experiment_run(x, NULL, &st);
    tmc_experiment_free(x);
    if (!r)
        fail_msg("%s", st.message);
    double mean = tmc_result_number(r, "restarts.mean");
    double p = tmc_result_number(r, "restarts.p_over_budget");
    double want = gsl_cdf_poisson_Q(3, mean);
    double se = sqrt(want * (1 - want) / 20000);
    print_message("restarts: mean %.4f, P(N > 3) %.4f, Poisson %.4f (%.2f se)\n", mean, p,
                  want, (p - want) / se);
    expect_near(p, want, TOL_SE * se, "P(N > 3) against the Poisson tail");
    expect_near(mean, 5.78, 0.1, "mean restarts");
    expect_near(tmc_result_number(r, "deadline.probability"), 1 - p, 1e-12,
                "P = within budget");
    tmc_result_free(r);
}

static void test_sweep_agrees(void **state)
{
    (void)state;
    const char *sets[] = {"deadline.max_restarts=1", "monte_carlo.replicas=400"};
    const char *vary[] = {"checkpoint.interval_s=900,1800"};
    tmc_status st;
    tmc_sweep *s = tmc_experiment_sweep(path_of("experiments/design-48-stress.json"), sets, 2,
                                        vary, 1, NULL, &st);
    if (!s)
        fail_msg("%s", st.message);
    const char *at[] = {"deadline.max_restarts=1", "monte_carlo.replicas=400",
                        "checkpoint.interval_s=1800"};
    tmc_result *r = run_with("experiments/design-48-stress.json", at, 3, NULL);
    double p = tmc_result_number(r, "deadline.probability");
    assert_true(p < tmc_result_number(r, "restarts.p_over_budget") + 1);
    expect_near(tmc_sweep_number(s, "settings.1.deadline.probability"), p, 0,
                "the sweep's P at 1800 s");
    expect_near(tmc_sweep_number(s, "settings.1.restarts.mean"),
                tmc_result_number(r, "restarts.mean"), 0, "restarts.mean");
    tmc_result_free(r);
    tmc_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_two_outages),
        cmocka_unit_test(test_no_budget),
        cmocka_unit_test(test_poisson),
        cmocka_unit_test(test_sweep_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
