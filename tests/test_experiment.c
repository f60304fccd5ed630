/* experiment-1.x: the experiment's size and the ownership of its heap parts
 * (src/core/experiment.h, issue 31).
 * experiment-1.1 sizeof(tmc_experiment) <= 8192 bytes: small enough for a
 *                stack frame and a copy by value (it was 171 kB);
 * experiment-1.2 a deep copy (tmc_experiment_copy) of a loaded experiment
 *                holds the trace, overrides, path and inputs at addresses of
 *                its own, and they stay whole after the original is
 *                released: the trace against the CSV file read here, the
 *                overrides and path against what was given;
 * experiment-1.3 a release empties the heap parts, so a second one is
 *                harmless. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"

#define EXPERIMENT TMC_SOURCE_DIR "/experiments/design-48-trace.json"
#define TRACE_CSV TMC_SOURCE_DIR "/distributions/failures/trace-example.csv"

static const char *const sets[2] = {"job.cards=96", "name=copied"};

static tmc_experiment load(void)
{
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_load(EXPERIMENT, sets, 2, &x, &err))
        fail_msg("%s", err.msg);
    return x;
}

/* The times of the trace file as its format states them (a header
 * time_days, '#' comments), read apart from the loader: *n of them. */
static double *csv_times(int *n)
{
    FILE *fp = fopen(TRACE_CSV, "r");
    assert_non_null(fp);
    double *t = malloc(TMC_MAX_TRACE * sizeof *t);
    assert_non_null(t);
    char line[256];
    *n = 0;
    while (fgets(line, sizeof line, fp))
        if (line[0] != '#' && strncmp(line, "time_days", 9) != 0 && line[0] != '\n')
            t[(*n)++] = atof(line);
    fclose(fp);
    return t;
}

static void test_size(void **state)
{
    (void)state;
    print_message("sizeof(tmc_experiment) = %zu bytes (at most 8192)\n",
                  sizeof(tmc_experiment));
    assert_true(sizeof(tmc_experiment) <= 8192);
}

static void test_deep_copy(void **state)
{
    (void)state;
    tmc_experiment x = load(), y;
    tmc_error err = {""};
    if (tmc_experiment_copy(&y, &x, &err))
        fail_msg("%s", err.msg);
    assert_true(y.path != x.path && y.overrides != x.overrides && y.inputs != x.inputs);
    assert_true(y.failures.trace_days != x.failures.trace_days);
    for (int i = 0; i < x.n_inputs; i++)
        assert_true(y.inputs[i] != x.inputs[i]);
    int n_inputs = x.n_inputs;
    tmc_experiment_release(&x); /* the copy must not need it */

    int n;
    double *want = csv_times(&n);
    assert_true(n > 1);
    assert_int_equal(y.failures.n_trace, n);
    for (int i = 0; i < n; i++)
        assert_true(y.failures.trace_days[i] == want[i]);
    free(want);
    assert_int_equal(y.n_overrides, 2);
    assert_string_equal(y.overrides[0], sets[0]);
    assert_string_equal(y.overrides[1], sets[1]);
    assert_string_equal(y.name, "copied");
    assert_int_equal(y.job.cards, 96);
    assert_string_equal(y.path, EXPERIMENT);
    /* the experiment, its failures file, the trace and the model file */
    assert_int_equal(y.n_inputs, n_inputs);
    assert_int_equal(y.n_inputs, 4);
    assert_string_equal(y.inputs[y.n_inputs - 1], EXPERIMENT);
    tmc_experiment_release(&y);
}

static void test_release_twice(void **state)
{
    (void)state;
    tmc_experiment x = load();
    tmc_experiment_release(&x);
    assert_null(x.path);
    assert_null(x.inputs);
    assert_null(x.overrides);
    assert_null(x.failures.trace_days);
    assert_int_equal(x.n_inputs + x.n_overrides + x.failures.n_trace, 0);
    tmc_experiment_release(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size),
        cmocka_unit_test(test_deep_copy),
        cmocka_unit_test(test_release_twice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
