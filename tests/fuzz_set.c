/* fuzz_set.c - libFuzzer target for `--set dotted.key=value` (issue: "the
 * experiment loader is fuzzed; the other parsers are not").
 *
 * The fuzzed bytes are up to FUZZ_MAX_SETS overrides, one a line, applied to
 * a fixed valid experiment (experiments/design-48.json's text, its paths
 * relative to experiments/) through tmc_config_parse, as `trainmc run
 * design-48.json --set LINE1 --set LINE2 ...` does.
 *
 * What must hold: any set of overrides is applied and validated, or refused
 * with a non-empty message; an accepted experiment turns back into JSON
 * (tmc_config_to_json) and, without jitter, through the closed forms; no
 * crash, leak, undefined behaviour (AddressSanitizer and
 * UndefinedBehaviorSanitizer) or hang. Also: tmc_config_classify_key (what
 * `trainmc sweep --vary` asks of a key) on each override's key. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "closed_form.h"
#include "config.h"

#define FUZZ_MAX_SETS 8

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char path[] = TMC_SOURCE_DIR "/experiments/design-48.json";
static char *base_text;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    FILE *fp = fopen(path, "rb");
    static char buf[1 << 16];
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    if (!fp || n == 0 || n == sizeof buf - 1) {
        fprintf(stderr, "fuzz_set: cannot read %s\n", path);
        exit(1);
    }
    fclose(fp);
    buf[n] = '\0';
    base_text = buf;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    const char *sets[FUZZ_MAX_SETS];
    int n = 0;
    for (char *line = text; line && n < FUZZ_MAX_SETS; n++) {
        sets[n] = line;
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        line = nl ? nl + 1 : NULL;
        char key[256];
        size_t kl = strcspn(sets[n], "=");
        snprintf(key, sizeof key, "%.*s", (int)(kl < 255 ? kl : 255), sets[n]);
        tmc_config_classify_key(key);
    }
    tmc_experiment x;
    tmc_error err = {""};
    char dir[sizeof path];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    if (tmc_config_parse(base_text, path, dir, sets, n, &x, &err) == 0) {
        cJSON_Delete(tmc_config_to_json(&x));
        if (x.jitter.cv == 0) { /* with jitter, c_N's quadrature costs milliseconds */
            tmc_closed_form cf;
            tmc_closed_form_compute(&x, &cf);
        }
    } else if (!err.msg[0]) {
        fuzz_fail("a refusal without a message", NULL);
    }
    tmc_experiment_release(&x); /* after a refusal it owns nothing */
    free(text);
    return 0;
}
