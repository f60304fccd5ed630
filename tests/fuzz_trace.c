/* fuzz_trace.c - libFuzzer target for the trace CSV files of
 * failures.trace, outages.trace and loss_spikes.trace (issue: "the
 * experiment loader is fuzzed; the other parsers are not").
 *
 * The loader reads a trace from a file only, so the fuzzed bytes are written
 * to a temporary CSV file (in /dev/shm when it exists, else TMPDIR or /tmp)
 * and a small fixed experiment names it by its absolute path, parsed with
 * tmc_config_parse: as failures.trace (distribution "trace", with a spare
 * pool), outages.trace (lognormal downtimes) or loss_spikes.trace (rolling
 * back 2 snapshots), chosen by the input's length modulo 3, so that each
 * input costs one read and each process meets the fuzzed times alone.
 *
 * What must hold: any byte string is a trace that is accepted or refused
 * with a non-empty message; no crash, leak, undefined behaviour
 * (AddressSanitizer and UndefinedBehaviorSanitizer) or hang. An accepted
 * trace has 1 to TMC_MAX_TRACE finite, positive, strictly increasing times;
 * the experiment then runs through the closed forms and the engine
 * (fuzz_support.c: two replicas of 100 steps of an hour, about four days,
 * so that traces in days strike; no jitter, whose quantile table costs
 * milliseconds), whose replicas must meet fuzz_check_engine's invariants
 * with the replayed times. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "closed_form.h"
#include "config.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
void fuzz_check_engine(const tmc_experiment *x, const tmc_closed_form *cf);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], csv[300], label[300], experiment[3][2048];

static void remove_files(void)
{
    unlink(csv);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *tmp = getenv("TMPDIR"); /* a file is written per input: tmpfs if we can */
    if (access("/dev/shm", W_OK) == 0)
        tmp = "/dev/shm";
    snprintf(dir, sizeof dir, "%s/fuzz_trace.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("fuzz_trace: mkdtemp");
        exit(1);
    }
    snprintf(csv, sizeof csv, "%s/trace.csv", dir);
    snprintf(label, sizeof label, "%s/fuzz.json", dir);
    atexit(remove_files);
    static const char *const process[3] = {
        ("\"failures\": {\"distribution\": \"trace\", \"trace\": \"%s\", \"spares\": 1, "
         "\"repair_mean_hours\": 0.5},"),
        "\"outages\": {\"trace\": \"%s\", \"downtime_s\": 300, \"downtime_cv\": 1},",
        "\"loss_spikes\": {\"trace\": \"%s\", \"rollback_snapshots\": 2},"};
    for (int k = 0; k < 3; k++) {
        char section[512];
        snprintf(section, sizeof section, process[k], csv);
        snprintf(experiment[k], sizeof experiment[k],
                 "{\"name\": \"fuzz-trace-%d\",\n"
                 " \"job\": {\"steps\": 100, \"cards\": 4, \"flop_per_step\": 14400,"
                 " \"peak_flops\": 1, \"efficiency\": 1, \"exposed_comm_s\": 0.5},\n"
                 " \"jitter\": {\"distribution\": \"normal\", \"cv\": 0},\n"
                 " %s\n"
                 " \"checkpoint\": {\"interval_steps\": 10, \"save_s\": 5, \"restore_s\": 20},\n"
                 " \"deadline\": {\"days\": 10, \"reserve_days\": 0},\n"
                 " \"monte_carlo\": {\"replicas\": 2, \"seed\": 7}}\n",
                 k, section);
    }
    return 0;
}

static void check_times(int n, const double *t)
{
    if (n < 1 || n > TMC_MAX_TRACE)
        fuzz_fail("an accepted trace's length is out of [1, TMC_MAX_TRACE]", NULL);
    for (int i = 0; i < n; i++)
        if (!isfinite(t[i]) || !(t[i] > (i ? t[i - 1] : 0)))
            fuzz_fail("an accepted trace's times are not finite, positive, increasing", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fp = fopen(csv, "wb");
    if (!fp || fwrite(data, 1, size, fp) != size || fclose(fp) != 0) {
        perror("fuzz_trace: writing the trace");
        abort();
    }
    tmc_experiment x;
    tmc_error err = {""};
    int k = (int)(size % 3);
    if (tmc_config_parse(experiment[k], label, dir, NULL, 0, &x, &err) == 0) {
        if (k == 0)
            check_times(x.failures.n_trace, x.failures.trace_days);
        else if (k == 1)
            check_times(x.outages.n_trace, x.outages.trace_days);
        else
            check_times(x.loss_spikes.n_trace, x.loss_spikes.trace_days);
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        fuzz_check_engine(&x, &cf);
    } else if (!err.msg[0]) {
        fuzz_fail("a refusal without a message", NULL);
    }
    tmc_experiment_release(&x); /* after a refusal it owns nothing */
    return 0;
}
