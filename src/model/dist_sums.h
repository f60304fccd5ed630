/* dist_sums.h - the ways tmc_dist_max_sums (dist.h) is computed, each bit
 * for bit the same: one draw at a time (any machine), two (SSE2, every
 * x86-64) and four (AVX2, chosen at run time when the processor has it).
 * Public to the tests, which hold every way to the first [dist-1.13]. */
#ifndef TMC_DIST_SUMS_H
#define TMC_DIST_SUMS_H

#include "dist.h"

/* The arguments and result of tmc_dist_max_sums. */
typedef double tmc_dist_sums_fn(const tmc_max_sampler *s, tmc_pcg32_state *st, double start,
                                double *p, int n);

tmc_dist_sums_fn tmc_dist_max_sums_one;

/* NULL where the processor (or the compiler's target) lacks it. */
tmc_dist_sums_fn *tmc_dist_max_sums_sse2(void);
tmc_dist_sums_fn *tmc_dist_max_sums_avx2(void);

#endif
