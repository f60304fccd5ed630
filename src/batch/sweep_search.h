/* sweep_search.h - the evaluations of one bisection (tmc_sweep_bisect,
 * sweep.h), kept for its report: each value's setting is loaded, judged by
 * the caller, run with the base's replicas and seed (common random
 * numbers) and its metric estimated. `trainmc sweep --target` and
 * `trainmc rescue` (rescue.h) bisect through it; it prints nothing.
 *
 *   tmc_sweep_search_init      borrows the base and the target, allocates;
 *   tmc_sweep_search_seed      records a value already simulated (optional);
 *   tmc_sweep_search_evaluate  is the tmc_sweep_eval_fn to bisect with;
 *   tmc_sweep_search_free      after any of them. */
#ifndef TMC_SWEEP_SEARCH_H
#define TMC_SWEEP_SEARCH_H

#include "sweep.h"

#define TMC_SWEEP_MAX_EVALUATIONS (TMC_SWEEP_MAX_BISECTIONS + 2)

/* search->failure after a refused setting: the value cannot be loaded (err
 * says why) or the caller's check refused it (and said why itself). */
#define TMC_SWEEP_SEARCH_REFUSED 2

/* Judge setting s before it runs (memory, whether it can finish); 0 to run
 * it, else it is refused: why[n] says why, or is left empty when the check
 * has said why itself (the command line's, on stderr). */
typedef int (*tmc_sweep_check_fn)(const tmc_sweep_setting *s, void *ctx, char *why, size_t n);

typedef struct {
    const tmc_sweep_base *base;     /* borrowed; one key */
    const tmc_sweep_target *target; /* borrowed */
    int threads;                    /* >= 1 */
    tmc_progress_fn progress;       /* per evaluation (runner.h); NULL: none */
    void *progress_ctx;
    const volatile sig_atomic_t *stop; /* NULL: the process's (tmc_stop_request) */
    tmc_sweep_check_fn check;       /* NULL: run every setting */
    void *check_ctx;
    int n;                          /* evaluations made, in order: */
    tmc_sweep_setting *settings;    /* [TMC_SWEEP_MAX_EVALUATIONS] */
    tmc_sweep_result *results;      /* [TMC_SWEEP_MAX_EVALUATIONS] */
    double *days, *restarts;        /* [replicas]: one evaluation's, scratch */
    /* after tmc_sweep_search_evaluate failed: TMC_SWEEP_SEARCH_REFUSED,
     * TMC_RUNNER_STOPPED (a stop was requested), or -1 (memory) */
    int failure;
} tmc_sweep_search;

/* Borrow base and target (both must outlive s) and allocate for
 * TMC_SWEEP_MAX_EVALUATIONS evaluations of the base's replicas. threads,
 * progress and check are the caller's to set after. Returns 0, or -1 with
 * err = "out of memory ..." (s then needs tmc_sweep_search_free too). */
int tmc_sweep_search_init(tmc_sweep_search *s, const tmc_sweep_base *base,
                          const tmc_sweep_target *target, tmc_error *err);

/* Record r, the result of the base's setting at `value` simulated before
 * with the same replicas and seed (the plan as it stands), as an evaluation:
 * the setting is loaded (for its label and closed form), not run. Returns 0,
 * or -1 with err (the validation table's message, or too many). */
int tmc_sweep_search_seed(tmc_sweep_search *s, double value, const tmc_sweep_result *r,
                          tmc_error *err);

/* A tmc_sweep_eval_fn (ctx: a tmc_sweep_search): the metric at `value`. A
 * value evaluated before gives its recorded metric again (no new run, no new
 * evaluation); any other is loaded, checked, run and recorded. Returns 0, or
 * -1 with err and s->failure set (err empty when the check refused it). */
int tmc_sweep_search_evaluate(double value, void *ctx, double *metric, tmc_error *err);

/* The index of the evaluation at `value` (the last one made there); 0 when
 * none is. */
int tmc_sweep_search_find(const tmc_sweep_search *s, double value);

/* Frees what s holds, every evaluation's experiment included (not the
 * base's, which s borrows). */
void tmc_sweep_search_free(tmc_sweep_search *s);

#endif
