/* config_json.c - JSON text to a cJSON object, and a section's keys from
 * cJSON into a section struct through the validation table.
 *
 * Invariants: a syntax error is reported at its LINE:COL (columns count
 * characters, as an editor does); every other message names the value by
 * its JSON path (prefix + key); a key not in the table, or given twice, is
 * refused before any value is read; a field is written only once its value
 * passed its type and range (an absent optional one gets its default). */
#include "config_internal.h"
#include "text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- JSON text ---------- */

/* "FILE:LINE:COL: invalid JSON near 'TEXT'" for the byte `end` where cJSON
 * stopped: LINE and COL 1-based, COL counting characters (not UTF-8 bytes) as
 * an editor does, TEXT the rest of that line, shortened. */
static void syntax_error(const char *text, const char *end, const char *label,
                         tmc_error *err)
{
    int line = 1, col = 1;
    for (const char *q = text; q < end; q++) {
        if (*q == '\n')
            line++, col = 1;
        else if ((*q & 0xC0) != 0x80)
            col++;
    }
    if (!*end) {
        tmc_error_set(err, "%s:%d:%d: invalid JSON: unexpected end of file", label, line, col);
        return;
    }
    /* up to 30 bytes of the rest of the line, cut between characters; what is
     * not printable UTF-8 tmc_error_set escapes (text.h) */
    char near[32];
    int n = (int)strcspn(end, "\r\n"), k0 = n > 30 ? 30 : n, k = k0;
    while (k > 0 && k < n && (end[k] & 0xC0) == 0x80)
        k--;
    if (k == 0) /* no character boundary: not text anyway */
        k = k0;
    memcpy(near, end, (size_t)k);
    near[k] = '\0';
    tmc_error_set(err, "%s:%d:%d: invalid JSON near '%s%s'", label, line, col, near,
                  k < n ? "..." : "");
}


/* The path of the first key or string value under node that holds marker,
 * into path (prefix: node's own path); 1 when found. */
static int path_of(const cJSON *node, const char *prefix, const char *marker, char *path,
                   size_t n)
{
    int i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        char here[512];
        if (cJSON_IsArray(node))
            snprintf(here, sizeof here, "%s[%d]", prefix, i);
        else
            snprintf(here, sizeof here, "%s%s%s", prefix, *prefix ? "." : "",
                     c->string ? c->string : "");
        if ((c->string && strstr(c->string, marker)) ||
            (cJSON_IsString(c) && strstr(c->valuestring, marker)) ||
            path_of(c, here, marker, path, n)) {
            if (!path[0])
                snprintf(path, n, "%s", here);
            return 1;
        }
    }
    return 0;
}

int tmc_cfg_refuse_nul(const char *text, const char *label, tmc_error *err)
{
    const char *at = tmc_text_json_nul(text);
    if (!at)
        return 0;
    int line = 1, col = 1;
    for (const char *q = text; q < at; q++) {
        if (*q == '\n')
            line++, col = 1;
        else if ((*q & 0xC0) != 0x80)
            col++;
    }
    /* its path: the text parsed again with U+FFFF (a noncharacter) in its
     * place, the same length of escape, then looked for */
    char path[512] = "";
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, text, len + 1);
        for (char *q = copy + (at - text); q; q = (char *)tmc_text_json_nul(copy))
            memcpy(q + 2, "ffff", 4);
        cJSON *root = cJSON_ParseWithOpts(copy, NULL, 1);
        if (root && !cJSON_IsObject(root) && !cJSON_IsArray(root))
            snprintf(path, sizeof path, "the value");
        else if (root)
            path_of(root, "", "\xef\xbf\xbf", path, sizeof path);
        cJSON_Delete(root);
        free(copy);
    }
    return tmc_error_set(err, "%s:%d:%d: %s%sa NUL character (\\u0000) in a string, which "
                         "would cut it there; expected text without NUL", label, line, col,
                         path, path[0] ? ": " : "");
}

/* cJSON gives where it stopped only as a pointer: syntax_error turns it into
 * a line and column. */
cJSON *tmc_cfg_parse_object(const char *text, const char *label, tmc_error *err)
{
    if (tmc_cfg_refuse_nul(text, label, err))
        return NULL;
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p == '\0') {
        tmc_error_set(err, "%s: file is empty; expected a JSON object", label);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        syntax_error(text, end ? end : text, label, err);
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        tmc_error_set(err, "%s: expected a JSON object at the top level, got %s", label,
                      tmc_cfg_type_name(root));
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* ---------- keys ---------- */

int tmc_cfg_check_keys(const cJSON *obj, const char *label, const char *prefix,
                       const char *const *valid, size_t n_valid, tmc_error *err)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        for (const cJSON *p = obj->child; p != c; p = p->next)
            if (strcmp(p->string, c->string) == 0)
                return tmc_error_set(err, "%s: %s%s: key given twice", label, prefix,
                                     c->string);
        size_t i = 0;
        while (i < n_valid && strcmp(valid[i], c->string) != 0)
            i++;
        if (i == n_valid)
            return tmc_cfg_unknown_key(err, label, prefix, c->string, valid, n_valid);
    }
    return 0;
}

int tmc_cfg_read_string_at(const cJSON *obj, const char *key, const char *path, int required,
                           char *dst, size_t n, const char *label, tmc_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (dst)
        dst[0] = '\0';
    if (!v && !required)
        return 0;
    if (!v)
        return tmc_error_set(err, "%s: %s: missing required key (a string)", label, path);
    if (!cJSON_IsString(v))
        return tmc_error_set(err, "%s: %s: expected a string, got %s", label, path,
                             tmc_cfg_value_text(v).s);
    if (required && !v->valuestring[0])
        return tmc_error_set(err, "%s: %s: must not be empty", label, path);
    if (tmc_text_require(v->valuestring, label, path, err))
        return -1;
    if (dst && strlen(v->valuestring) >= n)
        return tmc_error_set(err, "%s: %s: longer than %zu bytes of UTF-8", label, path, n - 1);
    if (dst)
        snprintf(dst, n, "%s", v->valuestring);
    return 0;
}

int tmc_cfg_read_string(const cJSON *obj, const char *key, int required, char *dst,
                        size_t n, const char *label, tmc_error *err)
{
    return tmc_cfg_read_string_at(obj, key, key, required, dst, n, label, err);
}

/* ---------- one field ---------- */

static int read_number(const field *f, const cJSON *v, const char *label,
                       const char *path, double *x, tmc_error *err)
{
    char range[128];
    tmc_cfg_describe_range(f, range, sizeof range);
    if (!cJSON_IsNumber(v))
        return tmc_error_set(err, "%s: %s: expected %s, got %s", label, path, range,
                             tmc_cfg_value_text(v).s);
    *x = v->valuedouble;
    if (!isfinite(*x)) /* JSON has no inf or nan: only a huge literal gets here */
        return tmc_error_set(err, "%s: %s: number beyond the range of a double (it reads "
                                  "as %g); expected %s", label, path, *x, range);
    if (f->type != T_NUM && *x != floor(*x))
        return tmc_error_set(err, "%s: %s: %.10g is not an integer; expected %s", label,
                             path, *x, range);
    if (*x < f->lo || (f->lo_open && *x == f->lo) || *x > f->hi)
        return tmc_error_set(err, "%s: %s: %s is out of range; expected %s", label, path,
                             tmc_cfg_number_text(f, *x).s, range);
    return 0;
}

static int read_enum(const field *f, const cJSON *v, const char *label, const char *path,
                     int *index, tmc_error *err)
{
    char list[256];
    tmc_cfg_join_choices(f, list, sizeof list);
    if (!cJSON_IsString(v))
        return tmc_error_set(err, "%s: %s: expected one of: %s; got %s", label, path, list,
                             tmc_cfg_value_text(v).s);
    for (int i = 0; f->choices[i]; i++)
        if (strcmp(v->valuestring, f->choices[i]) == 0)
            return *index = i, 0;
    return tmc_error_set(err, "%s: %s: '%s' is not one of: %s", label, path, v->valuestring,
                         list);
}

/* A T_STR key (source, description, a cause's name) is checked here and
 * stored, if at all, by tmc_cfg_read_string. */
static int check_text(const field *f, const cJSON *v, const char *label, const char *path,
                      tmc_error *err)
{
    if (v && !cJSON_IsString(v))
        return tmc_error_set(err, "%s: %s: expected a string, got %s", label, path,
                             tmc_cfg_value_text(v).s);
    if (!v && f->required)
        return tmc_error_set(err, "%s: %s: missing required key (a string)", label, path);
    return 0;
}

/* A required key that is absent: say what it must hold. */
static int missing(const field *f, const char *label, const char *path, tmc_error *err)
{
    char want[256] = "one of: ";
    if (f->type == T_ENUM)
        tmc_cfg_join_choices(f, want + strlen(want), sizeof want - strlen(want));
    else
        tmc_cfg_describe_range(f, want, sizeof want);
    return tmc_error_set(err, "%s: %s: missing required key (%s)", label, path, want);
}

/* A number, integer or seed (T_U64) at `at`; its default when absent. */
static int read_scalar(const field *f, const cJSON *v, const char *label, const char *path,
                       void *at, tmc_error *err)
{
    double x = f->def;
    if (v && read_number(f, v, label, path, &x, err))
        return -1;
    if (f->type == T_NUM)
        *(double *)at = x;
    else if (f->type == T_INT)
        *(long *)at = (long)x;
    else
        *(uint64_t *)at = (uint64_t)x;
    return 0;
}

/* An array of 1 to TMC_MAX_BURST_NODES numbers in f's range, not all 0:
 * the count at `at`, the numbers after it (T_WEIGHTS). */
static int read_weights(const field *f, const cJSON *v, const char *label, const char *path,
                        void *at, tmc_error *err)
{
    int count = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (count > TMC_MAX_BURST_NODES)
        return tmc_error_set(err, "%s: %s: %d numbers are too many; expected an array of 1 "
                                  "to %d (sizes of 1 to %d nodes)", label, path, count,
                             TMC_MAX_BURST_NODES, TMC_MAX_BURST_NODES);
    if (count < 1)
        return tmc_error_set(err, "%s: %s: expected an array of 1 to %d numbers, got %s",
                             label, path, TMC_MAX_BURST_NODES, tmc_cfg_value_text(v).s);
    double *w = (double *)(void *)((char *)at + offsetof(tmc_failures, burst_weights) -
                                   offsetof(tmc_failures, n_burst_weights));
    field one = *f;
    one.type = T_NUM;
    double sum = 0;
    for (int i = 0; i < count; i++) {
        char item[300];
        snprintf(item, sizeof item, "%s[%d]", path, i);
        if (read_number(&one, cJSON_GetArrayItem(v, i), label, item, &w[i], err))
            return -1;
        sum += w[i];
    }
    if (!(sum > 0))
        return tmc_error_set(err, "%s: %s: every weight is 0; give at least one size a "
                                  "positive weight", label, path);
    *(int *)at = count;
    return 0;
}

static int read_field(const field *f, const cJSON *obj, const char *label, const char *dir,
                      const char *prefix, char *base, tmc_experiment *rec, tmc_error *err)
{
    char path[256];
    snprintf(path, sizeof path, "%s%s", prefix, f->key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, f->key);
    void *at = base + f->off;
    if (f->type == T_STR)
        return check_text(f, v, label, path, err);
    if (f->type == T_CAUSES)
        return v ? tmc_cfg_read_causes(v, label, path, at, err) : 0;
    if (f->type == T_TRACE)
        return v ? tmc_cfg_read_trace(v, label, dir, path, at, rec, err) : 0;
    if (f->type == T_WEIGHTS)
        return v ? read_weights(f, v, label, path, at, err) : 0;
    if (!v && f->required)
        return missing(f, label, path, err);
    if (f->type == T_BOOL) {
        if (v && !cJSON_IsBool(v))
            return tmc_error_set(err, "%s: %s: expected true or false, got %s", label, path,
                                 tmc_cfg_value_text(v).s);
        *(int *)at = v ? cJSON_IsTrue(v) : f->def != 0;
        return 0;
    }
    if (f->type != T_ENUM)
        return read_scalar(f, v, label, path, at, err);
    int index = 0; /* an optional choice defaults to the first */
    if (v && read_enum(f, v, label, path, &index, err))
        return -1;
    *(int *)at = index;
    return 0;
}

int tmc_cfg_read_fields(const section *s, const cJSON *obj, const char *label,
                        const char *dir, const char *prefix, char *base, tmc_experiment *rec,
                        tmc_error *err)
{
    const char *valid[TMC_CFG_MAX_FIELDS];
    for (size_t i = 0; i < s->n_fields; i++)
        valid[i] = s->fields[i].key;
    if (tmc_cfg_check_keys(obj, label, prefix, valid, s->n_fields, err))
        return -1;
    for (size_t i = 0; i < s->n_fields; i++)
        if (read_field(&s->fields[i], obj, label, dir, prefix, base, rec, err))
            return -1;
    return 0;
}
