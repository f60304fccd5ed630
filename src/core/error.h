/* error.h - an error message carried by the object or call that failed.
 * No globals, no errno: every fallible call takes a tmc_error * and fills it. */
#ifndef TMC_ERROR_H
#define TMC_ERROR_H

typedef struct {
    char msg[1024]; /* empty when no error */
} tmc_error;

/* printf-style; always returns -1 so callers can `return tmc_error_set(...)`.
 * The message is stored escaped (tmc_text_escape, text.h): a control byte,
 * C1 or bidirectional control or byte that is not UTF-8 in what it echoes
 * becomes \xNN or \u{XXXX}. */
int tmc_error_set(tmc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Room for the text of the two formatters below. */
#define TMC_ERROR_NUMBER_CHARS 32

/* e^ln_x as a message shows it, into buf (TMC_ERROR_NUMBER_CHARS): "%.3g"
 * while it fits a double (ln_x up to 300 ln 10), else "10^E" with E =
 * ln_x / ln 10 to 4 digits ("10^4.367e+99"), never cut; "NaN" for NaN.
 * Returns buf. Why: an exponent printed with "%.0f" runs to hundreds of
 * digits and was cut by the message's buffer (issue 33 item 4). */
const char *tmc_error_format_exp(char *buf, double ln_x);

/* A count or a figure in whole units as a message shows it, into buf
 * (TMC_ERROR_NUMBER_CHARS): "%.0f" below 1e15 (every digit meaningful),
 * else "%.4g" ("3.179e+304"), so no value prints hundreds of digits;
 * "inf" and "nan" as C prints them. Returns buf. */
const char *tmc_error_format_whole(char *buf, double x);

#endif
