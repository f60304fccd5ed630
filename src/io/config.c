/* config.c - experiment loading: one validation table, errors with location.
 *
 * Invariant: tmc_config_parse either fills *out completely from a document
 * whose every key is known and every value in range, or returns -1 with one
 * message and leaves *out unspecified. */
#include "config.h"

#include <cjson/cJSON.h>
#include <gsl/gsl_errno.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE_BYTES (1L << 20) /* an experiment is a few hundred bytes */
#define MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact in a JSON number */

typedef enum { T_NUM, T_INT, T_U64, T_STR, T_ENUM, T_CAUSES, T_TRACE } ftype;

typedef struct {
    const char *key;
    ftype type;
    double lo, hi;
    int lo_open;  /* bound lo excluded */
    int required;
    double def;   /* default when absent and not required */
    size_t off;   /* offset of the field inside its section struct */
    const char *const *choices; /* T_ENUM: NULL-terminated */
} field;

typedef struct {
    const char *name;
    const field *fields;
    size_t n_fields;
    size_t off;         /* offset of the section struct in tmc_experiment */
    int required;
    int nullable;       /* null or absent turns the process off */
    ptrdiff_t enabled;  /* offset of `enabled` in the section, or -1 */
    const char *file_kind; /* a string value names a file of this kind, or NULL */
} section;

#define NUM(k, lo, hi, open, req, def, st, m) {k, T_NUM, lo, hi, open, req, def, offsetof(st, m), NULL}
#define INT(k, lo, hi, req, def, st, m) {k, T_INT, lo, hi, 0, req, def, offsetof(st, m), NULL}
#define TEXT(k) {k, T_STR, 0, 0, 0, 0, 0, 0, NULL}

/* cJSON_HasObjectItem matches keys case-insensitively: "job.Cards" would
 * find "cards" yet a case-sensitive replace would miss it (issue 13). Every
 * lookup here is case-sensitive. */
static int has_key(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key) != NULL;
}

static const field job_fields[] = {
    INT("steps", 1, 1e9, 1, 0, tmc_job, steps),
    INT("cards", 1, 1e7, 1, 0, tmc_job, cards),
    NUM("flop_per_step", 0, 1e30, 1, 1, 0, tmc_job, flop_per_step),
    NUM("peak_flops", 0, 1e20, 1, 1, 0, tmc_job, peak_flops),
    NUM("efficiency", 0, 1, 1, 1, 0, tmc_job, efficiency),
    NUM("exposed_comm_s", 0, 86400, 0, 0, 0, tmc_job, exposed_comm_s),
    NUM("input_wait_s", 0, 86400, 0, 0, 0, tmc_job, input_wait_s),
};

static const char *const jitter_choices[] = {"normal", "lognormal", "gamma", NULL};
static const field jitter_fields[] = {
    {"distribution", T_ENUM, 0, 0, 0, 1, 0, offsetof(tmc_jitter, kind), jitter_choices},
    /* normal: at most 0.2, checked in check_jitter */
    NUM("cv", 0, 2, 0, 1, 0, tmc_jitter, cv),
    NUM("correlation", 0, 1, 0, 0, 0, tmc_jitter, rho),
    TEXT("source"), TEXT("description"),
};

static const char *const failure_choices[] = {"exponential", "weibull", "lognormal", "trace",
                                              NULL};
static const char *const repair_choices[] = {"exponential", "fixed", NULL};
static const field failure_fields[] = {
    {"distribution", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failures, distribution),
     failure_choices},
    /* required unless distribution is "trace": checked in check_failures */
    NUM("per_card_mtbf_days", 0, 1e9, 1, 0, 0, tmc_failures, per_card_mtbf_days),
    NUM("shape", 0.05, 20, 0, 0, 1, tmc_failures, shape),
    NUM("lifetime_cv", 0.01, 20, 0, 0, 1, tmc_failures, lifetime_cv),
    INT("spares", -1, 1e6, 0, -1, tmc_failures, spares),
    NUM("repair_mean_hours", 0, 1e6, 0, 0, 24, tmc_failures, repair_mean_hours),
    {"repair_distribution", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failures, repair_distribution),
     repair_choices},
    {"causes", T_CAUSES, 0, 0, 0, 0, 0, offsetof(tmc_failures, n_causes), NULL},
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_failures, n_trace), NULL},
    TEXT("source"), TEXT("description"),
};

static const field cause_fields[] = {
    {"name", T_STR, 0, 0, 0, 1, 0, 0, NULL},
    NUM("share", 0, 1, 1, 1, 0, tmc_failure_cause, share),
    NUM("detection_s", 0, 1e7, 0, 0, 0, tmc_failure_cause, detection_s),
    NUM("restore_s", 0, 1e7, 0, 0, -1, tmc_failure_cause, restore_s),
};

static const char *const save_choices[] = {"sync", "async", NULL};
static const field checkpoint_fields[] = {
    NUM("interval_s", 0, 1e9, 1, 0, 0, tmc_checkpoint, interval_s),
    INT("interval_steps", 1, 1e9, 0, 0, tmc_checkpoint, interval_steps),
    NUM("save_s", 0, 1e7, 0, 1, 0, tmc_checkpoint, save_s),
    NUM("restore_s", 0, 1e7, 0, 1, 0, tmc_checkpoint, restore_s),
    {"mode", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_checkpoint, mode), save_choices},
    NUM("write_s", 0, 1e7, 0, 0, 0, tmc_checkpoint, write_s),
};

/* mean_interval_days is required unless a trace replays the times: checked
 * in check_replayed. */
static const field outage_fields[] = {
    NUM("mean_interval_days", 0, 1e9, 1, 0, 0, tmc_outages, mean_interval_days),
    NUM("downtime_s", 0, 1e7, 0, 0, 0, tmc_outages, downtime_s),
    NUM("downtime_cv", 0, 20, 0, 0, 0, tmc_outages, downtime_cv),
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_outages, n_trace), NULL},
};

static const field spike_fields[] = {
    NUM("mean_interval_days", 0, 1e9, 1, 0, 0, tmc_loss_spikes, mean_interval_days),
    INT("rollback_snapshots", 1, TMC_MAX_ROLLBACK, 0, 1, tmc_loss_spikes, rollback_snapshots),
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_loss_spikes, n_trace), NULL},
};

/* read_trace finds a section's trace_days from its n_trace: the same layout
 * in every section that has a trace. */
#define TRACE_GAP(st) (offsetof(st, trace_days) - offsetof(st, n_trace))
_Static_assert(TRACE_GAP(tmc_outages) == TRACE_GAP(tmc_failures) &&
               TRACE_GAP(tmc_loss_spikes) == TRACE_GAP(tmc_failures),
               "n_trace and trace_days laid out alike");

static const field slow_fields[] = {
    NUM("fraction", 0, 1, 0, 1, 0, tmc_slow_cards, fraction),
    NUM("factor", 1, 100, 0, 1, 0, tmc_slow_cards, factor),
    INT("detect_after_steps", 0, 1e9, 0, 0, tmc_slow_cards, detect_after_steps),
    NUM("eviction_restore_s", 0, 1e7, 0, 0, -1, tmc_slow_cards, eviction_restore_s),
};

static const char *const pause_choices[] = {"all", "one", NULL};
static const field pause_fields[] = {
    INT("every_steps", 1, 1e9, 1, 0, tmc_pauses, every_steps),
    NUM("duration_s", 0, 1e7, 1, 1, 0, tmc_pauses, duration_s),
    {"cards", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_pauses, cards), pause_choices},
};

static const field deadline_fields[] = {
    NUM("days", 0, 1e6, 1, 1, 0, tmc_deadline, days),
    NUM("reserve_days", 0, 1e6, 0, 0, 0, tmc_deadline, reserve_days),
};

static const char *const mode_choices[] = {"auto", "exact", "aggregated", NULL};
static const field mc_fields[] = {
    INT("replicas", 1, 1e9, 0, 10000, tmc_monte_carlo, replicas),
    {"seed", T_U64, 0, MAX_SEED, 0, 0, 1, offsetof(tmc_monte_carlo, seed), NULL},
    {"mode", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_monte_carlo, mode), mode_choices},
    NUM("horizon_days", 0, 1e9, 0, 0, 0, tmc_monte_carlo, horizon_days),
};

/* The sections below feed only `trainmc plan`; defaults are MODEL.md 1's. */
static const field model_fields[] = {
    INT("parameters", 1, 1e15, 1, 0, tmc_model, parameters),
    NUM("flop_per_sequence", 0, 1e30, 1, 1, 0, tmc_model, flop_per_sequence),
    INT("sequence_tokens", 1, 1e9, 1, 0, tmc_model, sequence_tokens),
    NUM("weights_bytes_per_param", 0, 64, 1, 0, 2, tmc_model, weights_bytes_per_param),
    NUM("grads_bytes_per_param", 0, 64, 1, 0, 2, tmc_model, grads_bytes_per_param),
    NUM("master_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, master_bytes_per_param),
    NUM("adam_m_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, adam_m_bytes_per_param),
    NUM("adam_v_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, adam_v_bytes_per_param),
    TEXT("source"), TEXT("description"),
};

static const char *const reuse_choices[] = {"together", "reused", NULL};
static const field memory_fields[] = {
    NUM("usable_gib", 0, 1e6, 1, 1, 0, tmc_memory, usable_gib),
    INT("zero_stage", 0, 3, 0, 3, tmc_memory, zero_stage),
    NUM("activations_gib", 0, 1e6, 0, 0, 0, tmc_memory, activations_gib),
    NUM("buffer_gib", 0, 1e6, 0, 0, 0, tmc_memory, buffer_gib),
    INT("buffer_count", 0, 1e6, 0, 1, tmc_memory, buffer_count),
    {"buffer_reuse", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_memory, buffers_reused), reuse_choices},
};

static const field interconnect_fields[] = {
    NUM("link_gb_per_s", 0, 1e9, 1, 1, 0, tmc_interconnect, link_gb_per_s),
};

static const field storage_fields[] = {
    NUM("write_gb_per_s", 0, 1e9, 1, 1, 0, tmc_storage, write_gb_per_s),
};

static const field input_fields[] = {
    INT("processes", 1, 1e6, 1, 0, tmc_input_pipeline, processes),
    NUM("process_sequences_per_s", 0, 1e9, 1, 1, 0, tmc_input_pipeline, process_sequences_per_s),
    INT("paused_processes", 0, 1e6, 0, 1, tmc_input_pipeline, paused_processes),
    NUM("pause_s", 0, 1e9, 0, 1, 0, tmc_input_pipeline, pause_s),
};

static const field batch_fields[] = {
    INT("sequences", 1, 1e9, 1, 0, tmc_batch, sequences),
    NUM("train_tokens", 0, 1e18, 1, 1, 0, tmc_batch, train_tokens),
};

static const field critical_batch_fields[] = {
    NUM("noise_scale_tokens", 0, 1e18, 1, 1, 0, tmc_critical_batch, noise_scale_tokens),
    INT("scale_to_cards", 1, 1e7, 1, 0, tmc_critical_batch, scale_to_cards),
};

static const field scale_up_fields[] = {
    NUM("parameters", 0, 1e18, 1, 1, 0, tmc_scale_up, parameters),
    NUM("tokens", 0, 1e18, 1, 1, 0, tmc_scale_up, tokens),
    INT("cards", 1, 1e9, 1, 0, tmc_scale_up, cards),
    NUM("efficiency", 0, 1, 1, 1, 0, tmc_scale_up, efficiency),
    NUM("deadline_days", 0, 1e6, 1, 1, 0, tmc_scale_up, deadline_days),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SEC(nm, f, m, req, nul, en, file) \
    {nm, f, N(f), offsetof(tmc_experiment, m), req, nul, en, file}
#define DIST "distribution file"
/* An optional plan section: null or absent turns it off. */
#define PLAN(nm, f, m, st, file) SEC(nm, f, m, 0, 1, offsetof(st, enabled), file)

static const section sections[] = {
    SEC("job", job_fields, job, 1, 0, -1, NULL),
    SEC("jitter", jitter_fields, jitter, 0, 1, -1, DIST),
    SEC("failures", failure_fields, failures, 0, 1, offsetof(tmc_failures, enabled), DIST),
    SEC("checkpoint", checkpoint_fields, checkpoint, 1, 0, -1, NULL),
    SEC("outages", outage_fields, outages, 0, 1, offsetof(tmc_outages, enabled), NULL),
    SEC("loss_spikes", spike_fields, loss_spikes, 0, 1, offsetof(tmc_loss_spikes, enabled), NULL),
    SEC("pauses", pause_fields, pauses, 0, 1, offsetof(tmc_pauses, enabled), NULL),
    SEC("slow_cards", slow_fields, slow_cards, 0, 1, offsetof(tmc_slow_cards, enabled), NULL),
    SEC("deadline", deadline_fields, deadline, 1, 0, -1, NULL),
    SEC("monte_carlo", mc_fields, monte_carlo, 0, 0, -1, NULL),
    PLAN("model", model_fields, model, tmc_model, "model file"),
    PLAN("memory", memory_fields, memory, tmc_memory, NULL),
    PLAN("interconnect", interconnect_fields, interconnect, tmc_interconnect, NULL),
    PLAN("storage", storage_fields, storage, tmc_storage, NULL),
    PLAN("input_pipeline", input_fields, input_pipeline, tmc_input_pipeline, NULL),
    PLAN("batch", batch_fields, batch, tmc_batch, NULL),
    PLAN("critical_batch", critical_batch_fields, critical_batch, tmc_critical_batch, NULL),
    PLAN("scale_up", scale_up_fields, scale_up, tmc_scale_up, NULL),
};

static const char *const top_keys[] = {"name", "source", "description", "job", "jitter",
                                       "failures", "checkpoint", "outages", "loss_spikes",
                                       "pauses", "slow_cards", "deadline", "monte_carlo", "model", "memory",
                                       "interconnect", "storage", "input_pipeline", "batch",
                                       "critical_batch", "scale_up", NULL};

/* ---------- messages ---------- */

static const char *type_name(const cJSON *v)
{
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsArray(v)) return "an array";
    return "an object";
}

/* A value as a message shows it: "the string \"48\"", "the number 3", "true",
 * or its type for null, arrays and objects. Returned by value so a call can
 * pass value_text(v).s straight to printf. */
typedef struct {
    char s[96];
} vtext;

static vtext value_text(const cJSON *v)
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
        snprintf(t.s, sizeof t.s, "%s", type_name(v));
    return t;
}

/* A value as a message shows it: integers in full up to 2^53 (so a seed's
 * bound and value are told apart), anything else to 10 digits. */
typedef struct {
    char s[40];
} numtext;

static numtext number_text(const field *f, double x)
{
    numtext t;
    if (f->type != T_NUM && fabs(x) < 1e16 && x == floor(x))
        snprintf(t.s, sizeof t.s, "%.0f", x);
    else
        snprintf(t.s, sizeof t.s, "%.10g", x);
    return t;
}

static void describe_range(const field *f, char *buf, size_t n)
{
    const char *what = f->type == T_NUM ? "a number" : "an integer";
    snprintf(buf, n, "%s in %c%s, %s]", what, f->lo_open ? '(' : '[',
             number_text(f, f->lo).s, number_text(f, f->hi).s);
}

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
static int unknown_key(tmc_error *err, const char *label, const char *prefix,
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

/* Reject keys not in `valid` and keys given twice. */
static int check_keys(const cJSON *obj, const char *label, const char *prefix,
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
            return unknown_key(err, label, prefix, c->string, valid, n_valid);
    }
    return 0;
}

/* ---------- one field ---------- */

static int read_number(const field *f, const cJSON *v, const char *label,
                       const char *path, double *x, tmc_error *err)
{
    char range[128];
    describe_range(f, range, sizeof range);
    if (!cJSON_IsNumber(v))
        return tmc_error_set(err, "%s: %s: expected %s, got %s", label, path, range,
                             value_text(v).s);
    *x = v->valuedouble;
    if (!isfinite(*x)) /* JSON has no inf or nan: only a huge literal gets here */
        return tmc_error_set(err, "%s: %s: number beyond the range of a double (it reads "
                                  "as %g); expected %s", label, path, *x, range);
    if (f->type != T_NUM && *x != floor(*x))
        return tmc_error_set(err, "%s: %s: %.10g is not an integer; expected %s", label,
                             path, *x, range);
    if (*x < f->lo || (f->lo_open && *x == f->lo) || *x > f->hi)
        return tmc_error_set(err, "%s: %s: %s is out of range; expected %s", label, path,
                             number_text(f, *x).s, range);
    return 0;
}

static void join_choices(const field *f, char *list, size_t n)
{
    list[0] = '\0';
    for (int i = 0; f->choices[i]; i++) {
        strncat(list, i ? ", " : "", n - strlen(list) - 1);
        strncat(list, f->choices[i], n - strlen(list) - 1);
    }
}

static int read_enum(const field *f, const cJSON *v, const char *label, const char *path,
                     int *index, tmc_error *err)
{
    char list[256];
    join_choices(f, list, sizeof list);
    if (!cJSON_IsString(v))
        return tmc_error_set(err, "%s: %s: expected one of: %s; got %s", label, path, list,
                             value_text(v).s);
    for (int i = 0; f->choices[i]; i++)
        if (strcmp(v->valuestring, f->choices[i]) == 0)
            return *index = i, 0;
    return tmc_error_set(err, "%s: %s: '%s' is not one of: %s", label, path, v->valuestring,
                         list);
}

static int read_fields(const section *s, const cJSON *obj, const char *label,
                       const char *prefix, char *base, tmc_experiment *rec, tmc_error *err);
static int read_string(const cJSON *root, const char *key, int required, char *dst,
                       size_t n, const char *label, tmc_error *err);

/* failures.causes: an array of 1 to TMC_MAX_CAUSES cause objects whose
 * shares add to 1; n_causes is followed in memory by the causes array. */
static int read_causes(const cJSON *v, const char *label, const char *path, void *at,
                       tmc_error *err)
{
    static const section cause = {"cause", cause_fields, 4, 0, 1, 0, -1, NULL};
    int *n = at;
    tmc_failure_cause *c = (tmc_failure_cause *)(void *)((char *)at +
                           offsetof(tmc_failures, causes) - offsetof(tmc_failures, n_causes));
    int count = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (count < 1 || count > TMC_MAX_CAUSES)
        return tmc_error_set(err, "%s: %s: expected an array of 1 to %d cause objects, got %s",
                             label, path, TMC_MAX_CAUSES, value_text(v).s);
    double total = 0;
    for (int i = 0; i < count; i++) {
        const cJSON *o = cJSON_GetArrayItem(v, i);
        char prefix[300];
        snprintf(prefix, sizeof prefix, "%s[%d].", path, i);
        if (!cJSON_IsObject(o))
            return tmc_error_set(err, "%s: %s[%d]: expected an object, got %s", label, path,
                                 i, value_text(o).s);
        if (read_fields(&cause, o, label, prefix, (char *)&c[i], NULL, err) ||
            read_string(o, "name", 1, c[i].name, sizeof c[i].name, label, err))
            return -1;
        total += c[i].share;
    }
    if (fabs(total - 1) > 1e-6)
        return tmc_error_set(err, "%s: %s: the shares add to %.10g; they must add to 1",
                             label, path, total);
    *n = count;
    return 0;
}

static int read_text(const char *path, char **text, tmc_error *err);
static int join_path(const char *base_dir, const char *rel, char *out, size_t n);

/* A file named at `path` in `label` whose resolved path would not fit: an
 * error, never a truncated path that names another file (issue 13). */
static int path_too_long(const char *label, const char *path, const char *rel, tmc_error *err)
{
    return tmc_error_set(err, "%s: %s: the path '%.60s...' (%zu bytes) is too long once "
                              "resolved (at most %d bytes)", label, path, rel, strlen(rel),
                         TMC_PATH_MAX - 1);
}

/* Remember a file the experiment was read from, so that no output can
 * overwrite it (tmc_experiment.inputs). */
static void note_input(tmc_experiment *rec, const char *path)
{
    if (rec && rec->n_inputs < TMC_MAX_INPUTS)
        snprintf(rec->inputs[rec->n_inputs++], TMC_PATH_MAX, "%s", path);
}

/* One line of a trace: a time in days after the previous one. */
static int trace_line(const char *line, const char *file, int lineno, double prev,
                      double *t, tmc_error *err)
{
    char *end;
    *t = strtod(line, &end);
    while (*end == ' ' || *end == '\t' || *end == '\r')
        end++;
    /* decimal only: strtod would also take hexadecimal ("0x10" = 16 days) */
    if (end == line || *end != '\0' || !isfinite(*t) || strpbrk(line, "xXpP"))
        return tmc_error_set(err, "%s:%d: '%.40s' is not a number of days", file, lineno, line);
    if (!isfinite(*t * 86400.0)) /* the engine works in seconds */
        return tmc_error_set(err, "%s:%d: %.10g days is too large (at most %.6g)", file, lineno,
                             *t, DBL_MAX / 86400.0);
    if (*t <= prev)
        return prev == 0 ? tmc_error_set(err, "%s:%d: %.10g days is not after the job's start "
                                              "(0); times must be positive", file, lineno, *t)
                         : tmc_error_set(err, "%s:%d: %.10g days is not after the previous "
                                              "time (%.10g); times must increase", file,
                                         lineno, *t, prev);
    return 0;
}

/* failures.trace, outages.trace, loss_spikes.trace: a CSV file, named
 * relative to the file that names it, with the header time_days and one time
 * a line ('#' starts a comment). */
static int read_trace(const cJSON *v, const char *label, const char *path, void *at,
                      tmc_experiment *rec, tmc_error *err)
{
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return tmc_error_set(err, "%s: %s: expected a CSV file path, got %s", label, path,
                             value_text(v).s);
    char dir[TMC_PATH_MAX], file[TMC_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", label); /* label is a path that fits: checked */
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if (join_path(slash ? dir : "", v->valuestring, file, sizeof file))
        return path_too_long(label, path, v->valuestring, err);
    char *text;
    if (read_text(file, &text, err)) {
        char inner[sizeof err->msg];
        snprintf(inner, sizeof inner, "%s", err->msg);
        return tmc_error_set(err, "%.700s (the %s of %.200s)", inner, path, label);
    }
    note_input(rec, file);
    int *n = at, lineno = 0, rc = 0, header = 0;
    double *times = (double *)(void *)((char *)at + TRACE_GAP(tmc_failures));
    *n = 0;
    for (char *line = strtok(text, "\n"); line && !rc; line = strtok(NULL, "\n")) {
        lineno++; /* strtok skips empty lines: numbers count the non-empty ones */
        line[strcspn(line, "#\r")] = '\0';
        if (!line[strspn(line, " \t")])
            continue;
        if (!header) {
            header = 1;
            if (strncmp(line + strspn(line, " \t"), "time_days", 9) != 0)
                rc = tmc_error_set(err, "%s:%d: expected the header time_days", file, lineno);
            continue;
        }
        if (*n == TMC_MAX_TRACE)
            rc = tmc_error_set(err, "%s:%d: more than %d times", file, lineno, TMC_MAX_TRACE);
        else
            rc = trace_line(line, file, lineno, *n ? times[*n - 1] : 0, &times[*n], err),
            (*n) += !rc;
    }
    free(text);
    if (!rc && *n == 0)
        rc = tmc_error_set(err, "%s: no times after the header", file);
    if (rc) { /* say which key of which file named the trace */
        char inner[sizeof err->msg];
        snprintf(inner, sizeof inner, "%s", err->msg);
        tmc_error_set(err, "%.700s (the %s of %.200s)", inner, path, label);
    }
    return rc;
}

static int read_field(const field *f, const cJSON *obj, const char *label,
                      const char *prefix, char *base, tmc_experiment *rec, tmc_error *err)
{
    char path[256];
    snprintf(path, sizeof path, "%s%s", prefix, f->key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, f->key);
    if (f->type == T_STR) {
        if (v && !cJSON_IsString(v))
            return tmc_error_set(err, "%s: %s: expected a string, got %s", label, path,
                                 value_text(v).s);
        if (!v && f->required)
            return tmc_error_set(err, "%s: %s: missing required key (a string)", label, path);
        return 0;
    }
    if (f->type == T_CAUSES)
        return v ? read_causes(v, label, path, (void *)(base + f->off), err) : 0;
    if (f->type == T_TRACE)
        return v ? read_trace(v, label, path, (void *)(base + f->off), rec, err) : 0;
    if (!v && f->required) {
        char want[256] = "one of: ";
        if (f->type == T_ENUM)
            join_choices(f, want + strlen(want), sizeof want - strlen(want));
        else
            describe_range(f, want, sizeof want);
        return tmc_error_set(err, "%s: %s: missing required key (%s)", label, path, want);
    }
    if (f->type == T_ENUM) {
        int index = 0;
        if (v && read_enum(f, v, label, path, &index, err))
            return -1;
        if (f->off != (size_t)-1)
            *(int *)(void *)(base + f->off) = index;
        return 0;
    }
    double x = f->def;
    if (v && read_number(f, v, label, path, &x, err))
        return -1;
    if (f->type == T_NUM)
        *(double *)(void *)(base + f->off) = x;
    else if (f->type == T_INT)
        *(long *)(void *)(base + f->off) = (long)x;
    else
        *(uint64_t *)(void *)(base + f->off) = (uint64_t)x;
    return 0;
}

static int read_fields(const section *s, const cJSON *obj, const char *label,
                       const char *prefix, char *base, tmc_experiment *rec, tmc_error *err)
{
    const char *valid[16];
    for (size_t i = 0; i < s->n_fields; i++)
        valid[i] = s->fields[i].key;
    if (check_keys(obj, label, prefix, valid, s->n_fields, err))
        return -1;
    for (size_t i = 0; i < s->n_fields; i++)
        if (read_field(&s->fields[i], obj, label, prefix, base, rec, err))
            return -1;
    return 0;
}

/* 1 if s is valid UTF-8 without control characters (which would garble a
 * terminal or the JSON written back). */
static int printable_utf8(const unsigned char *s)
{
    while (*s) {
        int extra = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2
                  : (*s & 0xf8) == 0xf0 ? 3 : -1;
        if (extra < 0 || *s < 0x20 || *s == 0x7f || (extra == 1 && *s < 0xc2))
            return 0;
        for (s++; extra > 0; extra--, s++)
            if ((*s & 0xc0) != 0x80)
                return 0;
    }
    return 1;
}

/* A string key: required ones must not be empty; dst may be NULL to only
 * check it (dst[n] otherwise, n bytes with the terminator). */
static int read_string(const cJSON *root, const char *key, int required, char *dst,
                       size_t n, const char *label, tmc_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (dst)
        dst[0] = '\0';
    if (!v && !required)
        return 0;
    if (!v)
        return tmc_error_set(err, "%s: %s: missing required key (a string)", label, key);
    if (!cJSON_IsString(v))
        return tmc_error_set(err, "%s: %s: expected a string, got %s", label, key,
                             value_text(v).s);
    if (required && !v->valuestring[0])
        return tmc_error_set(err, "%s: %s: must not be empty", label, key);
    if (!printable_utf8((const unsigned char *)v->valuestring))
        return tmc_error_set(err, "%s: %s: not valid UTF-8 text, or holds control "
                                  "characters", label, key);
    if (dst && strlen(v->valuestring) >= n)
        return tmc_error_set(err, "%s: %s: longer than %zu bytes of UTF-8", label, key, n - 1);
    if (dst)
        snprintf(dst, n, "%s", v->valuestring);
    return 0;
}

/* ---------- files and JSON text ---------- */

static int read_text(const char *path, char **text, tmc_error *err)
{
    /* O_NONBLOCK: a FIFO must not block the open; only regular files pass */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fd < 0)
        return tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return tmc_error_set(err, "%s: not a regular file (a folder, device or pipe)", path);
    }
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        close(fd);
        return tmc_error_set(err, "%s: cannot open: %s", path, strerror(errno));
    }
    char *buf = malloc(MAX_FILE_BYTES + 1);
    errno = 0;
    size_t n = buf ? fread(buf, 1, MAX_FILE_BYTES + 1, fp) : 0;
    int bad = !buf || ferror(fp), cause = buf ? errno : ENOMEM;
    fclose(fp);
    if (bad) {
        free(buf);
        return tmc_error_set(err, "%s: cannot read: %s", path, strerror(cause));
    }
    if (n > MAX_FILE_BYTES) {
        free(buf);
        return tmc_error_set(err, "%s: file is larger than %ld bytes; an experiment, "
                                  "distribution or trace file is small text", path,
                             MAX_FILE_BYTES);
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return tmc_error_set(err, "%s: file contains a NUL byte; expected text (JSON or CSV)",
                             path);
    }
    *text = buf;
    return 0;
}

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
    /* up to 30 bytes of the rest of the line, cut between characters, shown
     * only as printable UTF-8 (anything else becomes '?') */
    char near[32];
    int n = (int)strcspn(end, "\r\n"), k0 = n > 30 ? 30 : n, k = k0;
    while (k > 0 && k < n && (end[k] & 0xC0) == 0x80)
        k--;
    if (k == 0) /* no character boundary: not text anyway */
        k = k0;
    memcpy(near, end, (size_t)k);
    near[k] = '\0';
    if (!printable_utf8((const unsigned char *)near))
        for (int i = 0; i < k; i++)
            if ((unsigned char)near[i] < 0x20 || (unsigned char)near[i] >= 0x7f)
                near[i] = '?';
    tmc_error_set(err, "%s:%d:%d: invalid JSON near '%s%s'", label, line, col, near,
                  k < n ? "..." : "");
}

/* Parse a JSON object; on a syntax error report where cJSON stopped, which
 * cJSON gives only as a pointer. */
static cJSON *parse_object(const char *text, const char *label, tmc_error *err)
{
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
                      type_name(root));
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* out[n] = rel resolved against base_dir; -1 if it does not fit. */
static int join_path(const char *base_dir, const char *rel, char *out, size_t n)
{
    int len;
    if (rel[0] == '/' || !base_dir || !base_dir[0])
        len = snprintf(out, n, "%s", rel);
    else
        len = snprintf(out, n, "%s%s%s", base_dir,
                       base_dir[strlen(base_dir) - 1] == '/' ? "" : "/", rel);
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* Read and parse the section file `rel` (a `kind`: "distribution file",
 * "model file"), named relative to base_dir by `referrer` ("FILE: SECTION",
 * which prefixes a failure to read it); its resolved path goes to path[n].
 * NULL with err set on failure. */
static cJSON *load_section_file(const char *rel, const char *kind, const char *base_dir,
                                const char *referrer, char *path, size_t n,
                                tmc_experiment *rec, tmc_error *err)
{
    if (join_path(base_dir, rel, path, n)) {
        tmc_error_set(err, "%s: the %s path '%.60s...' (%zu bytes) is too long once resolved "
                           "(at most %d bytes)", referrer, kind, rel, strlen(rel),
                      TMC_PATH_MAX - 1);
        return NULL;
    }
    note_input(rec, path);
    char *text = NULL;
    if (read_text(path, &text, err)) {
        char inner[sizeof err->msg];
        snprintf(inner, sizeof inner, "%s", err->msg);
        tmc_error_set(err, "%s: %s: %s", referrer, kind, inner);
        return NULL;
    }
    cJSON *root = parse_object(text, path, err);
    free(text);
    return root;
}

/* A section given as a string: load that file, which must hold a "source"
 * and the section's keys. */
static int read_section_file(const section *s, const char *rel, const char *label,
                             const char *base_dir, char *base, tmc_experiment *rec,
                             tmc_error *err)
{
    char path[TMC_PATH_MAX], referrer[TMC_PATH_MAX + 64];
    snprintf(referrer, sizeof referrer, "%s: %s", label, s->name);
    cJSON *root = load_section_file(rel, s->file_kind, base_dir, referrer, path, sizeof path,
                                    rec, err);
    if (!root)
        return -1;
    int rc = read_fields(s, root, path, "", base, rec, err);
    if (!rc && !has_key(root, "source"))
        rc = tmc_error_set(err, "%s: source: missing required key (a string citing "
                                "MODEL.md or a paper)", path);
    else if (!rc)
        rc = read_string(root, "source", 1, NULL, 0, path, err);
    cJSON_Delete(root);
    return rc;
}

static int read_section(const section *s, const cJSON *root, const char *label,
                        const char *base_dir, tmc_experiment *out, tmc_error *err)
{
    char *base = (char *)out + s->off;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, s->name);
    int off = !v || cJSON_IsNull(v);
    if (off && s->required)
        return tmc_error_set(err, "%s: %s: missing required section (an object)", label,
                             s->name);
    if (s->enabled >= 0)
        *(int *)(void *)(base + s->enabled) = !off;
    if (off && !s->nullable) {
        cJSON *empty = cJSON_CreateObject(); /* defaults only */
        int rc = read_fields(s, empty, label, "", base, out, err);
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
                             file, s->nullable ? " or null" : "", value_text(v).s);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s.", s->name);
    return read_fields(s, v, label, prefix, base, out, err);
}

static int check_checkpoint(const cJSON *root, const char *label, tmc_error *err)
{
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(root, "checkpoint");
    int has_s = has_key(cp, "interval_s");
    int has_steps = has_key(cp, "interval_steps");
    if (has_s == has_steps)
        return tmc_error_set(err, "%s: checkpoint: give exactly one of interval_s "
                                  "(seconds, > 0) or interval_steps (steps, >= 1)%s",
                             label, has_s ? "; both are set" : "; neither is set");
    return 0;
}

/* A pause cannot stop more preparation processes than there are. */
static int check_input_pipeline(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_input_pipeline *in = &x->input_pipeline;
    if (in->enabled && in->paused_processes > in->processes)
        return tmc_error_set(err, "%s: input_pipeline.paused_processes: %ld is more than "
                                  "input_pipeline.processes (%ld)",
                             label, in->paused_processes, in->processes);
    return 0;
}

/* The reserve is part of the deadline, so it must be shorter; a censoring
 * horizon must lie past the deadline. */
/* A failure law needs its mean lifetime, and a trace its file. */
static int check_failures(const tmc_failures *f, const char *label, tmc_error *err)
{
    if (!f->enabled)
        return 0;
    int trace = f->distribution == TMC_LIFETIME_TRACE;
    if (!trace && f->per_card_mtbf_days == 0)
        return tmc_error_set(err, "%s: failures.per_card_mtbf_days: missing required key "
                                  "(a number in (0, 1000000000])", label);
    if (trace && f->n_trace == 0)
        return tmc_error_set(err, "%s: failures.trace: missing required key (a CSV file of "
                                  "failure times, for distribution trace)", label);
    return 0;
}

/* An outage or spike process needs its mean interval or a trace, not both. */
static int check_replayed(const char *name, int enabled, double mean_days, int n_trace,
                          const char *label, tmc_error *err)
{
    if (!enabled)
        return 0;
    if (n_trace > 0 && mean_days > 0)
        return tmc_error_set(err, "%s: %s.trace: given with %s.mean_interval_days; a trace "
                                  "replays the times, so give one of the two", label, name, name);
    if (n_trace == 0 && mean_days == 0)
        return tmc_error_set(err, "%s: %s.mean_interval_days: missing required key (a number "
                                  "in (0, 1000000000], or a trace)", label, name);
    return 0;
}

/* Normal jitter beyond cv 0.2 gives negative compute times (P = Phi(-1/cv)
 * per card: 3e-7 at 0.2): heavier spreads need lognormal or gamma. A common
 * per-step part is defined for the normal only. */
static int check_jitter(const tmc_jitter *j, const char *label, tmc_error *err)
{
    if (j->kind == TMC_JITTER_NORMAL && j->cv > 0.2)
        return tmc_error_set(err, "%s: jitter.cv: %.10g is out of range for a normal; "
                                  "expected a number in [0, 0.2] (a wider spread would "
                                  "give negative compute times: use lognormal or gamma)",
                             label, j->cv);
    if (j->cv > 0 && j->cv < 1e-6)
        return tmc_error_set(err, "%s: jitter.cv: %.10g is below 1e-6, too small a spread to "
                                  "compute (its effect is below every printed digit); give 0 "
                                  "for no jitter", label, j->cv);
    if (j->kind != TMC_JITTER_NORMAL && j->rho > 0)
        return tmc_error_set(err, "%s: jitter.correlation: %.10g is given for a %s; a "
                                  "common per-step part is defined for the normal only",
                             label, j->rho, j->kind == TMC_JITTER_GAMMA ? "gamma" : "lognormal");
    return 0;
}

/* The law's quantiles must be computable to the sampler's accuracy at this
 * card count: GSL's gamma quantile loses it far in the tail for very large
 * shapes (cv below about 0.01, sooner with millions of cards), where it
 * printed garbage (issue 13). The table's error is measured when it is built
 * (dist.h); the moments by quadrature must converge too. A few milliseconds. */
#define TMC_TABLE_TOLERANCE 1e-6 /* in units of sigma */
static int check_computable(const tmc_jitter *j, long cards, const char *label, tmc_error *err)
{
    if (j->cv == 0)
        return 0;
    if (j->kind == TMC_JITTER_GAMMA && j->cv < 0.005) /* shape > 40,000: fails at any N,
                                                          slowly, so refuse at once */
        return tmc_error_set(err, "%s: jitter.cv: %.10g is too small for a gamma law (below "
                                  "0.005 its quantiles cannot be computed accurately); at so "
                                  "small a spread use the normal law", label, j->cv);
    tmc_max_sampler s;
    double mean, sd, skew;
    if (tmc_dist_max_init(&s, j, 1.0, cards))
        return tmc_error_set(err, "%s: out of memory for the jitter's quantile table", label);
    double table_error = s.max_error;
    tmc_dist_max_free(&s);
    int moments = tmc_dist_max_moments(j, cards, &mean, &sd, &skew);
    /* rounding near mu: an error of 1e-12 mu is fine however small sigma is */
    int accurate = table_error <= TMC_TABLE_TOLERANCE || table_error * j->cv <= 1e-12;
    if (!accurate || moments || !isfinite(mean + sd + skew))
        return tmc_error_set(err, "%s: jitter.cv: %.10g is too small for a %s law on %ld cards: "
                                  "%s; at so small a spread use the normal law",
                             label, j->cv, jitter_choices[j->kind], cards,
                             accurate ? "the moments of its maximum do not converge"
                                      : "its quantiles cannot be computed accurately");
    return 0;
}

static int check_deadline(const tmc_experiment *x, const char *label, tmc_error *err)
{
    double budget = x->deadline.days - x->deadline.reserve_days;
    if (budget <= 0)
        return tmc_error_set(err, "%s: deadline.reserve_days: %.10g is not shorter than "
                                  "deadline.days (%.10g); the reserve is part of the "
                                  "deadline", label, x->deadline.reserve_days,
                             x->deadline.days);
    double h = x->monte_carlo.horizon_days;
    if (h > 0 && h <= budget)
        return tmc_error_set(err, "%s: monte_carlo.horizon_days: %.10g must exceed the "
                                  "deadline's wall-time budget, deadline.days - "
                                  "deadline.reserve_days = %.10g, so that a censored "
                                  "replica counts as a miss", label, h, budget);
    return 0;
}

static int validate(const cJSON *root, const char *label, const char *base_dir,
                    tmc_experiment *out, tmc_error *err)
{
    if (check_keys(root, label, "", top_keys, N(top_keys) - 1, err) ||
        read_string(root, "name", 1, out->name, sizeof out->name, label, err) ||
        read_string(root, "source", 0, out->source, sizeof out->source, label, err) ||
        read_string(root, "description", 0, NULL, 0, label, err))
        return -1;
    for (size_t i = 0; i < N(sections); i++)
        if (read_section(&sections[i], root, label, base_dir, out, err))
            return -1;
    if (check_checkpoint(root, label, err) || check_jitter(&out->jitter, label, err) ||
        check_computable(&out->jitter, out->job.cards, label, err) ||
        check_failures(&out->failures, label, err) ||
        check_replayed("outages", out->outages.enabled, out->outages.mean_interval_days,
                       out->outages.n_trace, label, err) ||
        check_replayed("loss_spikes", out->loss_spikes.enabled,
                       out->loss_spikes.mean_interval_days, out->loss_spikes.n_trace, label,
                       err) ||
        check_deadline(out, label, err))
        return -1;
    return check_input_pipeline(out, label, err);
}

/* ---------- overrides: --set dotted.key=value ---------- */


static cJSON *parse_value(const char *text)
{
    cJSON *v = cJSON_ParseWithOpts(text, NULL, 1);
    return v ? v : cJSON_CreateString(text);
}

/* The section named `name`, or NULL. */
static const section *find_section(const char *name)
{
    for (size_t i = 0; i < N(sections); i++)
        if (strcmp(sections[i].name, name) == 0)
            return &sections[i];
    return NULL;
}

/* An override inside a section given as a file path edits a copy of that
 * file's object, which replaces the path in the document. */
static cJSON *inline_section_file(cJSON *root, const char *name, cJSON *value,
                                  const char *base_dir, const char *spec,
                                  tmc_experiment *rec, tmc_error *err)
{
    const section *s = find_section(name);
    if (!s || !s->file_kind)
        return value;
    char path[TMC_PATH_MAX], referrer[300];
    snprintf(referrer, sizeof referrer, "--set %.280s", spec);
    cJSON *obj = load_section_file(value->valuestring, s->file_kind, base_dir, referrer, path,
                                   sizeof path, rec, err);
    if (obj)
        cJSON_ReplaceItemInObjectCaseSensitive(root, name, obj);
    return obj;
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
        cJSON *next = cJSON_GetObjectItemCaseSensitive(obj, part);
        if (obj == root && cJSON_IsString(next) &&
            !(next = inline_section_file(root, part, next, base_dir, spec, rec, err)))
            return -1;
        if (!next || cJSON_IsNull(next)) {
            next = cJSON_CreateObject();
            if (has_key(obj, part))
                cJSON_ReplaceItemInObjectCaseSensitive(obj, part, next);
            else
                cJSON_AddItemToObject(obj, part, next);
        }
        if (!cJSON_IsObject(next))
            return tmc_error_set(err, "--set %s: '%s' is %s, not an object", spec, part,
                                 value_text(next).s);
        obj = next;
        part = dot + 1;
    }
    if (!*part)
        return tmc_error_set(err, "--set %s: empty key", spec);
    cJSON *value = parse_value(eq + 1);
    if (has_key(obj, part))
        cJSON_ReplaceItemInObjectCaseSensitive(obj, part, value);
    else
        cJSON_AddItemToObject(obj, part, value);
    return 0;
}

/* A message about a path an override set, or set inside of, or a path inside
 * what an override set: the file alone does not explain it, so add
 * " (with the command-line override KEY=VALUE)". */
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
                     " (with the command-line override %s)", key);
            return;
        }
    }
}

/* ---------- entry points ---------- */

tmc_key_kind tmc_config_classify_key(const char *key)
{
    char name[64];
    size_t len = strcspn(key, ".");
    if (!key[len] || len >= sizeof name)
        return TMC_KEY_UNKNOWN;
    memcpy(name, key, len);
    name[len] = '\0';
    const section *s = find_section(name);
    for (size_t i = 0; s && i < s->n_fields; i++) {
        if (strcmp(s->fields[i].key, key + len + 1) != 0)
            continue;
        ftype t = s->fields[i].type;
        return t == T_NUM ? TMC_KEY_NUMBER
             : t == T_INT || t == T_U64 ? TMC_KEY_INTEGER : TMC_KEY_OTHER;
    }
    return TMC_KEY_UNKNOWN;
}

int tmc_config_parse(const char *text, const char *label, const char *base_dir,
                     const char *const *overrides, int n_overrides, tmc_experiment *out,
                     tmc_error *err)
{
    gsl_set_error_handler_off(); /* every GSL status is checked: no abort */
    memset(out, 0, sizeof *out);
    if (strlen(label) >= sizeof out->path)
        return tmc_error_set(err, "%.60s...: the experiment's path (%zu bytes) is too long (at "
                                  "most %d bytes)", label, strlen(label), TMC_PATH_MAX - 1);
    cJSON *root = parse_object(text, label, err);
    if (!root)
        return -1;
    int rc = 0;
    for (int i = 0; i < n_overrides && !rc; i++)
        rc = apply_override(root, overrides[i], base_dir, out, err);
    if (!rc && (rc = validate(root, label, base_dir, out, err)))
        note_override(err, label, overrides, n_overrides);
    cJSON_Delete(root);
    snprintf(out->path, sizeof out->path, "%s", label);
    return rc;
}

int tmc_config_load(const char *path, const char *const *overrides, int n_overrides,
                    tmc_experiment *out, tmc_error *err)
{
    char *text = NULL;
    if (strlen(path) >= TMC_PATH_MAX)
        return tmc_error_set(err, "%.60s...: the experiment's path (%zu bytes) is too long (at "
                                  "most %d bytes)", path, strlen(path), TMC_PATH_MAX - 1);
    if (read_text(path, &text, err))
        return -1;
    char dir[TMC_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/'); /* no slash: "", relative paths stay as given */
    if (slash)
        slash[slash == dir] = '\0';  /* "/x.json": keep the root "/" */
    else
        dir[0] = '\0';
    int rc = tmc_config_parse(text, path, dir, overrides, n_overrides, out, err);
    free(text);
    if (!rc)
        note_input(out, path);
    return rc;
}

/* ---------- the validated experiment as JSON ---------- */

static cJSON *field_json(const field *f, const char *base)
{
    const void *at = base + f->off;
    switch (f->type) {
    case T_NUM: return cJSON_CreateNumber(*(const double *)at);
    case T_INT: return cJSON_CreateNumber((double)*(const long *)at);
    case T_ENUM: return cJSON_CreateString(f->choices[*(const int *)at]);
    case T_U64: {
        char digits[24]; /* raw: cJSON would round a 2^53-scale integer */
        snprintf(digits, sizeof digits, "%llu", (unsigned long long)*(const uint64_t *)at);
        return cJSON_CreateRaw(digits);
    }
    default: return NULL;
    }
}

/* A replayed trace's times, days (NULL when there is none). */
static cJSON *trace_json(const char *at)
{
    int n = *(const int *)(const void *)at;
    const double *days = (const double *)(const void *)(at + TRACE_GAP(tmc_failures));
    return n > 0 ? cJSON_CreateDoubleArray(days, n) : NULL;
}

cJSON *tmc_config_to_json(const tmc_experiment *x)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", x->name);
    cJSON_AddStringToObject(root, "source", x->source);
    for (size_t i = 0; i < N(sections); i++) {
        const section *sec = &sections[i];
        const char *base = (const char *)x + sec->off;
        if (sec->enabled >= 0 && !*(const int *)(const void *)(base + sec->enabled)) {
            cJSON_AddNullToObject(root, sec->name);
            continue;
        }
        cJSON *obj = cJSON_AddObjectToObject(root, sec->name);
        int traced = 0;
        for (size_t j = 0; j < sec->n_fields; j++)
            if (sec->fields[j].type == T_TRACE)
                traced = *(const int *)(const void *)(base + sec->fields[j].off) > 0;
        for (size_t j = 0; j < sec->n_fields; j++) {
            const field *f = &sec->fields[j];
            /* a replayed trace records its times; the mean it replaces is unset */
            if (traced && (!strcmp(f->key, "mean_interval_days") ||
                           !strcmp(f->key, "per_card_mtbf_days")))
                continue;
            cJSON *v = f->type == T_TRACE ? trace_json(base + f->off)
                     : f->type == T_STR || f->off == (size_t)-1 ? NULL : field_json(f, base);
            if (v)
                cJSON_AddItemToObject(obj, f->type == T_TRACE ? "trace_days" : f->key, v);
        }
    }
    return root;
}
