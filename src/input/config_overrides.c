/* config_overrides.c - one override, `--set KEY=VALUE` on the command line
 * or a library call's, applied to the parsed document before validation.
 * KEY is a dotted path whose parts may index a list of objects
 * ("failures.causes[1].detection_s"); VALUE is JSON if it parses, else a
 * string. VALUE null removes the key, or the list's entry, as if the file
 * did not have it. docs/reference/experiment-keys.md ("Overrides") is the user's side.
 *
 * Invariants: an override edits only the document, so whatever it sets is
 * read and checked by the file's own readers, with the file's messages;
 * removing what is absent changes nothing and creates nothing; a key set by
 * an override removes its row's `alternative` (config_fields.c: the keys
 * that exclude each other) from the same section, and x->overrides records
 * that removal as "SECTION.KEY=null" right after the override, so the list
 * replayed in order gives the same experiment; the recorded overrides take at
 * most TMC_OVERRIDES_BYTES, a NUL after each. */
#include "config_internal.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one override walks with. */
typedef struct {
    cJSON *root;
    const char *spec;     /* "KEY=VALUE" as given */
    const char *key;      /* the copy of KEY whose parts are cut in place */
    const char *base_dir; /* the experiment's folder */
    int removing;         /* VALUE is null */
    tmc_experiment *rec;  /* records the overrides and the files read */
    tmc_error *err;
} walk;

size_t tmc_cfg_overrides_bytes(const tmc_experiment *x)
{
    size_t used = 0;
    for (int i = 0; i < x->n_overrides; i++)
        used += strlen(x->overrides[i]) + 1;
    return used;
}

/* Keep `text` in x->overrides (result files list them) if the budget a
 * result's list was sized by allows. 0, or -1 with err. */
static int record(tmc_experiment *x, const char *text, tmc_error *err)
{
    if (tmc_cfg_overrides_bytes(x) + strlen(text) + 1 > TMC_OVERRIDES_BYTES)
        return tmc_error_set(err, "--set %.60s...: the overrides take more than %d bytes "
                                  "in all (at most %d)", text, TMC_OVERRIDES_BYTES - 1,
                             TMC_OVERRIDES_BYTES - 1);
    return tmc_experiment_add_override(x, text, err);
}

/* A value is JSON if it parses, else a string: --set name=run2 needs no
 * quotes. */
static cJSON *parse_value(const char *text)
{
    cJSON *v = cJSON_ParseWithOpts(text, NULL, 1);
    return v ? v : cJSON_CreateString(text);
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

/* *out = root[name]. A section given as a file path is loaded first: the
 * override edits a copy of that file's object, which replaces the path in
 * the document (its trace made relative to the experiment's folder). 0, or
 * -1 with err. */
static int section_value(walk *w, const char *name, cJSON **out)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(w->root, name);
    const section *s = tmc_cfg_find_section(name);
    *out = v;
    if (!cJSON_IsString(v) || !s || !s->file_kind)
        return 0;
    char path[TMC_PATH_MAX], referrer[300];
    snprintf(referrer, sizeof referrer, "--set %.280s", w->spec);
    cJSON *obj = tmc_cfg_load_section_file(v->valuestring, s->file_kind, w->base_dir,
                                           referrer, path, sizeof path, w->rec, w->err);
    if (obj && rebase_trace(obj, v->valuestring, w->spec, w->err)) {
        cJSON_Delete(obj);
        obj = NULL;
    }
    if (!obj)
        return -1;
    cJSON_ReplaceItemInObjectCaseSensitive(w->root, name, obj);
    *out = obj;
    return 0;
}

/* part "causes[1]" becomes "causes" with *index 1; "cards" keeps its name,
 * *index -1. 0, or -1 with err when the brackets are not [DIGITS] at the
 * end of a name. */
static int split_index(walk *w, char *part, long *index)
{
    char *open = strchr(part, '['), *end = NULL;
    *index = -1;
    if (!open && !strchr(part, ']'))
        return 0;
    if (open && open > part && isdigit((unsigned char)open[1]) && strlen(open) < 12)
        *index = strtol(open + 1, &end, 10);
    if (!end || *end != ']' || end[1])
        return tmc_error_set(w->err, "--set %s: '%s' is neither NAME nor NAME[INDEX], INDEX "
                                     "an integer of at most 9 digits", w->spec, part);
    *open = '\0';
    return 0;
}

/* The entry `index` of the list `list`, whose JSON path is the key up to
 * and with `name` (read from spec: the key's parts are cut in place). NULL
 * with err when it is not a list or is shorter. */
static cJSON *entry(walk *w, cJSON *list, const char *name, long index)
{
    int path_len = (int)(name - w->key + (long)strlen(name));
    if (!cJSON_IsArray(list)) {
        tmc_error_set(w->err, "--set %s: %.*s is %s, not a list", w->spec, path_len, w->spec,
                      list ? tmc_cfg_value_text(list).s : "absent");
        return NULL;
    }
    int n = cJSON_GetArraySize(list);
    if (index >= n) {
        tmc_error_set(w->err, "--set %s: %.*s has %d entr%s; the index %ld is out of range; "
                              "expected an integer in [0, %d]", w->spec, path_len, w->spec,
                      n, n == 1 ? "y" : "ies", index, n - 1);
        return NULL;
    }
    return cJSON_GetArrayItem(list, (int)index);
}

/* obj[name] (or its entry `index`) as the object the override descends
 * into, in *next: created when absent or null, unless the override removes
 * (then *next is NULL: nothing to remove). 0, or -1 with err. */
static int descend(walk *w, cJSON *obj, const char *name, long index, cJSON **next)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (obj == w->root && section_value(w, name, &v))
        return -1;
    if (index >= 0 && !(v = entry(w, v, name, index)))
        return -1;
    if ((!v || cJSON_IsNull(v)) && w->removing)
        return *next = NULL, 0;
    if ((!v || cJSON_IsNull(v)) && index < 0) { /* a list's entry is never made */
        v = cJSON_CreateObject();
        if (tmc_cfg_has_key(obj, name))
            cJSON_ReplaceItemInObjectCaseSensitive(obj, name, v);
        else
            cJSON_AddItemToObject(obj, name, v);
    }
    char shown[80] = ""; /* "[1]" after an entry's list name */
    if (index >= 0)
        snprintf(shown, sizeof shown, "[%ld]", index);
    if (!cJSON_IsObject(v))
        return tmc_error_set(w->err, "--set %s: '%s%s' is %s, not an object", w->spec, name,
                             shown, tmc_cfg_value_text(v).s);
    *next = v;
    return 0;
}

/* The section's key `name` was set: its alternative goes, and the record
 * says so. 0, or -1 with err. */
static int drop_alternative(walk *w, cJSON *obj, const char *section, const char *name)
{
    const field *f = tmc_cfg_find_section(section) ? tmc_cfg_find_field(section, name) : NULL;
    if (!f || !f->alternative || !tmc_cfg_has_key(obj, f->alternative))
        return 0;
    cJSON_DeleteItemFromObjectCaseSensitive(obj, f->alternative);
    char text[128];
    snprintf(text, sizeof text, "%.60s.%.40s=null", section, f->alternative); /* table names */
    return record(w->rec, text, w->err);
}

/* obj[name] = value (the entry `index` of that list when >= 0), or removed
 * when value is null; value is taken over. 0, or -1 with err. */
static int put(walk *w, cJSON *obj, const char *section, const char *name, long index,
               cJSON *value)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (index >= 0 && !entry(w, list, name, index))
        return cJSON_Delete(value), -1;
    if (index >= 0 && w->removing)
        cJSON_DeleteItemFromArray(list, (int)index);
    else if (index >= 0)
        cJSON_ReplaceItemInArray(list, (int)index, value);
    else if (w->removing)
        cJSON_DeleteItemFromObjectCaseSensitive(obj, name);
    else if (list)
        cJSON_ReplaceItemInObjectCaseSensitive(obj, name, value);
    else
        cJSON_AddItemToObject(obj, name, value);
    if (w->removing)
        cJSON_Delete(value);
    return w->removing || index >= 0 || !section ? 0 : drop_alternative(w, obj, section, name);
}

/* A part of the key: not empty, its index split off. 0, or -1 with err. */
static int read_part(walk *w, char *part, long *index)
{
    if (!*part)
        return tmc_error_set(w->err, "--set %s: empty key", w->spec);
    return split_index(w, part, index);
}

/* Each part but the last names an object to descend into; the last is
 * set. `section` is the top-level name while obj is that section. value is
 * taken over. 0, or -1 with err. */
static int apply(walk *w, char *key, cJSON *value)
{
    cJSON *obj = w->root;
    const char *section = NULL;
    char *part = key, *dot;
    long index = -1;
    while ((dot = strchr(part, '.')) != NULL) {
        *dot = '\0';
        if (read_part(w, part, &index))
            return cJSON_Delete(value), -1;
        section = obj == w->root && index < 0 ? part : NULL;
        int rc = descend(w, obj, part, index, &obj);
        if (rc || !obj) /* !obj: nothing there to remove */
            return cJSON_Delete(value), rc;
        part = dot + 1;
    }
    if (read_part(w, part, &index))
        return cJSON_Delete(value), -1;
    return put(w, obj, section, part, index, value);
}

int tmc_cfg_apply_override(cJSON *root, const char *spec, const char *base_dir,
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
    if (strcmp(key, "base") == 0) /* merged before any override: it would do nothing */
        return tmc_error_set(err, "--set %s: base is read before the overrides apply; name "
                                  "the base in the experiment file", spec);
    if (record(rec, spec, err))
        return -1;
    const char *nul = tmc_text_json_nul(eq + 1); /* cJSON would cut the string there */
    if (nul)
        return tmc_error_set(err, "--set %s: byte %ld of the value: a \\u0000 escape (NUL); "
                             "text must be printable UTF-8", spec, (long)(nul - (eq + 1)));
    cJSON *value = parse_value(eq + 1);
    walk w = {root, spec, key, base_dir, cJSON_IsNull(value), rec, err};
    return apply(&w, key, value);
}
