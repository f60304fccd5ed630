/* plan.h - the design board (`trainmc plan`): the deterministic picture the
 * reference design draws before anyone simulates (docs/model.md 1, 3.2-3.4, 4,
 * 5): does the state fit, how long is a step, how many steps, does the run
 * meet its deadline, what storage and input preparation must sustain, how
 * far more cards help, and what a larger model would take.
 *
 * Every function is pure and cites the docs/model.md section (or paper) its
 * formula comes from. Units are in the names: _s seconds, _bytes bytes,
 * _gib GiB (2^30 bytes), _gb_per_s GB/s (1e9 bytes/s), _days days of
 * 86,400 s, _flops FLOP/s, _per_s per second, _tokens tokens. */
#ifndef TMC_PLAN_H
#define TMC_PLAN_H

#include <stddef.h>

#include "closed_form.h"
#include "experiment.h"

#define TMC_GIB 1073741824.0 /* bytes */
#define TMC_GB 1e9           /* bytes */

/* ---------- memory (docs/model.md 1) ---------- */

/* Resident training state, bytes per parameter: weights + gradients +
 * master + Adam m + Adam v (docs/model.md 1: 2 + 2 + 4 + 4 + 4 = 16). */
double tmc_plan_state_bytes_per_param(const tmc_model *m);

/* Resident state per card, bytes, at ZeRO stage `zero_stage` over `cards`
 * cards (S. Rajbhandari et al., "ZeRO", SC 2020, fig. 1; docs/model.md 1 for
 * stage 3, 16P/d): stage 0 keeps everything on every card, stage 1 shards
 * the optimizer states (master, m, v), stage 2 also the gradients, stage 3
 * also the weights. Returns -1 if zero_stage is not 0-3 or cards < 1. */
double tmc_plan_state_card_bytes(const tmc_model *m, int zero_stage, long cards);

/* Activations and temporary buffers resident at the peak, GiB (reference
 * design 10.2: the peak is what lives at the same moment): activations +
 * buffer_count x buffer_gib when the buffers live together, activations +
 * one buffer_gib when they reuse one space. */
double tmc_plan_transient_gib(const tmc_memory *mem);

/* ---------- step (docs/model.md 1) ---------- */

/* Micro-batches per card per step m = ceil(batch / cards), one sequence per
 * card per micro-batch (docs/model.md 1: 12 at 32 cards, 8 at 48). Returns -1 if
 * an argument is below 1. */
long tmc_plan_micro_batches(long batch_sequences, long cards);

/* Bytes each card sends and receives per step under ZeRO-3 (docs/model.md 1):
 * per micro-batch two AllGathers of the weights (before the forward and the
 * backward) and one ReduceScatter of the gradients, each moving (d-1)/d of
 * the tensor: V = m (d-1)/d (2 w + g) P, with w and g the weight and
 * gradient bytes per parameter; for BF16 this is docs/model.md's 3 m (d-1)/d 2P
 * (385 GB at 48 cards). Returns -1 if cards < 1 or micro_batches < 0. */
double tmc_plan_link_bytes(const tmc_model *m, long cards, long micro_batches);

/* ---------- deadline (docs/model.md 1 and 5) ---------- */

/* Efficiency (MFU) at which a step fits its ceiling (docs/model.md 5; reference
 * design 10.5): the ceiling budget_step_s / (1 + overhead) minus fixed_s
 * (exposed communication + input wait, s) is the compute time allowed, and
 * compute time scales as 1 / efficiency, so the answer is
 * efficiency x compute_s / allowed. compute_s is the step's compute part at
 * `efficiency` (seconds; with jitter the expected maximum over the cards).
 * Overhead is Young's L at the current interval (first order: L barely moves
 * with the step time). Returns INFINITY when fixed_s alone fills the ceiling. */
double tmc_plan_efficiency_needed(double efficiency, double compute_s, double budget_step_s,
                                  double overhead, double fixed_s);

/* ---------- checkpoint and storage (docs/model.md 3.2 and 3.3) ---------- */

/* Bytes of a restorable snapshot: weights + master + Adam m + v per
 * parameter, gradients excluded (docs/model.md 3.2: 14 P = 114,670,295,040). */
double tmc_plan_checkpoint_bytes(const tmc_model *m);

/* Shortest snapshot period, seconds, that storage writing write_gb_per_s
 * GB/s absorbs: a shorter one produces bytes faster than they are written
 * and the backlog grows without bound (docs/model.md 3.3: 112 GB at 7 GB/s ->
 * 16 s, so every 10 s grows and every 20 s keeps up). It is also the save
 * time of one snapshot (docs/model.md 3.2: 16.38 s). INFINITY if write_gb_per_s
 * is 0. */
double tmc_plan_min_snapshot_period_s(double bytes, double write_gb_per_s);

/* ---------- input pipeline (docs/model.md 4) ---------- */

/* Sequences to hold in the prefetch queue so that a pause of
 * in->paused_processes for in->pause_s seconds never starves training:
 * (demand - supply during the pause) x pause, 0 if the remaining processes
 * keep up. demand_per_s = batch sequences / step time (docs/model.md 4: 76 at
 * 384 / 52.8 s). */
double tmc_plan_prefetch_sequences(const tmc_input_pipeline *in, double demand_per_s);

/* Seconds to refill `queue` sequences once every process runs again:
 * queue / (supply - demand) (docs/model.md 4: 105 s). INFINITY when supply does
 * not exceed demand; 0 for an empty queue. */
double tmc_plan_refill_s(const tmc_input_pipeline *in, double demand_per_s, double queue);

/* ---------- batch scaling (docs/model.md 1) ---------- */

/* Steps to reach the same loss at a batch of batch_tokens tokens:
 * S(B) = S_min (1 + B_noise / B) (McCandlish et al., "An Empirical Model of
 * Large-Batch Training", 2018; docs/model.md 1). Not rounded. batch_tokens must
 * be positive (0 gives INFINITY). */
double tmc_plan_critical_steps(double s_min, double noise_tokens, double batch_tokens);

/* ---------- scale-up (docs/model.md 1, F = 6ND) ---------- */

/* Days to train a dense model of `parameters` on `tokens` tokens, F = 6ND
 * FLOP, on `cards` cards of peak_flops FLOP/s at `efficiency` (docs/model.md 1:
 * 1T parameters, 20T tokens, 16,384 H100 at 40 % -> 214 days). The
 * arguments must be positive (a zero divisor gives INFINITY). */
double tmc_plan_6nd_days(double parameters, double tokens, double cards, double peak_flops,
                         double efficiency);

/* Cards needed to train it in `days` days: ceil(6ND / (days x 86,400 x
 * peak x efficiency)) (docs/model.md 1: about 17,147 B200 for 90 days). The
 * arguments must be positive (a zero divisor gives INFINITY). */
double tmc_plan_6nd_cards(double parameters, double tokens, double days, double peak_flops,
                          double efficiency);

/* ---------- the board ---------- */

typedef struct {
    int enabled;            /* "model" and "memory" given */
    double bytes_per_param; /* resident state, bytes per parameter (16) */
    double total_bytes;     /* P x bytes_per_param (131.1 GB) */
    double stage_gib[4];    /* state per card at ZeRO stage 0-3, GiB */
    double state_gib;       /* at memory.zero_stage, GiB (2.5 at 48 cards) */
    double transient_gib;   /* activations + buffers at the peak, GiB (10) */
    double card_gib;        /* state_gib + transient_gib (12.5) */
    double usable_gib;      /* (22) */
    double margin_gib;      /* usable - card; negative: over by that much */
    int fits;               /* card_gib <= usable_gib */
} tmc_plan_memory;

typedef struct {
    int enabled;          /* "model" and "batch" given */
    double batch_tokens;  /* sequences x sequence_tokens (3,145,728) */
    long steps;           /* ceil(train_tokens / batch_tokens) (31,790), -1 beyond LONG_MAX */
    double flop_per_step; /* sequences x flop_per_sequence, FLOP (1.655e17) */
} tmc_plan_work;

typedef struct {
    int enabled;             /* "model", "batch" and "interconnect" given */
    long micro_batches;      /* m per card per step */
    double bytes;            /* ZeRO-3 link volume per card per step, bytes */
    double link_s;           /* bytes / link bandwidth, s (12.0 at 48 cards) */
    double exposed_step_s;   /* t_s - exposed comm + link_s: prefetch fails, the whole
                                link is exposed in place of its exposed part (64.7) */
} tmc_plan_link;

typedef struct {
    double budget_step_s;       /* (deadline - reserve) x 86,400 / S (67.9) */
    double full_budget_step_s;  /* deadline x 86,400 / S, no reserve (81.5) */
    double ceiling_step_s;      /* budget / (1 + L) (67.2 at 48 cards) */
    double base_days;           /* S t_s / 86,400, no overhead, no reserve (19.4) */
    int meets;                  /* closed-form completion <= deadline */
    double efficiency_needed;   /* with Young's L (47 % at 32 cards) */
    double efficiency_needed_no_recovery; /* L = 0 */
} tmc_plan_deadline;

typedef struct {
    int enabled;              /* "model" and "storage" given */
    double bytes;             /* snapshot size (114,670,295,040) */
    double save_s;            /* = shortest period storage absorbs (16.38) */
    double interval_gb_per_s; /* bytes / interval: the write rate the interval asks */
} tmc_plan_checkpoint;

typedef struct {
    int enabled;                /* "input_pipeline" and "batch" given */
    double supply_per_s;        /* processes x rate, sequences/s (8) */
    double paused_supply_per_s; /* during the pause (6) */
    double demand_per_s;        /* batch / t_s (7.3) */
    double queue_sequences;     /* prefetch to ride out the pause (76) */
    double refill_s;            /* time to refill it (105) */
} tmc_plan_input;

typedef struct {
    int enabled;              /* "critical_batch", "batch" and "model" given */
    double batch_tokens;      /* B of the experiment */
    double s_min;             /* S / (1 + B_noise / B) */
    double ceiling;           /* 1 + B_noise / B: the most any batch growth saves (1.64x) */
    long cards;               /* critical_batch.scale_to_cards */
    double base_days;         /* S t_s / 86,400 at the experiment's cards (19.4) */
    double weak_batch_tokens; /* B x cards / job cards (about 100M at 1,536) */
    double weak_steps;        /* S(weak batch) */
    double weak_step_s;       /* t_s with each card's work unchanged */
    double weak_days;         /* (12.1) */
    double strong_step_s;     /* t_s with the batch split over more cards */
    double strong_days;       /* S x strong_step_s / 86,400 */
} tmc_plan_scaling;

typedef struct {
    const char *name;    /* "A100", "H100", "B200" */
    double peak_flops;   /* BF16 dense peak, FLOP/s */
    double days;         /* at scale_up.cards */
    int meets;           /* days <= scale_up.deadline_days */
    double cards_needed; /* for scale_up.deadline_days */
} tmc_plan_accelerator;

#define TMC_PLAN_ACCELERATORS 3

typedef struct {
    int enabled;  /* "scale_up" given */
    double flop;  /* 6ND */
    tmc_plan_accelerator acc[TMC_PLAN_ACCELERATORS];
} tmc_plan_scale_up;

typedef struct {
    tmc_closed_form cf; /* step, Young, completion (closed_form.h) */
    tmc_plan_memory memory;
    tmc_plan_work work;
    tmc_plan_link link;
    tmc_plan_deadline deadline;
    tmc_plan_checkpoint checkpoint;
    tmc_plan_input input;
    tmc_plan_scaling scaling;
    tmc_plan_scale_up scale_up;
    tmc_spare_pool_form spares; /* the pool a run needs (docs/model.md 3.21) */
} tmc_plan;

/* Fill *p from a validated experiment; a part whose sections are absent has
 * enabled = 0 and its other fields unspecified. */
void tmc_plan_compute(const tmc_experiment *x, tmc_plan *p);

/* The feasibility line of docs/model.md 1's memory check (GiB), written to
 * line[n] (truncated to fit), e.g. "memory: 12.54 of 22.00 GiB per card
 * (ZeRO-3 state 2.54 + activations and buffers 10.00 GiB): fits, margin
 * 9.46 GiB". Returns 1 if the state fits, 0 if it does not, -1 if the
 * experiment has no "model" or no "memory" section (not checked; the line
 * says so). */
int tmc_plan_feasibility(const tmc_experiment *x, char *line, size_t n);

#endif
