/* step_fit.h - `trainmc fit --steps`: the per-card jitter of trainmc's
 * model (docs/model.md 2, docs/reference/simulation-semantics.md 2) fitted to a
 * step-time log, a compute time per rank and step (docs/fit.md 9).
 *
 * trainmc's jitter: card i's compute time in step j is X_ij with mean mu and
 * sd cv mu, and for the normal law a share rho of the variance common to
 * every card of the step, X_ij = mu (1 + cv (sqrt(rho) Z_j + sqrt(1 - rho)
 * Z_ij)). In variance components (one-way random effects, steps the groups)
 * sigma_b^2 = rho cv^2 mu^2 is the between-step component and sigma_w^2 =
 * (1 - rho) cv^2 mu^2 the within-step one; so cv = sqrt(sigma_b^2 +
 * sigma_w^2) / mu and rho = sigma_b^2 / (sigma_b^2 + sigma_w^2), the
 * intraclass correlation. Times are in seconds. */
#ifndef TMC_STEP_FIT_H
#define TMC_STEP_FIT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "error.h"

/* A step-time log: n_steps x n_ranks compute times, seconds (> 0). */
typedef struct {
    int n_steps, n_ranks;
    double *x;        /* x[j * n_ranks + i]: step j, rank i; malloc'd */
    long *step;       /* the step ids, increasing */
    char **rank;      /* the rank ids (long form: increasing numbers) */
    int wide;         /* 1: read from the wide form (a column per rank) */
} tmc_step_log;

/* Read a CSV step-time log. Long form: a header naming the columns step,
 * rank and seconds (any order; other columns ignored), then one compute
 * time a line, rows in any order; step and rank integers >= 0, every step
 * with every rank exactly once. Wide form: a header `step,R1,R2,...`
 * without a `rank` column, then one step a line with a time per rank.
 * `#` lines and blank lines are skipped. 0, or -1 with err naming the file
 * and line ("PATH:LINE: ..."): a missing column, a time that is not a
 * number > 0, a step without some rank or with one twice (ragged steps), a
 * line with another number of fields than the header, fewer than 2 steps
 * or 2 ranks. log is zeroed first and left empty on failure. */
int tmc_step_log_read_csv(const char *path, tmc_step_log *log, tmc_error *err);

/* The same from a matrix (copied): x[j * n_ranks + i]; steps numbered 0.. and
 * ranks "0".. (tests). 0, or -1 with err. */
int tmc_step_log_from_matrix(const double *x, int n_steps, int n_ranks, tmc_step_log *log,
                             tmc_error *err);

void tmc_step_log_free(tmc_step_log *log);

enum { TMC_STEP_LAW_NORMAL, TMC_STEP_LAW_LOGNORMAL, TMC_STEP_LAW_GAMMA, TMC_STEP_LAWS };

/* One law fitted by ML to the normalised times y_ij = x_ij / (mean of step
 * j over the ranks kept): the step's common part divided out, leaving the
 * card's own spread. normal: p1 = mean, p2 = sd (1/N); lognormal: p1, p2 =
 * mean and sd (1/N) of ln y; gamma: p1 = shape k solving ln k - psi(k) =
 * ln(mean y) - mean(ln y) (Choi and Wette 1969; GSL's Brent root finder),
 * p2 = scale mean(y) / k. */
typedef struct {
    const char *name; /* as jitter.distribution: normal, lognormal, gamma */
    double p1, p2;
    double loglik, aic; /* aic = 2 x 2 - 2 loglik (Akaike 1974) */
    int ok;
} tmc_step_law;

typedef struct {
    double confidence;
    int n_steps, n_ranks; /* of the log */
    int n_kept;           /* ranks left after the slow ones are set aside */
    /* persistently slow ranks: z of each rank's mean against the mean of the
     * others, z_i = (m_i - mean of the other m) / sqrt(MSE n / (a (n - 1))),
     * MSE the rank x step residual mean square of the two-way layout
     * (step and rank effects removed), on (a - 1)(n - 1) dof; slow when
     * z_i > Phi^-1(1 - alpha / n) (one-sided, Bonferroni over the n ranks) */
    double *rank_mean, *rank_z; /* n_ranks each, malloc'd */
    int *slow;                  /* n_ranks flags */
    int n_slow;
    double z_threshold, mse;
    /* one-way ANOVA of the kept ranks, steps the groups (a steps, n' ranks):
     * MSB = n' sum_j (r_j - G)^2 / (a - 1), MSW = sum (x_ij - r_j)^2 /
     * (a (n' - 1)), sigma_b^2 = max(0, (MSB - MSW) / n'), sigma_w^2 = MSW
     * (Searle, Casella and McCulloch, Variance Components, 1992, 3.5) */
    double grand_mean_s, msb, msw, sigma_b2, sigma_w2;
    double cv, cv_se, cv_lo, cv_hi;   /* sqrt(sigma_b^2 + sigma_w^2) / G, delta-method SE */
    double rho, rho_lo, rho_hi;       /* sigma_b^2 / (sigma_b^2 + sigma_w^2), exact F interval */
    double f, f_p;                    /* F = MSB / MSW on (a - 1, a (n' - 1)) dof, P(F' > F) */
    tmc_step_law law[TMC_STEP_LAWS];
    int best;                         /* the lowest AIC */
    /* c_N: (mean over steps of max over the kept ranks - G) / sigma_w, its
     * SE sd_j(M_j - r_j) / (sigma_w sqrt a), and the closed forms: c_N of
     * n' normals (quadrature, tmc_dist_normal_emax) and (E[max] - mu) /
     * sigma_w under the fitted law, cv and rho (tmc_dist_expected_max) */
    double cn_empirical, cn_se, cn_normal, cn_law;
    double step_max_mean_s, step_max_sd_s; /* the slowest card's time per step */
    double step_mean_sd_s;                  /* sd over steps of the step means r_j */
} tmc_step_fit;

/* Fit log at `confidence` (of every interval and of the slow-rank test).
 * 0, or -1 with err (fewer than 2 steps or 2 ranks left, times all equal,
 * no memory). */
int tmc_step_fit_compute(const tmc_step_log *log, double confidence, tmc_step_fit *out,
                         tmc_error *err);

void tmc_step_fit_free(tmc_step_fit *f);

/* The text report, the JSON report, and a jitter distribution file
 * (docs/reference/experiment-keys.md, Jitter): distribution = the best law, cv, and
 * for the normal the correlation, with a "source" naming the log and a
 * "description" with every interval. path: the log, as given. The file is
 * NULL (and *why says why) when the fitted cv lies outside the range the
 * law accepts in an experiment, or memory ran out. */
void tmc_step_fit_output_text(FILE *f, const tmc_step_fit *r, const tmc_step_log *log,
                              const char *path);
cJSON *tmc_step_fit_output_json(const tmc_step_fit *r, const tmc_step_log *log,
                                const char *path);
cJSON *tmc_step_fit_output_distribution(const tmc_step_fit *r, const char *path,
                                        const char **why);

#endif
