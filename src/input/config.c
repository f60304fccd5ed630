/* config.c - loading an experiment: read the file, apply the command-line
 * overrides (--set dotted.key=value, config_overrides.c), validate, and say
 * which override a message is about. The other config_*.c files hold the parts (see
 * config_internal.h).
 *
 * Invariant: tmc_config_parse either fills *out completely from a document
 * whose every key is known and every value in range, or returns -1 with one
 * message and *out owning nothing (its heap parts released). A base
 * (config_base.c) is merged first, then overrides edit the merged document
 * before validation, so an overridden value is checked like the file's. */
#include "config_internal.h"
#include "text.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * of a library call. 1 when it did. */
static int note_override(tmc_error *err, const char *label, const char *const *overrides,
                         int n_overrides)
{
    size_t ll = strlen(label);
    if (strncmp(err->msg, label, ll) != 0 || strncmp(err->msg + ll, ": ", 2) != 0)
        return 0;
    const char *path = err->msg + ll + 2;
    size_t pl = strcspn(path, ":");
    for (int i = n_overrides - 1; i >= 0; i--) {
        const char *key = overrides[i];
        size_t kl = strcspn(key, "="), m = kl < pl ? kl : pl;
        char next = (kl < pl ? path : key)[m]; /* a key's part ends at '.' or '[' */
        if (strncmp(path, key, m) == 0 && (kl == pl || next == '.' || next == '[')) {
            char base[sizeof err->msg]; /* through tmc_error_set: the key is escaped */
            snprintf(base, sizeof base, "%s", err->msg);
            tmc_error_set(err, "%s (with the override %s)", base, key);
            return 1;
        }
    }
    return 0;
}

/* ---------- validation ---------- */

/* The top-level keys, then every section, then the rules across keys. */
static int validate(const cJSON *root, const char *label, const char *base_dir,
                    tmc_interval_rule rule, tmc_experiment *out, tmc_error *err)
{
    /* the top keys' rows, base among them: it is gone once merged, yet a
     * misspelt "bases" is told of it */
    const char *keys[TMC_CFG_MAX_FIELDS + TMC_CFG_N_SECTIONS];
    size_t n = 0;
    for (size_t i = 0; i < tmc_cfg_top.n_fields; i++)
        keys[n++] = tmc_cfg_top.fields[i].key;
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++)
        keys[n++] = tmc_cfg_sections[i].name;
    if (tmc_cfg_check_keys(root, label, "", keys, n, err) ||
        tmc_cfg_read_string(root, "name", 1, out->name, sizeof out->name, label, err) ||
        tmc_cfg_read_string(root, "source", 0, out->source, sizeof out->source, label, err) ||
        tmc_cfg_read_string(root, "description", 0, NULL, 0, label, err))
        return -1;
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++)
        if (tmc_cfg_read_section(&tmc_cfg_sections[i], root, label, base_dir, out, err))
            return -1;
    tmc_cfg_interval_resolve(out, rule);
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
    cJSON *own = NULL; /* each file's own keys when root has a base */
    int rc = tmc_cfg_base_merge(root, label, base_dir, out, &own, err);
    tmc_interval_rule rule = TMC_INTERVAL_GIVEN;
    for (int i = 0; i < n_overrides && !rc; i++)
        rc = tmc_cfg_apply_override(root, overrides[i], base_dir, out, err);
    if (!rc && ((rc = tmc_cfg_interval_read(root, label, &rule, err)) ||
                (rc = validate(root, label, base_dir, rule, out, err)))) {
        int set = note_override(err, label, overrides, n_overrides);
        tmc_cfg_base_note(err, label, out, own, set);
    }
    cJSON_Delete(own);
    for (int i = 0; i < n_overrides && !rc; i++)
        tmc_cfg_note_stated_override(overrides[i], out);
    cJSON_Delete(root);
    if (!rc && !(out->path = strdup(label)))
        rc = tmc_error_set(err, "out of memory");
    if (rc)
        tmc_experiment_release(out); /* a failed load owns nothing */
    return rc;
}

void tmc_cfg_folder_of(const char *path, char *dir)
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
    /* the path is printed and written to --json (experiment_path): text.h */
    if (tmc_text_require(path, path, "the experiment's file name", err))
        return -1;
    if (tmc_cfg_read_text(path, &text, err))
        return -1;
    char dir[TMC_PATH_MAX];
    tmc_cfg_folder_of(path, dir);
    int rc = tmc_config_parse(text, path, dir, overrides, n_overrides, out, err);
    free(text);
    if (!rc && (rc = tmc_cfg_note_input(out, path, err)))
        tmc_experiment_release(out);
    return rc;
}
