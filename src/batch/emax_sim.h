/* emax_sim.h - c_N = E[max of N standard normals] simulated for `trainmc
 * emax`: the engine's O(1) maximum sampler and brute force (N explicit normal
 * draws), over threads and ranks, beside the quadrature and the
 * approximations of emax.h.
 *
 * Simulation streams: replica k draws from PCG stream (seed, k,
 * TMC_STREAM_JITTER), the stream the engine's replica k draws its step maxima
 * from (rng_pcg.h), re-seeded for every N: the sampler uses the stream's first
 * output, brute force the outputs after it (so the two use disjoint random
 * numbers). Hence an estimate depends on (N, replicas, seed) only: not on the
 * thread or rank count (ranks.h), nor on which other N are asked for.
 * Estimates at different N share their uniforms (common random numbers), so
 * their errors are positively correlated across N. */
#ifndef TMC_EMAX_SIM_H
#define TMC_EMAX_SIM_H

#include <stdint.h>

#include "emax.h"
#include "error.h"

/* Simulate `replicas` (>= 2) maxima of n (>= 1) standard normals on `threads`
 * (>= 1) threads per rank with run seed `seed` (streams: see the top of this
 * file): *sampler with tmc_dist_sample_max, and *brute (if not NULL) by n
 * draws of gsl_ran_gaussian_ziggurat. `center` (e.g. the quadrature c_N) is
 * subtracted before the power sums are taken, to keep them well conditioned;
 * it does not change the result beyond rounding. Returns 0; TMC_EMAX_STOPPED
 * with err = "interrupted after N of M replicas" when tmc_stop_request
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
