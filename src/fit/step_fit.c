/* step_fit.c - a step-time log read and its per-card jitter fitted
 * (step_fit.h; docs/fit.md 9). */
#include "step_fit.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_psi.h>

#include "dist.h"
#include "number.h"
#include "text.h"

#define MAX_FIELDS 100000 /* ranks in the wide form, and then some */
#define MAX_CELLS 200000000L

void tmc_step_log_free(tmc_step_log *log)
{
    for (int i = 0; log->rank && i < log->n_ranks; i++)
        free(log->rank[i]);
    free(log->rank);
    free(log->x);
    free(log->step);
    memset(log, 0, sizeof *log);
}

/* ---------- reading ---------- */

/* s without its leading and trailing blanks (in place). */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Split line at commas into f (at most max); the count, or max + 1 if more. */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line;; p++) {
        char *c = strchr(p, ',');
        if (n == max)
            return max + 1;
        f[n++] = trim(p);
        if (!c)
            return n;
        *c = '\0';
        p = c;
    }
}

static int parse_id(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0)
        return -1;
    *out = v;
    return 0;
}

/* A time is refused outside [MIN_SECONDS, MAX_SECONDS]: squares of times
 * beyond overflow (1e200) or underflow (1e-308) and the fit would print
 * inf or NaN. A nanosecond to 30 years holds any step. */
#define MIN_SECONDS 1e-9
#define MAX_SECONDS 1e9

/* 0, -1 if s is not a number > 0, -2 if it is outside the range above. */
static int parse_seconds(const char *s, double *out)
{
    double v = NAN;
    if (tmc_number_parse(s, &v) || !(v > 0))
        return -1;
    if (!(v >= MIN_SECONDS && v <= MAX_SECONDS))
        return -2;
    *out = v;
    return 0;
}

/* The message for a time parse_seconds refused (rc its return value). */
static int bad_seconds(tmc_error *err, const char *path, long line, const char *col,
                       const char *s, int rc)
{
    if (rc == -2)
        return tmc_error_set(err, "%s:%ld: column '%s': %s seconds is out of range: expected "
                             "%g to %g seconds", path, line, col, s, MIN_SECONDS, MAX_SECONDS);
    return tmc_error_set(err, "%s:%ld: column '%s': '%s' is not a number of seconds > 0", path,
                         line, col, s);
}

typedef struct {
    long step, rank, line;
    double s;
} cell;

static int by_step_rank(const void *a, const void *b)
{
    const cell *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

static int by_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

typedef struct {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
    char **field;
} reader;

/* The next line that is neither blank nor a `#` comment, split into
 * r->field; its field count, 0 at the end of the file, or -1 with err for a
 * line that is not printable UTF-8 (a rank's name is printed; text.h). */
static int next_row(reader *r, tmc_error *err)
{
    ssize_t len;
    while ((len = getline(&r->line, &r->cap, r->f)) >= 0) {
        r->lineno++;
        char *p = r->line;
        if (r->lineno == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
            p += 3, len -= 3; /* a UTF-8 byte-order mark, ignored as in an experiment file */
        while (len && (p[len - 1] == '\n' || p[len - 1] == '\r'))
            len--;
        if (tmc_text_require_line(p, (size_t)len, r->path, r->lineno, err))
            return -1;
        p = trim(p);
        if (*p && *p != '#')
            return split(p, r->field, MAX_FIELDS);
    }
    return 0;
}

/* 1 with err when the header (n fields) names a column twice, ASCII case
 * ignored as the roles are: which one a role or a rank reads would be a
 * guess. */
typedef struct {
    const char *name;
    int at;
} column_name;

static int by_name(const void *a, const void *b)
{
    const column_name *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* Sorted, not compared pairwise: a wide header has up to MAX_FIELDS names. */
static int repeated_column(const reader *r, int n, tmc_error *err)
{
    column_name *c = malloc(sizeof *c * (size_t)n);
    if (!c) {
        tmc_error_set(err, "%s: out of memory", r->path);
        return 1;
    }
    for (int i = 0; i < n; i++)
        c[i] = (column_name){r->field[i], i};
    qsort(c, (size_t)n, sizeof *c, by_name);
    int twice = -1; /* the repeat named first in the header's order */
    for (int i = 1; i < n; i++)
        if (!strcasecmp(c[i].name, c[i - 1].name) && (twice < 0 || c[i].at < c[twice].at))
            twice = i;
    if (twice >= 0)
        tmc_error_set(err, "%s:%ld: column '%.60s' is named twice in the header (columns %d "
                      "and %d); each name must be distinct", r->path, r->lineno,
                      c[twice].name, c[twice - 1].at + 1, c[twice].at + 1);
    free(c);
    return twice >= 0;
}

/* The long form: cells collected, sorted, and checked to fill a matrix. */
static int read_long(reader *r, int n_header, int c_step, int c_rank, int c_sec,
                     tmc_step_log *log, tmc_error *err)
{
    cell *c = NULL;
    long n = 0, cap = 0, *ranks = NULL;
    int nf, rc = -1;
    while ((nf = next_row(r, err)) > 0) {
        if (nf != n_header) {
            tmc_error_set(err, "%s:%ld: %d fields, the header has %d", r->path, r->lineno, nf,
                          n_header);
            goto out;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            cell *p = cap <= MAX_CELLS ? realloc(c, sizeof *c * (size_t)cap) : NULL;
            if (!p) {
                tmc_error_set(err, "%s:%ld: out of memory (or more than %ld times)", r->path,
                              r->lineno, MAX_CELLS);
                goto out;
            }
            c = p;
        }
        cell *e = &c[n];
        e->line = r->lineno;
        const char *bad = NULL;
        int sec_rc = 0;
        if (parse_id(r->field[c_step], &e->step))
            bad = "step";
        else if (parse_id(r->field[c_rank], &e->rank))
            bad = "rank";
        else if ((sec_rc = parse_seconds(r->field[c_sec], &e->s))) {
            bad_seconds(err, r->path, r->lineno, "seconds", r->field[c_sec], sec_rc);
            goto out;
        }
        if (bad) {
            int col = !strcmp(bad, "step") ? c_step : c_rank;
            tmc_error_set(err, "%s:%ld: column '%s': '%s' is not an integer >= 0", r->path,
                          r->lineno, bad, r->field[col]);
            goto out;
        }
        n++;
    }
    if (nf < 0)
        goto out;
    if (!n) {
        tmc_error_set(err, "%s: no compute time after the header", r->path);
        goto out;
    }
    qsort(c, (size_t)n, sizeof *c, by_step_rank);
    /* the distinct ranks */
    ranks = malloc(sizeof *ranks * (size_t)n);
    if (!ranks) {
        tmc_error_set(err, "%s: out of memory", r->path);
        goto out;
    }
    for (long i = 0; i < n; i++)
        ranks[i] = c[i].rank;
    qsort(ranks, (size_t)n, sizeof *ranks, by_long);
    long nr = 0;
    for (long i = 0; i < n; i++)
        if (!nr || ranks[nr - 1] != ranks[i])
            ranks[nr++] = ranks[i];
    /* every step has every rank once */
    long ns = 0;
    for (long i = 0; i < n; ns++) {
        long j = i, k = 0;
        for (; j < n && c[j].step == c[i].step; j++, k++) {
            if (j > i && c[j].rank == c[j - 1].rank) {
                tmc_error_set(err, "%s:%ld: step %ld, rank %ld a second time (first at line "
                              "%ld)", r->path, c[j].line, c[j].step, c[j].rank, c[j - 1].line);
                goto out;
            }
            if (k < nr && c[j].rank != ranks[k])
                break;
        }
        if (j - i != nr || (j < n && c[j].step == c[i].step)) {
            long first = c[i].line, missing = -1;
            for (long q = i, k2 = 0; k2 < nr; k2++, q++)
                if (q >= n || c[q].step != c[i].step || c[q].rank != ranks[k2]) {
                    missing = ranks[k2];
                    break;
                }
            for (long q = i; q < n && c[q].step == c[i].step; q++)
                first = c[q].line < first ? c[q].line : first;
            tmc_error_set(err, "%s:%ld: ragged steps: step %ld has no time for rank %ld, which "
                          "other steps have (every step needs every rank once)", r->path, first,
                          c[i].step, missing);
            goto out;
        }
        i = j;
    }
    if (ns < 2 || nr < 2) {
        tmc_error_set(err, "%s: %ld step%s x %ld rank%s: a fit needs at least 2 of each",
                      r->path, ns, ns == 1 ? "" : "s", nr, nr == 1 ? "" : "s");
        goto out;
    }
    log->n_steps = (int)ns;
    log->n_ranks = (int)nr;
    log->x = malloc(sizeof *log->x * (size_t)n);
    log->step = malloc(sizeof *log->step * (size_t)ns);
    log->rank = calloc((size_t)nr, sizeof *log->rank);
    if (!log->x || !log->step || !log->rank) {
        tmc_error_set(err, "%s: out of memory", r->path);
        goto out;
    }
    for (long i = 0; i < n; i++)
        log->x[i] = c[i].s;
    for (long j = 0; j < ns; j++)
        log->step[j] = c[j * nr].step;
    for (long k = 0; k < nr; k++) {
        char id[32];
        snprintf(id, sizeof id, "%ld", ranks[k]);
        if (!(log->rank[k] = strdup(id))) {
            tmc_error_set(err, "%s: out of memory", r->path);
            goto out;
        }
    }
    rc = 0;
out:
    free(c);
    free(ranks);
    return rc;
}

/* The wide form: step and one column per rank, steps increasing. */
static int read_wide(reader *r, int n_header, int c_step, tmc_step_log *log, tmc_error *err)
{
    int nr = n_header - 1, nf;
    long cap = 0;
    log->n_ranks = nr;
    log->rank = calloc((size_t)nr, sizeof *log->rank);
    if (!log->rank)
        return tmc_error_set(err, "%s: out of memory", r->path);
    for (int f = 0, k = 0; f < n_header; f++)
        if (f != c_step && !(log->rank[k++] = strdup(r->field[f])))
            return tmc_error_set(err, "%s: out of memory", r->path);
    while ((nf = next_row(r, err)) > 0) {
        if (nf != n_header)
            return tmc_error_set(err, "%s:%ld: ragged steps: %d fields, the header has %d",
                                 r->path, r->lineno, nf, n_header);
        if (log->n_steps == cap) {
            cap = cap ? 2 * cap : 1024;
            double *x = cap * nr <= MAX_CELLS ? realloc(log->x, sizeof *x * (size_t)(cap * nr))
                                              : NULL;
            long *s = x ? realloc(log->step, sizeof *s * (size_t)cap) : NULL;
            if (x)
                log->x = x;
            if (!s)
                return tmc_error_set(err, "%s:%ld: out of memory (or more than %ld times)",
                                     r->path, r->lineno, MAX_CELLS);
            log->step = s;
        }
        int j = log->n_steps;
        if (parse_id(r->field[c_step], &log->step[j]))
            return tmc_error_set(err, "%s:%ld: column 'step': '%s' is not an integer >= 0",
                                 r->path, r->lineno, r->field[c_step]);
        if (j && log->step[j] <= log->step[j - 1])
            return tmc_error_set(err, "%s:%ld: step %ld after step %ld: steps must increase",
                                 r->path, r->lineno, log->step[j], log->step[j - 1]);
        for (int f = 0, k = 0; f < n_header; f++) {
            if (f == c_step)
                continue;
            int sec_rc = parse_seconds(r->field[f], &log->x[(long)j * nr + k]);
            if (sec_rc)
                return bad_seconds(err, r->path, r->lineno, log->rank[k], r->field[f], sec_rc);
            k++;
        }
        log->n_steps++;
    }
    if (nf < 0)
        return -1;
    if (log->n_steps < 2 || nr < 2)
        return tmc_error_set(err, "%s: %d step%s x %d rank%s: a fit needs at least 2 of each",
                             r->path, log->n_steps, log->n_steps == 1 ? "" : "s", nr,
                             nr == 1 ? "" : "s");
    log->wide = 1;
    return 0;
}

int tmc_step_log_read_csv(const char *path, tmc_step_log *log, tmc_error *err)
{
    memset(log, 0, sizeof *log);
    reader r = {path, fopen(path, "r"), NULL, 0, 0, malloc(sizeof(char *) * (MAX_FIELDS + 1))};
    int rc = -1;
    if (!r.f)
        tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    else if (!r.field)
        tmc_error_set(err, "%s: out of memory", path);
    else {
        int n = next_row(&r, err), c_step = -1, c_rank = -1, c_sec = -1;
        for (int i = 0; i < n && i < MAX_FIELDS; i++) {
            if (!strcasecmp(r.field[i], "step"))
                c_step = i;
            else if (!strcasecmp(r.field[i], "rank"))
                c_rank = i;
            else if (!strcasecmp(r.field[i], "seconds"))
                c_sec = i;
        }
        if (n < 0)
            ; /* next_row said why */
        else if (!n)
            tmc_error_set(err, "%s: empty: expected a header (step, rank, seconds; or step "
                          "and one column per rank)", path);
        else if (n > MAX_FIELDS)
            tmc_error_set(err, "%s:%ld: more than %d columns", path, r.lineno, MAX_FIELDS);
        else if (repeated_column(&r, n, err))
            ; /* it said which */
        else if (c_step < 0)
            tmc_error_set(err, "%s:%ld: no column 'step' in the header (long form: step, rank, "
                          "seconds; wide form: step and one column per rank)", path, r.lineno);
        else if (c_rank >= 0 && c_sec < 0)
            tmc_error_set(err, "%s:%ld: no column 'seconds' in the header (long form: step, "
                          "rank, seconds)", path, r.lineno);
        else if (c_rank < 0 && c_sec >= 0)
            tmc_error_set(err, "%s:%ld: no column 'rank' in the header (long form: step, rank, "
                          "seconds)", path, r.lineno);
        else if (c_rank >= 0)
            rc = read_long(&r, n, c_step, c_rank, c_sec, log, err);
        else
            rc = read_wide(&r, n, c_step, log, err);
    }
    if (r.f)
        fclose(r.f);
    free(r.line);
    free(r.field);
    if (rc)
        tmc_step_log_free(log);
    return rc;
}

int tmc_step_log_from_matrix(const double *x, int n_steps, int n_ranks, tmc_step_log *log,
                             tmc_error *err)
{
    memset(log, 0, sizeof *log);
    if (n_steps < 2 || n_ranks < 2)
        return tmc_error_set(err, "%d steps x %d ranks: a fit needs at least 2 of each",
                             n_steps, n_ranks);
    size_t cells = (size_t)n_steps * (size_t)n_ranks;
    log->x = malloc(sizeof *log->x * cells);
    log->step = malloc(sizeof *log->step * (size_t)n_steps);
    log->rank = calloc((size_t)n_ranks, sizeof *log->rank);
    log->n_steps = n_steps;
    log->n_ranks = n_ranks;
    int ok = log->x && log->step && log->rank;
    for (int i = 0; ok && i < n_ranks; i++) {
        char id[16];
        snprintf(id, sizeof id, "%d", i);
        ok = (log->rank[i] = strdup(id)) != NULL;
    }
    if (!ok) {
        tmc_step_log_free(log);
        return tmc_error_set(err, "out of memory");
    }
    for (size_t k = 0; k < cells; k++)
        if (!(x[k] >= MIN_SECONDS && x[k] <= MAX_SECONDS)) {
            double bad = x[k];
            tmc_step_log_free(log);
            return tmc_error_set(err, "step %zu, rank %zu: %g is not a number of seconds in "
                                 "[%g, %g]", k / (size_t)n_ranks, k % (size_t)n_ranks, bad,
                                 MIN_SECONDS, MAX_SECONDS);
        }
    memcpy(log->x, x, sizeof *x * cells);
    for (int j = 0; j < n_steps; j++)
        log->step[j] = j;
    return 0;
}

/* ---------- fitting ---------- */

void tmc_step_fit_free(tmc_step_fit *f)
{
    free(f->rank_mean);
    free(f->rank_z);
    free(f->slow);
    f->rank_mean = f->rank_z = NULL;
    f->slow = NULL;
}

typedef struct {
    double s; /* ln(mean y) - mean(ln y) */
} gamma_eq;

static double gamma_fn(double k, void *ctx)
{
    return log(k) - gsl_sf_psi(k) - ((gamma_eq *)ctx)->s;
}

/* The gamma shape solving ln k - psi(k) = s (decreasing in k); NAN if none. */
static double gamma_shape(double s)
{
    if (!(s > 0) || !isfinite(s))
        return NAN;
    gamma_eq e = {s};
    double lo = 1e-3, hi = 1;
    while (gamma_fn(hi, &e) > 0 && hi < 1e12)
        lo = hi, hi *= 4;
    if (!(gamma_fn(lo, &e) > 0 && gamma_fn(hi, &e) < 0))
        return NAN;
    gsl_function fn = {gamma_fn, &e};
    gsl_root_fsolver *sv = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!sv)
        return NAN;
    gsl_root_fsolver_set(sv, &fn, lo, hi);
    int status = GSL_CONTINUE;
    for (int it = 0; it < 300 && status == GSL_CONTINUE; it++) {
        if (gsl_root_fsolver_iterate(sv))
            break;
        status = gsl_root_test_interval(gsl_root_fsolver_x_lower(sv),
                                        gsl_root_fsolver_x_upper(sv), 0, 1e-12);
    }
    double k = gsl_root_fsolver_root(sv);
    gsl_root_fsolver_free(sv);
    return status == GSL_SUCCESS ? k : NAN;
}

/* The p quantile of F(d1, d2) by bisection on GSL's CDF: GSL's own inverse
 * (gsl_cdf_fdist_Pinv) fails to converge at the degrees of freedom of a
 * long log (d1 = 1999, d2 = 126000). */
static double fdist_quantile(double p, double d1, double d2)
{
    double lo = 0, hi = 1;
    while (gsl_cdf_fdist_P(hi, d1, d2) < p && hi < 1e300)
        lo = hi, hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (gsl_cdf_fdist_P(mid, d1, d2) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* The three laws by ML on the N normalised times y. */
static void fit_laws(const double *y, long n, tmc_step_fit *out)
{
    double sum = 0, sum_log = 0, ss = 0, ssl = 0;
    for (long i = 0; i < n; i++)
        sum += y[i], sum_log += log(y[i]);
    double mean = sum / n, mean_log = sum_log / n;
    for (long i = 0; i < n; i++) {
        double d = y[i] - mean, dl = log(y[i]) - mean_log;
        ss += d * d, ssl += dl * dl;
    }
    double sd = sqrt(ss / n), sdl = sqrt(ssl / n), half = 0.5 * n * log(2 * M_PI);
    tmc_step_law *l = &out->law[TMC_STEP_LAW_NORMAL];
    *l = (tmc_step_law){"normal", mean, sd, -n * log(sd) - half - 0.5 * n, 0, sd > 0};
    l = &out->law[TMC_STEP_LAW_LOGNORMAL];
    *l = (tmc_step_law){"lognormal", mean_log, sdl, -sum_log - n * log(sdl) - half - 0.5 * n,
                        0, sdl > 0};
    double k = gamma_shape(log(mean) - mean_log), theta = mean / k;
    l = &out->law[TMC_STEP_LAW_GAMMA];
    /* no shape (NaN): GSL's lngamma is a domain error there (issue 33 item 5) */
    double loglik = isfinite(k) ? (k - 1) * sum_log - sum / theta - n * k * log(theta) -
                                      n * gsl_sf_lngamma(k)
                                : NAN;
    *l = (tmc_step_law){"gamma", k, theta, loglik, 0, isfinite(k)};
    out->best = -1;
    for (int i = 0; i < TMC_STEP_LAWS; i++) {
        l = &out->law[i];
        if (!l->ok || !isfinite(l->loglik)) {
            l->ok = 0;
            continue;
        }
        l->aic = 2 * 2 - 2 * l->loglik;
        if (out->best < 0 || l->aic < out->law[out->best].aic)
            out->best = i;
    }
}

int tmc_step_fit_compute(const tmc_step_log *log, double confidence, tmc_step_fit *out,
                         tmc_error *err)
{
    memset(out, 0, sizeof *out);
    const int a = log->n_steps, n = log->n_ranks;
    const double *x = log->x, alpha = 1 - confidence;
    double c = 0; /* the log's mean, s: the sums below are over x - c */
    out->confidence = confidence;
    out->n_steps = a;
    out->n_ranks = n;
    if (a < 2 || n < 2)
        return tmc_error_set(err, "%d steps x %d ranks: a fit needs at least 2 of each", a, n);
    if (!(confidence > 0 && confidence < 1))
        return tmc_error_set(err, "confidence %g: expected in (0, 1)", confidence);
    out->rank_mean = calloc((size_t)n, sizeof *out->rank_mean);
    out->rank_z = calloc((size_t)n, sizeof *out->rank_z);
    out->slow = calloc((size_t)n, sizeof *out->slow);
    double *r = malloc(sizeof *r * (size_t)a);
    /* y: the ratios, then the log less its mean, then each step's max */
    double *y = malloc(sizeof *y * ((size_t)a * (size_t)n * 2 + (size_t)a));
    if (!out->rank_mean || !out->rank_z || !out->slow || !r || !y) {
        free(r), free(y);
        tmc_step_fit_free(out);
        return tmc_error_set(err, "out of memory");
    }
    /* sums of times near 1e8 s that differ in the 16th digit cancel: every
     * sum is over deviations from the mean c (issue 33 item 4), and a
     * spread within DBL_EPSILON x 64 of c is rounding, not jitter */
    double *xs = y + (size_t)a * (size_t)n, *step_max = xs + (size_t)a * (size_t)n;
    for (long k = 0; k < (long)a * n; k++)
        c += x[k] / ((double)a * n);
    for (long k = 0; k < (long)a * n; k++)
        xs[k] = x[k] - c;
    x = xs;
    const double resolution = 64 * DBL_EPSILON * fabs(c);
    /* slow ranks: the two-way layout with every rank */
    double g = 0;
    for (int j = 0; j < a; j++) {
        r[j] = 0;
        for (int i = 0; i < n; i++)
            r[j] += x[(long)j * n + i] / n;
        g += r[j] / a;
    }
    for (int j = 0; j < a; j++)
        for (int i = 0; i < n; i++)
            out->rank_mean[i] += x[(long)j * n + i] / a;
    double sse = 0;
    for (int j = 0; j < a; j++)
        for (int i = 0; i < n; i++) {
            double e = x[(long)j * n + i] - r[j] - out->rank_mean[i] + g;
            sse += e * e;
        }
    out->mse = sse / ((double)(a - 1) * (n - 1));
    out->z_threshold = gsl_cdf_ugaussian_Qinv(alpha / n);
    double se_d = sqrt(out->mse * n / ((double)a * (n - 1)));
    int rounding = !(sqrt(out->mse) > resolution); /* no spread: no rank is slow */
    for (int i = 0; i < n; i++) {
        double others = (n * g - out->rank_mean[i]) / (n - 1);
        out->rank_z[i] = se_d > 0 && !rounding ? (out->rank_mean[i] - others) / se_d : 0;
        if (n >= 3 && out->rank_z[i] > out->z_threshold)
            out->slow[i] = 1, out->n_slow++;
        out->rank_mean[i] += c;
    }
    int m = out->n_kept = n - out->n_slow;
    if (m < 2) {
        free(r), free(y);
        tmc_step_fit_free(out);
        return tmc_error_set(err, "%d of %d ranks are slow: fewer than 2 left to fit the "
                             "jitter of", out->n_slow, n);
    }
    /* one-way ANOVA of the kept ranks, steps the groups */
    g = 0;
    for (int j = 0; j < a; j++) {
        r[j] = 0;
        for (int i = 0; i < n; i++)
            if (!out->slow[i])
                r[j] += x[(long)j * n + i] / m;
        g += r[j] / a;
    }
    double ssb = 0, ssw = 0, sum_d = 0, sum_d2 = 0, sum_max = 0, sum_max2 = 0;
    long k = 0;
    for (int j = 0; j < a; j++) {
        ssb += m * (r[j] - g) * (r[j] - g);
        double mx = -INFINITY;
        for (int i = 0; i < n; i++) {
            if (out->slow[i])
                continue;
            double v = x[(long)j * n + i];
            ssw += (v - r[j]) * (v - r[j]);
            y[k++] = (v + c) / (r[j] + c);
            mx = v > mx ? v : mx;
        }
        step_max[j] = mx;
        sum_d += mx - r[j];
        sum_max += mx;
    }
    for (int j = 0; j < a; j++) { /* second passes: no sum of squares less a square */
        double d = step_max[j] - r[j] - sum_d / a, e = step_max[j] - sum_max / a;
        sum_d2 += d * d, sum_max2 += e * e;
    }
    double dfb = a - 1, dfw = (double)a * (m - 1);
    out->grand_mean_s = g + c;
    out->msb = ssb / dfb;
    out->msw = ssw / dfw;
    out->sigma_w2 = out->msw;
    out->sigma_b2 = out->msb > out->msw ? (out->msb - out->msw) / m : 0;
    out->step_mean_sd_s = sqrt(ssb / m / dfb);
    out->step_max_mean_s = sum_max / a + c;
    out->step_max_sd_s = sqrt(sum_max2 / (a - 1));
    double total = out->sigma_b2 + out->sigma_w2;
    g += c;
    if (!(out->msw > 0) || !(g > 0)) {
        free(r), free(y);
        tmc_step_fit_free(out);
        return tmc_error_set(err, "every rank's time is the same within each step: no "
                             "per-card spread to fit");
    }
    if (!(sqrt(out->msw) > resolution)) {
        double sd = sqrt(out->msw);
        free(r), free(y);
        tmc_step_fit_free(out);
        return tmc_error_set(err, "every rank's time is the same within each step to within "
                             "rounding: a within-step sd of %.3g s is %.3g of the mean %.10g "
                             "s, not above 64 x %.3g of it (a double's resolution): no "
                             "per-card spread to fit", sd, sd / g, g, DBL_EPSILON);
    }
    double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2);
    /* cv: the delta method on the ANOVA estimator, var(MS) = 2 MS^2 / df */
    double var_total = 2 * out->msb * out->msb / (dfb * m * m) +
                       2 * ((m - 1.0) / m) * ((m - 1.0) / m) * out->msw * out->msw / dfw;
    out->cv = sqrt(total) / g;
    out->cv_se = out->cv * sqrt(var_total / (4 * total * total) + out->msb / (a * m * g * g));
    out->cv_lo = fmax(0, out->cv - z * out->cv_se);
    out->cv_hi = out->cv + z * out->cv_se;
    /* rho: the exact interval through F (Searle et al. 1992, 3.5d) */
    out->rho = out->sigma_b2 / total;
    out->f = out->msb / out->msw;
    out->f_p = gsl_cdf_fdist_Q(out->f, dfb, dfw);
    double fl = out->f / fdist_quantile(1 - alpha / 2, dfb, dfw);
    double fu = out->f / fdist_quantile(alpha / 2, dfb, dfw);
    out->rho_lo = fmin(1, fmax(0, (fl - 1) / (fl + m - 1)));
    out->rho_hi = fmin(1, fmax(0, (fu - 1) / (fu + m - 1)));
    fit_laws(y, k, out);
    /* c_N */
    double sw = sqrt(out->sigma_w2);
    out->cn_empirical = sum_d / a / sw;
    out->cn_se = sqrt(sum_d2 / (a - 1)) / (sw * sqrt(a));
    out->cn_normal = tmc_dist_normal_emax(m, NULL);
    out->cn_law = NAN;
    if (out->best >= 0) {
        tmc_jitter j = {out->best == TMC_STEP_LAW_NORMAL ? TMC_JITTER_NORMAL
                        : out->best == TMC_STEP_LAW_LOGNORMAL ? TMC_JITTER_LOGNORMAL
                                                              : TMC_JITTER_GAMMA,
                        out->cv, out->best == TMC_STEP_LAW_NORMAL ? out->rho : 0};
        out->cn_law = (tmc_dist_expected_max(&j, g, m) - g) / sw;
    }
    free(r);
    free(y);
    return 0;
}
