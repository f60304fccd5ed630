/* config_sections.c - one section of an experiment as the document gives it:
 * an object; null or absent (the process off, or the section's defaults); or
 * the path of a section file, a distribution or model file (experiments/).
 *
 * Invariants: a section file is resolved relative to the file that names it
 * and must carry a non-empty "source" citing where its numbers come from;
 * its keys are checked like an inline section's, and its messages name that
 * file (not the experiment) with the key's path inside it; `enabled` is set
 * for every section that has one, whether or not it is given. */
#include "config_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

cJSON *tmc_cfg_load_section_file(const char *rel, const char *kind, const char *base_dir,
                                 const char *referrer, char *path, size_t n,
                                 tmc_experiment *rec, tmc_error *err)
{
    /* the path is written back as an input of the run (--json): text.h */
    if (tmc_text_require(rel, referrer, kind, err))
        return NULL;
    if (tmc_cfg_join_path(base_dir, rel, path, n)) {
        tmc_error_set(err, "%s: the %s path '%.60s...' (%zu bytes) is too long once resolved "
                           "(at most %d bytes)", referrer, kind, rel, strlen(rel),
                      TMC_PATH_MAX - 1);
        return NULL;
    }
    char *text = NULL;
    if (tmc_cfg_note_input(rec, path, err))
        return NULL;
    if (tmc_cfg_read_text(path, &text, err)) {
        char inner[sizeof err->msg];
        snprintf(inner, sizeof inner, "%s", err->msg);
        tmc_error_set(err, "%s: %s: %s", referrer, kind, inner);
        return NULL;
    }
    cJSON *root = tmc_cfg_parse_object(text, path, err);
    free(text);
    return root;
}

/* The keys of the assumed list (assumed.c) whose mere presence the report
 * tells apart from a default: a section's key, or a whole section (key NULL). */
static const struct {
    const char *section, *key;
    unsigned bit;
} stated_keys[] = {
    {"failures", "spares", TMC_STATED_SPARES},
    {"failures", "spare_provision_s", TMC_STATED_PROVISION},
    {"failures", "causes", TMC_STATED_CAUSES},
    {"failures", "renewal_at", TMC_STATED_RENEWAL_AT},
    {"failures", "repair_from", TMC_STATED_REPAIR_FROM},
    {"jitter", "cv", TMC_STATED_JITTER_CV},
    {"checkpoint", "restore_cv", TMC_STATED_RESTORE_CV},
    {"outages", NULL, TMC_STATED_OUTAGES},
    {"loss_spikes", NULL, TMC_STATED_SPIKES},
};
enum { N_STATED_KEYS = sizeof stated_keys / sizeof stated_keys[0] };

/* The same for a key of any cause (failures.causes[i].KEY, any i). */
static const struct {
    const char *key;
    unsigned bit;
} cause_keys[] = {
    {"detection_s", TMC_STATED_DETECTION},
    {"level", TMC_STATED_LEVEL},
};
enum { N_CAUSE_KEYS = sizeof cause_keys / sizeof cause_keys[0] };

/* out->stated |= the TMC_STATED_* bits of the keys obj (the section named
 * section, inline or from its file) gives. */
static void note_stated(const char *section, const cJSON *obj, tmc_experiment *out)
{
    for (size_t i = 0; i < N_STATED_KEYS; i++)
        if (stated_keys[i].key && !strcmp(section, stated_keys[i].section) &&
            cJSON_GetObjectItemCaseSensitive(obj, stated_keys[i].key))
            out->stated |= stated_keys[i].bit;
    const cJSON *causes = NULL, *c;
    if (!strcmp(section, "failures"))
        causes = cJSON_GetObjectItemCaseSensitive(obj, "causes");
    for (c = cJSON_IsArray(causes) ? causes->child : NULL; c; c = c->next)
        for (size_t i = 0; i < N_CAUSE_KEYS; i++)
            if (cJSON_GetObjectItemCaseSensitive(c, cause_keys[i].key))
                out->stated |= cause_keys[i].bit;
}

/* 1 when the override's key (up to '=') is section.key, or section alone. */
static int override_names(const char *override, size_t kl, const char *section,
                          const char *key)
{
    size_t sl = strlen(section);
    if (kl < sl || strncmp(override, section, sl))
        return 0;
    if (!key)
        return kl == sl;
    return kl == sl + 1 + strlen(key) && override[sl] == '.' &&
           !strncmp(override + sl + 1, key, kl - sl - 1);
}

/* Most overrides are in the document when it is read (note_stated); this
 * also sees "outages=null", which removes its key yet states it. */
void tmc_cfg_note_stated_override(const char *override, tmc_experiment *out)
{
    size_t kl = strcspn(override, "=");
    for (size_t i = 0; i < N_STATED_KEYS; i++)
        if (override_names(override, kl, stated_keys[i].section, stated_keys[i].key))
            out->stated |= stated_keys[i].bit;
    long cause;
    const char *name;
    if (!tmc_config_split_cause_key(override, &cause, &name))
        return;
    for (size_t i = 0; i < N_CAUSE_KEYS; i++) {
        size_t n = strlen(cause_keys[i].key);
        if (!strncmp(name, cause_keys[i].key, n) && (name[n] == '=' || !name[n]))
            out->stated |= cause_keys[i].bit;
    }
}

/* A section given as a string: load that file, which must hold a "source"
 * and the section's keys. */
static int read_section_file(const section *s, const char *rel, const char *label,
                             const char *base_dir, char *base, tmc_experiment *rec,
                             tmc_error *err)
{
    char path[TMC_PATH_MAX], referrer[TMC_PATH_MAX + 64];
    snprintf(referrer, sizeof referrer, "%s: %s", label, s->name);
    cJSON *root = tmc_cfg_load_section_file(rel, s->file_kind, base_dir, referrer, path,
                                            sizeof path, rec, err);
    if (!root)
        return -1;
    int rc = tmc_cfg_read_fields(s, root, path, NULL, "", base, rec, err);
    note_stated(s->name, root, rec);
    if (!rc && !tmc_cfg_has_key(root, "source"))
        rc = tmc_error_set(err, "%s: source: missing required key (a string citing "
                                "docs/model.md or a paper)", path);
    else if (!rc)
        rc = tmc_cfg_read_string(root, "source", 1, NULL, 0, path, err);
    cJSON_Delete(root);
    return rc;
}

int tmc_cfg_read_section(const section *s, const cJSON *root, const char *label,
                         const char *base_dir, tmc_experiment *out, tmc_error *err)
{
    char *base = (char *)out + s->off;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, s->name);
    int off = !v || cJSON_IsNull(v);
    for (size_t i = 0; v && i < N_STATED_KEYS; i++) /* null states "none" too */
        if (!stated_keys[i].key && !strcmp(s->name, stated_keys[i].section))
            out->stated |= stated_keys[i].bit;
    if (off && s->required)
        return tmc_error_set(err, "%s: %s: missing required section (an object)", label,
                             s->name);
    if (s->enabled >= 0)
        *(int *)(void *)(base + s->enabled) = !off;
    if (off && !s->nullable) {
        cJSON *empty = cJSON_CreateObject(); /* defaults only */
        int rc = tmc_cfg_read_fields(s, empty, label, base_dir, "", base, out, err);
        cJSON_Delete(empty);
        return rc;
    }
    if (off)
        return 0;
    if (s->file_kind && cJSON_IsString(v))
        return read_section_file(s, v->valuestring, label, base_dir, base, out, err);
    if (!cJSON_IsObject(v)) {
        char file[64] = "";
        if (s->file_kind)
            snprintf(file, sizeof file, " or a %s path", s->file_kind);
        return tmc_error_set(err, "%s: %s: expected an object%s%s, got %s", label, s->name,
                             file, s->nullable ? " or null" : "", tmc_cfg_value_text(v).s);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s.", s->name);
    note_stated(s->name, v, out);
    return tmc_cfg_read_fields(s, v, label, base_dir, prefix, base, out, err);
}
