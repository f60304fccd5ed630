/* config_messages.c - how a configuration error shows what it found and what
 * it expected: a value ("the string \"48\""), a range ("a number in (0, 1]"),
 * a list of choices, and the nearest valid name for a misspelt key.
 *
 * Invariants: every text fits a fixed buffer and is cut, never overflowed
 * (a long string value shows 40 bytes and "..."); a bound prints as exactly
 * as the user would type it (integers in full up to 2^53). */
#include "config_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *tmc_cfg_type_name(const cJSON *v)
{
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsArray(v)) return "an array";
    return "an object";
}

vtext tmc_cfg_value_text(const cJSON *v)
{
    vtext t;
    if (cJSON_IsString(v))
        snprintf(t.s, sizeof t.s, "the string \"%.40s%s\"", v->valuestring,
                 strlen(v->valuestring) > 40 ? "..." : "");
    else if (cJSON_IsNumber(v))
        snprintf(t.s, sizeof t.s, "the number %.10g", v->valuedouble);
    else if (cJSON_IsBool(v))
        snprintf(t.s, sizeof t.s, "%s", cJSON_IsTrue(v) ? "true" : "false");
    else
        snprintf(t.s, sizeof t.s, "%s", tmc_cfg_type_name(v));
    return t;
}

numtext tmc_cfg_number_text(const field *f, double x)
{
    numtext t;
    if (f->type != T_NUM && fabs(x) < 1e16 && x == floor(x))
        snprintf(t.s, sizeof t.s, "%.0f", x);
    else
        snprintf(t.s, sizeof t.s, "%.10g", x);
    return t;
}

tmc_bound_text tmc_config_bound_text(double x)
{
    tmc_bound_text t;
    int e = x >= 1e5 ? (int)floor(log10(x) + 1e-9) : 0;
    if (e && x == pow(10, e))
        snprintf(t.s, sizeof t.s, "1e%d", e);
    else
        snprintf(t.s, sizeof t.s, "%.10g", x);
    return t;
}

void tmc_cfg_describe_range(const field *f, char *buf, size_t n)
{
    const char *what = f->type == T_NUM ? "a number" : "an integer";
    snprintf(buf, n, "%s in %c%s, %s]", what, f->lo_open ? '(' : '[',
             tmc_cfg_number_text(f, f->lo).s, tmc_cfg_number_text(f, f->hi).s);
}

rangetext tmc_cfg_range_of(const char *section, const char *key)
{
    rangetext t = {""};
    const field *f = tmc_cfg_find_field(section, key);
    if (f) /* keys-rows checks that every caller names a row */
        tmc_cfg_describe_range(f, t.s, sizeof t.s);
    return t;
}

void tmc_cfg_join_choices(const field *f, char *list, size_t n)
{
    list[0] = '\0';
    for (int i = 0; f->choices[i]; i++) {
        strncat(list, i ? ", " : "", n - strlen(list) - 1);
        strncat(list, f->choices[i], n - strlen(list) - 1);
    }
}

/* Levenshtein distance; 99 for names too long to be keys. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 63 || lb >= 63)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t sub = diag + (a[i - 1] != b[j - 1]);
            size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[lb];
}

/* "unknown key 'x' (did you mean 'y'?); valid keys: a, b, c" */
int tmc_cfg_unknown_key(tmc_error *err, const char *label, const char *prefix,
                        const char *key, const char *const *valid, size_t n_valid)
{
    char list[512] = "";
    const char *best = NULL;
    size_t best_d = 4; /* suggest only close names */
    for (size_t i = 0; i < n_valid; i++) {
        size_t d = edit_distance(key, valid[i]);
        if (d < best_d) {
            best_d = d;
            best = valid[i];
        }
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, valid[i], sizeof list - strlen(list) - 1);
    }
    char hint[128] = "";
    if (best)
        snprintf(hint, sizeof hint, " (did you mean '%s'?)", best);
    return tmc_error_set(err, "%s: %s%s: unknown key%s; valid keys: %s", label, prefix,
                         key, hint, list);
}
