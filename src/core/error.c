#include "error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

const char *tmc_error_format_exp(char *buf, double ln_x)
{
    double decades = ln_x / log(10);
    if (isnan(ln_x))
        snprintf(buf, TMC_ERROR_NUMBER_CHARS, "NaN");
    else if (decades > 300)
        snprintf(buf, TMC_ERROR_NUMBER_CHARS, "10^%.4g", decades);
    else
        snprintf(buf, TMC_ERROR_NUMBER_CHARS, "%.3g", exp(ln_x));
    return buf;
}

const char *tmc_error_format_whole(char *buf, double x)
{
    snprintf(buf, TMC_ERROR_NUMBER_CHARS, fabs(x) < 1e15 ? "%.0f" : "%.4g", x);
    return buf;
}

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
