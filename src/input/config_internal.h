/* config_internal.h - what the config*.c files share; private to src/input.
 *
 * The loader is driven by one table (config_fields.c): a `section` per JSON
 * section, a `field` per key. config.c reads the experiment and applies the
 * overrides; the readers walk the table: config_sections.c reads a section
 * (inline, absent or a file), config_json.c its keys, config_causes.c and
 * config_trace.c the keys that hold an array or a file; config_files.c reads
 * every file, config_messages.c words what a message shows; config_checks.c
 * then checks what spans keys, and config_to_json.c writes the table back.
 *
 * Invariants every reader keeps: it returns 0, or -1 with err->msg set to one
 * message "FILE: PATH: problem" whose PATH is the JSON path of the value
 * (e.g. "failures.causes[1].share"), or "FILE:LINE..." for a file's own
 * syntax; every lookup of a key is case-sensitive; every file read is
 * recorded in tmc_experiment.inputs (tmc_cfg_note_input). */
#ifndef TMC_CONFIG_INTERNAL_H
#define TMC_CONFIG_INTERNAL_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "config.h"

/* ---------- the validation table (config_fields.c) ---------- */

typedef enum { T_NUM, T_INT, T_U64, T_STR, T_ENUM, T_CAUSES, T_TRACE, T_BOOL,
               T_WEIGHTS /* an array of numbers in [lo, hi]: an int count at off, then
                            TMC_MAX_BURST_NODES doubles (failures.burst_weights) */ } ftype;

/* One key. A numeric key's range is [lo, hi], or (lo, hi] with lo_open;
 * an absent optional key takes def (a choice: choices[0]; a boolean:
 * def != 0). */
typedef struct {
    const char *key;
    ftype type;
    double lo, hi;
    int lo_open;   /* bound lo excluded */
    int required;
    int def_unset; /* def lies outside [lo, hi] on purpose: absent means "not
                      given", and the help says what that does */
    double def;    /* default when absent and not required */
    const char *const *choices; /* T_ENUM: NULL-terminated */
    const char *unit; /* "s", "days", "cards", ...; "" dimensionless or text */
    const char *help; /* one line, what the key means */
    const char *alternative; /* the key of this section given instead of this one,
                                never with it; an override of either removes
                                the other (config_overrides.c) */
    size_t off;    /* offset of the field inside its section struct */
} field;

typedef struct {
    const char *name;
    const field *fields;
    size_t n_fields;    /* at most TMC_CFG_MAX_FIELDS */
    size_t off;         /* offset of the section struct in tmc_experiment */
    int required;
    int nullable;       /* null or absent turns the process off */
    ptrdiff_t enabled;  /* offset of `enabled` in the section, or -1 */
    const char *file_kind; /* a string value names a file of this kind, or NULL */
} section;

#define TMC_CFG_N_SECTIONS 24
#define TMC_CFG_MAX_FIELDS 48

/* In the order of the document's keys (after name, source, description),
 * which is the order "valid keys: ..." lists them. */
extern const section *const tmc_cfg_sections; /* TMC_CFG_N_SECTIONS of them */
extern const section tmc_cfg_cause; /* one object of failures.causes */
extern const section tmc_cfg_top;   /* the document's own keys: name, source, ..., base
                                       (name ""; its rows hold no offsets) */

/* The section named `name`, or NULL. */
const section *tmc_cfg_find_section(const char *name);

/* The row of `key` in section `section` ("cause": a failures.causes
 * object), or NULL: how a message that spans keys states a key's bounds or
 * choices without writing them again. */
const field *tmc_cfg_find_field(const char *section, const char *key);

/* read_trace finds a section's trace_days (a pointer) from its n_trace: the
 * same layout in every section that has a trace (checked in config_fields.c). */
#define TMC_CFG_TRACE_GAP(st) (offsetof(st, trace_days) - offsetof(st, n_trace))

/* cJSON_HasObjectItem matches keys case-insensitively: "job.Cards" would
 * find "cards" yet a case-sensitive replace would miss it (issue 13). Every
 * lookup here is case-sensitive. */
static inline int tmc_cfg_has_key(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key) != NULL;
}

/* ---------- how messages show values (config_messages.c) ---------- */

/* A value as a message shows it: "the string \"48\"", "the number 3", "true",
 * or its type for null, arrays and objects. Returned by value so a call can
 * pass tmc_cfg_value_text(v).s straight to printf. */
typedef struct {
    char s[96];
} vtext;

vtext tmc_cfg_value_text(const cJSON *v);
const char *tmc_cfg_type_name(const cJSON *v); /* "null", "an array", ... */

/* A value as a message shows it: integers in full up to 2^53 (so a seed's
 * bound and value are told apart), anything else to 10 digits. */
typedef struct {
    char s[40];
} numtext;

numtext tmc_cfg_number_text(const field *f, double x);
void tmc_cfg_describe_range(const field *f, char *buf, size_t n); /* "a number in (0, 1]" */

/* The range of key `key` of `section` as tmc_cfg_describe_range words it;
 * by value, for a message that names another key's range. */
typedef struct {
    char s[100]; /* "an integer in [", two numtexts, ", " and "]" */
} rangetext;

rangetext tmc_cfg_range_of(const char *section, const char *key);
void tmc_cfg_join_choices(const field *f, char *list, size_t n);  /* "a, b, c" */

/* "LABEL: PREFIXKEY: unknown key (did you mean 'y'?); valid keys: a, b, c";
 * returns -1. */
int tmc_cfg_unknown_key(tmc_error *err, const char *label, const char *prefix,
                        const char *key, const char *const *valid, size_t n_valid);

/* ---------- JSON text and values (config_json.c) ---------- */

/* Parse a JSON object; NULL with "LABEL:LINE:COL: invalid JSON near ..." on a
 * syntax error, or a message for an empty file or a non-object. */
cJSON *tmc_cfg_parse_object(const char *text, const char *label, tmc_error *err);

/* -1 with err "LABEL:LINE:COL: PATH: a NUL character (\u0000) in a string
 * ..." when JSON text holds the escape \u0000 inside a string (a key or a
 * value): cJSON decodes it to a NUL byte and every C string reader would
 * silently cut the text there (issue 33 item 4). PATH is the JSON path of
 * the string ("name", "failures.causes[1].name", a key's own path); 0 when
 * there is none. Every JSON text the loader parses passes here first. */
int tmc_cfg_refuse_nul(const char *text, const char *label, tmc_error *err);

/* Reject keys not in `valid` and keys given twice; `prefix` ("job.") leads
 * each key's path in messages. */
int tmc_cfg_check_keys(const cJSON *obj, const char *label, const char *prefix,
                       const char *const *valid, size_t n_valid, tmc_error *err);

/* Every field of `s` from `obj` into the section struct at `base`; files
 * read for a trace are recorded in rec (may be NULL). A trace's relative
 * file name starts from `dir` (NULL: the folder of `label`, the file the
 * section was read from). */
int tmc_cfg_read_fields(const section *s, const cJSON *obj, const char *label,
                        const char *dir, const char *prefix, char *base, tmc_experiment *rec,
                        tmc_error *err);

/* A string key: required ones must not be empty; dst may be NULL to only
 * check it (dst[n] otherwise, n bytes with the terminator). */
int tmc_cfg_read_string(const cJSON *obj, const char *key, int required, char *dst,
                        size_t n, const char *label, tmc_error *err);

/* The same, naming the key by its whole JSON path in messages (a key
 * inside an array: "failures.causes[0].name"). */
int tmc_cfg_read_string_at(const cJSON *obj, const char *key, const char *path, int required,
                           char *dst, size_t n, const char *label, tmc_error *err);

/* ---------- files (config_files.c) ---------- */

/* The whole of a small regular text file, NUL-terminated; caller frees. */
int tmc_cfg_read_text(const char *path, char **text, tmc_error *err);

/* out[n] = rel resolved against base_dir; -1 if it does not fit. */
int tmc_cfg_join_path(const char *base_dir, const char *rel, char *out, size_t n);

/* dir[TMC_PATH_MAX] = the folder of `path` (which fits): "" when it has no
 * slash, so relative paths stay as given; "/" for a file in the root. */
void tmc_cfg_folder_of(const char *path, char *dir);

/* Remember a file the experiment was read from, so that no output can
 * overwrite it (tmc_experiment.inputs); rec may be NULL. 0, or -1 with err
 * (out of memory). */
int tmc_cfg_note_input(tmc_experiment *rec, const char *path, tmc_error *err);

/* ---------- base: an experiment built on another (config_base.c) ---------- */

/* The document root (of the file `label`, in folder base_dir) with its
 * "base" resolved: the base file (relative to base_dir), itself resolved the
 * same way, under root's keys (objects merged key by key, any other value
 * replacing the base's whole); relative file names written in a base are
 * rewritten relative to base_dir. "base" is removed from root. Each base
 * file's path is recorded in rec->bases and rec->inputs; *own gets an array
 * of each file's own keys, root's first, for tmc_cfg_base_note (NULL when
 * root has no base; the caller deletes it). 0, or -1 with err
 * "FILE: base: problem", FILE the file that names the base. */
int tmc_cfg_base_merge(cJSON *root, const char *label, const char *base_dir,
                       tmc_experiment *rec, cJSON **own, tmc_error *err);

/* A validation message "LABEL: PATH: ..." about a document merged from
 * bases becomes "LABEL (base B1, B2): PATH (from Bi): ...": the chain, and
 * the base the value at PATH came from when not LABEL itself. `own` is what
 * tmc_cfg_base_merge left in *own: each file's own keys, LABEL's first
 * (NULL: no base, err unchanged). `overridden`: an override set the value
 * (the message says so), so no file gave it. */
void tmc_cfg_base_note(tmc_error *err, const char *label, const tmc_experiment *x,
                       const cJSON *own, int overridden);

/* ---------- sections (config_sections.c) ---------- */

/* Section `s` of the document `root` into *out: an object, null or absent
 * (off, or defaults), or the path of a file of s->file_kind. */
int tmc_cfg_read_section(const section *s, const cJSON *root, const char *label,
                         const char *base_dir, tmc_experiment *out, tmc_error *err);

/* out->stated |= the TMC_STATED_* bit of the key an override ("KEY=VALUE")
 * sets: "outages=null" removes the key from the document, yet states it. */
void tmc_cfg_note_stated_override(const char *override, tmc_experiment *out);

/* Read and parse the section file `rel` (a `kind`: "distribution file",
 * "model file"), named relative to base_dir by `referrer` ("FILE: SECTION",
 * which prefixes a failure to read it); its resolved path goes to path[n].
 * NULL with err set on failure. */
cJSON *tmc_cfg_load_section_file(const char *rel, const char *kind, const char *base_dir,
                                 const char *referrer, char *path, size_t n,
                                 tmc_experiment *rec, tmc_error *err);

/* ---------- special fields ---------- */

/* failures.causes (config_causes.c): n_causes at `at`, the causes after it. */
int tmc_cfg_read_causes(const cJSON *v, const char *label, const char *path, void *at,
                        tmc_error *err);

/* A trace (config_trace.c): the CSV file named by v (relative to `dir`, or
 * with dir NULL to label's folder) into n_trace at `at` and the trace_days
 * after it. */
int tmc_cfg_read_trace(const cJSON *v, const char *label, const char *dir, const char *path,
                       void *at, tmc_experiment *rec, tmc_error *err);

/* ---------- overrides (config_overrides.c) ---------- */

/* The bytes x's overrides take, a NUL after each: with the next one's, at
 * most TMC_OVERRIDES_BYTES. */
size_t tmc_cfg_overrides_bytes(const tmc_experiment *x);

/* Apply "KEY=VALUE" to the document root before validation (KEY's parts may
 * index a list: "failures.causes[1].share"; VALUE null removes), recording
 * it in rec->overrides, then the alternative it removed as "KEY=null".
 * 0, or -1 with err "--set SPEC: problem". */
int tmc_cfg_apply_override(cJSON *root, const char *spec, const char *base_dir,
                           tmc_experiment *rec, tmc_error *err);

/* ---------- checks across keys (config_checks.c) ---------- */

/* What one key's range cannot say: run once every section is read. */
/* config_interval.c: checkpoint.interval_s given as "young" or "daly". Read
 * the name from the document into *rule (GIVEN when a number or absent) and
 * put a placeholder number in its place. 0, or -1 with err (another
 * string). */
int tmc_cfg_interval_read(cJSON *root, const char *label, tmc_interval_rule *rule,
                          tmc_error *err);

/* Once every section is read: interval_s = the closed form's optimum for
 * x (the whole run when nothing interrupts it), and the rule recorded. */
void tmc_cfg_interval_resolve(tmc_experiment *x, tmc_interval_rule rule);

int tmc_cfg_check_all(const cJSON *root, const tmc_experiment *x, const char *label,
                      tmc_error *err);

/* The elastic section against the rest (config_elastic.c): G divides the
 * cards, min_groups <= G, and the features it cannot be combined with. */
int tmc_cfg_check_elastic(const tmc_experiment *x, const char *label, tmc_error *err);
/* config_progress.c: the progress section's own consistency and what a
 * forecast cannot start from. 0, or -1 with err set. */
int tmc_cfg_check_progress(const tmc_experiment *x, const char *label, tmc_error *err);

/* Bad nodes (failures.bad_node_*, config_bad_nodes.c): a share needs the
 * node's size, a bad node's MTBF and exponential lifetimes, and is not for
 * a forecast or elastic groups. 0, or -1 with err. */
int tmc_cfg_check_bad_nodes(const tmc_experiment *x, const char *label, tmc_error *err);

/* failures.burst_* (config_bursts.c). */
int tmc_cfg_check_bursts(const tmc_experiment *x, const char *label, tmc_error *err);

/* config_window.c: what a calendar window cannot be combined with. 0, or -1
 * with err set. */
int tmc_cfg_check_window(const tmc_experiment *x, const char *label, tmc_error *err);

/* Two levels of snapshots (checkpoint.persistent_every > 1, config_levels.c):
 * the local keys only with them, a local snapshot no dearer than a
 * persistent one, and what they cannot be combined with. 0 or -1 with err. */
int tmc_cfg_check_levels(const tmc_experiment *x, const char *label, tmc_error *err);

#endif
