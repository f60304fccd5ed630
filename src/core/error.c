#include "error.h"

#include <stdarg.h>
#include <stdio.h>

#include "text.h"

/* Every message is escaped here, once, because a message echoes what an input
 * held (a key, a value, a line of a log): a control byte in it would reach the
 * terminal raw (an ESC sequence clears the screen or sets its title). */
int tmc_error_set(tmc_error *err, const char *fmt, ...)
{
    if (err) {
        char raw[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        tmc_text_escape(err->msg, sizeof err->msg, raw);
    }
    return -1;
}
