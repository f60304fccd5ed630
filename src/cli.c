/* cli.c - pieces every subcommand shares. */
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "engine.h"

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

static void on_stop_signal(int sig)
{
    (void)sig;
    tmc_engine_request_stop();
}

void tmc_cli_catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int tmc_cli_check_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "trainmc: cannot write the report to standard output: %s\n",
            strerror(errno));
    return 1;
}

int tmc_cli_check_not_input(const char *output_path, const char *input_path)
{
    struct stat a, b;
    if (stat(output_path, &a) != 0 || stat(input_path, &b) != 0)
        return 0;
    if (a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return 0;
    fprintf(stderr, "trainmc: %s: the output file is the experiment file itself; choose "
                    "another path\n", output_path);
    return 2;
}
