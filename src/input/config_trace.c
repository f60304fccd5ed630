/* config_trace.c - failures.trace, outages.trace, loss_spikes.trace: a CSV
 * file of event times to replay in every replica, named relative to the file
 * that names it, with the header time_days and one time a line ('#' starts a
 * comment).
 *
 * Invariants: 1 to TMC_MAX_TRACE times, decimal, positive and strictly
 * increasing, each finite in seconds too (the engine works in seconds), the
 * rate n over the last time finite (the closed forms use it); a
 * message about the file says "FILE:LINE" (LINE counting non-empty lines) and
 * ends with which key of which file named it. */
#include "config_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "text.h"

/* A file named at `path` in `label` whose resolved path would not fit: an
 * error, never a truncated path that names another file (issue 13). */
static int path_too_long(const char *label, const char *path, const char *rel, tmc_error *err)
{
    return tmc_error_set(err, "%s: %s: the path '%.60s...' (%zu bytes) is too long once "
                              "resolved (at most %d bytes)", label, path, rel, strlen(rel),
                         TMC_PATH_MAX - 1);
}

/* The message in err, then which key of which file named the trace: the
 * trace file alone does not say where it was used. Returns -1. */
static int name_referrer(const char *label, const char *path, tmc_error *err)
{
    char inner[sizeof err->msg];
    snprintf(inner, sizeof inner, "%s", err->msg);
    return tmc_error_set(err, "%.700s (the %s of %.200s)", inner, path, label);
}

/* One line of a trace: a time in days after the previous one. */
static int trace_line(const char *line, const char *file, int lineno, double prev,
                      double *t, tmc_error *err)
{
    char text[64]; /* the line without its blanks around */
    const char *s = line + strspn(line, " \t");
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    /* decimal only (number.h): strtod would also take "0x10" as 16 days */
    if (n >= sizeof text || (memcpy(text, s, n), text[n] = '\0', tmc_number_parse(text, t)))
        return tmc_error_set(err, "%s:%d: '%.40s' is not a number of days", file, lineno, line);
    if (!isfinite(*t * 86400.0)) /* the engine works in seconds */
        return tmc_error_set(err, "%s:%d: %.10g days is too large (at most %.6g)", file, lineno,
                             *t, DBL_MAX / 86400.0);
    if (*t <= prev)
        return prev == 0 ? tmc_error_set(err, "%s:%d: %.10g days is not after the job's start "
                                              "(0); times must be positive", file, lineno, *t)
                         : tmc_error_set(err, "%s:%d: %.10g days is not after the previous "
                                              "time (%.10g); times must increase", file,
                                         lineno, *t, prev);
    return 0;
}

/* The times in a trace file's `text` (changed in place) into times[], *n of
 * them. Lines are split here, not by strtok: its hidden state is shared by
 * every thread of a library caller, and it skipped empty lines, so the line
 * numbers in messages were off. */
static int parse_trace(char *text, const char *file, double *times, int *n, tmc_error *err)
{
    int lineno = 0, rc = 0, header = 0;
    *n = 0;
    for (char *line = text, *next; line && !rc; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "#\r")] = '\0';
        if (!line[strspn(line, " \t")])
            continue;
        if (!header) {
            header = 1;
            if (strncmp(line + strspn(line, " \t"), "time_days", 9) != 0)
                rc = tmc_error_set(err, "%s:%d: expected the header time_days", file, lineno);
        } else if (*n == TMC_MAX_TRACE) {
            rc = tmc_error_set(err, "%s:%d: more than %d times", file, lineno, TMC_MAX_TRACE);
        } else if (!(rc = trace_line(line, file, lineno, *n ? times[*n - 1] : 0, &times[*n],
                                     err))) {
            (*n)++;
        }
    }
    if (!rc && *n == 0)
        rc = tmc_error_set(err, "%s: no times after the header", file);
    /* the closed forms take the trace's rate as n over its last time: a last
     * time this small (15e-324 days) makes it overflow, and Young's T was NaN */
    if (!rc && !isfinite(*n / (times[*n - 1] * 86400.0)))
        rc = tmc_error_set(err, "%s: %d time%s ending at %.10g days: the trace's rate (%d over "
                           "its last time) overflows; the last time must be at least %.6g days",
                           file, *n, *n == 1 ? "" : "s", times[*n - 1], *n,
                           *n / DBL_MAX / 86400.0);
    return rc;
}

/* `label` is the file naming the trace, a path that fits TMC_PATH_MAX
 * (checked when it was read); `at` is the section's n_trace, its
 * trace_days (NULL: each section is read once) then gets the times on the
 * heap, which the experiment owns (experiment.h). */
int tmc_cfg_read_trace(const cJSON *v, const char *label, const char *dir, const char *path,
                       void *at, tmc_experiment *rec, tmc_error *err)
{
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return tmc_error_set(err, "%s: %s: expected a CSV file path, got %s", label, path,
                             tmc_cfg_value_text(v).s);
    if (tmc_text_require(v->valuestring, label, path, err)) /* written back: text.h */
        return -1;
    char folder[TMC_PATH_MAX], file[TMC_PATH_MAX];
    snprintf(folder, sizeof folder, "%s", dir ? dir : label);
    char *slash = dir ? NULL : strrchr(folder, '/');
    if (slash)
        *slash = '\0';
    if (tmc_cfg_join_path(dir || slash ? folder : "", v->valuestring, file, sizeof file))
        return path_too_long(label, path, v->valuestring, err);
    char *text;
    if (tmc_cfg_read_text(file, &text, err))
        return name_referrer(label, path, err);
    if (tmc_cfg_note_input(rec, file, err)) {
        free(text);
        return -1;
    }
    /* room for the longest trace, then cut to the times read */
    double *times = malloc(TMC_MAX_TRACE * sizeof *times), *kept;
    int *n = at, rc = times ? parse_trace(text, file, times, n, err)
                            : tmc_error_set(err, "out of memory");
    free(text);
    if (rc) {
        free(times);
        return name_referrer(label, path, err);
    }
    if ((kept = realloc(times, (size_t)*n * sizeof *times)))
        times = kept;
    double **days = (double **)(void *)((char *)at + TMC_CFG_TRACE_GAP(tmc_failures));
    *days = times;
    return 0;
}
