/* assumed-1.x: the defaults a run assumes (assumed.h) are listed exactly when
 * they matter, each just past its threshold and just short of it, on the
 * 48-card design (t_s = 52.758 s a step, M = 337 days / 48 = 606,600 s,
 * r = 120 s, per-card failures, spares -1, no causes, no outages, jitter or
 * spikes), and the closed form's verdict is called contradicted exactly in
 * the three cases of tmc_assumed_contradicts.
 * assumed-1.1 the design case: spares, detection, outages, spikes (19.4
 *             days of work); not jitter (48 cards), not fixed restores
 *             (r / M = 120 / 606,600 < 0.001: W / M restores of r are r / M
 *             of the work W).
 * assumed-1.2 outages: 1,650 steps (87,051 s) listed, 1,630 (85,996 s) not:
 *             a day is 86,400 s.
 * assumed-1.3 loss spikes: 11,470 steps (605,134 s) listed, 11,455 (604,343
 *             s) not: 7 days are 604,800 s.
 * assumed-1.4 fixed restores: r = 610 s (r / M = 0.001006) listed, 600 s
 *             (0.000989) not; restore_cv 0.5 not.
 * assumed-1.5 jitter: 256 cards listed, 255 not; 256 cards with cv 0.05 not.
 * assumed-1.6 spares: a pool of 0 or 4 not; only job failures (no card
 *             taken) not; detection: a cause with a delay not.
 * assumed-1.7 contradiction: meets with P 0.49 (yes) and 0.5 (no); misses
 *             with P 0.51 (yes) and 0.5 (no); Young's T below p01 or above
 *             p99 (yes), at either end (no).
 * assumed-1.8 the tolerance: [p01, p99] widened by 3 se + 1e-6 of T. With
 *             no spread (p01 = p99 = 24.589, se 0) T 1e-5 days off is no
 *             contradiction, 5e-5 off is (1e-6 x 24.589 = 2.46e-5); with
 *             se 0.1 T 0.5 days outside is (0.3 + 2.5e-5 < 0.5), with se
 *             0.2 it is not (0.6 > 0.5).
 * assumed-1.13 P's interval decides, not its estimate: meets with P 0.4983
 *             in [0.4885, 0.5081] (a new user's seed 4, 10,000 replicas) is a
 *             coin flip, no contradiction; in [0.480, 0.4999] it is one;
 *             misses with P 0.52 in [0.4999, 0.54] is none, in [0.5001,
 *             0.54] it is one.
 * assumed-1.9 the share of runs in words: 1 "in every run", 0 "in no
 *             run", else 4 decimals ("in only 0.4900 of runs").
 * assumed-1.10 stated or default, as the files give them: design-48's
 *             spares and causes are its distribution file's defaults (not
 *             stated), its "outages": null and "loss_spikes": null are
 *             stated, --set failures.spares=-1 states spares; quickstart-64
 *             has no "outages" key (default), --set outages=null states it
 *             (null removes the key from the document); cards-1024 states
 *             "cv": 0.0, not restore_cv (stated by --set ...=0).
 * assumed-1.11 causes without a detection delay (standbys-1024: one cause,
 *             "host", no detection_s): listed as
 *             failures.causes[i].detection_s = 0, not "failures.causes
 *             none"; stated by --set failures.causes[0].detection_s=0; not
 *             listed with 600 s.
 * assumed-1.14 the warning before a time limit (design-48-slurm-100h,
 *             at_limit "save", save 16.38 s): time_limit.notice_s not
 *             given is listed (a save assumed to fit); a warning of 120 s
 *             or of 10 s (too short: the limit then loses the work, no
 *             assumption left) is not; at_limit "lose" is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "assumed.h"
#include "support.h"

/* The item of key in the list of experiments/NAME.json with the overrides
 * (into *out): 1 when listed, else 0. */
static int find(const char *name, const char *const *sets, int n, const char *key,
                tmc_assumed_item *out)
{
    tmc_experiment x = test_load(name, sets, n);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_assumed a;
    tmc_assumed_list(&x, &cf, &a);
    for (int i = 0; i < a.n; i++)
        if (!strcmp(a.item[i].key, key)) {
            *out = a.item[i];
            return 1;
        }
    return 0;
}

static int listed(const char *name, const char *const *sets, int n, const char *key)
{
    tmc_assumed_item it;
    return find(name, sets, n, key, &it);
}

/* The item of key (into *out), or fail. */
static void item_of(const char *name, const char *const *sets, int n, const char *key,
                    tmc_assumed_item *out)
{
    if (!find(name, sets, n, key, out))
        fail_msg("%s: %s not listed", name, key);
}

static void expect(const char *set1, const char *set2, const char *key, int want)
{
    const char *sets[2] = {set1, set2};
    int n = set2 ? 2 : set1 ? 1 : 0;
    if (listed("design-48", sets, n, key) != want)
        fail_msg("design-48 with %s %s: %s %s, want %s", set1 ? set1 : "", set2 ? set2 : "",
                 key, want ? "not listed" : "listed", want ? "listed" : "not");
}

/* assumed-1.1 */
static void test_design(void **state)
{
    (void)state;
    tmc_experiment x = test_load("design-48", NULL, 0);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_assumed a;
    tmc_assumed_list(&x, &cf, &a);
    const char *want[] = {"failures.spares", "failures.causes", "outages", "loss_spikes"};
    assert_int_equal(a.n, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(a.item[i].key, want[i]);
    assert_string_equal(a.item[0].value, "-1");
}

/* assumed-1.2 */
static void test_outages(void **state)
{
    (void)state;
    expect("job.steps=1650", NULL, "outages", 1);
    expect("job.steps=1630", NULL, "outages", 0);
}

/* assumed-1.3 */
static void test_spikes(void **state)
{
    (void)state;
    expect("job.steps=11470", NULL, "loss_spikes", 1);
    expect("job.steps=11455", NULL, "loss_spikes", 0);
}

/* assumed-1.4 */
static void test_restores(void **state)
{
    (void)state;
    expect("checkpoint.restore_s=610", NULL, "checkpoint.restore_cv", 1);
    expect("checkpoint.restore_s=600", NULL, "checkpoint.restore_cv", 0);
    expect("checkpoint.restore_s=610", "checkpoint.restore_cv=0.5", "checkpoint.restore_cv", 0);
}

/* assumed-1.5 */
static void test_jitter(void **state)
{
    (void)state;
    expect("job.cards=256", NULL, "jitter.cv", 1);
    expect("job.cards=255", NULL, "jitter.cv", 0);
    expect("job.cards=256", "jitter.cv=0.05", "jitter.cv", 0);
}

/* assumed-1.6 */
static void test_spares(void **state)
{
    (void)state;
    expect("failures.spares=0", NULL, "failures.spares", 0);
    expect("failures.spares=4", NULL, "failures.spares", 0);
    expect("failures={\"distribution\": \"exponential\", \"per_job_mtbf_days\": 30}", NULL,
           "failures.spares", 0);
    expect("failures={\"distribution\": \"exponential\", \"per_job_mtbf_days\": 30}", NULL,
           "failures.causes", 1);
    expect("failures.causes=[{\"name\": \"hang\", \"share\": 1, \"detection_s\": 600}]", NULL,
           "failures.causes", 0);
}

/* assumed-1.12: a finite pool whose spares join at once (spare_provision_s
 * 0) is listed; a provisioning time, unlimited spares or a pool of none
 * (nothing is taken from a pool) or job failures only (no spare taken) are
 * not; a file or an
 * override that gives 0 makes it Stated. */
static void test_provision(void **state)
{
    (void)state;
    const char *key = "failures.spare_provision_s";
    expect("failures.spares=4", NULL, key, 1);
    expect("failures.spares=4", "failures.spare_provision_s=600", key, 0);
    expect(NULL, NULL, key, 0);
    expect("failures.spares=0", NULL, key, 0);
    expect("failures={\"distribution\": \"exponential\", \"per_job_mtbf_days\": 30, "
           "\"spares\": 4}", NULL, key, 0);
    const char *sets[2] = {"failures.spares=4", "failures.spare_provision_s=0"};
    tmc_assumed_item it;
    item_of("design-48", sets, 1, key, &it);
    assert_false(it.stated);
    item_of("design-48", sets, 2, key, &it);
    assert_true(it.stated);
}

static char why[192];

/* tmc_assumed_contradicts on Young's T (days) against a deadline (days), a
 * simulated P with its 95 % interval [lo, hi] (lo = hi = p: a point), T's
 * p01..p99 (days) and the standard error of T's mean (days); the message in
 * why, which must be non-empty exactly when it contradicts. */
static int contradicts(double young, double deadline, double p, double lo, double hi,
                       double p01, double p99, double se)
{
    double ps[3] = {p, lo, hi};
    int c = tmc_assumed_contradicts("Young's T", young, deadline, ps, p01, p99, se, why,
                                    sizeof why);
    assert_int_equal(c, why[0] != '\0');
    return c;
}

/* assumed-1.13 */
static void test_interval(void **state)
{
    (void)state;
    assert_false(contradicts(20.69, 21, 0.4983, 0.4885, 0.5081, 20.69, 20.69, 0));
    assert_true(contradicts(20.69, 21, 0.49, 0.480, 0.4999, 20.69, 20.69, 0));
    assert_false(contradicts(21.2, 21, 0.52, 0.4999, 0.54, 21.2, 21.2, 0));
    assert_true(contradicts(21.2, 21, 0.52, 0.5001, 0.54, 21.2, 21.2, 0));
}

/* assumed-1.7 */
static void test_contradiction(void **state)
{
    (void)state;
    assert_true(contradicts(25, 30, 0.49, 0.49, 0.49, 24, 26, 0));
    assert_false(contradicts(25, 30, 0.5, 0.5, 0.5, 24, 26, 0));
    assert_true(contradicts(31, 30, 0.51, 0.51, 0.51, 30, 32, 0));
    assert_false(contradicts(31, 30, 0.5, 0.5, 0.5, 30, 32, 0));
    assert_true(contradicts(25, 30, 1, 1, 1, 25.5, 26, 0));
    assert_true(contradicts(25, 30, 1, 1, 1, 24, 24.5, 0));
    assert_false(contradicts(25, 30, 1, 1, 1, 25, 25, 0));
}

/* assumed-1.8 */
static void test_tolerance(void **state)
{
    (void)state;
    /* no spread (se 0): 1e-6 of T = 24.589e-6 = 2.4589e-5 days each way */
    assert_false(contradicts(24.58899, 30, 1, 1, 1, 24.589, 24.589, 0));  /* 1e-5 off */
    assert_false(contradicts(24.58901, 30, 1, 1, 1, 24.589, 24.589, 0));
    assert_true(contradicts(24.58895, 30, 1, 1, 1, 24.589, 24.589, 0));   /* 5e-5 off */
    assert_true(contradicts(24.58905, 30, 1, 1, 1, 24.589, 24.589, 0));
    /* 3 se: se 0.1 widens by 0.300025, se 0.2 by 0.600025; T 25 is 0.5 below 25.5 */
    assert_true(contradicts(25, 30, 1, 1, 1, 25.5, 26, 0.1));
    assert_false(contradicts(25, 30, 1, 1, 1, 25.5, 26, 0.2));
    assert_false(contradicts(26.5, 30, 1, 1, 1, 25, 26, 0.2));
    assert_true(contradicts(26.5, 30, 1, 1, 1, 25, 26, 0.1));
    assert_non_null(strstr(why, "Young's T 26.5000 days lies outside the simulated p01..p99 "
                                "[25.0000, 26.0000]"));
}

/* assumed-1.9 */
static void test_share_words(void **state)
{
    (void)state;
    assert_true(contradicts(31, 30, 1, 1, 1, 1, 99, 0));
    assert_string_equal(why, "the closed form misses the deadline, the simulation meets it "
                             "in every run");
    assert_true(contradicts(31, 30, 0.75, 0.75, 0.75, 1, 99, 0));
    assert_string_equal(why, "the closed form misses the deadline, the simulation meets it "
                             "in 0.7500 of runs");
    assert_true(contradicts(25, 30, 0.49, 0.49, 0.49, 1, 99, 0));
    assert_string_equal(why, "the closed form meets the deadline, the simulation meets it "
                             "in only 0.4900 of runs");
    assert_true(contradicts(25, 30, 0, 0, 0, 1, 99, 0));
    assert_string_equal(why, "the closed form meets the deadline, the simulation meets it "
                             "in no run");
}

/* assumed-1.10 */
static void test_stated(void **state)
{
    (void)state;
    tmc_assumed_item it;
    const char *none[1] = {NULL};
    item_of("design-48", none, 0, "failures.spares", &it); /* from the distribution file */
    assert_false(it.stated);
    item_of("design-48", none, 0, "failures.causes", &it);
    assert_false(it.stated);
    assert_string_equal(it.value, "none");
    item_of("design-48", none, 0, "outages", &it);          /* "outages": null */
    assert_true(it.stated);
    item_of("design-48", none, 0, "loss_spikes", &it);      /* "loss_spikes": null */
    assert_true(it.stated);
    const char *spares[1] = {"failures.spares=-1"};
    item_of("design-48", spares, 1, "failures.spares", &it);
    assert_true(it.stated);
    item_of("quickstart-64", none, 0, "outages", &it);      /* no "outages" key */
    assert_false(it.stated);
    const char *off[1] = {"outages=null"};                  /* removes the key, states it */
    item_of("quickstart-64", off, 1, "outages", &it);
    assert_true(it.stated);
    item_of("cards-1024", none, 0, "jitter.cv", &it);       /* "cv": 0.0 */
    assert_true(it.stated);
    item_of("cards-1024", none, 0, "checkpoint.restore_cv", &it);
    assert_false(it.stated);
    const char *cv[1] = {"checkpoint.restore_cv=0"};
    item_of("cards-1024", cv, 1, "checkpoint.restore_cv", &it);
    assert_true(it.stated);
}

/* assumed-1.11 */
static void test_causes_without_delay(void **state)
{
    (void)state;
    tmc_assumed_item it;
    const char *none[1] = {NULL};
    expect(NULL, NULL, "failures.causes", 1);
    assert_int_equal(listed("standbys-1024", none, 0, "failures.causes"), 0);
    item_of("standbys-1024", none, 0, "failures.causes[i].detection_s", &it);
    assert_string_equal(it.value, "0");
    assert_false(it.stated);
    assert_non_null(strstr(it.why, "no cause has a detection delay"));
    const char *zero[1] = {"failures.causes[0].detection_s=0"};
    item_of("standbys-1024", zero, 1, "failures.causes[i].detection_s", &it);
    assert_true(it.stated);
    const char *delay[1] = {"failures.causes[0].detection_s=600"};
    assert_int_equal(listed("standbys-1024", delay, 1, "failures.causes[i].detection_s"), 0);
}

/* assumed-1.14 */
static void test_limit_notice(void **state)
{
    (void)state;
    tmc_assumed_item it;
    const char *none[1] = {NULL};
    item_of("design-48-slurm-100h", none, 0, "time_limit.notice_s", &it);
    assert_string_equal(it.value, "none");
    assert_false(it.stated);
    assert_non_null(strstr(it.why, "assumed to hold the 16.38 s save"));
    static const char *const given[3] = {"time_limit.notice_s=120", "time_limit.notice_s=10",
                                         "time_limit.at_limit=lose"};
    for (int i = 0; i < 3; i++)
        if (listed("design-48-slurm-100h", &given[i], 1, "time_limit.notice_s"))
            fail_msg("%s: time_limit.notice_s listed", given[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_design),  cmocka_unit_test(test_outages),
        cmocka_unit_test(test_spikes),  cmocka_unit_test(test_restores),
        cmocka_unit_test(test_jitter),  cmocka_unit_test(test_spares),
        cmocka_unit_test(test_contradiction), cmocka_unit_test(test_tolerance),
        cmocka_unit_test(test_share_words), cmocka_unit_test(test_stated),
        cmocka_unit_test(test_causes_without_delay), cmocka_unit_test(test_provision),
        cmocka_unit_test(test_interval),    cmocka_unit_test(test_limit_notice),
    };
    return cmocka_run_group_tests_name("assumed-1", tests, NULL, NULL);
}
