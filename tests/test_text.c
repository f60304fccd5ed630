/* test_text.c - text-1.x: the one check of text (src/core/text.h), its
 * escape, and the one number parser (src/core/number.h), against byte
 * sequences written out by hand from RFC 3629's table of well-formed UTF-8
 * (section 4) and Unicode's C1 and bidirectional controls (CVE-2021-42574). */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "number.h"
#include "text.h"

typedef struct {
    const char *bytes;
    size_t n;       /* 0: strlen(bytes) */
    long offset;    /* -1: accepted; else the refused character's byte offset */
    long code;      /* its code point, -1: not UTF-8 */
    long column;
} text_case;

/* text-1.1: each kind of refused text at its offset, and well-formed text of
 * every length accepted (values from RFC 3629 section 4's table). */
static void test_check(void **state)
{
    (void)state;
    static const text_case cases[] = {
        {"plain ASCII ~", 0, -1, 0, 0},
        {"caf\xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80", 0, -1, 0, 0}, /* 2, 3, 4 bytes */
        {"\xF4\x8F\xBF\xBF", 0, -1, 0, 0},                           /* U+10FFFF, the last */
        {"\xEF\xBF\xBD\xE2\x80\x8F", 0, -1, 0, 0}, /* U+FFFD, U+200F (a mark, not an override) */
        {"ab\xED\xA0\x80", 0, 2, -1, 3},           /* a surrogate, U+D800 */
        {"\xED\xBF\xBF", 0, 0, -1, 1},             /* U+DFFF */
        {"x\xF5\x80\x80\x80", 0, 1, -1, 2},        /* lead byte F5 */
        {"\xF7\xBF\xBF\xBF", 0, 0, -1, 1},         /* lead byte F7 */
        {"\xF4\x90\x80\x80", 0, 0, -1, 1},         /* U+110000, above U+10FFFF */
        {"\xE0\x80\xAF", 0, 0, -1, 1},             /* overlong 3-byte '/' */
        {"\xF0\x80\x80\xAF", 0, 0, -1, 1},         /* overlong 4-byte '/' */
        {"\xC0\xAF", 0, 0, -1, 1},                 /* overlong 2-byte '/' */
        {"\xC1\xBF", 0, 0, -1, 1},
        {"ok\x80", 0, 2, -1, 3},                   /* a stray continuation byte */
        {"\xE2\x82", 0, 0, -1, 1},                 /* cut short */
        {"\xC3\xA9\x1B[2J", 0, 2, 0x1B, 2},        /* ESC, after a 2-byte character */
        {"a\tb", 0, 1, 0x09, 2},
        {"a\nb", 0, 1, 0x0A, 2},
        {"a\rb", 0, 1, 0x0D, 2},
        {"a\x7F", 0, 1, 0x7F, 2},                  /* DEL */
        {"ab\0c", 4, 2, 0, 3},                     /* NUL */
        {"\xC2\x80", 0, 0, 0x80, 1},               /* C1, first */
        {"n\xC2\x9B" "31m", 0, 1, 0x9B, 2},        /* C1 CSI */
        {"\xC2\x9F", 0, 0, 0x9F, 1},               /* C1, last */
        {"\xC2\xA0", 0, -1, 0, 0},                 /* U+00A0, just past C1 */
        {"a\xE2\x80\xAA", 0, 1, 0x202A, 2},        /* LRE */
        {"a\xE2\x80\xAE" "b", 0, 1, 0x202E, 2},    /* RLO */
        {"\xE2\x80\xA9\xE2\x80\xAF", 0, -1, 0, 0}, /* U+2029, U+202F: either side */
        {"\xE2\x81\xA6", 0, 0, 0x2066, 1},         /* LRI */
        {"\xE2\x81\xA9", 0, 0, 0x2069, 1},         /* PDI */
        {"\xE2\x81\xA5\xE2\x81\xAA", 0, -1, 0, 0}, /* U+2065, U+206A: either side */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const text_case *c = &cases[i];
        size_t n = c->n ? c->n : strlen(c->bytes);
        tmc_text_fault f = {0};
        int rc = tmc_text_check(c->bytes, n, &f);
        if (c->offset < 0) {
            if (rc != 0)
                fail_msg("case %zu: refused at %zu (%s)", i, f.offset, f.why);
            continue;
        }
        if (rc != -1)
            fail_msg("case %zu: accepted", i);
        assert_int_equal((long)f.offset, c->offset);
        assert_int_equal(f.code, c->code);
        assert_int_equal(f.column, c->column);
    }
}

/* text-1.2: the message names the label, the place, the offset, the code
 * point and why; an escaped message holds no control byte. */
static void test_require_and_escape(void **state)
{
    (void)state;
    tmc_error err = {""};
    assert_int_equal(tmc_text_require("ok \xC3\xA9", "f.json", "name", &err), 0);
    assert_int_equal(tmc_text_require("ab\xE2\x80\xAE", "f.json", "name", &err), -1);
    assert_string_equal(err.msg, "f.json: name: at byte offset 2 (column 3): U+202E, a "
                                 "bidirectional control character; text must be printable "
                                 "UTF-8");
    assert_int_equal(tmc_text_require("\xF5", "f.json", "x", &err), -1);
    assert_non_null(strstr(err.msg, "byte 0xF5, not valid UTF-8"));
    assert_int_equal(tmc_text_require_line("a\tb,c\x1B", 6, "l.csv", 3, &err), -1);
    assert_string_equal(err.msg, "l.csv:3:6: at byte offset 5: U+001B, a control character; "
                                 "text must be printable UTF-8");
    char out[64];
    assert_string_equal(tmc_text_escape(out, sizeof out, "a\x1B]0;t\x07\xC2\x85\xE2\x80\xAE"
                                                         "\xED\xA0\x80\xC3\xA9"),
                        "a\\x1B]0;t\\x07\\u{85}\\u{202E}\\xED\\xA0\\x80\xC3\xA9");
    assert_int_equal(tmc_text_check(out, strlen(out), NULL), 0);
    char small[8]; /* cut at a character, "..." after */
    assert_string_equal(tmc_text_escape(small, sizeof small, "abcdefghij"), "abcd...");
    tmc_error_set(&err, "key '%s'", "x\x1B[2Jy");
    assert_string_equal(err.msg, "key 'x\\x1B[2Jy'");
    assert_null(tmc_text_json_nul("{\"a\": \"x\\\\u0000\"}")); /* an escaped backslash */
    const char *j = "{\"a\": \"x\\u0000y\"}";
    assert_ptr_equal(tmc_text_json_nul(j), j + 8);
    long line, col;
    tmc_text_position("ab\n\xC3\xA9x", "ab\n\xC3\xA9x" + 5, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 2);
}

/* text-1.3: a number is decimal; hexadecimal, inf, nan, blanks refused. */
static void test_number(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        double v; /* NAN: refused */
    } cases[] = {{"16", 16},      {"-2.5", -2.5}, {"+3", 3},       {".5", 0.5},
                 {"5.", 5},        {"1e3", 1000},  {"1E-3", 1e-3},  {"0", 0},
                 {"0x10", NAN},    {"0X1p4", NAN}, {"inf", NAN},    {"-Infinity", NAN},
                 {"nan", NAN},     {"NAN(1)", NAN}, {"", NAN},      {" 1", NAN},
                 {"1 ", NAN},      {"1e", NAN},    {"1e+", NAN},    {".", NAN},
                 {"-", NAN},       {"1e999", NAN}, {"1,5", NAN},    {"1.2.3", NAN}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -7;
        int rc = tmc_number_parse(cases[i].s, &v);
        if (isnan(cases[i].v)) {
            if (rc != -1 || v != -7)
                fail_msg("'%s': accepted as %g", cases[i].s, v);
        } else if (rc != 0 || v != cases[i].v)
            fail_msg("'%s': rc %d, %g, expected %g", cases[i].s, rc, v, cases[i].v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_require_and_escape),
        cmocka_unit_test(test_number),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
