/* sweep_parse.c - the text of --vary and --target (sweep.h). */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

/* Range ends count as reached within this fraction of a step (rounding). */
#define RANGE_SLACK 1e-9

/* The number that fills s[0..len), finite, into *v. 0, or -1 with err. */
static int parse_number(const char *s, size_t len, double *v, tmc_error *err)
{
    char buf[64];
    if (len >= sizeof buf)
        return tmc_error_set(err, "'%.*s' is not a number", (int)len, s);
    memcpy(buf, s, len);
    buf[len] = '\0';
    /* decimal only (number.h): strtod would take 0x10, inf and nan */
    if (tmc_number_parse(buf, v)) {
        char *end; /* inf and nan: strtod reads them whole, not finite */
        double x = strtod(buf, &end);
        if (end != buf && !*end && !isfinite(x))
            return tmc_error_set(err, "'%s' is not a finite number", buf);
        return tmc_error_set(err, "'%s' is not a number", buf);
    }
    return 0;
}

/* The sep-separated numbers of s into v[max]; their count in *n. */
static int parse_numbers(const char *s, char sep, double *v, int max, int *n, tmc_error *err)
{
    const char seps[2] = {sep, '\0'};
    *n = 0;
    for (const char *p = s;; p += strcspn(p, seps) + 1) {
        size_t len = strcspn(p, seps);
        if (*n == max)
            return tmc_error_set(err, "more than %d values", max);
        if (parse_number(p, len, &v[(*n)++], err))
            return -1;
        if (p[len] == '\0')
            return 0;
    }
}

static int count_char(const char *s, char c)
{
    int n = 0;
    while ((s = strchr(s, c)) != NULL)
        n++, s++;
    return n;
}

/* start + i step rounded to 10 significant digits beyond the step's, so
 * that 0.1 + 2 x 0.1 is 0.3, not 0.30000000000000004. */
static double range_value(double start, double stop, double step, long i)
{
    double magnitude = fmax(fabs(start), fabs(stop)) / step; /* may be inf: no cast then */
    int digits = magnitude <= 1 ? 10 : magnitude < 1e7 ? (int)ceil(log10(magnitude)) + 10 : 17;
    char buf[40];
    snprintf(buf, sizeof buf, "%.*g", digits > 17 ? 17 : digits, start + (double)i * step);
    return strtod(buf, NULL);
}

static int parse_range(const char *text, double *values, int *n, tmc_error *err)
{
    double r[3];
    int parts;
    if (count_char(text, ':') != 2)
        return tmc_error_set(err, "a range is START:STOP:STEP");
    if (parse_numbers(text, ':', r, 3, &parts, err))
        return -1;
    double start = r[0], stop = r[1], step = r[2];
    if (!(step > 0))
        return tmc_error_set(err, "step %.10g is not positive", step);
    if (stop < start)
        return tmc_error_set(err, "empty range: stop %.10g is below start %.10g", stop, start);
    double count = floor((stop - start) / step + RANGE_SLACK) + 1;
    if (count > TMC_SWEEP_MAX_SETTINGS)
        return tmc_error_set(err, "%.10g values; at most %d", count, TMC_SWEEP_MAX_SETTINGS);
    *n = (int)count;
    for (int i = 0; i < *n; i++)
        values[i] = range_value(start, stop, step, i);
    if (fabs(values[*n - 1] - stop) <= RANGE_SLACK * step)
        values[*n - 1] = stop; /* inclusive of stop within rounding */
    return 0;
}

int tmc_sweep_parse_values(const char *text, double *values, int *n, tmc_error *err)
{
    if (strchr(text, ':'))
        return parse_range(text, values, n, err);
    return parse_numbers(text, ',', values, TMC_SWEEP_MAX_SETTINGS, n, err);
}

/* Split "KEY=REST" into key[TMC_SWEEP_KEY_LEN] and *rest. 0, or -1. */
static int split_key(const char *spec, char *key, const char **rest)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= TMC_SWEEP_KEY_LEN)
        return -1;
    memcpy(key, spec, (size_t)(eq - spec));
    key[eq - spec] = '\0';
    *rest = eq + 1;
    return 0;
}

int tmc_sweep_parse_axis(const char *spec, tmc_sweep_axis *axis, tmc_error *err)
{
    const char *text;
    if (split_key(spec, axis->key, &text))
        return tmc_error_set(err, "--vary %s: expected KEY=V1,V2,... or KEY=START:STOP:STEP, "
                                  "KEY a dotted path such as checkpoint.interval_s", spec);
    tmc_error why = {""};
    if (tmc_sweep_parse_values(text, axis->values, &axis->n, &why))
        return tmc_error_set(err, "--vary %s: %s", spec, why.msg);
    return 0;
}

int tmc_sweep_parse_bracket(const char *spec, tmc_sweep_bracket *b, tmc_error *err)
{
    const char *text;
    double r[3];
    int parts = 0, colons = 0;
    tmc_error why = {""};
    if (split_key(spec, b->key, &text) || (colons = count_char(text, ':')) < 1 ||
        colons > 2 || parse_numbers(text, ':', r, 3, &parts, &why))
        return tmc_error_set(err, "--vary %s: with --target, expected KEY=LO:HI (KEY=LO:HI:TOL "
                                  "for a key that is not an integer)%s%s",
                             spec, why.msg[0] ? ": " : "", why.msg);
    b->lo = r[0];
    b->hi = r[1];
    b->tol = parts == 3 ? r[2] : 0;
    if (!(b->lo < b->hi))
        return tmc_error_set(err, "--vary %s: LO %.10g is not below HI %.10g", spec, b->lo,
                             b->hi);
    if (parts == 3 && !(b->tol > 0))
        return tmc_error_set(err, "--vary %s: TOL %.10g is not positive", spec, b->tol);
    return 0;
}

static const char *const metric_names[TMC_SWEEP_N_METRICS] = {
    "deadline.probability", "completion_days.mean", "overhead.mean", "goodput.mean"};

const char *tmc_sweep_name_metric(tmc_sweep_metric m)
{
    return metric_names[m];
}

int tmc_sweep_parse_target(const char *text, tmc_sweep_target *t, tmc_error *err)
{
    snprintf(t->text, sizeof t->text, "%s", text);
    const char *op = strstr(text, ">=");
    if (!op)
        op = strstr(text, "<=");
    if (!op)
        return tmc_error_set(err, "--target %s: expected METRIC>=VALUE or METRIC<=VALUE", text);
    t->at_least = op[0] == '>';
    size_t len = (size_t)(op - text);
    int m = 0;
    while (m < TMC_SWEEP_N_METRICS &&
           !(strlen(metric_names[m]) == len && !strncmp(metric_names[m], text, len)))
        m++;
    if (m == TMC_SWEEP_N_METRICS)
        return tmc_error_set(err, "--target %s: unknown metric '%.*s'; expected %s, %s, %s or "
                                  "%s", text, (int)len, text, metric_names[0], metric_names[1],
                             metric_names[2], metric_names[3]);
    t->metric = (tmc_sweep_metric)m;
    tmc_error why = {""};
    if (parse_number(op + 2, strlen(op + 2), &t->value, &why))
        return tmc_error_set(err, "--target %s: %s", text, why.msg);
    if (t->metric == TMC_SWEEP_GOODPUT && !(t->value > 0 && t->value <= 1))
        return tmc_error_set(err, "--target %s: %.10g is not a goodput in (0, 1]", text,
                             t->value);
    if (t->metric == TMC_SWEEP_PROBABILITY && !(t->value >= 0 && t->value <= 1))
        return tmc_error_set(err, "--target %s: %.10g is not a probability in [0, 1]", text,
                             t->value);
    return 0;
}
