/* train_log.c - reading a training job's log (train_log.h): its iteration
 * lines, restarts and checkpoint lines.
 *
 * Invariants: only a line that is one of the forms' (it holds the field's
 * marker, or the pattern matches it) is read, and then every field it needs
 * must parse, or the whole log is refused at that field; a log without an
 * iteration line is refused; stamps are on every iteration line or none,
 * and never go back. */
#include "train_log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault_log.h"
#include "log_text.h"
#include "text.h"

#define MAX_ITERATION 1000000000000L /* far above any job.steps */
#define MAX_STEP_S 1e7               /* progress.step_s's upper bound */

static const char f_time[] = "elapsed time per iteration (ms)";
static const char f_iter[] = "iteration";
static const char f_stamp[] = "timestamp";

/* The reader's state across lines. */
typedef struct {
    const char *path;
    const tmc_step_regex *re;
    tmc_train_log *log;
    long line;
    const char *line_start;
    long prev_iter;     /* the last iteration line's; -1: none yet */
    long loaded;        /* the iteration a load line gave since the last iteration line; -1 */
    int pending;        /* a load line after an iteration line: the next one starts again */
    long last_stamp_line;
} reader;

/* "PATH:LINE:COL: field 'F': 'VALUE' WHY"; the value is the text from at to
 * the next '|' or blank, escaped. -1. */
static int field_error(tmc_error *err, const reader *r, const char *at, const char *field,
                       const char *why)
{
    char raw[48], shown[96];
    size_t n = strcspn(at, "| \t");
    snprintf(raw, sizeof raw, "%.*s", (int)(n < 40 ? n : 40), at);
    tmc_text_escape(shown, sizeof shown, raw);
    return tmc_error_set(err, "%s:%ld:%ld: field '%s': '%s' %s", r->path, r->line,
                         tmc_log_text_column(r->line_start, at), field, shown, why);
}

/* An integer in [0, MAX_ITERATION] at s (leading blanks skipped), end past it. */
static int read_count(const char *s, const char **at, char **end, long *v)
{
    while (*s == ' ' || *s == '\t')
        s++;
    *at = s;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    long x = strtol(s, end, 10);
    if (errno || x > MAX_ITERATION)
        return -1;
    *v = x;
    return 0;
}

/* A time per step, seconds, from the number at s divided by per_s (1000
 * for ms: a division, so X ms is the double nearest X / 1000, as a script
 * computes it). */
static int read_seconds(const char *s, const char **at, double per_s, double *v)
{
    while (*s == ' ' || *s == '\t')
        s++;
    *at = s;
    if (!((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || end == s || !(*end == '\0' || *end == ' ' || *end == '|' || *end == '\t'))
        return -1;
    x /= per_s;
    if (!(x > 0 && x <= MAX_STEP_S))
        return -1;
    *v = x;
    return 0;
}

/* "YYYY-MM-DD HH:MM:SS" (or a T between), a real date, into *t seconds;
 * *len the characters read. -1 if not one. */
static int parse_stamp(const char *s, double *t, size_t *len)
{
    *len = 19;
    return tmc_log_text_stamp(s, 1, t);
}

/* ---------- checkpoint lines ---------- */

/* The last occurrence of word in s, or NULL. */
static const char *last_of(const char *s, const char *word)
{
    const char *hit = NULL;
    for (const char *p = strstr(s, word); p; p = strstr(p + 1, word))
        hit = p;
    return hit;
}

/* A save or load line (checkpointing.py's): the commit moves to it. Save:
 * "saved checkpoint from iteration N" (or "at iteration N"); load:
 * "successfully loaded checkpoint from PATH ... at iteration N", the last
 * "at iteration" of the line (a path may hold the words). 1 if the line is
 * one, 0 if not, -1 with err. */
static int checkpoint_line(reader *r, const char *line, tmc_error *err)
{
    static const char *const save_marks[] = {"saved checkpoint from iteration",
                                             "saved checkpoint at iteration"};
    const char *num = NULL, *at;
    char *end;
    long it;
    for (int i = 0; i < 2 && !num; i++) {
        const char *m = strstr(line, save_marks[i]);
        num = m ? m + strlen(save_marks[i]) : NULL;
    }
    int save = num != NULL;
    const char *load = save ? NULL : strstr(line, "successfully loaded checkpoint from");
    if (!save && !load)
        return 0;
    if (load) {
        const char *m = last_of(load, " at iteration");
        num = m ? m + 13 : line + strlen(line);
    }
    if (read_count(num, &at, &end, &it))
        return field_error(err, r, at, save ? "saved checkpoint from iteration"
                                            : "loaded checkpoint ... at iteration",
                           "is not an iteration (an integer in [0, 1e12])");
    tmc_train_log *log = r->log;
    log->commit = it;
    log->commit_line = r->line;
    if (save) {
        log->n_saves++;
        return 1;
    }
    log->n_loads++;
    r->loaded = it;
    if (r->prev_iter >= 0)
        r->pending = 1;
    return 1;
}

/* ---------- iteration lines ---------- */

/* The fields of one iteration line, before the restart logic. */
typedef struct {
    long iteration;
    double step_s, stamp_s;
    const char *stamp_at; /* where the stamp is, or should be */
} iter_fields;

/* Megatron-LM's " [STAMP] iteration N/ M | ... | elapsed time per iteration
 * (ms): X |": 1 if the line is one (it holds the time's marker), 0 if not,
 * -1 with err. */
static int megatron_line(const reader *r, const char *line, iter_fields *f, tmc_error *err)
{
    const char *mark = strstr(line, f_time);
    if (!mark)
        return 0;
    size_t n = strlen(f_time);
    const char *at = mark + n; /* a line that ends at the marker: nothing past its end read */
    if (mark[n] == '\0' || read_seconds(mark + n + 1, &at, 1000.0, &f->step_s) ||
        mark[n] != ':')
        return field_error(err, r, at, f_time, "is not a number of ms in (0, 1e10]");
    const char *w = strstr(line, " iteration ");
    if (!w || w > mark)
        return field_error(err, r, line, f_iter, "is missing: expected 'iteration N/M |' "
                                                 "before the time");
    char *end;
    if (read_count(w + 11, &at, &end, &f->iteration) || *end != '/')
        return field_error(err, r, at, f_iter, "is not N/M with N an integer in "
                                               "[0, 1e12]");
    /* the stamp: "[YYYY-MM-DD HH:MM:SS]" just before " iteration" */
    f->stamp_s = NAN;
    f->stamp_at = w + 1;
    if (w >= line + 21 && w[-1] == ']') {
        const char *s = w - 21;
        size_t len;
        f->stamp_at = s;
        if (s[0] != '[')
            return field_error(err, r, s, f_stamp, "is not [YYYY-MM-DD HH:MM:SS]");
        char buf[20];
        memcpy(buf, s + 1, 19);
        buf[19] = '\0';
        f->stamp_at = s + 1;
        if (parse_stamp(buf, &f->stamp_s, &len))
            return field_error(err, r, s + 1, f_stamp, "is not a date and time "
                                                       "YYYY-MM-DD HH:MM:SS");
    }
    return 1;
}

/* Group g of a match as a NUL-terminated copy in buf ("" when the group
 * took no part); its start in *at. */
static void group_text(const char *line, const regmatch_t *m, char *buf, size_t cap,
                       const char **at)
{
    if (m->rm_so < 0) {
        buf[0] = '\0';
        *at = line;
        return;
    }
    size_t n = (size_t)(m->rm_eo - m->rm_so);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, line + m->rm_so, n);
    buf[n] = '\0';
    *at = line + m->rm_so;
}

/* --step-regex's line: 1 if the pattern matches, 0 if not, -1 with err. */
static int regex_line(const reader *r, const char *line, iter_fields *f, tmc_error *err)
{
    const tmc_step_regex *re = r->re;
    regmatch_t m[32];
    if (regexec(&re->re, line, re->n_groups + 1, m, 0))
        return 0;
    char buf[64];
    const char *at, *in_buf; /* the group in the line; the number in buf */
    char *end;
    group_text(line, &m[re->g_step], buf, sizeof buf, &at);
    if (read_count(buf, &in_buf, &end, &f->iteration) || *end)
        return field_error(err, r, at, "step", "is not an integer in [0, 1e12]");
    int g = re->g_ms ? re->g_ms : re->g_s;
    group_text(line, &m[g], buf, sizeof buf, &at);
    if (read_seconds(buf, &in_buf, re->g_ms ? 1000.0 : 1.0, &f->step_s))
        return field_error(err, r, at, re->g_ms ? "ms" : "s",
                           re->g_ms ? "is not a number of ms in (0, 1e10]"
                                    : "is not a number of seconds in (0, 1e7]");
    f->stamp_s = NAN;
    f->stamp_at = line;
    if (re->g_time) {
        size_t len;
        group_text(line, &m[re->g_time], buf, sizeof buf, &f->stamp_at);
        if (parse_stamp(buf, &f->stamp_s, &len) || buf[len])
            return field_error(err, r, f->stamp_at, "time", "is not a date and time "
                                                            "YYYY-MM-DD HH:MM:SS");
    }
    return 1;
}

/* The stamps' rules: on every line or none, never back. 0, or -1. */
static int check_stamp(reader *r, const iter_fields *f, tmc_error *err)
{
    tmc_train_log *log = r->log;
    int has = !isnan(f->stamp_s);
    if (log->n == 0) {
        log->stamped = has;
    } else if (has != log->stamped) {
        return tmc_error_set(err, "%s:%ld:%ld: field '%s': %s, where line %ld's iteration "
                             "line %s one; allowed: a stamp on every iteration line or on none",
                             r->path, r->line, tmc_log_text_column(r->line_start, f->stamp_at),
                             r->re ? "time" : f_stamp, has ? "present" : "missing",
                             log->pt[0].line, has ? "has not" : "has");
    } else if (has && f->stamp_s < log->pt[log->n - 1].stamp_s) {
        return field_error(err, r, f->stamp_at, r->re ? "time" : f_stamp,
                           "is before the previous iteration line's; allowed: stamps in "
                           "time order (a log of one job, appended to)");
    }
    return 0;
}

/* An iteration line into the log: a restart when its number goes back or a
 * load line came after the line before. 0, or -1. */
static int add_point(reader *r, const iter_fields *f, tmc_error *err)
{
    tmc_train_log *log = r->log;
    if (check_stamp(r, f, err))
        return -1;
    if (log->n == log->cap) {
        int cap = log->cap ? 2 * log->cap : 256;
        tmc_train_log_point *p = realloc(log->pt, (size_t)cap * sizeof *p);
        if (!p)
            return tmc_error_set(err, "%s:%ld: out of memory", r->path, r->line);
        log->pt = p, log->cap = cap;
    }
    tmc_train_log_point *p = &log->pt[log->n++];
    p->line = r->line;
    p->iteration = f->iteration;
    p->step_s = f->step_s;
    p->stamp_s = f->stamp_s;
    p->steps = p->first_steps = 0;
    int first = r->prev_iter < 0;
    if (!first && (r->pending || f->iteration <= r->prev_iter)) {
        if (log->restarts < 8)
            log->restart_line[log->restarts] = r->line;
        log->restarts++;
    } else if (!first) {
        p->steps = f->iteration - r->prev_iter;
    }
    if (p->steps == 0) { /* a start's first line: from the loaded iteration, or 0 */
        long from = r->loaded >= 0 ? r->loaded : (first ? 0 : -1);
        p->first_steps = from >= 0 && f->iteration > from ? f->iteration - from : 0;
    }
    r->prev_iter = f->iteration;
    r->pending = 0;
    r->loaded = -1;
    return 0;
}

/* One line (no end of line). 0, or -1. */
static int read_line(reader *r, const char *line, tmc_error *err)
{
    iter_fields f;
    int is = r->re ? regex_line(r, line, &f, err) : megatron_line(r, line, &f, err);
    if (is < 0)
        return -1;
    if (is)
        return add_point(r, &f, err);
    return checkpoint_line(r, line, err) < 0 ? -1 : 0;
}

void tmc_train_log_free(tmc_train_log *log)
{
    free(log->pt);
    memset(log, 0, sizeof *log);
    log->commit = log->resumed_at = -1;
}

int tmc_train_log_parse(char *text, const char *path, const tmc_step_regex *re,
                        tmc_train_log *log, tmc_error *err)
{
    tmc_train_log_free(log);
    reader r = {.path = path, .re = re, .log = log, .prev_iter = -1, .loaded = -1};
    int rc = 0;
    for (char *q = text; *q && !rc;) {
        char *nl = strchr(q, '\n');
        if (nl)
            *nl = '\0';
        r.line++;
        char *row = q;
        q = nl ? nl + 1 : q + strlen(q);
        size_t len = strlen(row);
        if (len && row[len - 1] == '\r')
            row[--len] = '\0';
        if (len >= TMC_TRAIN_LOG_MAX_LINE) {
            rc = tmc_error_set(err, "%s:%ld:1: a line of %zu bytes; allowed: fewer than %d",
                               path, r.line, len, TMC_TRAIN_LOG_MAX_LINE);
            break;
        }
        r.line_start = row;
        rc = read_line(&r, row, err);
    }
    log->n_lines = r.line;
    if (!rc && log->n == 0)
        rc = tmc_error_set(err, "%s: no iteration line in %ld lines; allowed: %s", path,
                           r.line, re ? "lines --step-regex matches, with its step and ms "
                                        "(or s) groups"
                                      : "Megatron-LM's training log lines, ' [YYYY-MM-DD "
                                        "HH:MM:SS] iteration N/M | ... | elapsed time per "
                                        "iteration (ms): X | ...' (or give --step-regex)");
    if (!rc && r.pending) { /* a load line after the last iteration line: started again */
        if (log->restarts < 8)
            log->restart_line[log->restarts] = log->commit_line;
        log->restarts++;
        log->resumed_at = r.loaded;
    }
    if (rc)
        tmc_train_log_free(log);
    return rc ? -1 : 0;
}

int tmc_train_log_read(const char *path, const tmc_step_regex *re, tmc_train_log *log,
                       tmc_error *err)
{
    memset(log, 0, sizeof *log);
    log->commit = log->resumed_at = -1;
    char *text = tmc_fault_log_read_text(path, err);
    if (!text)
        return -1;
    int rc = tmc_train_log_parse(text, path, re, log, err);
    free(text);
    return rc;
}

void tmc_train_log_summarize(const tmc_train_log *log, tmc_train_log_summary *s)
{
    memset(s, 0, sizeof *s);
    const tmc_train_log_point *last = &log->pt[log->n - 1];
    s->steps_done = log->resumed_at >= 0 ? log->resumed_at : last->iteration;
    if (log->commit > s->steps_done) /* a save after the last iteration line */
        s->steps_done = log->commit;
    s->committed_step = log->commit;
    s->failures = log->restarts;
    double w = 0, sum = 0;
    for (int i = 0; i < log->n; i++)
        if (log->pt[i].steps > 0) {
            w += (double)log->pt[i].steps;
            sum += (double)log->pt[i].steps * log->pt[i].step_s;
            s->intervals++;
        }
    s->step_steps = (long)w;
    if (s->intervals > 0)
        s->step_s = sum / w;
    if (s->intervals > 1) {
        double ss = 0;
        for (int i = 0; i < log->n; i++)
            if (log->pt[i].steps > 0) {
                double d = log->pt[i].step_s - s->step_s;
                ss += (double)log->pt[i].steps * d * d;
            }
        s->step_sd_s = sqrt(ss / (double)(s->intervals - 1));
    }
    s->stamped_s = NAN;
    if (log->stamped)
        s->stamped_s = last->stamp_s - log->pt[0].stamp_s +
                       (double)log->pt[0].first_steps * log->pt[0].step_s;
}
