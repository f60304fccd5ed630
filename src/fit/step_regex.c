/* step_regex.c - --step-regex: a pattern with Python's named groups made a
 * POSIX extended regular expression (train_log.h). POSIX has no named
 * groups, so the names are read here and the groups numbered as regcomp
 * numbers them: by their opening parenthesis, left to right. */
#include "train_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATTERN_MAX 4096

static const char *const names[] = {"step", "ms", "s", "time"};

/* Record group g under name (n bytes). 0, or -1 with err. */
static int name_group(tmc_step_regex *r, const char *pattern, const char *name, size_t n,
                      int g, tmc_error *err)
{
    int *slot[] = {&r->g_step, &r->g_ms, &r->g_s, &r->g_time};
    for (int i = 0; i < 4; i++)
        if (strlen(names[i]) == n && !strncmp(name, names[i], n)) {
            if (*slot[i])
                return tmc_error_set(err, "--step-regex '%s': the group '%s' twice; allowed: "
                                     "each name once", pattern, names[i]);
            *slot[i] = g;
            return 0;
        }
    return tmc_error_set(err, "--step-regex '%s': the group name '%.*s' is not one of step, "
                         "ms, s, time", pattern, (int)(n < 40 ? n : 40), name);
}

/* A bracket expression from p ('[') copied to *o; returns past its ']'. */
static const char *copy_bracket(const char *p, char **o)
{
    const char *q = p + 1;
    if (*q == '^')
        q++;
    if (*q == ']')
        q++;
    while (*q && *q != ']')
        q++;
    if (*q)
        q++;
    memcpy(*o, p, (size_t)(q - p));
    *o += q - p;
    return q;
}

/* pattern into out (PATTERN_MAX x 2 bytes): groups renamed to numbers,
 * \d and \D spelled as brackets. 0, or -1 with err. */
static int translate(tmc_step_regex *r, const char *pattern, char *out, tmc_error *err)
{
    char *o = out;
    int g = 0;
    for (const char *p = pattern; *p;) {
        if (*p == '[') {
            p = copy_bracket(p, &o);
        } else if (*p == '\\' && p[1]) {
            const char *rep = p[1] == 'd' ? "[0-9]" : p[1] == 'D' ? "[^0-9]" : NULL;
            if (rep) {
                strcpy(o, rep);
                o += strlen(rep);
            } else {
                *o++ = p[0], *o++ = p[1];
            }
            p += 2;
        } else if (*p == '(') {
            g++;
            *o++ = *p++;
            if (*p != '?')
                continue;
            const char *name = p[1] == 'P' && p[2] == '<' ? p + 3
                             : p[1] == '<' && p[2] != '=' && p[2] != '!' ? p + 2 : NULL;
            const char *close = name ? strchr(name, '>') : NULL;
            if (!close)
                return tmc_error_set(err, "--step-regex '%s': '(?' at character %ld is not a "
                                     "named group (?P<name>...); POSIX extended regular "
                                     "expressions have no other (?...) form", pattern,
                                     (long)(p - pattern));
            if (name_group(r, pattern, name, (size_t)(close - name), g, err))
                return -1;
            p = close + 1;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return 0;
}

int tmc_step_regex_compile(tmc_step_regex *r, const char *pattern, tmc_error *err)
{
    memset(r, 0, sizeof *r);
    if (strlen(pattern) >= PATTERN_MAX)
        return tmc_error_set(err, "--step-regex: a pattern of %zu bytes; allowed: fewer than %d",
                             strlen(pattern), PATTERN_MAX);
    char *big = malloc(3 * PATTERN_MAX); /* \d (2 bytes) becomes [0-9] (5): at most x2.5 */
    if (!big)
        return tmc_error_set(err, "--step-regex: out of memory");
    int rc = translate(r, pattern, big, err);
    if (!rc && (!r->g_step || (!r->g_ms == !r->g_s)))
        rc = tmc_error_set(err, "--step-regex '%s': %s; allowed: a pattern with the named "
                           "groups (?P<step>...) and one of (?P<ms>...) or (?P<s>...), "
                           "optionally (?P<time>...)", pattern,
                           !r->g_step ? "no (?P<step>...) group, the iteration number"
                           : r->g_ms ? "both (?P<ms>...) and (?P<s>...)"
                                     : "no (?P<ms>...) or (?P<s>...) group, the time per step");
    int bad = rc ? 0 : regcomp(&r->re, big, REG_EXTENDED);
    if (bad) {
        char why[160];
        regerror(bad, &r->re, why, sizeof why);
        rc = tmc_error_set(err, "--step-regex '%s': not a POSIX extended regular expression "
                           "once its group names are taken out: %s", pattern, why);
    }
    free(big);
    if (rc)
        return -1;
    r->compiled = 1;
    r->n_groups = r->re.re_nsub;
    if (r->n_groups > 30) {
        tmc_step_regex_free(r);
        return tmc_error_set(err, "--step-regex '%s': %zu groups; allowed: at most 30",
                             pattern, r->n_groups);
    }
    return 0;
}

void tmc_step_regex_free(tmc_step_regex *r)
{
    if (r->compiled)
        regfree(&r->re);
    r->compiled = 0;
}
