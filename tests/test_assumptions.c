/* assume-1.x: the closed forms' broken assumptions (assumptions.h) appear
 * exactly when an assumption fails: for each check, a case just past its
 * threshold (it appears, alone) and one just short of it (nothing appears),
 * on the 48-card design (M = 337 days / 48 = 606,600 s, tau = 34 steps of
 * 52.76 s = 1,793.8 s, c = 16.38 s, r = 120 s), which breaks none.
 * assume-1.1 the design case: no warning.
 * assume-1.2 interval_vs_mtbf: (tau + c) / M at 0.105 and 0.095.
 * assume-1.3 restore_vs_mtbf: (r + D) / M at 0.105 and 0.095 (r alone).
 * assume-1.4 save_vs_interval: c = 0.55 tau and 0.45 tau; the message names
 *            Daly's optimum; with nothing failing it says one save would do.
 * assume-1.5 failure_law: Weibull shape 0.7 and lognormal fire, shape 1 does
 *            not; a replayed trace fires.
 * assume-1.6 spares: 2 spares fire, no spares (each failure waits its own
 *            repair, which the closed form holds in D) and an unlimited pool
 *            do not; no spares with 48 h repairs fire restore_vs_mtbf.
 * assume-1.7 slow_cards: 0.5 % slow cards fire, fraction 0 does not;
 * assume-1.8 time_limit: allocations 1.05 M long fire (more than one other
 *            interruption in one on average), 0.95 M do not.
 * assume-1.9 scale: rates measured at 6 or 384 cards (exactly 8x either way
 *            from 48) do not fire, at 5 (9.6x) and 385 cards do; a mixed
 *            per-card, per-node and per-job model without measured_cards
 *            does not.
 * assume-1.10 save_times: saves of cv 0.01 fire; restores of cv 0.5 alone
 *            and a timeout that no fixed save reaches (17 s against 16.38 s)
 *            do not; the 70B case (a 6.5 % chance of a timeout) fires. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "assumptions.h"
#include "support.h"

/* The checks that fire for experiments/NAME.json with the overrides, as
 * "key key ..." (empty: none). */
static const char *fired(const char *name, const char *const *sets, int n, char *buf,
                         size_t size, tmc_assumptions *a)
{
    tmc_experiment x = test_load(name, sets, n);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_assumptions_check(&x, &cf, a);
    buf[0] = '\0';
    for (int i = 0; i < a->n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", i ? " " : "", a->key[i]);
    }
    return buf;
}

static void expect(const char *name, const char *set, const char *want)
{
    const char *sets[1] = {set};
    char buf[256];
    tmc_assumptions a;
    fired(name, sets, set ? 1 : 0, buf, sizeof buf, &a);
    if (strcmp(buf, want) != 0)
        fail_msg("%s with %s: fired \"%s\", want \"%s\"", name, set ? set : "nothing", buf,
                 want);
}

/* tau, c and M of the design case. */
static void design(double *tau, double *m)
{
    tmc_experiment x = test_load("design-48", NULL, 0);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    *tau = cf.interval_s;
    *m = cf.mtbf_s;
}

static void test_design(void **state)
{
    (void)state;
    expect("design-48", NULL, "");
}

static void test_interval(void **state)
{
    (void)state;
    double tau, m;
    design(&tau, &m);
    char set[96];
    /* interval_s is rounded to whole steps: aim the ratio of the result */
    snprintf(set, sizeof set, "checkpoint.interval_s=%.0f", 0.106 * m);
    expect("design-48", set, "interval_vs_mtbf");
    snprintf(set, sizeof set, "checkpoint.interval_s=%.0f", 0.094 * m);
    expect("design-48", set, "");
}

static void test_restore(void **state)
{
    (void)state;
    double tau, m;
    design(&tau, &m);
    char set[96];
    snprintf(set, sizeof set, "checkpoint.restore_s=%.0f", 0.105 * m);
    expect("design-48", set, "restore_vs_mtbf");
    snprintf(set, sizeof set, "checkpoint.restore_s=%.0f", 0.095 * m);
    expect("design-48", set, "");
}

static void test_save(void **state)
{
    (void)state;
    double tau, m;
    design(&tau, &m);
    char set[96];
    snprintf(set, sizeof set, "checkpoint.save_s=%.3f", 0.55 * tau);
    expect("design-48", set, "save_vs_interval");
    snprintf(set, sizeof set, "checkpoint.save_s=%.3f", 0.45 * tau);
    expect("design-48", set, "");
    const char *sets[1] = {set};
    char buf[256];
    tmc_assumptions a;
    snprintf(set, sizeof set, "checkpoint.save_s=%.3f", 0.55 * tau);
    fired("design-48", sets, 1, buf, sizeof buf, &a);
    assert_non_null(strstr(a.message[0], "Daly's optimum interval is"));
    const char *no_failures[2] = {set, "failures=null"};
    fired("design-48", no_failures, 2, buf, sizeof buf, &a);
    assert_string_equal(buf, "save_vs_interval");
    assert_non_null(strstr(a.message[0], "one save at the end would do"));
}

static void test_failure_law(void **state)
{
    (void)state;
    expect("design-48-weibull", NULL, "failure_law");
    expect("design-48-weibull", "failures.shape=1", "");
    expect("design-48", "failures={\"distribution\": \"lognormal\", "
                        "\"per_card_mtbf_days\": 337}", "failure_law");
    expect("design-48-trace", NULL, "failure_law");
}

static void test_spares(void **state)
{
    (void)state;
    expect("design-48", "failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "337, \"spares\": 2, \"repair_mean_hours\": 48}", "spares");
    /* no spares: a 48 h repair is part of D, and (r + D) / M = 0.29 says so */
    expect("design-48", "failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "337, \"spares\": 0, \"repair_mean_hours\": 48}", "restore_vs_mtbf");
    expect("design-48", "failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "337, \"spares\": 0, \"repair_mean_hours\": 1}", "");
    expect("design-48", "failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                        "337, \"spares\": -1, \"repair_mean_hours\": 48}", "");
}

static void test_slow_cards(void **state)
{
    (void)state;
    expect("design-48-stress-slow-cards", NULL, "slow_cards");
    expect("design-48-stress-slow-cards", "slow_cards.fraction=0", "");
}

static void test_time_limit(void **state)
{
    (void)state;
    double tau, m;
    design(&tau, &m);
    char set[96];
    snprintf(set, sizeof set, "time_limit={\"wall_hours\": %.10g}", 1.05 * m / 3600);
    expect("design-48", set, "time_limit");
    snprintf(set, sizeof set, "time_limit={\"wall_hours\": %.10g}", 0.95 * m / 3600);
    expect("design-48", set, "");
}

/* assume-1.9 */
static void test_scale(void **state)
{
    (void)state;
    expect("design-48", "failures.measured_cards=6", "");
    expect("design-48", "failures.measured_cards=5", "scale");
    expect("design-48", "failures.measured_cards=384", "");
    expect("design-48", "failures.measured_cards=385", "scale");
    expect("design-48", "failures={\"per_card_mtbf_days\": 674, \"per_node_mtbf_days\": "
                        "84.25, \"cards_per_node\": 8, \"per_job_mtbf_days\": 1e6}", "");
}

/* assume-1.10 */
static void test_save_times(void **state)
{
    (void)state;
    expect("design-48", "checkpoint.save_cv=0.01", "save_times");
    expect("design-48", "checkpoint.restore_cv=0.5", "");
    expect("design-48", "checkpoint.save_timeout_s=17", "");
    expect("save-timeout-70b", "checkpoint.save_cv=0.08", "interval_vs_mtbf save_times");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_save_times),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_design),   cmocka_unit_test(test_interval),
        cmocka_unit_test(test_restore),  cmocka_unit_test(test_save),
        cmocka_unit_test(test_failure_law), cmocka_unit_test(test_spares),
        cmocka_unit_test(test_slow_cards), cmocka_unit_test(test_time_limit),
    };
    return cmocka_run_group_tests_name("assume-1", tests, NULL, NULL);
}
