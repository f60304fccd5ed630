/* fuzz_precision.c - libFuzzer target for `trainmc run --precision
 * METRIC:abs=X|METRIC:rel=X` (issue: "the experiment loader is fuzzed; the
 * other parsers are not").
 *
 * The fuzzed bytes are the argument, given to tmc_precision_parse.
 *
 * What must hold: any byte string is parsed or refused (tmc_precision_parse
 * returns -1 and carries no message: the command line words it); no crash,
 * leak, undefined behaviour (AddressSanitizer and
 * UndefinedBehaviorSanitizer) or hang. An accepted target has a known
 * metric, a finite positive target, and its text is a prefix of the input
 * (the first 95 bytes). It then goes to tmc_precision_met over a few fixed
 * wall times, which must give a finite half-width >= 0 and a finite figure. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "closed_form.h"
#include "config.h"
#include "precision.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    tmc_precision p;
    if (tmc_precision_parse(text, &p) == 0) {
        if ((int)p.metric < 0 || (int)p.metric > 1 || (p.relative != 0 && p.relative != 1) ||
            !(p.target > 0) || !isfinite(p.target))
            fuzz_fail("an accepted precision target out of its range", text);
        if (strlen(p.text) >= sizeof p.text || strncmp(p.text, text, strlen(p.text)) != 0)
            fuzz_fail("the target's text is not the input", text);
        static const double wall_s[] = {2.0e6, 2.2e6, 2.4e6, 1.9e6};
        static const double restarts[] = {0, 1, 2, 0};
        const tmc_deadline d = {30, 5, 1};
        for (long n = 1; n <= 4; n++) {
            double half, value;
            tmc_precision_met(&p, wall_s, restarts, n, &d, &half, &value);
            if (!isfinite(value) || !(half >= 0) ||
                (n > 1 && !isfinite(half)))
                fuzz_fail("tmc_precision_met gives a half-width or figure not finite", text);
        }
    }
    free(text);
    return 0;
}
