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

#endif
