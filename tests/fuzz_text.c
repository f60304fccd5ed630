/* fuzz_text.c - libFuzzer target for the one check of text (src/core/text.h),
 * its escape and the one number parser (src/core/number.h); issue 33 item 7.
 *
 * What must hold, for any byte string:
 *  - tmc_text_check accepts it exactly when reference() below does, and
 *    refuses at the same byte offset. reference() is written apart: it walks
 *    the table of well-formed byte sequences of the Unicode Standard (chapter
 *    3, table 3-7: the allowed range of each byte, by lead byte), with no
 *    decoding of code points, and refuses the controls by their bytes.
 *  - an accepted string survives cJSON: printed (as --json writes it),
 *    parsed back equal, and the printed text passes the reference too, so
 *    Python's json.load (strict UTF-8) reads it;
 *  - tmc_text_escape's output, for any input, is accepted text;
 *  - tmc_number_parse accepts only text of digits, '.', signs and e/E (no
 *    hexadecimal, inf, nan), and then a finite value equal to strtod's.
 * No crash, leak or undefined behaviour (AddressSanitizer, UBSan). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "number.h"
#include "text.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Table 3-7: for each lead byte, the length and the range of the second
 * byte; later bytes are 80..BF. */
static int well_formed(const uint8_t *s, size_t n, size_t *len)
{
    uint8_t b = s[0], lo = 0x80, hi = 0xBF;
    size_t k;
    if (b <= 0x7F)
        k = 1;
    else if (b >= 0xC2 && b <= 0xDF)
        k = 2;
    else if (b == 0xE0)
        k = 3, lo = 0xA0;
    else if ((b >= 0xE1 && b <= 0xEC) || b == 0xEE || b == 0xEF)
        k = 3;
    else if (b == 0xED)
        k = 3, hi = 0x9F;
    else if (b == 0xF0)
        k = 4, lo = 0x90;
    else if (b >= 0xF1 && b <= 0xF3)
        k = 4;
    else if (b == 0xF4)
        k = 4, hi = 0x8F;
    else
        return 0;
    if (k > n || (k > 1 && (s[1] < lo || s[1] > hi)))
        return 0;
    for (size_t i = 2; i < k; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    *len = k;
    return 1;
}

/* The controls by their bytes: C0 and DEL (one byte), C1 (C2 80..C2 9F),
 * the embeddings and overrides (E2 80 AA..AE) and isolates (E2 81 A6..A9). */
static int control(const uint8_t *s, size_t len)
{
    if (len == 1)
        return s[0] < 0x20 || s[0] == 0x7F;
    if (len == 2)
        return s[0] == 0xC2 && s[1] <= 0x9F;
    if (len == 3 && s[0] == 0xE2)
        return (s[1] == 0x80 && s[2] >= 0xAA && s[2] <= 0xAE) ||
               (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9);
    return 0;
}

/* The offset of the first refused character, or n when all is accepted. */
static size_t reference(const uint8_t *s, size_t n)
{
    size_t i = 0, len;
    while (i < n) {
        if (!well_formed(s + i, n - i, &len) || control(s + i, len))
            return i;
        i += len;
    }
    return n;
}

static void check_text(const uint8_t *data, size_t size)
{
    tmc_text_fault f;
    size_t want = reference(data, size);
    int rc = tmc_text_check((const char *)data, size, &f);
    char why[96];
    if ((rc == 0) != (want == size)) {
        snprintf(why, sizeof why, "check %d, reference refuses at %zu of %zu", rc, want, size);
        fuzz_fail("tmc_text_check and the reference disagree", why);
    }
    if (rc && f.offset != want) {
        snprintf(why, sizeof why, "check at %zu, reference at %zu", f.offset, want);
        fuzz_fail("tmc_text_check refuses at another offset than the reference", why);
    }
    if (rc)
        return;
    char *s = fuzz_text(data, size); /* accepted: no NUL inside */
    cJSON *str = cJSON_CreateString(s);
    char *printed = str ? cJSON_PrintUnformatted(str) : NULL;
    cJSON *back = printed ? cJSON_Parse(printed) : NULL;
    if (printed && (!back || !cJSON_IsString(back) || strcmp(back->valuestring, s)))
        fuzz_fail("accepted text does not round-trip through cJSON", printed);
    if (printed && reference((const uint8_t *)printed, strlen(printed)) != strlen(printed))
        fuzz_fail("accepted text printed as JSON is not strict UTF-8 text", printed);
    cJSON_Delete(back);
    free(printed);
    cJSON_Delete(str);
    free(s);
}

static void check_escape_and_number(const uint8_t *data, size_t size)
{
    char *s = fuzz_text(data, size), out[256];
    tmc_text_escape(out, sizeof out, s);
    if (reference((const uint8_t *)out, strlen(out)) != strlen(out))
        fuzz_fail("tmc_text_escape gave text that is not accepted", out);
    double v = NAN;
    if (tmc_number_parse(s, &v) == 0) {
        if (strspn(s, "0123456789.+-eE") != strlen(s) || !isfinite(v) || v != strtod(s, NULL))
            fuzz_fail("tmc_number_parse accepted what is not a finite decimal number", s);
    }
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_text(data, size);
    check_escape_and_number(data, size);
    return 0;
}
