/* fuzz_trainlog.c - libFuzzer target for `trainmc forecast --log`'s reader
 * (src/fit/train_log.[ch], step_regex.c).
 *
 * The fuzzed bytes are the text of a training log, parsed in memory by
 * tmc_train_log_parse (no file, as fuzz_text does): in Megatron-LM's form,
 * or, for an input of odd length, through a --step-regex with every named
 * group, so that the translated pattern's path meets it too.
 *
 * What must hold: any byte string is accepted or refused with a non-empty
 * message naming the file ("fuzz.log"); no crash, leak, undefined
 * behaviour or hang. An accepted log has at least one iteration line, each
 * with a time per step in (0, 1e7] s, at a line of the text, in file order;
 * stamps on every line or none, never going back; its summary has the
 * newest commit at most the steps done, a mean step inside the logged
 * times' range, a finite sd >= 0, and failures equal to the restarts.
 * `fit --steps` on it (train_step_fit.h, 8 cards) is refused with a
 * message, or gives a positive mu and cv, each inside its interval, and
 * its reports. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train_log.h"
#include "train_step_fit.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char pattern[] =
    "^(?P<time>[0-9-]+ [0-9:]+) step (?P<step>\\d+) took (?P<ms>[^ ]+) ms";

static void check_log(const tmc_train_log *log)
{
    if (log->n < 1)
        fuzz_fail("an accepted log without an iteration line", NULL);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < log->n; i++) {
        const tmc_train_log_point *p = &log->pt[i];
        if (!(p->step_s > 0 && p->step_s <= 1e7) || p->line < 1 || p->line > log->n_lines ||
            (i && p->line <= log->pt[i - 1].line) || p->steps < 0)
            fuzz_fail("an accepted iteration line breaks the reader's rules", NULL);
        if (log->stamped != !isnan(p->stamp_s) ||
            (i && log->stamped && p->stamp_s < log->pt[i - 1].stamp_s))
            fuzz_fail("stamps on some lines only, or going back", NULL);
        if (p->steps > 0) {
            lo = fmin(lo, p->step_s);
            hi = fmax(hi, p->step_s);
        }
    }
    tmc_train_log_summary s;
    tmc_train_log_summarize(log, &s);
    if (s.committed_step > s.steps_done || s.failures != log->restarts)
        fuzz_fail("the summary's commit after the steps done, or failures not the restarts",
                  NULL);
    if (s.intervals > 0 && !(s.step_s >= lo * (1 - 1e-12) && s.step_s <= hi * (1 + 1e-12)))
        fuzz_fail("the mean step outside the logged times", NULL);
    if (!(s.step_sd_s >= 0 && isfinite(s.step_sd_s)))
        fuzz_fail("a negative or infinite sd", NULL);
}

/* fit --steps on an accepted log: refused with a message, or mu and cv
 * positive, finite and inside their intervals; the reports written. */
static void check_fit(const tmc_train_log *log)
{
    tmc_train_step_fit r;
    tmc_error err = {""};
    if (tmc_train_step_fit_compute(log, 8, 0.95, &r, &err)) {
        if (!err.msg[0])
            fuzz_fail("fit --steps refused a log without a message", NULL);
        return;
    }
    const tmc_train_step_figure *f[] = {&r.mu_s, &r.cv, &r.pace_s};
    for (int i = 0; i < 3; i++)
        if (!(f[i]->value > 0 && isfinite(f[i]->value) && f[i]->lo <= f[i]->value &&
              f[i]->value <= f[i]->hi))
            fuzz_fail("fit --steps gave a figure not positive or outside its interval", NULL);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        tmc_train_step_output_text(m, &r, log, "fuzz.log", "Megatron-LM");
        fclose(m);
    }
    free(text);
    cJSON_Delete(tmc_train_step_output_json(&r, log, "fuzz.log", "Megatron-LM"));
    cJSON_Delete(tmc_train_step_output_distribution(&r, "fuzz.log", "Megatron-LM"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    tmc_error err = {""};
    tmc_step_regex re = {0};
    if (size % 2 && tmc_step_regex_compile(&re, pattern, &err))
        fuzz_fail("a valid --step-regex refused", err.msg);
    tmc_train_log log = {0};
    if (tmc_train_log_parse(text, "fuzz.log", size % 2 ? &re : NULL, &log, &err) == 0) {
        check_log(&log);
        check_fit(&log);
        tmc_train_log_free(&log);
    } else if (strncmp(err.msg, "fuzz.log", 8)) {
        fuzz_fail("a refusal without a message naming the file", err.msg);
    }
    tmc_step_regex_free(&re);
    free(text);
    return 0;
}
