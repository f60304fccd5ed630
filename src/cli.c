/* cli.c - pieces every subcommand shares. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int tmc_cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "trainmc: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see `trainmc %s --help`)\n", command);
    va_end(ap);
    return 2;
}

int tmc_cli_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

void tmc_cli_progress_bar(long done, long total, void *ctx)
{
    (void)ctx;
    int width = 40, filled = (int)(width * done / total);
    fprintf(stderr, "\r[%-*.*s] %3d%% %ld/%ld replicas", width, filled,
            "########################################", (int)(100 * done / total), done,
            total);
    if (done == total)
        fprintf(stderr, "\r%*s\r", width + 40, "");
    fflush(stderr);
}

double tmc_cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
