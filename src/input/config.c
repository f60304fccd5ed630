/* config.c - loading an experiment: read the file, apply the command-line
 * overrides (--set dotted.key=value), validate, and say which override a
 * message is about. The other config_*.c files hold the parts (see
 * config_internal.h).
 *
 * Invariant: tmc_config_parse either fills *out completely from a document
 * whose every key is known and every value in range, or returns -1 with one
 * message and *out owning nothing (its heap parts released). Overrides edit the parsed document
 * before validation, so an overridden value is checked like the file's. */
#include "config_internal.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- overrides: --set dotted.key=value ---------- */

/* A value is JSON if it parses, else a string: --set name=run2 needs no
 * quotes. */
static cJSON *parse_value(const char *text)
{
    cJSON *v = cJSON_ParseWithOpts(text, NULL, 1);
    return v ? v : cJSON_CreateString(text);
}

/* obj[key] = value, replacing a key already there in place (its order kept). */
static void set_item(cJSON *obj, const char *key, cJSON *value)
{
    if (tmc_cfg_has_key(obj, key))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, value);
    else
        cJSON_AddItemToObject(obj, key, value);
}

/* A trace that the section file `rel` names relative to its own folder,
 * made relative to the experiment's, where the inlined copy is read from.
 * 0, or -1 with err when the path is too long. */
static int rebase_trace(cJSON *obj, const char *rel, const char *spec, tmc_error *err)
{
    cJSON *t = cJSON_GetObjectItemCaseSensitive(obj, "trace");
    const char *slash = strrchr(rel, '/');
    if (!cJSON_IsString(t) || !t->valuestring[0] || t->valuestring[0] == '/' || !slash)
        return 0;
    char joined[TMC_PATH_MAX];
    int len = snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - rel), rel,
                       t->valuestring);
    if (len < 0 || (size_t)len >= sizeof joined)
        return tmc_error_set(err, "--set %.200s: the trace path %s/%s is too long", spec, rel,
                             t->valuestring);
    return cJSON_SetValuestring(t, joined) ? 0 : tmc_error_set(err, "out of memory");
}

/* An override inside a section given as a file path edits a copy of that
 * file's object, which replaces the path in the document (its trace made
 * relative to the experiment's folder). */
static cJSON *inline_section_file(cJSON *root, const char *name, cJSON *value,
                                  const char *base_dir, const char *spec,
                                  tmc_experiment *rec, tmc_error *err)
{
    const section *s = tmc_cfg_find_section(name);
    if (!s || !s->file_kind)
        return value;
    char path[TMC_PATH_MAX], referrer[300];
    snprintf(referrer, sizeof referrer, "--set %.280s", spec);
    cJSON *obj = tmc_cfg_load_section_file(value->valuestring, s->file_kind, base_dir,
                                           referrer, path, sizeof path, rec, err);
    if (obj && rebase_trace(obj, value->valuestring, spec, err)) {
        cJSON_Delete(obj);
        return NULL;
    }
    if (obj)
        cJSON_ReplaceItemInObjectCaseSensitive(root, name, obj);
    return obj;
}

/* The object at obj[part] that the override `spec` descends into: created
 * when absent or null, loaded when a top-level section names a file. NULL
 * with err set when it is something else. */
static cJSON *descend(cJSON *root, cJSON *obj, const char *part, const char *spec,
                      const char *base_dir, tmc_experiment *rec, tmc_error *err)
{
    cJSON *next = cJSON_GetObjectItemCaseSensitive(obj, part);
    if (obj == root && cJSON_IsString(next) &&
        !(next = inline_section_file(root, part, next, base_dir, spec, rec, err)))
        return NULL;
    if (!next || cJSON_IsNull(next)) {
        next = cJSON_CreateObject();
        set_item(obj, part, next);
    }
    if (!cJSON_IsObject(next)) {
        tmc_error_set(err, "--set %s: '%s' is %s, not an object", spec, part,
                      tmc_cfg_value_text(next).s);
        return NULL;
    }
    return next;
}

static int apply_override(cJSON *root, const char *spec, const char *base_dir,
                          tmc_experiment *rec, tmc_error *err)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec)
        return tmc_error_set(err, "--set %s: expected KEY=VALUE, KEY a dotted path such as "
                                  "job.cards", spec);
    char key[256];
    if ((size_t)(eq - spec) >= sizeof key)
        return tmc_error_set(err, "--set %s: key too long", spec);
    memcpy(key, spec, (size_t)(eq - spec));
    key[eq - spec] = '\0';
    cJSON *obj = root;
    char *part = key, *dot;
    while ((dot = strchr(part, '.')) != NULL) {
        if (dot == part)
            return tmc_error_set(err, "--set %s: empty key", spec);
        *dot = '\0';
        if (!(obj = descend(root, obj, part, spec, base_dir, rec, err)))
            return -1;
        part = dot + 1;
    }
    if (!*part)
        return tmc_error_set(err, "--set %s: empty key", spec);
    set_item(obj, part, parse_value(eq + 1));
    return 0;
}

size_t tmc_cfg_overrides_bytes(const tmc_experiment *x)
{
    size_t used = 0;
    for (int i = 0; i < x->n_overrides; i++)
        used += strlen(x->overrides[i]) + 1;
    return used;
}

/* Keep the overrides in x->overrides (result files list them), at most
 * TMC_OVERRIDES_BYTES with a NUL after each, the budget a result's list
 * was sized by. 0, or -1 with err when they do not fit. */
static int record_overrides(tmc_experiment *x, const char *const *overrides, int n,
                            tmc_error *err)
{
    for (int i = 0; i < n; i++) {
        if (tmc_cfg_overrides_bytes(x) + strlen(overrides[i]) + 1 > TMC_OVERRIDES_BYTES)
            return tmc_error_set(err, "--set %.60s...: the overrides take more than %d bytes "
                                      "in all (at most %d)", overrides[i],
                                 TMC_OVERRIDES_BYTES - 1, TMC_OVERRIDES_BYTES - 1);
        if (tmc_experiment_add_override(x, overrides[i], err))
            return -1;
    }
    return 0;
}

int tmc_config_list_overrides(const tmc_experiment *x, const char **out, int max)
{
    int n = x->n_overrides < max ? x->n_overrides : max;
    for (int i = 0; i < n; i++)
        out[i] = x->overrides[i];
    return n;
}

/* A message about a path an override set, or set inside of, or a path inside
 * what an override set: the file alone does not explain it, so add
 * " (with the override KEY=VALUE)": --set on the command line, the overrides
 * of a library call. */
static void note_override(tmc_error *err, const char *label, const char *const *overrides,
                          int n_overrides)
{
    size_t ll = strlen(label);
    if (strncmp(err->msg, label, ll) != 0 || strncmp(err->msg + ll, ": ", 2) != 0)
        return;
    const char *path = err->msg + ll + 2;
    size_t pl = strcspn(path, ":");
    for (int i = n_overrides - 1; i >= 0; i--) {
        const char *key = overrides[i];
        size_t kl = strcspn(key, "="), m = kl < pl ? kl : pl;
        if (strncmp(path, key, m) == 0 && (kl == pl || (kl < pl ? path : key)[m] == '.')) {
            size_t used = strlen(err->msg);
            snprintf(err->msg + used, sizeof err->msg - used,
                     " (with the override %s)", key);
            return;
        }
    }
}

/* ---------- validation ---------- */

/* The top-level keys, then every section, then the rules across keys. */
static int validate(const cJSON *root, const char *label, const char *base_dir,
                    tmc_experiment *out, tmc_error *err)
{
    const char *keys[3 + TMC_CFG_N_SECTIONS] = {"name", "source", "description"};
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++)
        keys[3 + i] = tmc_cfg_sections[i].name;
    if (tmc_cfg_check_keys(root, label, "", keys, 3 + TMC_CFG_N_SECTIONS, err) ||
        tmc_cfg_read_string(root, "name", 1, out->name, sizeof out->name, label, err) ||
        tmc_cfg_read_string(root, "source", 0, out->source, sizeof out->source, label, err) ||
        tmc_cfg_read_string(root, "description", 0, NULL, 0, label, err))
        return -1;
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++)
        if (tmc_cfg_read_section(&tmc_cfg_sections[i], root, label, base_dir, out, err))
            return -1;
    return tmc_cfg_check_all(root, out, label, err);
}

/* ---------- entry points ---------- */

int tmc_config_parse(const char *text, const char *label, const char *base_dir,
                     const char *const *overrides, int n_overrides, tmc_experiment *out,
                     tmc_error *err)
{
    gsl_set_error_handler_off(); /* every GSL status is checked: no abort */
    memset(out, 0, sizeof *out);
    if (strlen(label) >= TMC_PATH_MAX)
        return tmc_error_set(err, "%.60s...: the experiment's path (%zu bytes) is too long (at "
                                  "most %d bytes)", label, strlen(label), TMC_PATH_MAX - 1);
    cJSON *root = tmc_cfg_parse_object(text, label, err);
    if (!root)
        return -1;
    int rc = record_overrides(out, overrides, n_overrides, err);
    for (int i = 0; i < n_overrides && !rc; i++)
        rc = apply_override(root, overrides[i], base_dir, out, err);
    if (!rc && (rc = validate(root, label, base_dir, out, err)))
        note_override(err, label, overrides, n_overrides);
    cJSON_Delete(root);
    if (!rc && !(out->path = strdup(label)))
        rc = tmc_error_set(err, "out of memory");
    if (rc)
        tmc_experiment_release(out); /* a failed load owns nothing */
    return rc;
}

/* dir[TMC_PATH_MAX] = the folder of `path` (which fits): "" when it has no
 * slash, so relative paths stay as given; "/" for a file in the root. */
static void folder_of(const char *path, char *dir)
{
    snprintf(dir, TMC_PATH_MAX, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = '\0';
    else
        dir[0] = '\0';
}

int tmc_config_load(const char *path, const char *const *overrides, int n_overrides,
                    tmc_experiment *out, tmc_error *err)
{
    char *text = NULL;
    memset(out, 0, sizeof *out); /* owning nothing whatever fails */
    if (strlen(path) >= TMC_PATH_MAX)
        return tmc_error_set(err, "%.60s...: the experiment's path (%zu bytes) is too long (at "
                                  "most %d bytes)", path, strlen(path), TMC_PATH_MAX - 1);
    if (tmc_cfg_read_text(path, &text, err))
        return -1;
    char dir[TMC_PATH_MAX];
    folder_of(path, dir);
    int rc = tmc_config_parse(text, path, dir, overrides, n_overrides, out, err);
    free(text);
    if (!rc && (rc = tmc_cfg_note_input(out, path, err)))
        tmc_experiment_release(out);
    return rc;
}
