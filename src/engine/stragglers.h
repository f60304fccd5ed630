/* stragglers.h - the compute time of steps: the slowest of N cards under
 * jitter, periodic pauses and slow cards (docs/reference/simulation-semantics.md, 2).
 *
 * A step's slowest-card time is drawn in O(1) whatever N (dist.h). Pauses
 * fall on steps k, 2k, ... of the run: all cards stop for p, or one does,
 * so that step's slowest card is max(A_{N-1}, B + p), drawn from exact
 * samplers of N - 1 and 1 cards. Slow cards: each card is slow with
 * probability f for the whole run (S ~ Binomial(N, f) per replica), its time
 * factor x a normal card's; a step is then max(max of N - S normal cards,
 * factor x max of S), each group's maximum drawn exactly. Detection after W
 * completed steps with them lets the engine evict them at its next commit.
 *
 * Modes: steps draws every step, stopping at the first one past a limit;
 * segments draws a segment's sum at once from its exact law
 * (segment_law.h) when the segment may be drawn whole, decided before
 * drawing (tmc_stragglers_segment): no slow card in the job, no one-card
 * pause in it, a law built for its length (K, the last segment, a
 * forecast's first) within TMC_SEGMENT_MAX_ERROR_SIGMA, and the engine
 * needs no step's end inside it (an arrival with notice that could fall
 * before its longest possible end). Otherwise it is drawn step by step.
 *
 * Invariant: the draws of a segment depend only on the jitter stream and
 * the segment (first step, length, slow cards), never on the other
 * processes, so a replica's steps are the same whatever interrupts them. */
#ifndef TMC_STRAGGLERS_H
#define TMC_STRAGGLERS_H

#include <signal.h>

#include <gsl/gsl_rng.h>

#include "closed_form.h"
#include "experiment.h"
#include "dist.h"
#include "segment_law.h"
#include "slowdown.h"

/* A segment law whose measured error bound (units of its sd) is above this
 * is not used: that length is drawn step by step. */
#define TMC_SEGMENT_MAX_ERROR_SIGMA 0.02
/* Segment lengths with a law of their own: K, the last segment, a
 * forecast's first. */
#define TMC_SEGMENT_LAWS 3
/* Blocks of 2, 4, ..., 2^TMC_BLOCK_LAWS whole segments of K steps with a
 * law of their own (tmc_stragglers_init_blocks). */
#define TMC_BLOCK_LAWS 5
/* Draws stop to look at a stop request every this many steps (a power of 2). */
#define TMC_STEPS_PER_STOP_CHECK 65536

/* Constants of the compute time, derived once from an experiment. */
typedef struct {
    int segments;           /* 1: segments mode, 0: steps */
    tmc_segment_law law[TMC_SEGMENT_LAWS]; /* by length; n = 0: none */
    tmc_segment_law block[TMC_BLOCK_LAWS]; /* block[b]: the law of 2^(b+1) K steps */
    int blocks;             /* block laws in use (0: none); with no jitter, every
                               block is exact without a law */
    long block_steps;       /* 2 K: block b holds block_steps << b steps */
    double law_error;       /* the largest error bound of the laws in use, sds */
    size_t law_bytes;       /* their tables' memory */
    double fixed_s;         /* exposed comm + input wait per step, s */
    tmc_max_sampler max;    /* slowest-card compute time per step */
    long pause_every;       /* k: a pause on steps k, 2k, ... (0: none) */
    double pause_s;         /* pause length, s */
    int pause_one;          /* 1: one card pauses; 0: all do */
    tmc_max_sampler rest;   /* pause_one: the other N - 1 cards (independent part) */
    tmc_max_sampler single; /* pause_one: the pausing card (independent part) */
    long cards;             /* N */
    double slow_fraction, slow_factor; /* slow cards (0: none) */
    long detect_after;      /* steps until slow cards are detected (0: never) */
    tmc_slowdown drift;     /* slowdown: a step's slowest-card time times 1 +
                               tmc_slowdown_extra(h) (drift.enabled 0: none) */
    int ahead;              /* 1: every step is plain (steps mode, independent jitter
                               only, no pauses, no slow cards): steps are drawn
                               ahead of use (tmc_stragglers) */
} tmc_straggler_model;

/* Steps (steps mode) or the K law's segment sums (segments mode) drawn
 * ahead of use, at most TMC_AHEAD at a time. */
#define TMC_AHEAD 256

/* One replica's slow cards, and the steps drawn ahead. Drawing ahead: when
 * every draw of the jitter stream is a plain step's (model.ahead), the
 * draws do not depend on where segments end or interruptions fall, so they
 * are made TMC_AHEAD at a time, across segments, and used in order; the
 * steps used are exactly those drawn one by one. prefix[j] is the sum of
 * the first j draws held, so a stretch of steps costs one subtraction. */
typedef struct {
    long slow;      /* slow cards still in the job */
    long steps_run; /* steps completed while slow cards were in the job */
    double steps_simulated; /* accounting.h */
    int used, held;                 /* draws held ahead: used of held */
    double prefix[TMC_AHEAD + 1];
    long done_steps; /* after a segment cut at its limit: the steps completed */
    double done_sum; /* before it and their summed slowest-card time, s */
    double fresh_at; /* the drift's origin: the job's last (re)start, s */
    double drift_s;  /* of the last segment's sum, what the drift added, s ... */
    double done_drift_s; /* ... and of done_sum, s */
} tmc_stragglers;

/* Build from a validated experiment and its closed form (the compute time
 * per step, cf->compute_s, and K, cf->interval_steps); in segments mode
 * also the laws of the segment lengths that recur, on up to `threads`
 * threads (the same tables whatever the count). Returns 0, or -1 if
 * memory runs out or a moment quadrature fails. Free with
 * tmc_stragglers_free. */
int tmc_stragglers_init(tmc_straggler_model *m, const tmc_experiment *x,
                        const tmc_closed_form *cf, int segments, int threads);
void tmc_stragglers_free(tmc_straggler_model *m);

/* Laws for blocks of 2, 4, ... whole segments of K steps (segments mode,
 * after tmc_stragglers_init; the engine asks for them when a run of
 * commits can be drawn at once: engine.c). Stops at the first block whose
 * law's error is above TMC_SEGMENT_MAX_ERROR_SIGMA. The laws are built on
 * up to `threads` threads. Returns 0, or -1 if memory runs out. Source:
 * docs/reference/simulation-semantics.md 2. */
int tmc_stragglers_init_blocks(tmc_straggler_model *m, const tmc_experiment *x,
                               const tmc_closed_form *cf, int threads);

/* Block b (2^(b+1) segments of K steps, no slow card, no pause of one
 * card): the largest summed slowest-card time it can draw, s (pauses not
 * included). */
double tmc_stragglers_block_max(const tmc_straggler_model *m, int b);

/* The steps of block b: block_steps << b (2^(b+1) segments of K). */
static inline long tmc_stragglers_block_steps(const tmc_straggler_model *m, int b)
{
    return m->block_steps << b;
}

/* Fetch into the cache what the next draw of r (the jitter stream) reads
 * in every block law, before the engine knows which block it will draw:
 * a table read is the block's costliest part. Changes no value. */
void tmc_stragglers_block_prefetch(const tmc_straggler_model *m, const gsl_rng *r);

/* Block b's summed slowest-card time, s (pauses not included), one draw of
 * r; counts its steps as simulated. */
double tmc_stragglers_block(const tmc_straggler_model *m, tmc_stragglers *s, int b, gsl_rng *r);

/* A replica's slow cards, drawn from r (its slow-card stream). */
void tmc_stragglers_start(const tmc_straggler_model *m, tmc_stragglers *s, gsl_rng *r);

/* Paused steps among steps first + 1 .. first + n. */
static inline long tmc_stragglers_paused(const tmc_straggler_model *m, long first, long n)
{
    long k = m->pause_every;
    return k ? (first + n) / k - first / k : 0;
}

/* What tmc_stragglers_segment sets *cut to. */
enum {
    TMC_CUT_NONE = 0,
    TMC_CUT_LIMIT = 1, /* a step ended past the limit */
    TMC_CUT_STOP = 2   /* a stop was requested (tmc_stop_request) */
};

/* The summed slowest-card compute time of steps first + 1 .. first + n,
 * pauses included, seconds, starting at wall time t; each step also costs
 * fixed_s. Drawn whole (segments mode, when it may be: the header) when
 * `notice` is 0 or the segment's longest possible end comes before
 * `limit`: the sum is then the segment's whole, past the limit or not.
 * Otherwise steps are drawn one by one and stop at the first step ending
 * past `limit` (*cut = TMC_CUT_LIMIT) or at a stop request (*cut =
 * TMC_CUT_STOP; *stop is read every TMC_STEPS_PER_STOP_CHECK steps); the
 * sum then holds the steps drawn, and after a cut at the limit
 * s->done_steps and s->done_sum the steps completed before it. notice: 1
 * when the engine needs the steps completed by `limit` (an emergency save).
 * r: the jitter stream (a tmc_rng_pcg32 generator). */
double tmc_stragglers_segment(const tmc_straggler_model *m, tmc_stragglers *s, long first,
                              long n, double t, double limit, int notice, gsl_rng *r,
                              const volatile sig_atomic_t *stop, int *cut);

/* 1 when slow cards have been detected and must be evicted. */
static inline int tmc_stragglers_evict_due(const tmc_straggler_model *m,
                                           const tmc_stragglers *s)
{
    return s->slow > 0 && m->detect_after > 0 && s->steps_run >= m->detect_after;
}

#endif
