/* api_support.h - what the tests of the public interface (trainmc.h)
 * share: a case derived by hand, loading and running with a failed test on
 * any error, and a tolerance check that prints both numbers.
 * Include after cmocka.h. */
#ifndef TMC_API_SUPPORT_H
#define TMC_API_SUPPORT_H

#include <math.h>
#include <stdio.h>

#include "trainmc.h"

/* No jitter, no failures: 1000 steps of 100 s (8e14 FLOP on 8 cards of
 * 1e12 FLOP/s), a 10 s save every 250 steps, the last included
 * (docs/reference/simulation-semantics.md 7): every replica takes 100,040 s, so
 * T = 0.5 + 100,040 / 86,400 days. */
#define API_HAND_CASE                                                             \
    "{\"name\": \"hand\", \"source\": \"tests/api_support.h\","                   \
    " \"job\": {\"steps\": 1000, \"cards\": 8, \"flop_per_step\": 8e14,"          \
    "         \"peak_flops\": 1e12, \"efficiency\": 1.0},"                         \
    " \"checkpoint\": {\"interval_steps\": 250, \"save_s\": 10, \"restore_s\": 0}," \
    " \"deadline\": {\"days\": 2, \"reserve_days\": 0.5},"                          \
    " \"monte_carlo\": {\"replicas\": 20, \"seed\": 3}}"

/* |got - want| <= tol, with both printed when not. */
static inline void api_expect_near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s = %.17g, want %.17g within %g", what, got, want, tol);
}

/* The hand case with n overrides. */
static inline tmc_experiment *api_hand(const char *const *overrides, int n)
{
    tmc_status st;
    tmc_experiment *x = tmc_experiment_parse(API_HAND_CASE, "hand", NULL, overrides, n, &st);
    if (!x)
        fail_msg("%s", st.message);
    return x;
}

/* The file at `rel` under the source tree, with n overrides. */
static inline tmc_experiment *api_load(const char *rel, const char *const *overrides, int n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TMC_SOURCE_DIR, rel);
    tmc_status st;
    tmc_experiment *x = tmc_experiment_load(path, overrides, n, &st);
    if (!x)
        fail_msg("%s", st.message);
    return x;
}

/* Run x with options o (NULL: defaults). */
static inline tmc_result *api_run(const tmc_experiment *x, const tmc_run_options *o)
{
    tmc_status st;
    tmc_result *r = tmc_experiment_run(x, o, &st);
    if (!r)
        fail_msg("%s", st.message);
    assert_int_equal(st.code, TMC_OK);
    return r;
}

/* Run x and free it. */
static inline tmc_result *api_run_free(tmc_experiment *x, const tmc_run_options *o)
{
    tmc_result *r = api_run(x, o);
    tmc_experiment_free(x);
    return r;
}

#endif
