/* fuzz_config.c - libFuzzer target for the experiment loader (issue 7).
 * Any byte string must either load into a validated experiment or be
 * refused with a message: no crash, no leak, no undefined behaviour (built
 * with AddressSanitizer and UndefinedBehaviorSanitizer). A loaded experiment
 * is also turned back into JSON and given to the closed forms, which must
 * return numbers or infinities, never trap. Run with .ci/fuzz (seeds:
 * tests/fuzz/seed.sh; dictionary: tests/fuzz/experiment.dict). Linked with
 * fuzz_support.c, whose fopen guard keeps a fuzzed path from blocking on a
 * device, /proc or /sys. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "closed_form.h"
#include "config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_parse(text, "fuzz.json", TMC_SOURCE_DIR "/experiments", NULL, 0, &x,
                         &err) == 0) {
        cJSON_Delete(tmc_config_to_json(&x));
        if (x.jitter.cv == 0) { /* with jitter, c_N's quadrature costs milliseconds */
            tmc_closed_form cf;
            tmc_closed_form_compute(&x, &cf);
        }
    } else if (!err.msg[0]) {
        abort(); /* a refusal must say why */
    }
    tmc_experiment_release(&x); /* after a refusal it owns nothing */
    free(text);
    return 0;
}
