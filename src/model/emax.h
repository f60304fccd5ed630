/* emax.h - c_N = E[max of N standard normals] four ways, for `trainmc emax`:
 * GSL quadrature (dist.h), the engine's O(1) maximum sampler, brute force
 * (N explicit normal draws) and asymptotic approximations; and the expected
 * step time mu + c_N sigma + fixed it implies (docs/model.md 2).
 * The simulations (sampler, brute force) are batch/emax_sim.h. */
#ifndef TMC_EMAX_H
#define TMC_EMAX_H

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

#endif
