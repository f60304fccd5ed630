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
#include "runner.h"

#define TMC_IMPORTANCE_FIRST_PILOT 1000000000000L /* pilot replicas start here */

typedef struct {
    double theta[TMC_TILTS]; /* multipliers used: rates of failures, outages,
                                spikes; means of repair times, outage downtimes */
    int levels;           /* cross-entropy levels run (0: a given tilt) */
    long pilot_replicas;  /* replicas per pilot level */
    long replicas;
    double p_miss, se;    /* P(T > deadline) and its standard error */
    double ess;           /* effective sample size (sum w)^2 / sum w^2 */
    long misses;          /* replicas that missed (under the tilt) */
    double pareto_k;      /* k-hat of the tail of w 1{miss}, the terms P(miss)'s estimate
                             sums (tmc_importance_pareto_k); NaN with fewer than 5 misses */
    double pareto_k_weights; /* the same over all weights, w (the self-normalised
                                estimator's diagnostic; reported for comparison) */
    /* When k-hat says the estimate's interval has no basis (tmc_importance_trusted):
     * plain Monte Carlo over replicas 0 .. plain_replicas - 1 instead, sized for a
     * 10 % relative error from the estimate (plain_needed = 100 / p_miss), if
     * that is at most the caller's limit (else plain_replicas is 0). */
    long plain_needed;    /* 0 when the estimate is trusted, or is 0 (nothing to size
                             plain Monte Carlo from) */
    long plain_max;       /* the caller's limit on plain_needed */
    long plain_replicas, plain_misses;
    double plain_p, plain_lo, plain_hi; /* misses / replicas, Wilson 95 % interval */
} tmc_importance;

/* Above k-hat 1/2 the terms' variance is infinite in effect, so a standard
 * error and a normal interval have no basis; above 0.7 even the estimate
 * converges too slowly to be used (Vehtari, Simpson, Gelman, Yao and Gabry,
 * "Pareto smoothed importance sampling", JMLR 25(72), 2024, section 3). On
 * design-48-rare-misses at 34 days every one of 50 seeds had k-hat > 0.5 and
 * only 25 of their intervals covered the truth, whatever k-hat below 0.7 said
 * (reports/importance-coverage.md): 0.5 is where the interval stops. */
#define TMC_PARETO_K_UNRELIABLE 0.7
#define TMC_PARETO_K_CAUTION 0.5

/* The default limit on the plain replicas run in place of an untrusted
 * estimate (tmc_importance_check_plain). */
#define TMC_IMPORTANCE_PLAIN_MAX 10000000L

/* Fit a generalised Pareto distribution to exceedances x[0..n-1] (sorted
 * ascending, positive) by Zhang and Stephens (2009, Technometrics 51(3)),
 * as PSIS does: the posterior mean of theta = -k / sigma over a grid of
 * 30 + floor(sqrt(n)) points with prior 3; with wip, k shrunk towards 0.5
 * by the weakly informative prior of Vehtari et al. (k n / (n + 10) +
 * 5 / (n + 10)). Shape *k (> 0: a heavy tail, no variance from k >= 0.5),
 * scale *sigma. Returns 0, or -1 (n < 5, memory). */
int tmc_gpd_fit(const double *x, long n, int wip, double *k, double *sigma);

/* PSIS's Pareto k-hat of the values v[0..n-1] (nonnegative; v is sorted in
 * place): a GPD fitted (wip) to the exceedances of the M = ceil(min(n / 5,
 * 3 sqrt(n))) largest over the next largest, zero exceedances left out.
 * NaN with fewer than 5 positive exceedances. */
double tmc_importance_pareto_k(double *v, long n);

/* Choose the tilt by cross-entropy with `pilot` replicas per level (at most
 * 30 levels, rho = 0.1). e is left untilted. Returns 0; TMC_IMPORTANCE_INVALID
 * with err when nothing the experiment draws can be tilted; or -1 with err
 * (no pilot replica reached a level, memory, or an interruption). */
int tmc_importance_choose(tmc_engine *e, long pilot, uint64_t seed, int threads,
                          tmc_importance *out, tmc_error *err);

/* Estimate P(miss) with out->theta on replicas 0 .. replicas - 1 (streams of
 * (seed, k), as in a plain run). e is left untilted. Returns 0, or -1. */
int tmc_importance_estimate(tmc_engine *e, long replicas, uint64_t seed, int threads,
                            tmc_importance *out, tmc_error *err);

/* 1 when the estimate's normal interval can be used: at least 5 tilted
 * misses and k-hat <= TMC_PARETO_K_CAUTION. */
int tmc_importance_trusted(const tmc_importance *out);

/* After tmc_importance_estimate: when the estimate is not trusted, run plain
 * (untilted) replicas 0 .. N - 1 with N = ceil(100 / p_miss) (a 10 % relative
 * error), the same replicas as a plain run of N, if N <= max_replicas (when
 * p_miss is 0 there is no N: plain_needed 0, nothing run). Collective, like the runner;
 * progress may be NULL. Returns 0 (also when trusted or not run), or a runner
 * code with err set. */
int tmc_importance_check_plain(tmc_engine *e, long max_replicas, uint64_t seed, int threads,
                               tmc_progress_fn progress, void *ctx, tmc_importance *out,
                               tmc_error *err);

/* "F,O,S" or "F,O,S,R,D": three or five positive finite multipliers into
 * theta (R and D default to 1; theta may be NULL to only check). Returns 0,
 * or -1. */
int tmc_importance_parse_tilt(const char *s, double theta[TMC_TILTS]);

/* 0 if every multiplier of theta that is not 1 can be applied to e's
 * processes (Poisson rates, not per-card lifetimes or replayed traces;
 * exponential repair times) and changes something (the process is there:
 * arrivals, repairs with a spare pool or none, lognormal downtimes), else
 * -1 with err naming the one that cannot. */
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
