/* observed_input.c - a run's progress from a file of its own
 * (observed_input.h): one object (--progress), or one a line (--history).
 *
 * Invariants: the object goes through the experiment's own section reader
 * (tmc_cfg_read_section, as if the experiment held it under "progress") and
 * the section's own checks (tmc_cfg_check_progress), so a file is accepted
 * exactly when the same object inside the experiment would be, and its
 * messages are the section's with the file (and line) in front; a failure
 * leaves the experiment's progress as it was; a history is read whole and
 * every line checked before any is returned. */
#include "observed_input.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

/* The checks tmc_cfg_check_all runs across sections involve progress only
 * through tmc_cfg_check_progress: the rest of x passed them when it was
 * loaded, and the section does not change them. */
int tmc_observed_input_apply(tmc_experiment *x, const cJSON *obj, const char *label,
                             tmc_error *err)
{
    const section *s = tmc_cfg_find_section("progress");
    cJSON *root = cJSON_CreateObject();
    /* a reference: the caller's object is read, never copied nor freed here */
    if (!root || !cJSON_AddItemReferenceToObject(root, "progress", (cJSON *)obj)) {
        cJSON_Delete(root);
        return tmc_error_set(err, "%s: out of memory", label);
    }
    tmc_observed kept = x->observed;
    int rc = tmc_cfg_read_section(s, root, label, "", x, err);
    cJSON_Delete(root);
    if (!rc)
        rc = tmc_cfg_check_progress(x, label, err);
    if (rc)
        x->observed = kept;
    return rc;
}

/* Add "progress=@FILE" to x's overrides, which results list: the file is
 * part of what ran. The same budget as the --set overrides (config.c). */
static int record_file(tmc_experiment *x, const char *path, tmc_error *err)
{
    const char *at = "progress=@";
    if (tmc_cfg_overrides_bytes(x) + strlen(at) + strlen(path) + 1 > TMC_OVERRIDES_BYTES)
        return tmc_error_set(err, "%.60s...: recorded as the override progress=@FILE, the "
                                  "overrides take more than %d bytes in all (at most %d)",
                             path, TMC_OVERRIDES_BYTES - 1, TMC_OVERRIDES_BYTES - 1);
    char *set = malloc(strlen(at) + strlen(path) + 1);
    if (!set)
        return tmc_error_set(err, "out of memory");
    sprintf(set, "%s%s", at, path);
    int rc = tmc_experiment_add_override(x, set, err);
    free(set);
    return rc;
}

int tmc_observed_input_load(tmc_experiment *x, const char *path, tmc_error *err)
{
    char *text = NULL;
    if (tmc_cfg_read_text(path, &text, err))
        return -1;
    cJSON *obj = tmc_cfg_parse_object(text, path, err);
    free(text);
    if (!obj)
        return -1;
    int rc = tmc_observed_input_load_object(x, obj, path, err);
    cJSON_Delete(obj);
    return rc;
}

int tmc_observed_input_load_object(tmc_experiment *x, const cJSON *obj, const char *path,
                                   tmc_error *err)
{
    if (tmc_observed_input_apply(x, obj, path, err))
        return -1;
    return record_file(x, path, err) ? -1 : tmc_cfg_note_input(x, path, err);
}

/* ---------- a history: JSON lines ---------- */

/* "FILE:LINE:COL: invalid JSON near 'TEXT'" for a line where cJSON stopped
 * at `end` (COL in bytes; TEXT up to 30 bytes, anything but printable ASCII
 * shown as '?', so the message stays one readable line). */
static int line_syntax_error(const char *line, const char *end, const char *path, long no,
                             tmc_error *err)
{
    if (!end || end < line)
        end = line;
    char near[31];
    size_t k = strlen(end) < 30 ? strlen(end) : 30;
    for (size_t i = 0; i < k; i++)
        near[i] = end[i] >= 0x20 && end[i] < 0x7f ? end[i] : '?';
    near[k] = '\0';
    if (!*end)
        return tmc_error_set(err, "%s:%ld:%ld: invalid JSON: unexpected end of line", path, no,
                             (long)(end - line) + 1);
    return tmc_error_set(err, "%s:%ld:%ld: invalid JSON near '%s%s'", path, no,
                         (long)(end - line) + 1, near, strlen(end) > 30 ? "..." : "");
}

/* Line `no` (NUL-terminated, no newline) as a snapshot checked against the
 * copy x of the base experiment. */
static int read_line(tmc_experiment *x, const char *line, const char *path, long no,
                     tmc_observed_snapshot *out, tmc_error *err)
{
    char label[TMC_PATH_MAX + 24];
    snprintf(label, sizeof label, "%s:%ld", path, no);
    const char *end = NULL;
    if (tmc_cfg_refuse_nul(line, label, err))
        return -1;
    cJSON *obj = cJSON_ParseWithOpts(line, &end, 1);
    if (!obj)
        return line_syntax_error(line, end, path, no, err);
    int rc = cJSON_IsObject(obj)
        ? tmc_observed_input_apply(x, obj, label, err)
        : tmc_error_set(err, "%s: expected a JSON object (a progress snapshot: the keys of "
                             "the progress section), got %s", label, tmc_cfg_type_name(obj));
    cJSON_Delete(obj);
    out->line = no;
    out->observed = x->observed;
    return rc;
}

/* 1 when the line holds only blanks (a trailing newline's empty line, a
 * separator): skipped. */
static int blank(const char *s)
{
    return s[strspn(s, " \t\r")] == '\0';
}

/* A snapshot that goes back in time against the one before it (its
 * elapsed time, or the failures or outages seen so far, which only grow):
 * an error naming both lines, else 0. The current step may go back (a
 * rollback), so it is not checked. */
static int out_of_order(const tmc_observed_snapshot *a, const tmc_observed_snapshot *b,
                        const char *path, tmc_error *err)
{
    const tmc_observed *p = &a->observed, *q = &b->observed;
    const struct { const char *key; double was, now; } grow[] = {
        {"elapsed_days", p->elapsed_days, q->elapsed_days},
        {"failures", (double)p->failures, (double)q->failures},
        {"outages", (double)p->outages, (double)q->outages},
    };
    for (size_t i = 0; i < sizeof grow / sizeof grow[0]; i++)
        if (grow[i].now < grow[i].was)
            return tmc_error_set(err, "%s:%ld: progress.%s: %.10g is below line %ld's %.10g; "
                                      "a history is in time order and counts what was seen "
                                      "so far", path, b->line, grow[i].key, grow[i].now,
                                 a->line, grow[i].was);
    return 0;
}

/* Every line of text (modified: each newline becomes a NUL) into out[max]. */
static int read_lines(tmc_experiment *x, char *text, const char *path,
                      tmc_observed_snapshot *out, int *n, tmc_error *err)
{
    long no = 0;
    *n = 0;
    for (char *line = text; line; ) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        size_t len = strlen(line);
        if (len && line[len - 1] == '\r') /* CRLF */
            line[len - 1] = '\0';
        no++;
        if (!blank(line)) {
            if (*n == TMC_PROGRESS_MAX_SNAPSHOTS)
                return tmc_error_set(err, "%s:%ld: more than %d snapshots; at most %d", path,
                                     no, TMC_PROGRESS_MAX_SNAPSHOTS,
                                     TMC_PROGRESS_MAX_SNAPSHOTS);
            if (read_line(x, line, path, no, &out[(*n)++], err) ||
                (*n > 1 && out_of_order(&out[*n - 2], &out[*n - 1], path, err)))
                return -1;
        }
        line = next;
    }
    if (*n == 0)
        return tmc_error_set(err, "%s: no snapshot: expected one JSON object a line (the "
                                  "keys of the progress section)", path);
    return 0;
}

int tmc_observed_input_read_history(tmc_experiment *base, const char *path,
                                    tmc_observed_snapshot **out, int *n, tmc_error *err)
{
    char *text = NULL;
    *out = NULL;
    *n = 0;
    if (tmc_cfg_read_text(path, &text, err))
        return -1;
    /* each line is checked on a view of base (its progress section alone
     * changes), never released */
    tmc_experiment x = *base;
    tmc_observed_snapshot *snaps = malloc(TMC_PROGRESS_MAX_SNAPSHOTS * sizeof *snaps);
    int rc = snaps ? read_lines(&x, text, path, snaps, n, err)
                   : tmc_error_set(err, "%s: out of memory", path);
    free(text);
    if (rc || tmc_cfg_note_input(base, path, err)) {
        free(snaps);
        *n = 0;
        return -1;
    }
    *out = snaps;
    return 0;
}
