/* importance.h - small miss probabilities by importance sampling (issue 8).
 *
 * A miss of the deadline is rare when it takes many interruptions. The
 * replicas are run under tilted interruption processes (rates multiplied by
 * theta_k: more failures, outages, spikes) and each is weighted by its
 * likelihood ratio w = prod_k theta_k^-N_k exp((theta_k - 1) lambda_k A_k)
 * (engine.h; A_k the time process k could strike in), so that P(miss) =
 * E_tilted[w 1{miss}] exactly, with a standard
 * error from the weighted sample (Rubinstein and Kroese, The Cross-Entropy
 * Method, 2004, chapters 1 and 3).
 *
 * The tilt is chosen by the multilevel cross-entropy method: pilot runs find
 * the (1 - rho) quantile gamma of the completion time, raise it towards the
 * deadline, and move each Poisson rate to its weighted maximum-likelihood
 * value among the pilot replicas at least gamma long: lambda_k' = sum(w N_k)
 * / sum(w T). Pilots draw from replicas far from those of the estimate (their
 * own streams), so the estimate stays unbiased. */
#ifndef TMC_IMPORTANCE_H
#define TMC_IMPORTANCE_H

#include "engine.h"
#include "error.h"

#define TMC_IMPORTANCE_FIRST_PILOT 1000000000000L /* pilot replicas start here */

typedef struct {
    double theta[TMC_TILTS]; /* multipliers used: rates of failures, outages,
                                spikes; means of repair times, outage downtimes */
    int levels;           /* cross-entropy levels run (0: a given tilt) */
    long pilot_replicas;  /* replicas per pilot level */
    long replicas;
    double p_miss, se;    /* P(T > deadline) and its standard error */
    double ess;           /* effective sample size (sum w)^2 / sum w^2 */
} tmc_importance;

/* Choose the tilt by cross-entropy with `pilot` replicas per level (at most
 * 30 levels, rho = 0.1). e is left untilted. Returns 0, or -1 with err set
 * (no pilot replica reached a level, memory, or an interruption). */
int tmc_importance_choose(tmc_engine *e, long pilot, uint64_t seed, int threads,
                          tmc_importance *out, tmc_error *err);

/* Estimate P(miss) with out->theta on replicas 0 .. replicas - 1 (streams of
 * (seed, k), as in a plain run). e is left untilted. Returns 0, or -1. */
int tmc_importance_estimate(tmc_engine *e, long replicas, uint64_t seed, int threads,
                            tmc_importance *out, tmc_error *err);

/* "F,O,S" or "F,O,S,R,D": three or five positive finite multipliers into
 * theta (R and D default to 1; theta may be NULL to only check). Returns 0,
 * or -1. */
int tmc_importance_parse_tilt(const char *s, double theta[TMC_TILTS]);

/* 0 if every multiplier of theta that is not 1 can be applied to e's
 * processes (Poisson rates, not per-card lifetimes or replayed traces;
 * exponential repair times), else -1 with err naming the one that cannot. */
int tmc_importance_check_tilt(const tmc_engine *e, const double theta[TMC_TILTS],
                              tmc_error *err);

#define TMC_IMPORTANCE_INVALID 2 /* a given tilt the experiment cannot take */

/* The first step for a command line's --importance MODE, before any other
 * simulation so that it fails early: "auto" chooses the tilt by the pilots;
 * a given tilt "F,O,S[,R,D]" is parsed and checked against e. Returns 0,
 * TMC_RUNNER_STOPPED, TMC_IMPORTANCE_INVALID (a bad given tilt), or -1 (the
 * pilots failed, memory) with err set. */
int tmc_importance_prepare(tmc_engine *e, const char *mode, long pilot, uint64_t seed,
                           int threads, tmc_importance *out, tmc_error *err);

/* Both steps: tmc_importance_prepare, then the estimate on `replicas`.
 * Returns as tmc_importance_prepare, or as tmc_importance_estimate. */
int tmc_importance_run(tmc_engine *e, const char *mode, long pilot, long replicas,
                       uint64_t seed, int threads, tmc_importance *out, tmc_error *err);

#endif
