/* text.h - the one check of text that an input carries to an output (a
 * terminal, a --json file), and the escape of text echoed in a message.
 *
 * Text is accepted only as well-formed UTF-8 (RFC 3629: no overlong forms,
 * no surrogates U+D800..U+DFFF, nothing above U+10FFFF) holding no control
 * character: no C0 control (U+0000..U+001F, so no NUL, tab or newline, which
 * would forge lines or cells), no DEL, no C1 control (U+0080..U+009F, which
 * terminals obey as escapes) and no bidirectional embedding, override or
 * isolate (U+202A..U+202E, U+2066..U+2069: the "Trojan Source" controls,
 * CVE-2021-42574, which reorder what a reader sees). Python's json.load reads
 * every accepted string; a terminal shows it as it is. */
#ifndef TMC_TEXT_H
#define TMC_TEXT_H

#include <stddef.h>

#include "error.h"

/* Why a text was refused, and where. */
typedef struct {
    size_t offset;    /* byte offset of the refused character (0-based) */
    long column;      /* its character column (1-based, as an editor counts) */
    long code;        /* its code point, or -1 when its bytes are not UTF-8 */
    unsigned char byte; /* the first byte there */
    const char *why;  /* "not valid UTF-8", "a control character", ... */
} tmc_text_fault;

/* 0 if the n bytes at s are accepted text (above), else -1 with *fault (may
 * be NULL) describing the first refused character. */
int tmc_text_check(const char *s, size_t n, tmc_text_fault *fault);

/* tmc_text_check of a NUL-terminated s; -1 sets err to
 * "LABEL: WHERE: at byte offset B (column C): U+XXXX, a control character; text
 * must be printable UTF-8" (WHERE: a JSON path, "line 3, column 'node'", ...). */
int tmc_text_require(const char *s, const char *label, const char *where, tmc_error *err);

/* tmc_text_check of one line of a CSV file (n bytes, its end of line left
 * out), where a tab separates cells as a blank does: -1 sets err to
 * "PATH:LINE:COL: at byte offset B: U+XXXX, why; ..." (COL in characters). A
 * cell that is kept as text is checked again alone (tmc_text_require), tab
 * refused. */
int tmc_text_require_line(const char *line, size_t n, const char *path, long lineno,
                          tmc_error *err);

/* The backslash of the first \u0000 escape inside a string of the JSON text,
 * or NULL. cJSON ends a string at the NUL it decodes: "ab\u0000cd" would be
 * read as "ab", silently, so a reader refuses the text instead. */
const char *tmc_text_json_nul(const char *json);

/* The 1-based line and column (in characters, as an editor counts) of the
 * byte at in text: where a parser stopped. */
void tmc_text_position(const char *text, const char *at, long *line, long *column);

/* s made safe to print, into dst (cap bytes, cap >= 1, always terminated):
 * accepted characters are copied, a refused code point below U+0080 becomes
 * \xNN, one from U+0080 up \u{XXXX}, and a byte that is not UTF-8 \xNN.
 * Output that does not fit is cut at a character and ends in "...".
 * Returns dst. */
char *tmc_text_escape(char *dst, size_t cap, const char *s);

#endif
