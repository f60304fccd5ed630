/* config.h - an experiment: JSON file -> validated struct.
 *
 * The experiment's types and units are in src/core/experiment.h. Every key
 * is one row of the table in config_fields.c (type, bounds, default, unit,
 * help); a range error states the bounds, an enum error lists the choices,
 * and every message names the file and the JSON path of the value.
 *
 * A section "jitter" or "failures" may be an object or a string: the path of
 * a distribution file (relative to the file that names it), which must carry
 * a "source". Sections "failures", "outages" and "loss_spikes" may be null or
 * absent: that process is then off.
 *
 * The sections "model", "memory", "interconnect", "storage",
 * "input_pipeline", "batch", "critical_batch" and "scale_up" feed only
 * `trainmc plan` (plan.h); each is optional (null or absent: that part of the
 * plan is skipped). "model" may also be the path of a model file, which must
 * carry a "source" (experiments/models/). */
#ifndef TMC_CONFIG_H
#define TMC_CONFIG_H

#include <stdio.h>

#include "error.h"
#include "experiment.h"

/* Read, apply overrides, validate. `overrides` holds n_overrides strings
 * "dotted.key=value" (value parsed as JSON, else taken as a string), applied
 * before validation so they are checked like the file. Returns 0, or -1 with
 * err->msg = "FILE: PATH: problem" (or "FILE:LINE:COL: ..." for JSON syntax);
 * a problem at or under a path an override set ends in
 * " (with the override KEY=VALUE)". Ownership (experiment.h): *out is
 * overwritten, never released first; after 0 it owns its heap parts (its
 * owner calls tmc_experiment_release), after -1 nothing (a release is then
 * harmless). The same for tmc_config_parse. */
int tmc_config_load(const char *path, const char *const *overrides, int n_overrides,
                    tmc_experiment *out, tmc_error *err);

/* The overrides x was loaded with, in order, into out[max] (pointers into
 * x). Returns their count (at most max). */
int tmc_config_list_overrides(const tmc_experiment *x, const char **out, int max);

/* What the validation table holds at a dotted key such as "job.cards". */
typedef enum {
    TMC_KEY_UNKNOWN = 0, /* no such key (or a whole section) */
    TMC_KEY_NUMBER,      /* a number */
    TMC_KEY_INTEGER,     /* an integer (including monte_carlo.seed) */
    TMC_KEY_OTHER        /* a string or a choice */
} tmc_key_kind;

/* The kind of `key` ("section.name"), so a caller varying a key (trainmc
 * sweep) knows whether its values must be integers. */
tmc_key_kind tmc_config_classify_key(const char *key);

/* A cause's key "failures.causes[I].NAME": 1 with *index = I and *name
 * pointing at NAME inside key; 0 when key is not of that form. I is decimal
 * digits only (no sign, no space); one beyond a long gives LONG_MAX, so
 * that an index never wraps onto another cause. Whether the experiment has
 * cause I and whether NAME is a cause's key are the caller's to check. */
int tmc_config_split_cause_key(const char *key, long *index, const char **name);

/* 1 when the dotted keys a and b ("checkpoint.interval_s",
 * "checkpoint.interval_steps") are alternatives: an experiment gives one of
 * them (the row's `alternative`), so a sweep cannot vary both. */
int tmc_config_keys_alternative(const char *a, const char *b);

/* The bounds of the numeric dotted key `key` ("monte_carlo.replicas"):
 * [lo, hi], or (lo, hi] with *lo_open; 0, or -1 if key is not numeric. */
int tmc_config_key_bounds(const char *key, double *lo, double *hi, int *lo_open);

/* A bound as a user would type it: a round power of ten from 1e5 on as
 * "1e7", else to 10 significant digits ("0.2", "86400"). */
typedef struct {
    char s[24]; /* %.10g's longest, "-1.234567891e-100", fits */
} tmc_bound_text;
tmc_bound_text tmc_config_bound_text(double x);

/* The positive jitter.cv that jitter law `law` (a tmc_jitter_kind) accepts,
 * [*lo, *hi]; 0 (no jitter) every law accepts besides. lo: 1e-6 (a smaller
 * spread is below every printed digit), 0.005 for the gamma (beyond shape
 * 40,000 GSL's gamma quantile fails); hi: 0.2 for the normal (a wider spread
 * gives negative compute times), else the row's bound (2). The one statement
 * of these limits: the loader refuses by them (config_checks.c), and `fit
 * --steps` writes no distribution file outside them. 0, or -1 for no such
 * law. */
int tmc_config_jitter_cv_range(int law, double *lo, double *hi);

/* The observed mean steps progress.step_s that an efficiency in
 * job.efficiency's own range (its row: (0, 1]) gives on the cards the step
 * was seen on, [*lo_s, *hi_s], s: *lo_s the step at the row's upper bound
 * (tmc_closed_form_step_at_efficiency), *hi_s the one at its lower bound,
 * or progress.step_s's own upper bound when that is 0 (no step is too slow).
 * The one statement of the rule: the loader refuses a step outside it at
 * the observed pace (config_progress.c), and the plan-pace report names the
 * efficiency that gives the step only inside it (forecast_output.c). */
void tmc_config_pace_step_range(const tmc_experiment *x, double *lo_s, double *hi_s);

/* The word an experiment gives choice number `value` of the dotted key
 * `key` ("checkpoint.duration_law", TMC_DURATION_GAMMA: "gamma"), so that a
 * report names a choice as the key's row spells it; NULL if the key has no
 * such choice. */
const char *tmc_config_choice_name(const char *key, int value);

/* "young" or "daly" for a checkpoint interval given by name; NULL for
 * TMC_INTERVAL_GIVEN (config_interval.c). */
const char *tmc_config_interval_rule_name(tmc_interval_rule rule);

/* The keys reference (docs/reference/keys.md) as Markdown on f, made from
 * the validation table: per section, each key's type, unit, range,
 * default, choices, whether it is required, and its help. 0, or -1 if f
 * failed. */
int tmc_config_print_reference(FILE *f);

/* Same, from JSON text already in memory; `label` names it in messages and
 * `base_dir` resolves relative distribution paths. */
int tmc_config_parse(const char *text, const char *label, const char *base_dir,
                     const char *const *overrides, int n_overrides,
                     tmc_experiment *out, tmc_error *err);

/* The validated experiment as a JSON object: every section with every key's
 * value in force (defaults included; a process that is off is null), so a
 * result file records exactly what ran. Caller frees with cJSON_Delete. */
struct cJSON;
struct cJSON *tmc_config_to_json(const tmc_experiment *x);

/* 1 when key KEY of section SECTION (as tmc_config_to_json names them) holds
 * the value an absent key takes (its default: a number, a choice, a
 * boolean); 0 for a value that differs, a required key, a text, a list, or
 * a name not in the table. For the HTML report's "default" mark: a key
 * given with its default's value reads as default too. */
int tmc_config_key_is_default(const tmc_experiment *x, const char *section_name,
                              const char *key);

#endif
