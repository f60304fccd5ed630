/* cost-1.x: card-hours and money of a run (cost.h; issue 20), on a case
 * derived by hand: no jitter, no failures, 1000 steps of 100 s on 8 cards,
 * a 10 s save every 250 steps, so every replica's wall time is 100,040 s
 * and T = 0.5 + 100,040 / 86,400 days.
 * cost-1.1 card-hours = 8 x 100,040 / 3,600 = 222.311... for every replica
 *          (mean, every quantile and the closed form alike); no money
 *          without a cost section.
 * cost-1.2 cost.reserve "held" bills the half-day reserve too:
 *          8 x (100,040 / 3,600 + 12) = 318.311...
 * cost-1.3 prices: 2 a card-hour plus 0.45 kWh at 0.2 a kWh, 100 fixed:
 *          100 + 222.311 x 2.09 = 564.63...
 * cost-1.4 a pool of 2 spares is held too: 10 cards, 277.88... card-hours.
 * cost-1.5 with jitter the card-hours' quantiles are T's, mapped: p95 =
 *          48 x 24 x (T p95 - reserve) on the 48-card design. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "api_support.h"

#define near api_expect_near

/* The hand case with n overrides, run. */
static tmc_result *run(const char *const *sets, int n)
{
    return api_run_free(api_hand(sets, n), NULL);
}

static void test_card_hours(void **state)
{
    (void)state;
    tmc_result *r = run(NULL, 0);
    double want = 8 * 100040.0 / 3600;
    near(tmc_result_number(r, "cost.cards_held"), 8, 0, "cards held");
    near(tmc_result_number(r, "cost.card_hours.mean"), want, 1e-9, "card-hours");
    near(tmc_result_number(r, "cost.card_hours.quantiles.p95"), want, 1e-9, "p95");
    near(tmc_result_number(r, "cost.card_hours.closed_form"), want, 1e-9, "closed form");
    assert_non_null(strstr(tmc_result_json(r), "\"money\":null"));
    tmc_result_free(r);
}

static void test_reserve_held(void **state)
{
    (void)state;
    const char *sets[] = {"cost={\"card_hour_price\": 1, \"reserve\": \"held\"}"};
    tmc_result *r = run(sets, 1);
    near(tmc_result_number(r, "cost.card_hours.mean"), 8 * (100040.0 / 3600 + 12), 1e-9,
         "card-hours with the reserve");
    tmc_result_free(r);
}

static void test_money(void **state)
{
    (void)state;
    const char *sets[] = {"cost={\"card_hour_price\": 2, \"energy_kwh_per_card_hour\": 0.45, "
                          "\"energy_price_per_kwh\": 0.2, \"fixed\": 100}"};
    tmc_result *r = run(sets, 1);
    double want = 100 + 8 * 100040.0 / 3600 * 2.09;
    near(tmc_result_number(r, "cost.money.mean"), want, 1e-9, "money");
    near(tmc_result_number(r, "cost.money.per_card_hour"), 2.09, 1e-12, "price per card-hour");
    near(tmc_result_number(r, "cost.money.quantiles.p50"), want, 1e-9, "money p50");
    near(tmc_result_number(r, "cost.money.closed_form"), want, 1e-9, "money closed form");
    tmc_result_free(r);
}

static void test_spares(void **state)
{
    (void)state;
    const char *sets[] = {"failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                          "1e9, \"spares\": 2, \"repair_mean_hours\": 1}"};
    tmc_result *r = run(sets, 1);
    near(tmc_result_number(r, "cost.cards_held"), 10, 0, "cards held with 2 spares");
    near(tmc_result_number(r, "cost.card_hours.mean"), 10 * 100040.0 / 3600, 1e-6,
         "card-hours with spares");
    tmc_result_free(r);
    /* warm standbys are held the whole run too (docs/model.md 3.20) */
    const char *warm[] = {"failures={\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
                          "1e9, \"spares\": 2, \"repair_mean_hours\": 1, \"standbys\": 3}"};
    r = run(warm, 1);
    near(tmc_result_number(r, "cost.cards_held"), 13, 0, "cards held with 2 spares, 3 standbys");
    tmc_result_free(r);
}

static void test_quantiles_mapped(void **state)
{
    (void)state;
    const char *sets[] = {"monte_carlo.replicas=500"};
    tmc_result *r = api_run_free(api_load("experiments/design-48-stress.json", sets, 1), NULL);
    double t95 = tmc_result_number(r, "completion_days.quantiles.p95");
    near(tmc_result_number(r, "cost.card_hours.quantiles.p95"), 48 * 24 * (t95 - 5), 1e-6,
         "p95 card-hours = T's p95 mapped");
    tmc_result_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_card_hours), cmocka_unit_test(test_reserve_held),
        cmocka_unit_test(test_money),      cmocka_unit_test(test_spares),
        cmocka_unit_test(test_quantiles_mapped),
    };
    return cmocka_run_group_tests_name("cost-1", tests, NULL, NULL);
}
