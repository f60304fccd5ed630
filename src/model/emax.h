/* emax.h - c_N = E[max of N standard normals] four ways, for `trainmc emax`:
 * GSL quadrature (dist.h), the engine's O(1) maximum sampler, brute force
 * (N explicit normal draws) and asymptotic approximations; and the expected
 * step time mu + c_N sigma + fixed it implies (docs/model.md 2).
 *
 * Simulation streams: replica k draws from PCG stream (seed, k,
 * TMC_STREAM_JITTER), the stream the engine's replica k draws its step maxima
 * from (rng_pcg.h), re-seeded for every N: the sampler uses the stream's first
 * output, brute force the outputs after it (so the two use disjoint random
 * numbers). Hence an estimate depends on (N, replicas, seed) only: not on the
 * thread or rank count (ranks.h), nor on which other N are asked for. Estimates at different N
 * share their uniforms (common random numbers), so their errors are
 * positively correlated across N. */
#ifndef TMC_EMAX_H
#define TMC_EMAX_H

#include <stdint.h>

#include "error.h"

/* Sample statistics of one simulated quantity (here: the maximum). */
typedef struct {
    long replicas; /* 0: not simulated (then the rest is NaN) */
    double mean;   /* sample mean */
    double se;     /* sd / sqrt(replicas) */
    double sd;     /* sample sd (divisor replicas - 1) */
    double sd_se;  /* sqrt((m4 - v^2) / (4 v replicas)), v, m4 central moments:
                      the delta-method standard error of the sample sd */
} tmc_emax_estimate;

/* Everything `trainmc emax` reports for one N, in units of sigma. */
typedef struct {
    long n;                    /* cards */
    double quad_mean, quad_sd; /* c_N and sd of the maximum, quadrature */
    tmc_emax_estimate sampler; /* O(1) sampler tmc_dist_sample_max */
    tmc_emax_estimate brute;   /* N explicit draws; replicas 0 if not run */
    double blom, gumbel;       /* tmc_emax_blom, tmc_emax_gumbel */
    double reference;          /* tmc_emax_reference: NaN if none */
} tmc_emax_row;

/* Blom's approximation of c_N: Phi^-1((N - 3/8) / (N + 1/4)).
 * Source: G. Blom, Statistical Estimates and Transformed Beta-Variables,
 * Wiley 1958 (alpha = 3/8). Against quadrature its error stays within
 * +-0.03 for 2 <= N <= 1e7 (about +0.025 at N = 2, -0.0157 near N = 65536) and
 * changes sign between N = 16 and 32 [emax-1.1]. NaN if n < 1. */
double tmc_emax_blom(long n);

/* The Gumbel expansion of c_N: a_N + gamma b_N, with b_N = 1 / sqrt(2 ln N),
 * a_N = sqrt(2 ln N) - (ln ln N + ln 4 pi) / (2 sqrt(2 ln N)) and gamma
 * Euler's constant (the mean of the standard Gumbel law).
 * Source: H. Cramer, Mathematical Methods of Statistics, Princeton 1946,
 * section 28.6 (a_N, b_N); M. R. Leadbetter, G. Lindgren, H. Rootzen,
 * Extremes and Related Properties of Random Sequences and Processes,
 * Springer 1983, theorem 1.5.3. Normal maxima approach the Gumbel law only
 * at rate 1 / ln N (P. Hall, J. Appl. Probab. 16, 1979, 433-439): the
 * expansion overestimates c_N by about 0.2 / ln N (0.059 at N = 48, 0.020 at
 * N = 16384) [emax-1.2]. NaN if n < 2. */
double tmc_emax_gumbel(long n);

/* The reference design's rounded c_N (docs/model.md 2): 1.42, 2.23, 3.25 at
 * N = 8, 48, 1024; NaN for every other n. */
double tmc_emax_reference(long n);

/* Expected step time in seconds, mu + c sigma + fixed (docs/model.md 2: the
 * slowest of N cards, then the per-step time outside compute), for c = c_N
 * and mu, sigma, fixed in seconds. */
double tmc_emax_step_time(double c, double mu_s, double sigma_s, double fixed_s);

/* Simulate `replicas` (>= 2) maxima of n (>= 1) standard normals on `threads`
 * (>= 1) threads per rank with run seed `seed` (streams: see the top of this
 * file): *sampler with tmc_dist_sample_max, and *brute (if not NULL) by n
 * draws of gsl_ran_gaussian_ziggurat. `center` (e.g. the quadrature c_N) is
 * subtracted before the power sums are taken, to keep them well conditioned;
 * it does not change the result beyond rounding. Returns 0; TMC_EMAX_STOPPED
 * with err = "interrupted after N of M replicas" when tmc_engine_request_stop
 * was called (a signal); or -1 with err set if memory runs out on some rank.
 * Collective (ranks.h): every rank returns the same. */
#define TMC_EMAX_STOPPED 1
int tmc_emax_simulate(long n, long replicas, uint64_t seed, int threads, double center,
                      tmc_emax_estimate *sampler, tmc_emax_estimate *brute,
                      tmc_error *err);

/* Fill *row for n cards: quadrature, simulation (brute force only if
 * n <= brute_max), approximations, reference. Returns 0, TMC_EMAX_STOPPED, or
 * -1 with err set if the quadrature fails or memory runs out. Collective, as
 * tmc_emax_simulate. */
int tmc_emax_compute(long n, long replicas, uint64_t seed, int threads, long brute_max,
                     tmc_emax_row *row, tmc_error *err);

#endif
