/* sweep.h - settings of one experiment compared under common random numbers
 * (issue 3, `trainmc sweep`).
 *
 * A sweep varies one or two numeric keys of an experiment (a grid when two).
 * Each setting is the experiment with "KEY=VALUE" applied as a --set
 * override, so the validation table (config_fields.c) checks every value with its
 * usual message.
 *
 * Common random numbers (CRN). Replica k of every setting draws from the
 * streams of (seed, k) (tmc_rng_pcg_seed_replica), one stream per random
 * process, and the engine draws arrivals as absolute times (processes.c): at
 * every setting replica k meets the same card failures, outages and spikes
 * at the same wall-clock instants, and the same jitter stream. The
 * difference of two settings is therefore estimated per replica,
 * d_k = T_k(a) - T_k(b), with standard error sd(d) / sqrt(n), which is far
 * smaller than the sqrt((Var a + Var b) / n) of independent streams when the
 * settings' completion times are positively correlated (Law and Kelton,
 * "Simulation Modeling and Analysis", 3rd ed., 2000, section 11.2). */
#ifndef TMC_SWEEP_H
#define TMC_SWEEP_H

#include <signal.h>

#include "closed_form.h"
#include "config.h"
#include "cost.h"
#include "engine.h"
#include "importance.h"
#include "error.h"
#include "runner.h"
#include "restarts.h"
#include "stats.h"

#define TMC_SWEEP_MAX_KEYS 2
#define TMC_SWEEP_MAX_SETTINGS 1000       /* values of one key, and settings of a grid */
#define TMC_SWEEP_MAX_DOUBLES (1L << 28)  /* completion times kept: 2 GiB of doubles */
#define TMC_SWEEP_WITHIN_SE 2.0           /* the optimum's uncertainty range, in CRN se */
#define TMC_SWEEP_MAX_BISECTIONS 60       /* halvings of a --target bracket */
#define TMC_SWEEP_KEY_LEN TMC_KEY_LEN

/* One varied key and its values, in the order given. */
typedef struct {
    char key[TMC_SWEEP_KEY_LEN];
    int n;
    double values[TMC_SWEEP_MAX_SETTINGS];
} tmc_sweep_axis;

/* Parse a value list "V1,V2,..." or a range "START:STOP:STEP" (STEP > 0;
 * values START + i STEP up to STOP inclusive within 1e-9 STEP, each rounded
 * to the decimal digits the inputs carry, so 0.1:0.3:0.1 gives exactly 0.1,
 * 0.2 and 0.3) into values[TMC_SWEEP_MAX_SETTINGS]. Returns 0, or -1 with
 * err naming the problem (not the flag). */
int tmc_sweep_parse_values(const char *text, double *values, int *n, tmc_error *err);

/* Parse a --vary argument "KEY=VALUES". Returns 0, or -1 with
 * err = "--vary SPEC: problem". */
int tmc_sweep_parse_axis(const char *spec, tmc_sweep_axis *axis, tmc_error *err);

/* A bisection bracket for --target: "KEY=LO:HI" or "KEY=LO:HI:TOL". */
typedef struct {
    char key[TMC_SWEEP_KEY_LEN];
    double lo, hi; /* lo < hi */
    double tol;    /* stop when the bracket is this narrow; 0: not given */
} tmc_sweep_bracket;

/* Parse "KEY=LO:HI[:TOL]" (LO < HI, TOL > 0). Returns 0, or -1 with
 * err = "--vary SPEC: problem". */
int tmc_sweep_parse_bracket(const char *spec, tmc_sweep_bracket *b, tmc_error *err);

/* What a sweep holds fixed: the experiment file and its --set overrides
 * (including monte_carlo.replicas and .seed), and the varied keys. */
typedef struct {
    const char *path;     /* the file, or the label of text (below) */
    const char *text;     /* the experiment as JSON text, or NULL: read path */
    const char *base_dir; /* with text: where its relative file names start */
    const char *const *sets;
    int n_sets;
    int n_keys;
    char keys[TMC_SWEEP_MAX_KEYS][TMC_SWEEP_KEY_LEN];
    int integer[TMC_SWEEP_MAX_KEYS]; /* the key's values must be integers */
    /* "checkpoint={...}" without the experiment's own interval key when the
     * other one is varied (config_checks.c accepts exactly one), or "" */
    char reset[320];
    tmc_experiment x; /* the experiment with the --set overrides alone; owned: b's
                         owner releases it (tmc_experiment_release) */
} tmc_sweep_base;

/* Where an experiment is read from: a file, or JSON text in memory (the
 * library's _text calls). Borrowed by whatever loads from it. */
typedef struct {
    const char *path;     /* the file, or the label of text (messages name it) */
    const char *text;     /* the experiment as JSON text, or NULL: read path */
    const char *base_dir; /* with text: where its relative file names start */
} tmc_sweep_source;

/* Load the experiment with its overrides and check the keys: numeric keys of
 * the validation table, not monte_carlo's (every setting shares replicas and
 * seed), no key twice. Returns 0, or -1 with err (a config message, or
 * "--vary KEY: problem"). b is overwritten, not released first: after 0,
 * b->x owns its heap parts (b's owner releases them, experiment.h), after
 * -1 nothing. */
int tmc_sweep_load_base(tmc_sweep_base *b, const char *path, const char *const *sets,
                        int n_sets, const char *const *keys, int n_keys, tmc_error *err);

/* The same from JSON text (config.h's tmc_config_parse: label names it in
 * messages, base_dir resolves its relative file names); every setting is
 * then parsed from the same text. text, label and base_dir are borrowed. */
int tmc_sweep_load_base_text(tmc_sweep_base *b, const char *text, const char *label,
                             const char *base_dir, const char *const *sets, int n_sets,
                             const char *const *keys, int n_keys, tmc_error *err);

/* Refuse a what-if on `key` that does nothing to experiment x: a key the
 * observed pace fixes (tmc_closed_form_pace_fixes_key: job.efficiency,
 * job.peak_flops, job.flop_per_step) on a forecast at the observed pace.
 * "PREFIX KEY: does nothing on a forecast at the observed pace: ...; give
 * --set job.pace=plan ...". Every setting would run the same replicas at
 * the same step time and tie; `trainmc rescue` lists its efficiency lever
 * as not applicable instead. Returns 0, or -1 with err. */
/* tmc_sweep_load_base or _text, as src says. */
int tmc_sweep_load_base_from(tmc_sweep_base *b, const tmc_sweep_source *src,
                             const char *const *sets, int n_sets, const char *const *keys,
                             int n_keys, tmc_error *err);

int tmc_sweep_check_pace_key(const tmc_experiment *x, const char *prefix, const char *key,
                             tmc_error *err);

/* Refuse a base of fewer than 2 replicas (the standard errors need two):
 * "PATH: monte_carlo.replicas: N; a sweep needs at least 2 (...)". Returns
 * 0, or -1 with err. */
int tmc_sweep_check_replicas(const tmc_sweep_base *b, tmc_error *err);

/* One setting: the experiment at value[key] for each key. */
typedef struct {
    double value[TMC_SWEEP_MAX_KEYS];
    char assign[TMC_SWEEP_MAX_KEYS][TMC_SWEEP_KEY_LEN + 32]; /* "KEY=VALUE" overrides */
    char label[300]; /* "KEY=VALUE[, KEY=VALUE]" */
    tmc_experiment x; /* owned, as a base's */
    tmc_closed_form cf;
} tmc_sweep_setting;

/* The overrides that make setting s from the file: the base's --set
 * overrides, its reset, then s's assignments, into out[b->n_sets + 1 +
 * b->n_keys]. Returns their count. */
int tmc_sweep_list_overrides(const tmc_sweep_base *b, const tmc_sweep_setting *s,
                             const char **out);

/* Build the setting at value[b->n_keys]. Returns 0, or -1 with err (the
 * validation table's message for a bad value). s->x is owned as a base's
 * (tmc_sweep_load_base). */
int tmc_sweep_load_setting(const tmc_sweep_base *b, const double *value,
                           tmc_sweep_setting *s, tmc_error *err);

/* The grid of n_axes (1 or 2) axes: setting i, 0 <= i < the product of the
 * axes' sizes, takes axis a's value from its index (the last axis varies
 * fastest). */
int tmc_sweep_count_settings(const tmc_sweep_axis *axes, int n_axes);

/* The values of setting i into value[n_axes]. */
void tmc_sweep_get_values(const tmc_sweep_axis *axes, int n_axes, int i, double *value);

/* Lines along axis a: the settings that differ only in axis a's value. There
 * are tmc_sweep_count_lines of them (one per value of the other axis); line j's
 * settings, in axis a's order, go to idx[axes[a].n]. */
int tmc_sweep_count_lines(const tmc_sweep_axis *axes, int n_axes, int a);
void tmc_sweep_get_line(const tmc_sweep_axis *axes, int n_axes, int a, int j, int *idx);

/* Refuse a grid of more than TMC_SWEEP_MAX_SETTINGS settings, or whose
 * completion times (settings x replicas doubles) exceed TMC_SWEEP_MAX_DOUBLES.
 * Returns 0, or -1 with err. */
int tmc_sweep_check_grid(const tmc_sweep_axis *axes, int n_axes, long replicas,
                         tmc_error *err);

/* A setting's simulated figures. */
typedef struct {
    tmc_summary days;     /* completion time T, days, against the deadline (and the
                             restart budget: restarts.h) */
    tmc_restarts restarts; /* restarts per run */
    tmc_cost_summary cost; /* card-hours (and money) of days (cost.h) */
    double overhead;      /* mean of wall / (S t_s) - 1, per replica */
    double overhead_se;   /* its standard error */
    tmc_replica totals;   /* sums over replicas */
    tmc_mode mode;        /* steps or segments */
    double table_error;   /* the max sampler's table error, units of sigma (dist.h) */
    double horizon_s;     /* the engine's censoring horizon, s (engine.h) */
    int has_importance;   /* with --importance: */
    tmc_importance importance; /* P(miss) by importance sampling (importance.h) */
} tmc_sweep_result;

/* Progress over several settings run one after another (a grid, a
 * sensitivity's runs, a forecast history's snapshots): the runner's done of
 * one setting, reported to fn as offset + done of total, offset the
 * replicas of the settings before it. */
typedef struct {
    tmc_progress_fn fn;
    void *ctx;
    long offset, total;
} tmc_sweep_progress;

/* A tmc_progress_fn; ctx: a tmc_sweep_progress. */
void tmc_sweep_forward_progress(long done, long total, void *ctx);

/* Run the setting's replicas (its monte_carlo.replicas and .seed) on
 * `threads` threads through tmc_engine_init / tmc_runner_run; fill
 * days[replicas] with completion times T = reserve + wall (days, replica
 * order), restarts[replicas] with their restarts (restarts.h) and *r.
 * progress may be NULL. The replicas stop soon once *stop is
 * non-zero (NULL: once tmc_stop_request is called, the command
 * line's signal handler). Returns 0; TMC_RUNNER_STOPPED with err when a stop
 * was requested (runner.h); -1 with err if memory runs out. */
int tmc_sweep_run_setting(const tmc_sweep_setting *s, int threads, tmc_progress_fn progress,
                          void *ctx, const volatile sig_atomic_t *stop, double *days,
                          double *restarts, tmc_sweep_result *r, tmc_error *err);

/* The two halves of tmc_sweep_run_setting, for batches (--precision):
 * replicas first .. first + n - 1 into wall_s[n] (seconds), their sums added
 * to r->totals (reset when first is 0); then the summary of days[n] (wall
 * seconds on entry, completion days on return). 0, or as
 * tmc_sweep_run_setting. */
int tmc_sweep_run_batch(const tmc_sweep_setting *s, long first, long n, int threads,
                        tmc_progress_fn progress, void *ctx,
                        const volatile sig_atomic_t *stop, double *wall_s, double *restarts,
                        tmc_sweep_result *r, tmc_error *err);
int tmc_sweep_finish(const tmc_sweep_setting *s, double *days, const double *restarts, long n,
                     tmc_sweep_result *r, tmc_error *err);

/* P(miss) of the setting by importance sampling, --importance MODE
 * (importance.h: "auto" or "F,O,S", `pilot` replicas a cross-entropy level;
 * plain replicas in place of an untrusted estimate, at most plain_max), into
 * r->importance; stop as tmc_sweep_run_setting. Returns 0,
 * TMC_RUNNER_STOPPED, TMC_IMPORTANCE_INVALID (a given tilt the experiment
 * cannot take), or -1 with err. */
int tmc_sweep_run_importance(const tmc_sweep_setting *s, const char *mode, long pilot,
                             long plain_max, int threads, const volatile sig_atomic_t *stop,
                             tmc_sweep_result *r, tmc_error *err);

/* The difference of two settings' per-replica values a_k - b_k (same unit). */
typedef struct {
    double mean;           /* mean difference */
    double se;             /* sd(a - b) / sqrt(n): common random numbers */
    double se_independent; /* sqrt((Var a + Var b) / n): what independent streams give */
    double reduction;      /* (Var a + Var b) / Var(a - b); NAN when Var(a - b) = 0 */
} tmc_sweep_diff;

/* Compute *d from a[n], b[n] (n >= 2) with GSL. Returns 0, or -1 with err if
 * memory runs out. */
int tmc_sweep_compute_diff(const double *a, const double *b, long n, tmc_sweep_diff *d,
                           tmc_error *err);

/* Among the n settings idx[0..n-1] (indices into r), the index of the one
 * with the lowest mean completion time T; ties keep the first. Not the
 * lowest overhead: that is relative to each setting's own S t_s, so a sweep
 * of the cards or the efficiency would call the slowest setting best (along
 * a checkpoint interval the two orders agree). */
int tmc_sweep_find_best(const tmc_sweep_result *r, const int *idx, int n);

/* 1 when d, a difference from the best setting, is within
 * TMC_SWEEP_WITHIN_SE of its CRN standard errors of zero. */
int tmc_sweep_is_within(const tmc_sweep_diff *d);

/* ---------- --target: bisection on a simulated metric ---------- */

typedef enum {
    TMC_SWEEP_PROBABILITY = 0, /* deadline.probability: P(T <= deadline) */
    TMC_SWEEP_COMPLETION = 1,  /* completion_days.mean: mean T, days */
    TMC_SWEEP_OVERHEAD = 2,    /* overhead.mean: mean wall / (S t_s) - 1 */
    TMC_SWEEP_GOODPUT = 3      /* goodput.mean: S t_s / mean wall = 1 / (1 + overhead.mean),
                                  the effective training time of many runs */
} tmc_sweep_metric;
#define TMC_SWEEP_N_METRICS 4

typedef struct {
    tmc_sweep_metric metric;
    int at_least;  /* 1: METRIC >= value; 0: METRIC <= value */
    double value;
    char text[128]; /* as given */
} tmc_sweep_target;

/* Parse "METRIC>=VALUE" or "METRIC<=VALUE", METRIC one of
 * deadline.probability (VALUE in [0, 1]), completion_days.mean,
 * overhead.mean, goodput.mean (VALUE in (0, 1]; the names of `trainmc run
 * --json`). Returns 0, or -1 with err = "--target TEXT: problem". */
int tmc_sweep_parse_target(const char *text, tmc_sweep_target *t, tmc_error *err);

/* The metric's JSON name. */
const char *tmc_sweep_name_metric(tmc_sweep_metric m);

/* The metric's estimate at r with its 95 % interval: Wilson for the
 * probability (stats.h), +- 1.96 se for the means, the overhead's interval
 * mapped through 1 / (1 + x) for the goodput. */
void tmc_sweep_estimate_metric(const tmc_sweep_result *r, tmc_sweep_metric m,
                               double *value, double *lo, double *hi);

/* 1 when `value` meets the target. */
int tmc_sweep_meets_target(const tmc_sweep_target *t, double value);

/* 1 when the target's value lies inside the 95 % interval of the metric at
 * r (tmc_sweep_estimate_metric): at r's replica count, which side of the
 * target r is on is not resolved. */
int tmc_sweep_is_unresolved(const tmc_sweep_target *t, const tmc_sweep_result *r);

/* Refuse a bracket that does not suit its key: TOL given for an integer key
 * (bisection runs to adjacent integers), missing for a key that is not, or so
 * small that more than TMC_SWEEP_MAX_BISECTIONS halvings are needed.
 * `spec` is the --vary text. Returns 0, or -1 with err. */
int tmc_sweep_check_bracket(const tmc_sweep_bracket *b, int integer, const char *spec,
                            tmc_error *err);

/* Evaluate the metric at a key value; 0, or -1 with err set. */
typedef int (*tmc_sweep_eval_fn)(double value, void *ctx, double *metric, tmc_error *err);

typedef struct {
    double found;     /* the value meeting the target nearest to the boundary */
    double neighbour; /* the value beside it (1 away, or within tol) that does not */
    int smallest;     /* 1: found is the smallest value meeting it; 0: the largest */
    int evaluations;
} tmc_sweep_bisection;

/* Bisect [b->lo, b->hi] for the boundary of the target, on integers when
 * `integer` (to adjacent integers) else until the bracket is b->tol wide.
 * The direction comes from the two ends, exactly one of which must meet the
 * target. `key` names the key in messages. Assumes the metric is monotone in
 * the value, which common random numbers make true in practice. Returns 0;
 * 1 when neither or both ends meet the target (err gives both values); -1
 * when eval fails (its err). */
int tmc_sweep_bisect(const tmc_sweep_target *t, const tmc_sweep_bracket *b, int integer,
                     tmc_sweep_eval_fn eval, void *ctx, tmc_sweep_bisection *out,
                     tmc_error *err);

#endif
