/* fuzz_importance.c - libFuzzer target for `trainmc run --importance F,O,S`
 * or `F,O,S,R,D` (issue: "the experiment loader is fuzzed; the other parsers
 * are not").
 *
 * The fuzzed bytes are the argument, given to tmc_importance_parse_tilt
 * with and without a theta to fill (NULL: only check).
 *
 * What must hold: any byte string is parsed or refused (-1; the command
 * line words the message: "--importance: '...' is neither auto nor
 * F,O,S[,R,D]"); no crash, leak, undefined behaviour (AddressSanitizer and
 * UndefinedBehaviorSanitizer) or hang. Both calls agree; an accepted tilt
 * has TMC_TILTS positive finite multipliers, R and D 1 when only F,O,S are
 * given (importance.h). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "importance.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    double theta[TMC_TILTS] = {-1, -1, -1, -1, -1};
    int rc = tmc_importance_parse_tilt(text, theta);
    if (rc != tmc_importance_parse_tilt(text, NULL))
        fuzz_fail("the check alone and the parse disagree", text);
    if (rc == 0) {
        for (int k = 0; k < TMC_TILTS; k++)
            if (!(theta[k] > 0) || !isfinite(theta[k]))
                fuzz_fail("an accepted tilt is not positive and finite", text);
    } else if (rc != -1) {
        fuzz_fail("neither 0 nor -1", text);
    } else {
        for (int k = 0; k < TMC_TILTS; k++)
            if (theta[k] != -1)
                fuzz_fail("a refused tilt changed theta", text);
    }
    free(text);
    return 0;
}
