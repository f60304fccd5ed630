/* fault_log.c - reading a fault event log (fault_log.h). */
#include "fault_log.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

#include "number.h"
#include "text.h"

#define MAX_LOG_BYTES (256L << 20) /* a log of millions of faults */
#define MAX_ID_BYTES 255           /* a node id or a cause */
#define MAX_DAYS 1e7               /* an event time, as --span-days */

/* ---------- the file ---------- */

char *tmc_fault_log_read_text(const char *path, tmc_error *err)
{
    struct stat st;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(fp);
        tmc_error_set(err, "%s: not a regular file", path);
        return NULL;
    }
    if (st.st_size > MAX_LOG_BYTES) {
        fclose(fp);
        tmc_error_set(err, "%s: larger than %ld bytes", path, MAX_LOG_BYTES);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)st.st_size, fp) : 0;
    int bad = !buf || ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        tmc_error_set(err, "%s: cannot read: %s", path, buf ? strerror(errno) : "out of memory");
        return NULL;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        tmc_error_set(err, "%s: contains a NUL byte; expected text (JSON or CSV)", path);
        return NULL;
    }
    if (n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) /* a UTF-8 byte-order mark: ignored, */
        memmove(buf, buf + 3, n - 2);                  /* as in an experiment file */
    return buf;
}

/* ---------- the log ---------- */

static uint64_t hash_text(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static int rehash(tmc_fault_log *log, int size)
{
    int *t = malloc(sizeof *t * (size_t)size);
    if (!t)
        return -1;
    for (int i = 0; i < size; i++)
        t[i] = -1;
    for (int i = 0; i < log->n_nodes; i++) {
        size_t j = hash_text(log->nodes[i]) % (size_t)size;
        while (t[j] >= 0)
            j = (j + 1) % (size_t)size;
        t[j] = i;
    }
    free(log->hash);
    log->hash = t;
    log->hash_size = size;
    return 0;
}

/* The index of node id, added if new; -1 if memory ran out. */
static int node_index(tmc_fault_log *log, const char *id)
{
    if (2 * (log->n_nodes + 1) > log->hash_size &&
        rehash(log, log->hash_size ? 2 * log->hash_size : 64))
        return -1;
    size_t j = hash_text(id) % (size_t)log->hash_size;
    for (; log->hash[j] >= 0; j = (j + 1) % (size_t)log->hash_size)
        if (!strcmp(log->nodes[log->hash[j]], id))
            return log->hash[j];
    if (log->n_nodes == log->cap_nodes) {
        int cap = log->cap_nodes ? 2 * log->cap_nodes : 64;
        char **p = realloc(log->nodes, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        log->nodes = p;
        log->cap_nodes = cap;
    }
    if (!(log->nodes[log->n_nodes] = strdup(id)))
        return -1;
    log->hash[j] = log->n_nodes;
    return log->n_nodes++;
}

/* Append a fault (strings copied); its index, or -1 if memory ran out. */
static int add_fault(tmc_fault_log *log, int node, double start, double end, const char *level,
                     const char *cls, const char *desc, long where)
{
    if (log->n_faults == log->cap_faults) {
        int cap = log->cap_faults ? 2 * log->cap_faults : 256;
        tmc_fault *p = realloc(log->faults, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        log->faults = p;
        log->cap_faults = cap;
    }
    tmc_fault *f = &log->faults[log->n_faults];
    *f = (tmc_fault){node, start, end, strdup(level), strdup(cls), strdup(desc), where};
    if (!f->level || !f->cls || !f->desc) {
        free(f->level), free(f->cls), free(f->desc);
        return -1;
    }
    return log->n_faults++;
}

void tmc_fault_log_free(tmc_fault_log *log)
{
    for (int i = 0; i < log->n_faults; i++) {
        free(log->faults[i].level);
        free(log->faults[i].cls);
        free(log->faults[i].desc);
    }
    for (int i = 0; i < log->n_nodes; i++)
        free(log->nodes[i]);
    free(log->faults);
    free(log->nodes);
    free(log->hash);
    memset(log, 0, sizeof *log);
}

static int by_start(const void *a, const void *b)
{
    const tmc_fault *x = a, *y = b;
    if (x->start_days != y->start_days)
        return x->start_days < y->start_days ? -1 : 1;
    return (x->where > y->where) - (x->where < y->where);
}

/* 1 when a and b are the same fault: node, start, end and cause. */
static int same_fault(const tmc_fault *a, const tmc_fault *b)
{
    return a->node == b->node && a->start_days == b->start_days &&
           (a->end_days == b->end_days || (isnan(a->end_days) && isnan(b->end_days))) &&
           !strcmp(a->level, b->level) && !strcmp(a->cls, b->cls) && !strcmp(a->desc, b->desc);
}

/* The index of an earlier fault that fault i repeats exactly, or -1. Faults
 * are sorted by start: only those with i's start can be the same. */
static int repeats(const tmc_fault_log *log, int i)
{
    for (int j = i - 1; j >= 0 && log->faults[j].start_days == log->faults[i].start_days; j--)
        if (same_fault(&log->faults[j], &log->faults[i]))
            return j;
    return -1;
}

/* Exact duplicates are counted, not dropped: a log read twice over, or two
 * logs concatenated, would double the failure rate unseen (fault_log.h). */
static void count_duplicates(tmc_fault_log *log)
{
    log->duplicates = 0;
    for (int i = 1; i < log->n_faults; i++) {
        int j = repeats(log, i);
        if (j >= 0 && !log->duplicates++) {
            log->duplicate_where = log->faults[i].where;
            log->duplicate_of = log->faults[j].where;
        }
    }
}

int tmc_fault_log_dedupe(tmc_fault_log *log)
{
    int kept = 0, dropped = 0;
    for (int i = 0; i < log->n_faults; i++) {
        tmc_fault *f = &log->faults[i];
        /* compared with the faults kept: a repeat of a dropped one repeats a kept one */
        int dup = 0;
        for (int j = kept - 1; j >= 0 && log->faults[j].start_days == f->start_days && !dup; j--)
            dup = same_fault(&log->faults[j], f);
        if (!dup) {
            log->faults[kept++] = *f;
            continue;
        }
        free(f->level), free(f->cls), free(f->desc);
        dropped++;
    }
    log->n_faults = kept;
    log->duplicates = 0;
    return dropped;
}

static void finish_log(tmc_fault_log *log)
{
    qsort(log->faults, (size_t)log->n_faults, sizeof *log->faults, by_start);
    count_duplicates(log);
    for (int i = 0; i < log->n_faults; i++) {
        const tmc_fault *f = &log->faults[i];
        double t = isnan(f->end_days) ? f->start_days : f->end_days;
        if (t > log->last_event_days)
            log->last_event_days = t;
    }
}

int tmc_fault_log_add(tmc_fault_log *log, const char *node, double start_days,
                      double end_days, const char *cause, tmc_error *err)
{
    if (!(start_days >= 0 && start_days <= MAX_DAYS) || end_days > MAX_DAYS ||
        end_days < start_days)
        return tmc_error_set(err, "fault %d: start %g, end %g days: expected 0 <= start <= end "
                             "<= %g (end NAN: not repaired)", log->n_faults, start_days,
                             end_days, MAX_DAYS);
    int k = node_index(log, node);
    if (k < 0 || add_fault(log, k, start_days, end_days, "", cause ? cause : "", "",
                           log->n_faults) < 0)
        return tmc_error_set(err, "out of memory");
    return 0;
}

void tmc_fault_log_finish(tmc_fault_log *log)
{
    log->last_event_days = 0;
    finish_log(log);
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int tmc_fault_log_match_cause(const tmc_fault *f, const char *text)
{
    return ieq(f->cls, text) || ieq(f->desc, text);
}

int tmc_fault_log_exclude(tmc_fault_log *log, const char *const *texts, int n, int *removed)
{
    int kept = 0, dropped = 0;
    if (removed)
        memset(removed, 0, sizeof *removed * (size_t)(n > 0 ? n : 0));
    for (int i = 0; i < log->n_faults; i++) {
        tmc_fault *f = &log->faults[i];
        int hit = -1;
        for (int j = 0; j < n && hit < 0; j++)
            if (tmc_fault_log_match_cause(f, texts[j]))
                hit = j;
        if (hit < 0) {
            log->faults[kept++] = *f;
            continue;
        }
        if (removed)
            removed[hit]++;
        dropped++;
        free(f->level), free(f->cls), free(f->desc);
    }
    log->n_faults = kept;
    return dropped;
}

/* ---------- JSON ---------- */

/* Open faults of a node while reading JSON events: a singly linked list per
 * node through next_open (indices into log->faults). */
typedef struct {
    int *head;     /* per node: first open fault, -1: none */
    int *next;     /* per fault: the next open fault of its node */
    int cap_head, cap_next;
} open_faults;

static int grow(int **p, int *cap, int need)
{
    if (need <= *cap)
        return 0;
    int c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    int *q = realloc(*p, sizeof *q * (size_t)c);
    if (!q)
        return -1;
    for (int i = *cap; i < c; i++)
        q[i] = -1;
    *p = q;
    *cap = c;
    return 0;
}

/* A string member (absent: "", NULL if not a string). */
static const char *member_text(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v || cJSON_IsNull(v))
        return "";
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *type_name(const cJSON *v)
{
    return !v ? "nothing" : cJSON_IsNumber(v) ? "a number" : cJSON_IsString(v) ? "a string" :
           cJSON_IsBool(v) ? "a boolean" : cJSON_IsNull(v) ? "null" :
           cJSON_IsArray(v) ? "an array" : "an object";
}

/* One event; `at` labels it in messages ("[12]" or "line 13"). */
static int read_event(const char *path, const char *at, long index, const cJSON *e,
                      tmc_fault_log *log, open_faults *of, tmc_error *err)
{
    if (!cJSON_IsObject(e))
        return tmc_error_set(err, "%s: %s: expected an event object, got %s", path, at,
                             type_name(e));
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "node_id");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "event_time");
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(e, "event_type");
    const cJSON *ft = cJSON_GetObjectItemCaseSensitive(e, "fault_type");
    char idbuf[64];
    const char *node;
    char where[64];
    snprintf(where, sizeof where, "%s.node_id", at);
    if (cJSON_IsString(id) && id->valuestring[0] && strlen(id->valuestring) <= MAX_ID_BYTES) {
        if (tmc_text_require(id->valuestring, path, where, err)) /* it reaches the report */
            return -1;
        node = id->valuestring;
    }
    else if (cJSON_IsNumber(id) && isfinite(id->valuedouble)) {
        snprintf(idbuf, sizeof idbuf, "%.17g", id->valuedouble);
        node = idbuf;
    } else
        return tmc_error_set(err, "%s: %s.node_id: expected a non-empty string of at most %d "
                             "bytes or a number, got %s", path, at, MAX_ID_BYTES, type_name(id));
    if (!cJSON_IsNumber(t) || !(t->valuedouble >= 0 && t->valuedouble <= MAX_DAYS))
        return cJSON_IsNumber(t) ?
            tmc_error_set(err, "%s: %s.event_time: %g is out of range: days, 0 to %g", path,
                          at, t->valuedouble, MAX_DAYS) :
            tmc_error_set(err, "%s: %s.event_time: expected a number of days >= 0, got %s",
                          path, at, type_name(t));
    int start;
    if (cJSON_IsString(ty) && !strcmp(ty->valuestring, "fault_start"))
        start = 1;
    else if (cJSON_IsString(ty) && !strcmp(ty->valuestring, "fault_end"))
        start = 0;
    else if (cJSON_IsString(ty))
        return tmc_error_set(err, "%s: %s.event_type: '%.60s' is not one of: fault_start, "
                             "fault_end", path, at, ty->valuestring);
    else
        return tmc_error_set(err, "%s: %s.event_type: expected \"fault_start\" or "
                             "\"fault_end\", got %s", path, at, type_name(ty));
    const char *lv = "", *cl = "", *de = "";
    if (ft && !cJSON_IsNull(ft)) {
        if (!cJSON_IsObject(ft))
            return tmc_error_set(err, "%s: %s.fault_type: expected an object {Level, Class, "
                                 "Desc}, got %s", path, at, type_name(ft));
        static const char *const keys[] = {"Level", "Class", "Desc"};
        const char **dst[] = {&lv, &cl, &de};
        for (int k = 0; k < 3; k++) {
            const char *s = member_text(ft, keys[k]);
            if (!s || strlen(s) > MAX_ID_BYTES)
                return tmc_error_set(err, "%s: %s.fault_type.%s: expected a string of at most "
                                     "%d bytes", path, at, keys[k], MAX_ID_BYTES);
            snprintf(where, sizeof where, "%s.fault_type.%s", at, keys[k]);
            if (tmc_text_require(s, path, where, err))
                return -1;
            *dst[k] = s;
        }
    }
    int n = node_index(log, node);
    if (n < 0 || grow(&of->head, &of->cap_head, log->n_nodes))
        return tmc_error_set(err, "%s: out of memory", path);
    double time = t->valuedouble;
    if (start) {
        int i = add_fault(log, n, time, NAN, lv, cl, de, index);
        if (i < 0 || grow(&of->next, &of->cap_next, log->n_faults))
            return tmc_error_set(err, "%s: out of memory", path);
        int *p = &of->head[n]; /* append: the list stays oldest first */
        while (*p >= 0)
            p = &of->next[*p];
        *p = i;
        of->next[i] = -1;
        return 0;
    }
    int *pick = NULL;
    for (int *p = &of->head[n]; *p >= 0 && !pick; p = &of->next[*p]) {
        const tmc_fault *f = &log->faults[*p];
        if (!strcmp(f->level, lv) && !strcmp(f->cls, cl) && !strcmp(f->desc, de))
            pick = p;
    }
    if (!pick)
        pick = of->head[n] >= 0 ? &of->head[n] : NULL;
    if (!pick) {
        log->unmatched_ends++;
        if (time > log->last_event_days)
            log->last_event_days = time;
        return 0;
    }
    tmc_fault *f = &log->faults[*pick];
    if (time < f->start_days)
        return tmc_error_set(err, "%s: %s.event_time: the fault_end at %g days is before its "
                             "fault_start at %g days (event [%ld]); events must be in time "
                             "order", path, at, time, f->start_days, f->where);
    f->end_days = time;
    *pick = of->next[*pick];
    return 0;
}

/* "PATH:LINE:COL: not valid JSON ..." for a parse that stopped at `stop` in
 * text: where the text ends early (truncated), or where cJSON gave up (a
 * syntax error, or arrays or objects nested deeper than its limit). */
static int json_error(const char *path, const char *text, const char *stop, tmc_error *err)
{
    /* cJSON stops inside a string that the end of the text left open: where
     * it ends is the place to show */
    int open = 0;
    for (const char *q = text; q < stop && *q; q++)
        if (*q == '\\' && open && q[1])
            q++;
        else if (*q == '"')
            open = !open;
    if (open && !strchr(stop, '"'))
        stop += strlen(stop);
    long line, col;
    tmc_text_position(text, stop, &line, &col);
    if (!*stop)
        return tmc_error_set(err, "%s:%ld:%ld: not valid JSON: the text ends early "
                             "(truncated?)", path, line, col);
    if (!strncmp(stop, "\\u0000", 6))
        return tmc_error_set(err, "%s:%ld:%ld: a \\u0000 escape (NUL) in a string; text "
                             "must be printable UTF-8", path, line, col);
    return tmc_error_set(err, "%s:%ld:%ld: not valid JSON near '%.20s' (a syntax error, or "
                         "nested deeper than %d)", path, line, col, stop, CJSON_NESTING_LIMIT);
}

/* One line of JSON lines: `s` in the line `start` (the position counts from
 * there), number `line` of the file. */
static int read_json_line(const char *path, long line, const char *start, const char *s,
                          tmc_fault_log *log, open_faults *of, tmc_error *err)
{
    char at[32];
    snprintf(at, sizeof at, "line %ld", line);
    const char *stop = NULL, *nul = tmc_text_json_nul(s);
    cJSON *e = cJSON_ParseWithOpts(s, &stop, 1);
    long col, one;
    tmc_text_position(start, e ? nul : stop ? stop : s, &one, &col);
    int rc = e && nul ? tmc_error_set(err, "%s:%ld:%ld: a \\u0000 escape (NUL) in a string; "
                                      "text must be printable UTF-8", path, line, col)
           : e ? read_event(path, at, line, e, log, of, err)
               : tmc_error_set(err, "%s:%ld:%ld: not valid JSON%s (expected a JSON array of "
                               "events or one event object a line)", path, line, col,
                               stop && !*stop ? ": the line ends early" : "");
    cJSON_Delete(e);
    return rc;
}

int tmc_fault_log_read_json(const char *path, tmc_fault_log *log, tmc_error *err)
{
    memset(log, 0, sizeof *log);
    char *text = tmc_fault_log_read_text(path, err);
    if (!text)
        return -1;
    open_faults of = {0};
    int rc = 0;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '[') {
        const char *stop = NULL;
        cJSON *root = cJSON_ParseWithOpts(p, &stop, 1);
        if (!root)
            rc = json_error(path, text, stop ? stop : p, err);
        else if (tmc_text_json_nul(p)) /* cJSON cut a string there: text.h */
            rc = json_error(path, text, tmc_text_json_nul(p), err);
        long i = 0;
        for (const cJSON *e = root ? root->child : NULL; e && !rc; e = e->next, i++) {
            char at[32];
            snprintf(at, sizeof at, "[%ld]", i);
            rc = read_event(path, at, i, e, log, &of, err);
        }
        cJSON_Delete(root);
    } else { /* JSON lines */
        long line = 0;
        for (char *q = text; *q && !rc;) {
            char *nl = strchr(q, '\n');
            if (nl)
                *nl = '\0';
            line++;
            char *s = q;
            while (isspace((unsigned char)*s))
                s++;
            if (*s && *s != '#')
                rc = read_json_line(path, line, q, s, log, &of, err);
            q = nl ? nl + 1 : q + strlen(q);
        }
    }
    free(text);
    free(of.head);
    free(of.next);
    if (!rc && log->n_faults == 0)
        rc = tmc_error_set(err, "%s: no fault_start event: nothing to fit", path);
    if (rc) {
        tmc_fault_log_free(log);
        return -1;
    }
    finish_log(log);
    return 0;
}

/* ---------- CSV ---------- */

/* Split one line into at most max fields in place (quotes removed). The
 * number of fields, or -1 for an unterminated quote. */
static int split_csv(char *line, char **field, int max)
{
    int n = 0;
    char *r = line, *w = line;
    for (;;) {
        char *start = w;
        if (*r == '"') {
            r++;
            for (;;) {
                if (!*r)
                    return -1;
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else
                    *w++ = *r++;
            }
            while (*r && *r != ',')
                *w++ = *r++;
        } else
            while (*r && *r != ',')
                *w++ = *r++;
        int more = *r == ',';
        *w++ = '\0';
        r++;
        if (n < max)
            field[n] = start;
        n++;
        if (!more)
            return n;
    }
}

static void trim(char **s)
{
    while (isspace((unsigned char)**s))
        (*s)++;
    size_t n = strlen(*s);
    while (n && isspace((unsigned char)(*s)[n - 1]))
        (*s)[--n] = '\0';
}

#define MAX_COLUMNS 256

/* A cell kept as text (a node id, a cause) is printed and written to --json:
 * the line was checked, but a tab inside a cell is refused here too. */
static int cell_text(const char *path, long line, const char *column, const char *s,
                     tmc_error *err)
{
    char label[64 + 4096], where[320];
    snprintf(label, sizeof label, "%s:%ld", path, line);
    snprintf(where, sizeof where, "column '%.256s'", column);
    return tmc_text_require(s, label, where, err);
}

/* A header naming a column twice is refused: which of the two a role would
 * read is a guess (the last one, before). */
static int unique_columns(const char *path, long line, char *const *field, int n,
                          tmc_error *err)
{
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            if (*field[i] && !strcmp(field[i], field[j])) /* empty: a stray comma */
                return tmc_error_set(err, "%s:%ld: column '%.60s' is named twice in the header "
                                     "(columns %d and %d); each name must be distinct", path,
                                     line, field[i], j + 1, i + 1);
    return 0;
}

int tmc_fault_log_read_csv(const char *path, const tmc_fault_log_columns *cols,
                           tmc_fault_log *log, tmc_error *err)
{
    memset(log, 0, sizeof *log);
    char *text = tmc_fault_log_read_text(path, err);
    if (!text)
        return -1;
    const char *want[4] = {cols->node, cols->start, cols->end, cols->cause};
    const char *role[4] = {"node", "start", "end", "cause"};
    int col[4] = {-1, -1, -1, -1}, n_header = 0, rc = 0;
    double unit = cols->hours ? 1.0 / 24.0 : 1.0;
    long line = 0;
    for (char *q = text; *q && !rc;) {
        char *nl = strchr(q, '\n');
        if (nl)
            *nl = '\0';
        line++;
        char *row = q;
        q = nl ? nl + 1 : q + strlen(q);
        size_t len = strlen(row);
        if (len && row[len - 1] == '\r')
            row[len - 1] = '\0';
        if ((rc = tmc_text_require_line(row, strlen(row), path, line, err)))
            break; /* before a comment is skipped too: no line may hold control bytes */
        char *probe = row;
        trim(&probe);
        if (!*probe || *probe == '#')
            continue;
        char *field[MAX_COLUMNS];
        int n = split_csv(row, field, MAX_COLUMNS);
        if (n < 0) {
            rc = tmc_error_set(err, "%s:%ld: a quoted field is not closed", path, line);
            break;
        }
        if (n > MAX_COLUMNS) {
            rc = tmc_error_set(err, "%s:%ld: %d columns; at most %d", path, line, n,
                               MAX_COLUMNS);
            break;
        }
        for (int i = 0; i < n; i++)
            trim(&field[i]);
        if (!n_header) { /* the header */
            n_header = n;
            if ((rc = unique_columns(path, line, field, n, err)))
                break;
            for (int k = 0; k < 4 && !rc; k++) {
                for (int i = 0; i < n && want[k]; i++)
                    if (!strcmp(field[i], want[k]))
                        col[k] = i;
                int optional = (k == 2 && cols->end_optional) || (k == 3 && cols->cause_optional);
                if (want[k] && col[k] < 0 && !optional)
                    rc = tmc_error_set(err, "%s:%ld: no column '%s' (the %s column) in the "
                                       "header", path, line, want[k], role[k]);
            }
            continue;
        }
        if (n != n_header) {
            rc = tmc_error_set(err, "%s:%ld: %d fields; the header has %d", path, line, n,
                               n_header);
            break;
        }
        const char *node = field[col[0]];
        if (!*node || strlen(node) > MAX_ID_BYTES) {
            rc = tmc_error_set(err, "%s:%ld: column '%s': the node id must be 1-%d bytes", path,
                               line, want[0], MAX_ID_BYTES);
            break;
        }
        if ((rc = cell_text(path, line, want[0], node, err)))
            break;
        double t[2] = {NAN, NAN};
        for (int k = 1; k <= 2 && !rc; k++) {
            if (col[k] < 0)
                continue;
            const char *s = field[col[k]];
            if (k == 2 && !*s)
                continue; /* not repaired */
            double v = NAN;
            if (tmc_number_parse(s, &v) || v < 0)
                rc = tmc_error_set(err, "%s:%ld: column '%s': '%.40s' is not a number of %s "
                                   ">= 0%s", path, line, want[k], s,
                                   cols->hours ? "hours" : "days",
                                   k == 2 ? " (or empty: not repaired)" : "");
            else if (!(v * unit <= MAX_DAYS))
                rc = tmc_error_set(err, "%s:%ld: column '%s': %.40s %s is out of range: 0 to "
                                   "%g %s", path, line, want[k], s,
                                   cols->hours ? "hours" : "days", MAX_DAYS / unit,
                                   cols->hours ? "hours" : "days");
            t[k - 1] = v * unit;
        }
        if (!rc && !isnan(t[1]) && t[1] < t[0])
            rc = tmc_error_set(err, "%s:%ld: column '%s': the end %g is before the start %g",
                               path, line, want[2], t[1] / unit, t[0] / unit);
        const char *cause = col[3] >= 0 ? field[col[3]] : "";
        if (!rc && strlen(cause) > MAX_ID_BYTES)
            rc = tmc_error_set(err, "%s:%ld: column '%s': a cause of at most %d bytes", path,
                               line, want[3], MAX_ID_BYTES);
        if (!rc && *cause)
            rc = cell_text(path, line, want[3], cause, err);
        if (rc)
            break;
        int ni = node_index(log, node);
        if (ni < 0 || add_fault(log, ni, t[0], t[1], "", cause, "", line) < 0)
            rc = tmc_error_set(err, "%s: out of memory", path);
    }
    free(text);
    if (!rc && !n_header)
        rc = tmc_error_set(err, "%s: empty: expected a header row naming the columns", path);
    if (!rc && log->n_faults == 0)
        rc = tmc_error_set(err, "%s: no fault rows after the header: nothing to fit", path);
    if (rc) {
        tmc_fault_log_free(log);
        return -1;
    }
    finish_log(log);
    return 0;
}
