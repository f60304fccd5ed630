/* sacct.c - reading `sacct --parsable2` output (sacct.h). */
#include "sacct.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_log.h"
#include "log_text.h"
#include "text.h"

const char *const tmc_sacct_cause_names[TMC_SACCT_CAUSES] = {
    "node", "job", "outage", "time_limit", "completed", "ignored"};

/* The state table, written once (SLURM's JOB STATE CODES, sacct(1)). A state
 * not here is refused unless --sacct-map names it: PENDING, RUNNING,
 * SUSPENDED and the like have not ended, and counting them anywhere would be
 * a guess. BOOT_FAIL (the allocation's nodes failed to boot) is a node
 * failure; REQUEUED (the scheduler or an operator put the job back in the
 * queue) an outage, as a preemption; CANCELLED and DEADLINE end no
 * allocation by a fault: exposure only. */
static const struct {
    const char *state;
    tmc_sacct_cause cause;
} default_states[] = {
    {"NODE_FAIL", TMC_SACCT_NODE},       {"BOOT_FAIL", TMC_SACCT_NODE},
    {"FAILED", TMC_SACCT_JOB},           {"OUT_OF_MEMORY", TMC_SACCT_JOB},
    {"PREEMPTED", TMC_SACCT_OUTAGE},     {"REQUEUED", TMC_SACCT_OUTAGE},
    {"TIMEOUT", TMC_SACCT_TIME_LIMIT},   {"COMPLETED", TMC_SACCT_COMPLETED},
    {"CANCELLED", TMC_SACCT_IGNORED},    {"DEADLINE", TMC_SACCT_IGNORED},
};

void tmc_sacct_map_default(tmc_sacct_map *m)
{
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < sizeof default_states / sizeof default_states[0]; i++) {
        snprintf(m->row[i].state, sizeof m->row[i].state, "%s", default_states[i].state);
        m->row[i].cause = default_states[i].cause;
    }
    m->n = (int)(sizeof default_states / sizeof default_states[0]);
}

int tmc_sacct_map_find(const tmc_sacct_map *m, const char *state)
{
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->row[i].state, state))
            return (int)m->row[i].cause;
    return -1;
}

static const char causes_allowed[] = "node, job, outage, time_limit, completed, ignored";

int tmc_sacct_map_set(tmc_sacct_map *m, const char *spec, tmc_error *err)
{
    const char *eq = strchr(spec, '=');
    size_t n = eq ? (size_t)(eq - spec) : 0;
    if (!eq || n == 0 || n >= TMC_SACCT_STATE_BYTES)
        return tmc_error_set(err, "--sacct-map '%s': expected STATE=CAUSE, STATE a sacct "
                             "state of 1 to %d characters, CAUSE one of %s", spec,
                             TMC_SACCT_STATE_BYTES - 1, causes_allowed);
    for (size_t i = 0; i < n; i++)
        if (!((spec[i] >= 'A' && spec[i] <= 'Z') || spec[i] == '_'))
            return tmc_error_set(err, "--sacct-map '%s': the state '%.*s' is not as sacct "
                                 "prints one (upper-case letters and '_', e.g. NODE_FAIL)",
                                 spec, (int)n, spec);
    int cause = -1;
    for (int c = 0; c < TMC_SACCT_CAUSES; c++)
        if (!strcmp(eq + 1, tmc_sacct_cause_names[c]))
            cause = c;
    if (cause < 0)
        return tmc_error_set(err, "--sacct-map '%s': the cause '%s' is not one of %s", spec,
                             eq + 1, causes_allowed);
    int i = 0;
    while (i < m->n && (strlen(m->row[i].state) != n || strncmp(m->row[i].state, spec, n)))
        i++;
    if (i == m->n) {
        if (m->n == TMC_SACCT_MAX_STATES)
            return tmc_error_set(err, "--sacct-map: more than %d states in all",
                                 TMC_SACCT_MAX_STATES);
        memcpy(m->row[i].state, spec, n);
        m->row[i].state[n] = '\0';
        m->n++;
    }
    m->row[i].cause = (tmc_sacct_cause)cause;
    m->row[i].overridden = 1;
    return 0;
}

/* ---------- fields ---------- */

enum { F_JOBID, F_NAME, F_STATE, F_START, F_END, F_ELAPSED, F_NNODES, F_NODELIST, F_REASON,
       F_EXIT, F_COUNT, F_REQUIRED = F_REASON };
static const char *const field_names[F_COUNT] = {"JobID", "JobName", "State", "Start",
                                                 "End", "Elapsed", "NNodes", "NodeList",
                                                 "Reason", "ExitCode"};

#define MAX_FIELDS 256
#define MAX_NNODES 10000000L
#define ELAPSED_SLACK_S 60.0 /* Elapsed against End - Start: sacct rounds to seconds */

/* YYYY-MM-DDTHH:MM:SS, and nothing after it, into seconds from 1970 (as
 * printed); 0 or -1. */
static int parse_time(const char *s, double *t)
{
    return strlen(s) == 19 ? tmc_log_text_stamp(s, 0, t) : -1;
}

/* [D-]HH:MM:SS into seconds (sacct prints HH:MM:SS below a day, D-HH:MM:SS
 * from one day); 0 or -1. */
static int parse_elapsed(const char *s, double *v)
{
    long days = 0;
    const char *dash = strchr(s, '-');
    if (dash) {
        int n = (int)(dash - s);
        if (n < 1 || n > 6 || (days = tmc_log_text_digits(s, n)) < 0)
            return -1;
        s = dash + 1;
    }
    if (strlen(s) != 8 || s[2] != ':' || s[5] != ':')
        return -1;
    long h = tmc_log_text_digits(s, 2), m = tmc_log_text_digits(s + 3, 2);
    long sec = tmc_log_text_digits(s + 6, 2);
    if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59)
        return -1;
    *v = 86400.0 * (double)days + 3600.0 * (double)h + 60.0 * (double)m + (double)sec;
    return 0;
}

/* A positive integer of digits only, at most MAX_NNODES; 0 or -1. */
static int parse_nnodes(const char *s, long *v)
{
    size_t n = strlen(s);
    if (n < 1 || n > 8 || s[0] == '0')
        return -1;
    long x = tmc_log_text_digits(s, (int)n);
    if (x < 1 || x > MAX_NNODES)
        return -1;
    *v = x;
    return 0;
}

/* A time sacct prints for an allocation that never started or never ended. */
static int is_unknown(const char *s)
{
    return !strcmp(s, "Unknown") || !strcmp(s, "None") || !*s;
}

/* Where a line's fields are, for messages. */
typedef struct {
    const char *path, *line_start;
    long line;
    char *field[MAX_FIELDS];
} row_ctx;

static int field_error(tmc_error *err, const row_ctx *c, int f, const int *pos,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "PATH:LINE:COL: field 'NAME': VALUE ..." with the rest formatted. */
static int field_error(tmc_error *err, const row_ctx *c, int f, const int *pos,
                       const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *v = c->field[pos[f]];
    return tmc_error_set(err, "%s:%ld:%ld: field '%s': '%.80s'%s %s", c->path, c->line,
                         tmc_log_text_column(c->line_start, v), field_names[f], v,
                         strlen(v) > 80 ? "..." : "", what);
}

/* Split line at '|' into c->field; the count, or -1 above MAX_FIELDS. */
static int split(char *line, row_ctx *c)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == MAX_FIELDS)
            return -1;
        c->field[n++] = p;
        char *bar = strchr(p, '|');
        if (!bar)
            return n;
        *bar = '\0';
        p = bar + 1;
    }
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void free_alloc(tmc_sacct_alloc *a)
{
    free(a->job_id);
    free(a->name);
    free(a->state);
    free(a->node_list);
    free(a->reason);
    free(a->exit_code);
}

void tmc_sacct_log_free(tmc_sacct_log *log)
{
    for (int i = 0; i < log->n_alloc; i++)
        free_alloc(&log->alloc[i]);
    free(log->alloc);
    memset(log, 0, sizeof *log);
}

/* The header: every field's position into pos (-1: absent). */
static int read_header(row_ctx *c, int n, int *pos, tmc_error *err)
{
    for (int f = 0; f < F_COUNT; f++)
        pos[f] = -1;
    for (int i = 0; i < n; i++)
        for (int f = 0; f < F_COUNT; f++)
            if (!strcmp(c->field[i], field_names[f])) {
                if (pos[f] >= 0)
                    return tmc_error_set(err, "%s:%ld:%ld: header: the field '%s' is named "
                                         "twice (fields %d and %d): which one to read is a "
                                         "guess", c->path, c->line,
                                         tmc_log_text_column(c->line_start, c->field[i]),
                                         field_names[f],
                                         pos[f] + 1, i + 1);
                pos[f] = i;
            }
    for (int f = 0; f < F_REQUIRED; f++)
        if (pos[f] < 0)
            return tmc_error_set(err, "%s:%ld:1: header: no field '%s'; needed: JobID, "
                                 "JobName, State, Start, End, Elapsed, NNodes, NodeList (any "
                                 "order; Reason and ExitCode kept when present), as `sacct "
                                 "--parsable2 --format=JobID,JobName,State,Start,End,Elapsed,"
                                 "NNodes,NodeList,ExitCode` prints them", c->path, c->line,
                                 field_names[f]);
    return 0;
}

/* The state of a line: its value, "CANCELLED by UID" read as CANCELLED. */
static int read_state(const row_ctx *c, const int *pos, const tmc_sacct_map *map,
                      char *state, tmc_error *err)
{
    const char *v = c->field[pos[F_STATE]];
    size_t n = strcspn(v, " ");
    if (v[n]) { /* only CANCELLED carries a suffix, "by" and the user id */
        const char *by = v + n;
        if (n != 9 || strncmp(v, "CANCELLED", 9) || strncmp(by, " by ", 4) || !by[4] ||
            strspn(by + 4, "0123456789") != strlen(by + 4))
            return field_error(err, c, F_STATE, pos, "is not a state; allowed: a state as "
                               "sacct prints it (CANCELLED may be followed by ' by UID')");
    }
    if (n == 0 || n >= TMC_SACCT_STATE_BYTES)
        return field_error(err, c, F_STATE, pos, "is not a state; allowed: a state of 1 to "
                           "%d characters", TMC_SACCT_STATE_BYTES - 1);
    memcpy(state, v, n);
    state[n] = '\0';
    int cause = tmc_sacct_map_find(map, state);
    if (cause < 0) {
        char known[1024] = "";
        for (int i = 0; i < map->n; i++) {
            size_t len = strlen(known);
            snprintf(known + len, sizeof known - len, "%s%s", i ? ", " : "",
                     map->row[i].state);
        }
        return field_error(err, c, F_STATE, pos, "is a state the table does not map; "
                           "allowed: %s, or --sacct-map %s=CAUSE (CAUSE one of %s)", known,
                           state, causes_allowed);
    }
    return cause;
}

/* One allocation's line into a (its strings not yet copied). 1: kept, 0:
 * skipped (a step, or an ignored allocation that never ran), -1: refused. */
static int read_row(const row_ctx *c, const int *pos, const tmc_sacct_map *map,
                    tmc_sacct_log *log, tmc_sacct_alloc *a, tmc_error *err)
{
    const char *id = c->field[pos[F_JOBID]];
    if (!*id)
        return field_error(err, c, F_JOBID, pos, "is empty; allowed: a job id (123, "
                           "123_4 of an array, 123+0 of a heterogeneous job)");
    if (strchr(id, '.')) { /* a step: 123.batch, 123.extern, 123.0 */
        log->n_steps++;
        return 0;
    }
    char state[TMC_SACCT_STATE_BYTES];
    int cause = read_state(c, pos, map, state, err);
    if (cause < 0)
        return -1;
    const char *start = c->field[pos[F_START]], *end = c->field[pos[F_END]];
    if (cause == TMC_SACCT_IGNORED && (is_unknown(start) || is_unknown(end))) {
        log->n_never_ran++; /* cancelled while pending: no exposure, no end */
        return 0;
    }
    static const char time_allowed[] = "is not a time; allowed: YYYY-MM-DDTHH:MM:SS as "
                                       "sacct prints it (a year from 1970; Unknown only in "
                                       "a state the table ignores)";
    if (parse_time(start, &a->start_s))
        return field_error(err, c, F_START, pos, "%s", time_allowed);
    if (parse_time(end, &a->end_s))
        return field_error(err, c, F_END, pos, "%s", time_allowed);
    if (a->end_s < a->start_s)
        return field_error(err, c, F_END, pos, "is before Start '%s'; allowed: End at or "
                           "after Start", start);
    if (parse_elapsed(c->field[pos[F_ELAPSED]], &a->elapsed_s))
        return field_error(err, c, F_ELAPSED, pos, "is not a length; allowed: [D-]HH:MM:SS "
                           "(HH below 24, MM and SS below 60)");
    double span = a->end_s - a->start_s;
    if (fabs(a->elapsed_s - span) > ELAPSED_SLACK_S)
        return field_error(err, c, F_ELAPSED, pos, "disagrees with End - Start = %.0f s by "
                           "%.0f s; allowed: at most %.0f s (a job across a change of "
                           "daylight saving time: run sacct with TZ=UTC)", span,
                           fabs(a->elapsed_s - span), ELAPSED_SLACK_S);
    if (parse_nnodes(c->field[pos[F_NNODES]], &a->nnodes))
        return field_error(err, c, F_NNODES, pos, "is not a node count; allowed: a positive "
                           "integer up to %ld, digits only", MAX_NNODES);
    a->cause = (tmc_sacct_cause)cause;
    a->line = c->line;
    a->job_id = dup_text(id);
    a->name = dup_text(c->field[pos[F_NAME]]);
    a->state = dup_text(state);
    a->node_list = dup_text(c->field[pos[F_NODELIST]]);
    a->reason = dup_text(pos[F_REASON] >= 0 ? c->field[pos[F_REASON]] : "");
    a->exit_code = dup_text(pos[F_EXIT] >= 0 ? c->field[pos[F_EXIT]] : "");
    if (!a->job_id || !a->name || !a->state || !a->node_list || !a->reason || !a->exit_code) {
        free_alloc(a);
        return tmc_error_set(err, "%s:%ld: out of memory", c->path, c->line);
    }
    return 1;
}

int tmc_sacct_parse(char *text, const char *path, const tmc_sacct_map *map,
                    tmc_sacct_log *log, tmc_error *err)
{
    memset(log, 0, sizeof *log);
    row_ctx c = {.path = path};
    int pos[F_COUNT], n_header = 0, rc = 0;
    for (char *q = text; *q && !rc;) {
        char *nl = strchr(q, '\n');
        if (nl)
            *nl = '\0';
        c.line++;
        char *row = q;
        q = nl ? nl + 1 : q + strlen(q);
        size_t len = strlen(row);
        if (len && row[len - 1] == '\r')
            row[--len] = '\0';
        if ((rc = tmc_text_require_line(row, len, path, c.line, err)))
            break;
        if (!len)
            continue;
        c.line_start = row;
        int n = split(row, &c);
        if (n < 0) {
            rc = tmc_error_set(err, "%s:%ld:1: more than %d fields; allowed: at most %d",
                               path, c.line, MAX_FIELDS, MAX_FIELDS);
            break;
        }
        if (!n_header) {
            if ((rc = read_header(&c, n, pos, err)))
                break;
            n_header = n;
            continue;
        }
        log->n_rows++;
        if (n != n_header) {
            const char *at = n > n_header ? c.field[n_header] : c.field[n - 1];
            rc = tmc_error_set(err, "%s:%ld:%ld: %d fields, the header has %d; allowed: "
                               "exactly the header's (--parsable2: no trailing '|', and no "
                               "'|' inside a field)", path, c.line,
                               tmc_log_text_column(row, at), n,
                               n_header);
            break;
        }
        if (log->n_alloc == log->cap) {
            int cap = log->cap ? 2 * log->cap : 64;
            tmc_sacct_alloc *p = realloc(log->alloc, (size_t)cap * sizeof *p);
            if (!p) {
                rc = tmc_error_set(err, "%s:%ld: out of memory", path, c.line);
                break;
            }
            log->alloc = p, log->cap = cap;
        }
        tmc_sacct_alloc *a = &log->alloc[log->n_alloc];
        memset(a, 0, sizeof *a);
        int kept = read_row(&c, pos, map, log, a, err);
        if (kept < 0)
            rc = -1;
        else
            log->n_alloc += kept;
    }
    if (!rc && !n_header)
        rc = tmc_error_set(err, "%s:1:1: empty: no header line; allowed: `sacct --parsable2` "
                           "output, a header naming the fields, then a line per job", path);
    else if (!rc && !log->n_alloc)
        rc = tmc_error_set(err, "%s:%ld:1: no allocation that ran (%d lines, %d job steps, %d "
                           "never started); allowed: at least one job line with its Start "
                           "and End", path, c.line, log->n_rows, log->n_steps,
                           log->n_never_ran);
    if (!rc) {
        log->has_reason = pos[F_REASON] >= 0;
        log->has_exit_code = pos[F_EXIT] >= 0;
    } else {
        tmc_sacct_log_free(log);
    }
    return rc ? -1 : 0;
}

int tmc_sacct_read(const char *path, const tmc_sacct_map *map, tmc_sacct_log *log,
                   tmc_error *err)
{
    memset(log, 0, sizeof *log);
    char *text = tmc_fault_log_read_text(path, err);
    if (!text)
        return -1;
    int rc = tmc_sacct_parse(text, path, map, log, err);
    free(text);
    return rc;
}
