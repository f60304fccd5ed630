/* config_base.c - "base": an experiment file that builds on another. The base
 * is read, its own base resolved first, and the naming file's keys laid over
 * it (docs/reference/experiment-keys.md, "An experiment built on another").
 *
 * Invariants: objects merge key by key, and any other value (a number, a
 * string, an array, null) replaces the base's whole, so null still turns a
 * process off; a key removes its alternative from the base's section (the
 * child's checkpoint.interval_steps the base's interval_s), as --set does; a
 * key given twice stays twice, so validation refuses it as it would without
 * a base; a relative file name written in a base (a section
 * file, a trace) is rewritten to start from the naming file's folder, so it
 * still names the file it named where it was written; a file met twice in
 * one chain is a cycle, refused with the chain; every base file is recorded
 * as an input (no output may overwrite it) and in the experiment's bases. */
#include "config_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text.h"

#define MAX_CHAIN 16 /* files in one chain, the top one included */

/* The files of the chain so far: their names as messages show them and,
 * where known, their device and inode, which spot a file met again under
 * another name ("./a.json", "../x/a.json"). */
typedef struct {
    const char *name[MAX_CHAIN + 1];
    dev_t dev[MAX_CHAIN + 1];
    ino_t ino[MAX_CHAIN + 1];
    int known[MAX_CHAIN + 1];
    int n;
} chain;

static void chain_push(chain *c, const char *name)
{
    struct stat st;
    c->name[c->n] = name;
    c->known[c->n] = stat(name, &st) == 0;
    c->dev[c->n] = c->known[c->n] ? st.st_dev : 0;
    c->ino[c->n] = c->known[c->n] ? st.st_ino : 0;
    c->n++;
}

/* 1 when the last file of the chain is an earlier one. */
static int chain_repeats(const chain *c)
{
    int k = c->n - 1;
    for (int i = 0; i < k; i++)
        if (c->known[i] && c->known[k] ? c->dev[i] == c->dev[k] && c->ino[i] == c->ino[k]
                                       : strcmp(c->name[i], c->name[k]) == 0)
            return 1;
    return 0;
}

static int cycle_error(const chain *c, const char *label, tmc_error *err)
{
    char list[sizeof err->msg] = "";
    size_t used = 0;
    for (int i = 0; i < c->n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? " -> " : "",
                                 c->name[i]);
    return tmc_error_set(err, "%s: base: cycle %s", label, list);
}

/* ---------- the merge ---------- */

/* Lay `over` onto `under`, both objects: a key both give merges when both
 * values are objects and replaces under's otherwise; a new key joins at the
 * end, and so does a key `over` gives twice (validation then refuses it).
 * `top`: the documents themselves; `s`: the section both objects are (NULL:
 * none), whose key removes its alternative from under, as a --set does
 * (config_overrides.c), unless over gives both. */
static int overlay(cJSON *under, const cJSON *over, int top, const section *s)
{
    for (const cJSON *c = over->child; c; c = c->next) {
        int twice = 0;
        for (const cJSON *p = over->child; p != c; p = p->next)
            twice |= strcmp(p->string, c->string) == 0;
        const field *f = s ? tmc_cfg_find_field(s->name, c->string) : NULL;
        if (f && f->alternative && !tmc_cfg_has_key(over, f->alternative))
            cJSON_DeleteItemFromObjectCaseSensitive(under, f->alternative);
        cJSON *u = twice ? NULL : cJSON_GetObjectItemCaseSensitive(under, c->string);
        if (u && cJSON_IsObject(u) && cJSON_IsObject(c)) {
            if (overlay(u, c, 0, top ? tmc_cfg_find_section(c->string) : NULL))
                return -1;
            continue;
        }
        cJSON *copy = cJSON_Duplicate(c, 1); /* keeps its key */
        if (!copy)
            return -1;
        if (u)
            cJSON_ReplaceItemViaPointer(under, u, copy);
        else
            cJSON_AddItemToArray(under, copy); /* an object's item, key and all */
    }
    return 0;
}

/* The value at obj.key, a relative file name, made relative to `dir`. */
static int rebase_value(cJSON *obj, const char *key, const char *dir, const char *label,
                        tmc_error *err)
{
    cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsString(v) || !v->valuestring[0] || v->valuestring[0] == '/')
        return 0;
    char path[TMC_PATH_MAX];
    if (tmc_cfg_join_path(dir, v->valuestring, path, sizeof path))
        return tmc_error_set(err, "%s: base: %s: the file name '%.60s...' is too long once "
                                  "resolved (at most %d bytes)", label, key, v->valuestring,
                             TMC_PATH_MAX - 1);
    cJSON *s = cJSON_CreateString(path);
    if (!s || !cJSON_ReplaceItemInObjectCaseSensitive(obj, key, s)) {
        cJSON_Delete(s);
        return tmc_error_set(err, "out of memory");
    }
    return 0;
}

/* Every file name the loader resolves against the experiment's folder (a
 * section given as a file, a section's trace) in the base document `doc`,
 * made relative to the naming file's folder: `rel`, the base's name as
 * written there, leads them with its own folder. */
static int rebase_files(cJSON *doc, const char *rel, const char *label, tmc_error *err)
{
    char dir[TMC_PATH_MAX];
    tmc_cfg_folder_of(rel, dir); /* rel fits: it was joined to a path that fits */
    if (!dir[0])
        return 0; /* the same folder: nothing moves */
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++) {
        const section *s = &tmc_cfg_sections[i];
        if (s->file_kind && rebase_value(doc, s->name, dir, label, err))
            return -1;
        cJSON *obj = cJSON_GetObjectItemCaseSensitive(doc, s->name);
        for (size_t f = 0; cJSON_IsObject(obj) && f < s->n_fields; f++)
            if (s->fields[f].type == T_TRACE &&
                rebase_value(obj, s->fields[f].key, dir, label, err))
                return -1;
    }
    return 0;
}

/* ---------- reading a chain ---------- */

static int merge_level(cJSON *doc, const char *label, const char *dir, chain *c,
                       tmc_experiment *rec, cJSON *own, tmc_error *err);

/* err's message prefixed by "LABEL: base: ". Returns -1. */
static int named_by(const char *label, tmc_error *err)
{
    char inner[sizeof err->msg];
    snprintf(inner, sizeof inner, "%s", err->msg);
    return tmc_error_set(err, "%s: base: %s", label, inner);
}

/* The base `rel` named by `label` (in folder dir) joins the chain, resolved
 * into path[TMC_PATH_MAX]: recorded, and refused if it closes a cycle. */
static int join_chain(const char *rel, const char *label, const char *dir, chain *c,
                      tmc_experiment *rec, char *path, tmc_error *err)
{
    if (tmc_text_require(rel, label, "base", err))
        return -1;
    if (tmc_cfg_join_path(dir, rel, path, TMC_PATH_MAX))
        return tmc_error_set(err, "%s: base: the path '%.60s...' (%zu bytes) is too long "
                                  "once resolved (at most %d bytes)", label, rel, strlen(rel),
                             TMC_PATH_MAX - 1);
    if (c->n == MAX_CHAIN)
        return tmc_error_set(err, "%s: base: more than %d files in one chain of bases", label,
                             MAX_CHAIN);
    if (tmc_experiment_add_base(rec, path, err) || tmc_cfg_note_input(rec, path, err))
        return -1;
    chain_push(c, rec->bases[rec->n_bases - 1]); /* the copy outlives this frame */
    return chain_repeats(c) ? cycle_error(c, label, err) : 0;
}

/* The base file `rel` named by `label` (in folder dir), read, parsed and its
 * own base resolved; NULL with err. */
static cJSON *read_base(const char *rel, const char *label, const char *dir, chain *c,
                        tmc_experiment *rec, cJSON *own, tmc_error *err)
{
    char path[TMC_PATH_MAX];
    if (join_chain(rel, label, dir, c, rec, path, err))
        return NULL;
    char *text = NULL;
    if (tmc_cfg_read_text(path, &text, err)) {
        named_by(label, err);
        return NULL;
    }
    cJSON *doc = tmc_cfg_parse_object(text, path, err);
    free(text);
    if (!doc) {
        named_by(label, err);
        return NULL;
    }
    tmc_cfg_folder_of(c->name[c->n - 1], path); /* path: now the base's folder */
    if (merge_level(doc, c->name[c->n - 1], path, c, rec, own, err)) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* doc (the file `label`, in folder dir) with its base resolved in place. */
static int merge_level(cJSON *doc, const char *label, const char *dir, chain *c,
                       tmc_experiment *rec, cJSON *own, tmc_error *err)
{
    cJSON *b = cJSON_DetachItemFromObjectCaseSensitive(doc, "base");
    cJSON *mine = cJSON_Duplicate(doc, 1);
    if (!mine) {
        cJSON_Delete(b);
        return tmc_error_set(err, "out of memory");
    }
    cJSON_AddItemToArray(own, mine);
    if (!b)
        return 0;
    int rc = -1;
    cJSON *base = NULL;
    if (tmc_cfg_has_key(doc, "base")) /* one is gone: validation would not see it */
        tmc_error_set(err, "%s: base: key given twice", label);
    else if (!cJSON_IsString(b))
        tmc_error_set(err, "%s: base: expected a string, the path of an experiment file "
                           "relative to this file's folder, got %s", label,
                      tmc_cfg_value_text(b).s);
    else if ((base = read_base(b->valuestring, label, dir, c, rec, own, err)) &&
             !rebase_files(base, b->valuestring, label, err)) {
        if (overlay(base, doc, 1, NULL))
            tmc_error_set(err, "out of memory");
        else { /* doc takes the merged keys; its own go with `base` */
            cJSON *mine_keys = doc->child;
            doc->child = base->child;
            base->child = mine_keys;
            rc = 0;
        }
    }
    cJSON_Delete(base);
    cJSON_Delete(b);
    return rc;
}

int tmc_cfg_base_merge(cJSON *root, const char *label, const char *base_dir,
                       tmc_experiment *rec, cJSON **own, tmc_error *err)
{
    *own = NULL;
    if (!cJSON_GetObjectItemCaseSensitive(root, "base"))
        return 0;
    chain c = {.n = 0};
    chain_push(&c, label);
    if (!(*own = cJSON_CreateArray()))
        return tmc_error_set(err, "out of memory");
    return merge_level(root, label, base_dir, &c, rec, *own, err);
}

/* ---------- messages ---------- */

/* The value at the JSON path `path` (n bytes: "job.cards",
 * "failures.causes[1].share") in doc, or the non-object value on the way
 * that holds it whole; NULL when doc gives neither. */
static const cJSON *find_path(const cJSON *doc, const char *path, size_t n)
{
    const cJSON *v = doc;
    size_t i = 0;
    while (i < n && cJSON_IsObject(v)) {
        char key[TMC_KEY_LEN];
        size_t k = strcspn(path + i, ".[");
        k = k < n - i ? k : n - i;
        if (k >= sizeof key)
            return NULL;
        memcpy(key, path + i, k);
        key[k] = '\0';
        v = cJSON_GetObjectItemCaseSensitive(v, key);
        i += k;
        while (v && i < n && path[i] == '[' && cJSON_IsArray(v)) {
            v = cJSON_GetArrayItem(v, atoi(path + i + 1));
            i += strcspn(path + i, "]") + 1;
        }
        i += i < n && path[i] == '.';
    }
    return v;
}

void tmc_cfg_base_note(tmc_error *err, const char *label, const tmc_experiment *x,
                       const cJSON *own, int overridden)
{
    size_t ll = strlen(label);
    if (!own || strncmp(err->msg, label, ll) != 0 || strncmp(err->msg + ll, ": ", 2) != 0)
        return;
    char bases[sizeof err->msg] = "", from[TMC_PATH_MAX + 16] = "";
    size_t used = 0;
    for (int i = 0; i < x->n_bases && used < sizeof bases; i++)
        used += (size_t)snprintf(bases + used, sizeof bases - used, "%s%s", i ? ", " : "",
                                 x->bases[i]);
    const char *rest = err->msg + ll + 2;
    size_t pl = strcspn(rest, ": ");
    int i = 0;
    for (const cJSON *f = own->child; f && !find_path(f, rest, pl); f = f->next)
        i++;
    if (!overridden && i > 0 && i <= x->n_bases) /* the nearest file that gives the value */
        snprintf(from, sizeof from, " (from %s)", x->bases[i - 1]);
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", rest + pl);
    tmc_error_set(err, "%s (base %s): %.*s%s%s", label, bases, (int)pl, rest, from, msg);
}
