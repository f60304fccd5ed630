/* train_step_fit.h - `trainmc fit --steps LOG --cards N` on a training
 * framework's log (train_log.h: Megatron-LM's iteration lines or
 * --step-regex's): the per-card jitter fitted from the step times the log
 * prints, which are the slowest card's (docs/fit.md 12).
 *
 * Under trainmc's model with jitter.correlation 0 and the normal law, one
 * step takes T = mu (1 + cv M_N), M_N the maximum of N standard normals,
 * so E[T] = mu (1 + c_N cv) and sd[T] = mu cv s_N, with c_N = E[M_N] and
 * s_N = sd[M_N] (tmc_dist_normal_max_moments, dist.h). A printed value Y_i
 * is the mean of the L_i steps since the line before (the log interval),
 * so var(Y_i) = sd[T]^2 / L_i. The two moments give mu and cv; they cannot
 * tell a correlated or a skewed per-card law from this one, which is
 * assumed. Times are in seconds. */
#ifndef TMC_TRAIN_STEP_FIT_H
#define TMC_TRAIN_STEP_FIT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "error.h"
#include "train_log.h"

/* A figure, its delta-method standard error and its normal interval. */
typedef struct {
    double value, se, lo, hi;
} tmc_train_step_figure;

typedef struct {
    double confidence;
    long cards;          /* N */
    double c_n, s_n;     /* E and sd of the maximum of N standard normals */
    int lines;           /* iteration lines read */
    int intervals;       /* k: the printed values fitted, L_i > 0 (a start's first
                            line holds its start-up: left out) */
    long iterations;     /* W = sum L_i */
    long l_min, l_max;   /* the smallest and largest L_i */
    int restarts;        /* starts after the first (train_log.h) */
    /* m = sum L_i Y_i / W; sigma^2 = sum L_i (Y_i - m)^2 / (k - 1), unbiased
     * for sd[T]^2 when var(Y_i) = sd[T]^2 / L_i */
    tmc_train_step_figure pace_s; /* m: the mean step time (the pace) */
    double step_sd_s;             /* sigma: the sd of one step's time */
    tmc_train_step_figure mu_s;   /* m - c_N sigma / s_N: a card's mean time */
    tmc_train_step_figure cv;     /* sigma / (s_N mu) */
} tmc_train_step_fit;

/* 1 when the file at path is a CSV step-time log (step_fit.h): its name
 * ends in ".csv" (any case), or its first line that is neither blank nor a
 * `#` comment (a byte-order mark skipped) has a comma-separated field
 * "step"; 0 when it is a training log; -1 when it cannot be opened (the
 * caller's reader says why). */
int tmc_train_step_is_csv(const char *path);

/* Fit log for cards N >= 1 at confidence (0, 1). The SEs by the delta
 * method on (m, sigma^2), their variances and covariance from the data:
 * var(m) = sigma^2 / W, var(sigma^2) = (sum L_i^2 d_i^4 - k sigma^4) / k^2,
 * cov = sum L_i^2 d_i^3 / (W k), d_i = Y_i - m (docs/fit.md 12). 0, or -1
 * with err: fewer than 3 printed values with L_i > 0, values all equal (no
 * spread), or a spread so wide that mu would not be positive. */
int tmc_train_step_fit_compute(const tmc_train_log *log, long cards, double confidence,
                               tmc_train_step_fit *r, tmc_error *err);

/* The reports (train_step_output.c): text, answer first; JSON; and the
 * jitter distribution file --write writes (normal, cv, correlation 0, a
 * source naming the log and N, a description with every interval and what
 * is assumed); NULL when memory runs out or cv is outside jitter.cv's
 * range. path: the log as given; form: "Megatron-LM" or "--step-regex". */
void tmc_train_step_output_text(FILE *f, const tmc_train_step_fit *r, const tmc_train_log *log,
                                const char *path, const char *form);
cJSON *tmc_train_step_output_json(const tmc_train_step_fit *r, const tmc_train_log *log,
                                  const char *path, const char *form);
cJSON *tmc_train_step_output_distribution(const tmc_train_step_fit *r, const char *path,
                                          const char *form);

#endif
