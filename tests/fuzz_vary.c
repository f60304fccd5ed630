/* fuzz_vary.c - libFuzzer target for `trainmc sweep --vary KEY=VALUES`
 * (issue: "the experiment loader is fuzzed; the other parsers are not").
 *
 * The fuzzed bytes are one --vary argument, given to tmc_sweep_parse_axis,
 * and the same text to tmc_sweep_parse_values (the VALUES part alone, as a
 * value list or range).
 *
 * What must hold: any byte string is parsed or refused with a non-empty
 * message; no crash, leak, undefined behaviour (AddressSanitizer and
 * UndefinedBehaviorSanitizer) or hang. An accepted list has 1 to
 * TMC_SWEEP_MAX_SETTINGS finite values, and an accepted range
 * START:STOP:STEP strictly increasing values from START to at most STOP
 * (sweep.h: "values START + i STEP up to STOP inclusive within 1e-9 STEP",
 * plus the rounding to decimal digits), each within a step of START + i
 * STEP. The axis then goes through what `trainmc sweep` does next without
 * an experiment: tmc_config_classify_key,
 * and tmc_sweep_check_grid for the axis alone and crossed with itself. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sweep.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_values(const char *text, const double *v, int n)
{
    if (n < 1 || n > TMC_SWEEP_MAX_SETTINGS)
        fuzz_fail("value count out of [1, TMC_SWEEP_MAX_SETTINGS]", text);
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]))
            fuzz_fail("a value is not finite", text);
    double r[3];
    if (!strchr(text, ':') || sscanf(text, "%lf:%lf:%lf", &r[0], &r[1], &r[2]) != 3)
        return; /* a list (or a range sscanf reads otherwise: checked for order only) */
    double start = r[0], stop = r[1], step = r[2];
    for (int i = 0; i < n; i++) {
        if (i > 0 && !(v[i] > v[i - 1]))
            fuzz_fail("range values do not increase", text);
        if (v[i] > stop + 2e-9 * step) /* 1e-9 STEP, and the rounding to decimal digits */
            fuzz_fail("a range value passes STOP", text);
        if (!(fabs(v[i] - (start + i * step)) <= step))
            fuzz_fail("a range value is not START + i STEP", text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    static double values[TMC_SWEEP_MAX_SETTINGS];
    int n = -1;
    tmc_error err = {""};
    if (tmc_sweep_parse_values(text, values, &n, &err) == 0)
        check_values(text, values, n);
    else if (!err.msg[0])
        fuzz_fail("tmc_sweep_parse_values refused without a message", NULL);

    static tmc_sweep_axis axes[2];
    tmc_error aerr = {""};
    if (tmc_sweep_parse_axis(text, &axes[0], &aerr) == 0) {
        const char *eq = strchr(text, '=');
        if (!eq || strncmp(axes[0].key, text, (size_t)(eq - text)) != 0 ||
            axes[0].key[eq - text] != '\0')
            fuzz_fail("the axis key is not the text before '='", text);
        check_values(eq + 1, axes[0].values, axes[0].n);
        tmc_config_classify_key(axes[0].key);
        axes[1] = axes[0];
        tmc_error gerr = {""};
        if (tmc_sweep_check_grid(axes, 1, 10000, &gerr) && !gerr.msg[0])
            fuzz_fail("tmc_sweep_check_grid refused without a message", NULL);
        gerr.msg[0] = '\0';
        if (tmc_sweep_check_grid(axes, 2, 10000, &gerr) && !gerr.msg[0])
            fuzz_fail("tmc_sweep_check_grid refused without a message", NULL);
    } else if (!aerr.msg[0]) {
        fuzz_fail("tmc_sweep_parse_axis refused without a message", NULL);
    }
    free(text);
    return 0;
}
