/* text.c - the check and the escape of text (text.h). */
#include "text.h"

#include <stdio.h>
#include <string.h>

/* The code point of the UTF-8 character at s (n > 0 bytes left) and its
 * length 1..4, or 0 when the bytes there are not well-formed UTF-8: a stray
 * continuation byte, a lead byte C0, C1 or F5..FF, a missing continuation,
 * an overlong form, a surrogate or a value above U+10FFFF. */
static int decode(const unsigned char *s, size_t n, long *cp)
{
    static const long least[5] = {0, 0, 0x80, 0x800, 0x10000}; /* shortest form */
    int len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
            : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || (size_t)len > n)
        return 0;
    long c = len == 1 ? s[0] : s[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

/* Why code point c may not appear in text, or NULL when it may. */
static const char *refused(long c)
{
    if (c == 0)
        return "a NUL character";
    if (c < 0x20 || c == 0x7f)
        return "a control character";
    if (c >= 0x80 && c <= 0x9f)
        return "a C1 control character";
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
        return "a bidirectional control character";
    return NULL;
}

int tmc_text_check(const char *s, size_t n, tmc_text_fault *fault)
{
    const unsigned char *u = (const unsigned char *)s;
    long column = 1;
    for (size_t i = 0; i < n; column++) {
        long c = -1;
        int len = decode(u + i, n - i, &c);
        const char *why = len ? refused(c) : "not valid UTF-8";
        if (why) {
            if (fault)
                *fault = (tmc_text_fault){i, column, len ? c : -1, u[i], why};
            return -1;
        }
        i += (size_t)len;
    }
    return 0;
}

/* "U+XXXX" or "byte 0xNN" for what f found. */
static void fault_text(const tmc_text_fault *f, char *what, size_t n)
{
    if (f->code >= 0)
        snprintf(what, n, "U+%04lX", (unsigned long)f->code);
    else
        snprintf(what, n, "byte 0x%02X", f->byte);
}

int tmc_text_require(const char *s, const char *label, const char *where, tmc_error *err)
{
    tmc_text_fault f;
    if (tmc_text_check(s, strlen(s), &f) == 0)
        return 0;
    char what[32];
    fault_text(&f, what, sizeof what);
    return tmc_error_set(err, "%s: %s: at byte offset %zu (column %ld): %s, %s; text must "
                         "be printable UTF-8", label, where, f.offset, f.column, what, f.why);
}

int tmc_text_require_line(const char *line, size_t n, const char *path, long lineno,
                          tmc_error *err)
{
    size_t at = 0;
    long columns = 0;
    tmc_text_fault f;
    while (at < n && tmc_text_check(line + at, n - at, &f)) {
        if (f.code != '\t') {
            char what[32];
            fault_text(&f, what, sizeof what);
            return tmc_error_set(err, "%s:%ld:%ld: at byte offset %zu: %s, %s; text must "
                                 "be printable UTF-8", path, lineno, columns + f.column,
                                 at + f.offset, what, f.why);
        }
        at += f.offset + 1; /* past the tab */
        columns += f.column;
    }
    return 0;
}

const char *tmc_text_json_nul(const char *json)
{
    int in_string = 0;
    for (const char *p = json; *p; p++) {
        if (*p == '"')
            in_string = !in_string;
        else if (in_string && *p == '\\') {
            if (!strncmp(p + 1, "u0000", 5))
                return p;
            if (p[1])
                p++; /* the escaped character: \" does not end the string */
        }
    }
    return NULL;
}

void tmc_text_position(const char *text, const char *at, long *line, long *column)
{
    *line = 1, *column = 1;
    for (const char *q = text; q < at && *q; q++) {
        if (*q == '\n')
            *line += 1, *column = 1;
        else if ((*q & 0xC0) != 0x80) /* not a continuation byte: a new character */
            *column += 1;
    }
}

char *tmc_text_escape(char *dst, size_t cap, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s), w = 0;
    for (size_t i = 0; i < n;) {
        long c = -1;
        int len = decode(u + i, n - i, &c);
        char piece[16];
        size_t k;
        if (len && !refused(c)) {
            memcpy(piece, u + i, (size_t)len);
            k = (size_t)len;
        } else if (len && c >= 0x80)
            k = (size_t)snprintf(piece, sizeof piece, "\\u{%lX}", (unsigned long)c);
        else
            k = (size_t)snprintf(piece, sizeof piece, "\\x%02X", u[i]), len = 1;
        if (w + k + 1 > cap || (i + (size_t)len < n && w + k + 4 > cap)) {
            /* cut here: "..." in place of the rest, if there is room for it */
            snprintf(dst + w, cap - w, "%s", cap - w > 3 ? "..." : "");
            return dst;
        }
        memcpy(dst + w, piece, k);
        w += k;
        i += (size_t)len;
    }
    dst[w] = '\0';
    return dst;
}
