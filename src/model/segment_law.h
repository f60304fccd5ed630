/* segment_law.h - the exact law of a segment's compute: the summed
 * slowest-card time of n steps, drawn at once (docs/reference/simulation-semantics.md 2).
 *
 * A segment attempt's clock depends on its steps only through their sum S
 * when nothing inside it needs a step's end (no notice, no slow cards; the
 * engine decides before drawing), so S is drawn as one value from its law:
 * the n-fold convolution of one step's law. One step's slowest time is
 * Y = max(0, M + C), M the maximum of the N cards' independent parts and C
 * the common part of correlated jitter (normal). Y is put on a lattice of
 * spacing h = sd(Y) / TMC_SEGMENT_CELLS_PER_SD, each point holding the
 * probability of its cell (M's exact CDF F^N, through the survival function
 * in the upper tail), convolved with C's normal and clamped at 0. Its
 * discrete Fourier transform (GSL's radix-2 FFT), divided by the cell's
 * sinc (the rounding to the lattice, Sheppard's correction) and raised to
 * the n-th power, is the transform of S on a circle wide enough that what
 * wraps around is negligible (measured). The quantile of S (the lattice as
 * a histogram, inverted) is stored as dist.h's octave table, so a draw
 * costs one 32-bit output and one cubic, whatever n and N.
 *
 * Measured at build: error_sigma, in units of S's sd, adds the table's
 * largest error against the lattice quantile at the quarter points of
 * every piece, the gap between the lattice's mean and the exact n E[Y],
 * four times the relative gap of its sd (a 4-sd quantile's shift), the
 * mass found in the circle's slack (what could have wrapped) counted as
 * sds, the step transform's largest magnitude in the upper half of the
 * band (a lattice too coarse for the step's law), and twice the largest
 * gap between this lattice's quantiles and those of one with cells twice
 * as wide, down to the 2^-33 tails (the lattice's error and the FFT's
 * round-off in the far tails). Against laws known exactly (one normal or
 * gamma card, n = 2 to 10,000, tests/test_segment_law.c) the true largest
 * error was 1.8 to 15 times below the bound. */
#ifndef TMC_SEGMENT_LAW_H
#define TMC_SEGMENT_LAW_H

#include <stddef.h>
#include <gsl/gsl_rng.h>

#include "dist.h"
#include "experiment.h"

#define TMC_SEGMENT_CELLS_PER_SD 64 /* lattice cells per sd of one step */
#define TMC_SEGMENT_MAX_POINTS (1L << 22) /* the circle's largest size */

typedef struct {
    long n;              /* steps */
    double mean_s;       /* the exact mean n E[Y], s */
    double sd_s;         /* the exact sd sqrt(n) sd(Y), s */
    double max_s;        /* no draw exceeds it, s */
    double error_sigma;  /* measured error bound, units of sd_s */
    long points;         /* the circle's lattice points */
    size_t bytes;        /* the table's memory */
    tmc_cubic *low;      /* dist.h's table: 2 TMC_MAX_SIDE pieces, low side first */
} tmc_segment_law;

/* The law of the sum of n >= 1 steps for jitter j (cv > 0), mean per-card
 * compute time mu_s seconds and `cards` cards. Returns 0, or -1 if memory
 * runs out or a moment quadrature fails (l then holds no table). Builds in
 * about a millisecond for short segments, tens for 10,000 steps. Free with
 * tmc_segment_law_free. */
int tmc_segment_law_init(tmc_segment_law *l, const tmc_jitter *j, double mu_s, long cards,
                         long n);
void tmc_segment_law_free(tmc_segment_law *l);

/* One draw of the sum, seconds (never below 0), from one 32-bit output of
 * r, a tmc_rng_pcg32 generator. */
static inline double tmc_segment_law_draw(const tmc_segment_law *l, gsl_rng *r)
{
    double x = tmc_dist_table_at(l->low, tmc_rng_pcg_next(r));
    return x > 0 ? x : 0;
}

/* The same for a given output u (tests walk its extremes). */
static inline double tmc_segment_law_at(const tmc_segment_law *l, uint32_t u)
{
    double x = tmc_dist_table_at(l->low, u);
    return x > 0 ? x : 0;
}

#endif
