/* sensitivity.h - which input matters most (issue 20, item 5; `trainmc
 * sensitivity`): each uncertain input moved to the low and the high end of
 * a stated range, the others held at the experiment's values, and its
 * effect on the mean completion time T and on P(T <= deadline) against the
 * experiment as it stands (the base), ranked by its swing (a tornado); and
 * a compound case, several degradations at once, with the gain from fixing
 * each one alone.
 *
 * Every setting is a sweep setting (sweep.h: the input's keys applied as
 * --set overrides over the file and the user's own, so the validation table
 * checks every value with its usual message) run with the same replicas and
 * seed: replica k meets the same failures at every setting (common random
 * numbers), and each difference is estimated replica by replica with its CRN
 * standard error (tmc_sweep_compute_diff). A difference in P is the mean of
 * the per-replica differences of the indicator "met the deadline (and the
 * restart budget)".
 *
 * An input is an experiment key with a numeric value, or the link bandwidth
 * interconnect.link_gb_per_s, which enters the step only through the
 * exposed communication (docs/model.md 1, 5): with prefetch working (the
 * name alone) job.exposed_comm_s scales as e0 b0 / b, the first AllGather
 * and the last ReduceScatter that never hide (0.08 -> 0.16 s at half the
 * design's 32 GB/s); with prefetch failed (the name with
 * TMC_SENSITIVITY_PREFETCH_FAILED) the whole ZeRO-3 link time is exposed
 * instead, V / b (V: tmc_plan_link_bytes, which holds the part that never
 * hides; 12.03 s at 32 GB/s on the design). Both need the experiment's model, batch and interconnect
 * sections. It prints nothing and never exits: src/cli/cli_sensitivity.c is
 * its client, src/report/sensitivity_output.h its report. */
#ifndef TMC_SENSITIVITY_H
#define TMC_SENSITIVITY_H

#include <signal.h>

#include "runner.h"
#include "sensitivity_inputs.h"
#include "sweep.h"

#define TMC_SENSITIVITY_MAX_INPUTS TMC_SENSITIVITY_MAX_RANGES
#define TMC_SENSITIVITY_MAX_COMPOUND 8   /* degradations in one compound case */
#define TMC_SENSITIVITY_MAX_RUNS \
    (2 + 2 * TMC_SENSITIVITY_MAX_INPUTS + 2 * TMC_SENSITIVITY_MAX_COMPOUND)
#define TMC_SENSITIVITY_LINK "interconnect.link_gb_per_s"
#define TMC_SENSITIVITY_PREFETCH_FAILED ":prefetch_failed"

typedef enum {
    TMC_SENSITIVITY_KEY,     /* one experiment key */
    TMC_SENSITIVITY_LINK_HIDDEN, /* the link, prefetch working: exposed e0 b0 / b */
    TMC_SENSITIVITY_LINK_EXPOSED /* the link, prefetch failed: V / b */
} tmc_sensitivity_kind;

/* An input: its name and the keys a value of it sets. */
typedef struct {
    char name[TMC_SWEEP_KEY_LEN]; /* a key, or the link's name (above) */
    tmc_sensitivity_kind kind;
    int n_keys;                   /* 1; 2 for the link (it and job.exposed_comm_s) */
    const char *keys[TMC_SWEEP_MAX_KEYS];
    double base;                  /* its value in the experiment */
    double e0, b0, link_bytes;    /* the link: base exposed comm (s), bandwidth (GB/s), V */
} tmc_sensitivity_key;

/* One setting and its replicas' completion days and restarts (replica
 * order), kept for the differences. */
typedef struct {
    tmc_sweep_base base;       /* the file with the user's overrides (and a compound's) */
    tmc_sweep_setting setting; /* with the input's keys at their values */
    tmc_sweep_result result;
    double *days, *restarts;   /* [replicas] */
    double *met;               /* [replicas]: 1 when the replica met the deadline (and
                                  the restart budget, restarts.h), else 0 */
} tmc_sensitivity_run;

/* One input of the tornado. */
typedef struct {
    tmc_sensitivity_key key;
    double low, high;          /* the range, low <= high */
    char source[256];          /* where the range comes from */
    char skipped[1024];        /* a default the loader refused: why (then not run); "" */
    tmc_sensitivity_run end[2];        /* at low, at high */
    tmc_sweep_diff days[2], met[2];    /* end - base: T in days, the met indicator */
    /* the swing: the highest minus the lowest of base, low and high (the
     * span of the tornado's bars, drawn from the base), with its CRN se */
    tmc_sweep_diff swing_days, swing_met;
} tmc_sensitivity_input;

/* One degradation of the compound case. */
typedef struct {
    tmc_sensitivity_key key;
    double value;              /* degraded; key.base is the value it is fixed to */
    tmc_sensitivity_run alone; /* the base with this degradation alone */
    tmc_sensitivity_run fixed; /* the compound with this one restored to the base */
    tmc_sweep_diff alone_days, alone_met; /* alone - base */
    tmc_sweep_diff gain_days;  /* T(compound) - T(fixed): days saved by fixing it */
    tmc_sweep_diff gain_met;   /* met(fixed) - met(compound) */
} tmc_sensitivity_degradation;

/* The whole report (large: on the heap). */
typedef struct {
    tmc_sweep_source source;        /* the experiment's file or text (borrowed) */
    const char *const *sets;        /* the user's --set overrides, --replicas, --seed */
    int n_sets;
    const char *inputs_path;        /* --inputs FILE, or NULL: the defaults */
    tmc_sensitivity_run base;       /* the experiment as it stands */
    int n_inputs;
    tmc_sensitivity_input inputs[TMC_SENSITIVITY_MAX_INPUTS];
    int by_days[TMC_SENSITIVITY_MAX_INPUTS]; /* the inputs run, by |swing of T|, largest first */
    int by_met[TMC_SENSITIVITY_MAX_INPUTS];  /* ... by |swing of P| (ties: of T) */
    int n_ranked;
    const char *compound_text;      /* --compound as given, or NULL: none */
    int n_degradations;
    tmc_sensitivity_degradation degradations[TMC_SENSITIVITY_MAX_COMPOUND];
    const char **compound_sets;     /* the user's overrides, then the degradations' */
    char compound_assign[TMC_SWEEP_MAX_KEYS * TMC_SENSITIVITY_MAX_COMPOUND]
                        [TMC_SWEEP_KEY_LEN + 32]; /* "KEY=VALUE" */
    tmc_sensitivity_run compound;   /* every degradation at once */
    tmc_sweep_diff compound_days, compound_met; /* compound - base */
    int n_runs;                     /* settings run (tmc_sensitivity_list_runs) */
} tmc_sensitivity;

/* A default input (no inputs file) with an end that does not fit in memory
 * (unless force, the command line's --force) or cannot finish is not
 * varied, with why in its skipped line, as a default the loader refuses
 * (docs/commands/sensitivity.md); the base and a range the user gave are
 * refused by the caller instead. */
void tmc_sensitivity_skip_unrunnable(tmc_sensitivity *s, int force);

/* How the settings run. */
typedef struct {
    int threads;              /* >= 1 */
    tmc_progress_fn progress; /* over all settings' replicas; NULL: none */
    void *progress_ctx;
    const volatile sig_atomic_t *stop; /* NULL: the process's (tmc_stop_request) */
} tmc_sensitivity_options;

/* Load the experiment src names (a file or text) with sets[n_sets] (both
 * borrowed: the --set overrides, --replicas, --seed), the inputs (inputs_path: a file of
 * {"NAME": [LOW, HIGH], ...}, sensitivity_inputs.h; NULL: the defaults,
 * below) and the compound case ("NAME=VALUE,...", or NULL), and every
 * setting of them, each checked by the validation table.
 *
 * The defaults, relative to the experiment's own values (on the reference
 * design, docs/model.md's figures): job.efficiency x0.75 (docs/model.md 5:
 * 40 -> 30 %) to x1.075 (43 %, the best Llama 3 reports, docs/model.md 1),
 * at most 1; the link (prefetch working, then failed) x0.5 (docs/model.md
 * 5: halved PCIe) to x1 (PCIe 4.0 x16, the card's own link);
 * job.input_wait_s 0 (all hidden) to x10 (docs/model.md 4, 5: 0.5 -> 5 s; 5 s
 * when the base is 0); jitter.cv 0 to 0.05 (docs/model.md 2's worked
 * example); failures.per_card_mtbf_days, checkpoint.save_s and
 * checkpoint.restore_s x0.5 to x2. A default that does not apply (its
 * section off, the link without the plan sections, an end the table
 * refuses) is listed with `skipped` saying why, and not run.
 *
 * Returns 0, or -1 with err: a config message (naming the override),
 * an input that is no numeric key or a plan-only one, the link without a
 * model, batch and interconnect, a range with low > high, an input or a
 * degradation named twice, fewer than 2 replicas, more completion times
 * than a sweep may keep (TMC_SWEEP_MAX_DOUBLES), out of memory. */
int tmc_sensitivity_load(tmc_sensitivity *s, const tmc_sweep_source *src,
                         const char *const *sets, int n_sets, const char *inputs_path,
                         const char *compound, tmc_error *err);

/* Every run, in the order run (the base, each input's low and high end but
 * the skipped, the compound, then each degradation alone and fixed), into
 * out[TMC_SENSITIVITY_MAX_RUNS]. Returns their count. */
int tmc_sensitivity_list_runs(tmc_sensitivity *s, tmc_sensitivity_run **out);

/* Run every setting with o->threads threads, then the differences and the
 * rankings. The replicas stop soon once tmc_stop_request is called
 * (the command line's signals). Returns 0; TMC_RUNNER_STOPPED with err; -1
 * with err (memory). */
int tmc_sensitivity_run_all(tmc_sensitivity *s, const tmc_sensitivity_options *o,
                            tmc_error *err);

/* Frees what s holds, every run's experiments included; s must have been
 * zeroed before its load (calloc), as the command line does. */
void tmc_sensitivity_free(tmc_sensitivity *s);

#endif
