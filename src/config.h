/* config.h - an experiment: JSON file -> validated struct.
 *
 * Units are in the key names and documented once here (and in README.md):
 *   _s = seconds, _days = days of 86,400 s, _flops = FLOP/s, flop_ = FLOP.
 * Every option is one row of a validation table in config.c (name, type,
 * bounds, default); a range error states the bounds, an enum error lists the
 * choices, and every message names the file and the JSON path of the value.
 * Defaults come from the reference design (MODEL.md section 1 and 3).
 *
 * A section "jitter" or "failures" may be an object or a string: the path of
 * a distribution file (relative to the file that names it), which must carry
 * a "source". Sections "failures", "outages" and "loss_spikes" may be null or
 * absent: that process is then off. */
#ifndef TMC_CONFIG_H
#define TMC_CONFIG_H

#include <stdint.h>

#include "dist.h"
#include "error.h"

typedef struct {
    long steps;            /* optimizer steps S, [1, 1e9] (MODEL.md 1: 31,790) */
    long cards;            /* data-parallel cards N (d), [1, 1e7] */
    double flop_per_step;  /* training FLOP per step, > 0 (MODEL.md 1: 1.655e17) */
    double peak_flops;     /* peak FLOP/s per card, > 0 (RTX 4090 BF16: 165.2e12) */
    double efficiency;     /* model FLOP utilisation, (0, 1] (MODEL.md 1: 0.40) */
    double exposed_comm_s; /* communication not hidden under compute, s/step, >= 0 */
    double input_wait_s;   /* mean input wait per step, s, >= 0 */
} tmc_job;

typedef struct {
    int enabled;
    double per_card_mtbf_days; /* exponential lifetime mean per card, days (MODEL.md 3.1: 337) */
} tmc_failures;

typedef struct {
    double interval_s;   /* requested interval in seconds, or 0 if given in steps */
    long interval_steps; /* requested interval in steps, or 0 if given in seconds */
    double save_s;       /* synchronous save time c, s (MODEL.md 3.2: 16.38) */
    double restore_s;    /* restore time r, s (MODEL.md 3.2: 120) */
} tmc_checkpoint;

typedef struct {
    int enabled;
    double mean_interval_days; /* mean time between common outages, days */
    double downtime_s;         /* time the job is down before its restore, s, default 0 */
} tmc_outages;

typedef struct {
    int enabled;
    double mean_interval_days; /* mean time between loss spikes, days (MODEL.md 3.4: 7) */
} tmc_loss_spikes;

typedef struct {
    double days;         /* deadline from the start of the job, days (MODEL.md 1: 30) */
    double reserve_days; /* reserved for start-up, evaluation, pauses, days (MODEL.md 1: 5) */
} tmc_deadline;

typedef struct {
    long replicas; /* independent full runs, [1, 1e9] */
    uint64_t seed; /* run seed, [0, 2^53 - 1] */
} tmc_monte_carlo;

typedef struct {
    char name[128];
    char source[256];
    char path[1024]; /* the experiment file it was read from */
    tmc_job job;
    tmc_jitter jitter;
    tmc_failures failures;
    tmc_checkpoint checkpoint;
    tmc_outages outages;
    tmc_loss_spikes loss_spikes;
    tmc_deadline deadline;
    tmc_monte_carlo monte_carlo;
} tmc_experiment;

/* Read, apply overrides, validate. `overrides` holds n_overrides strings
 * "dotted.key=value" (value parsed as JSON, else taken as a string), applied
 * before validation so they are checked like the file. Returns 0, or -1 with
 * err->msg = "FILE: PATH: problem" (or "FILE:LINE:COL: ..." for JSON syntax);
 * a problem at or under a path an override set ends in
 * " (with the command-line override KEY=VALUE)". */
int tmc_config_load(const char *path, const char *const *overrides, int n_overrides,
                    tmc_experiment *out, tmc_error *err);

/* Same, from JSON text already in memory; `label` names it in messages and
 * `base_dir` resolves relative distribution paths. */
int tmc_config_parse(const char *text, const char *label, const char *base_dir,
                     const char *const *overrides, int n_overrides,
                     tmc_experiment *out, tmc_error *err);

#endif
