/* segment_law.c - the law of a segment's summed slowest-card time by FFT
 * on a lattice, and its quantile table (segment_law.h). */
#include "segment_law.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_fft_complex.h>
#include <gsl/gsl_math.h>

#define WRAP_SDS 12.0  /* the circle reaches this many sds of the sum each side */
#define STEP_SDS 40.0  /* and one step's whole range beyond this many of its sds */
#define TAIL_P 1e-17   /* one step's lattice leaves out this much each side */
#define COMMON_SDS 9.0 /* the common part's normal is cut this far out */

/* M = mu x the maximum of `cards` cards' independent parts. */
typedef struct {
    tmc_card_dist card;
    double mu;
    long cards;
    int constant; /* no independent part: M = mu */
} max_law;

/* P(M <= x) and P(M > x), each accurate where it is small. */
static void max_cdf_sf(const max_law *m, double x, double *cdf, double *sf)
{
    if (m->constant) {
        *cdf = x >= m->mu;
        *sf = 1 - *cdf;
        return;
    }
    double y = x / m->mu, p = tmc_dist_card_cdf(&m->card, y);
    double log_f = p < 0.5 ? log(p) : log1p(-tmc_dist_card_sf(&m->card, y));
    *cdf = exp((double)m->cards * log_f);
    *sf = -expm1((double)m->cards * log_f);
}

/* P(a < M <= b), from the side where it is small. */
static double cell_mass(const max_law *m, double a, double b)
{
    double ca, sa, cb, sb;
    max_cdf_sf(m, a, &ca, &sa);
    max_cdf_sf(m, b, &cb, &sb);
    return fmax(cb < 0.5 ? cb - ca : sa - sb, 0);
}

/* The lattice: point k is k h; the circle holds L points, k at index k mod L. */
typedef struct {
    double h;
    long size; /* L, a power of 2 */
    double *z; /* 2 L doubles: complex, packed */
} circle;

static long at(const circle *c, long k)
{
    long i = k % c->size;
    return i < 0 ? i + c->size : i;
}

/* Angular frequency of transform index i, per second. */
static double omega(const circle *c, long i)
{
    long f = i < c->size / 2 ? i : i - c->size;
    return 2 * M_PI * (double)f / ((double)c->size * c->h);
}

/* Move the mass of points k < 0 to k = 0 (a step's time is never below 0)
 * and clear the imaginary parts and round-off below 0. lo: the lowest k
 * that may hold mass. */
static void clamp_at_zero(circle *c, long lo)
{
    double *z = c->z;
    for (long k = lo; k < 0; k++) {
        z[2 * at(c, 0)] += fmax(z[2 * at(c, k)], 0);
        z[2 * at(c, k)] = 0;
    }
    for (long i = 0; i < c->size; i++)
        z[2 * i] = fmax(z[2 * i], 0), z[2 * i + 1] = 0;
}

/* One step's lattice law: M's cell masses, convolved with the common
 * part's normal (sd cs) in the transform, clamped at 0. Leaves the
 * transform in c->z. */
static void step_transform(circle *c, const max_law *m, double lo_m, double hi_m, double cs)
{
    double h = c->h;
    memset(c->z, 0, 2 * (size_t)c->size * sizeof *c->z);
    long klo = (long)floor(lo_m / h) - 1, khi = (long)ceil(hi_m / h) + 1;
    for (long k = klo; k <= khi; k++)
        c->z[2 * at(c, k)] += cell_mass(m, (k - 0.5) * h, (k + 0.5) * h);
    if (cs > 0) {
        gsl_fft_complex_radix2_forward(c->z, 1, (size_t)c->size);
        for (long i = 0; i < c->size; i++) {
            double w = omega(c, i), g = exp(-0.5 * cs * cs * w * w);
            c->z[2 * i] *= g, c->z[2 * i + 1] *= g;
        }
        gsl_fft_complex_radix2_inverse(c->z, 1, (size_t)c->size);
        klo = (long)floor((lo_m - COMMON_SDS * cs) / h) - 1;
    }
    clamp_at_zero(c, klo < 0 ? klo : 0);
    gsl_fft_complex_radix2_forward(c->z, 1, (size_t)c->size);
}

/* The n-th power of the step's transform divided by the cell's sinc (the
 * rounding to the lattice), back to masses on the circle. Returns the
 * largest magnitude of the step's transform above half the band: a lattice
 * too coarse for the step's law (what aliases) shows there. */
static double sum_of_n(circle *c, long n)
{
    double alias = 0; /* the step's transform in the upper half of the band */
    for (long i = 0; i < c->size; i++) {
        double x = 0.5 * omega(c, i) * c->h, sinc = i ? sin(x) / x : 1;
        double re = c->z[2 * i] / sinc, im = c->z[2 * i + 1] / sinc;
        double r = hypot(re, im), th = atan2(im, re);
        if (i > c->size / 4 && i < c->size - c->size / 4)
            alias = fmax(alias, r);
        double rn = r > 0 ? exp((double)n * log(r)) : 0;
        c->z[2 * i] = rn * cos((double)n * th);
        c->z[2 * i + 1] = rn * sin((double)n * th);
    }
    gsl_fft_complex_radix2_inverse(c->z, 1, (size_t)c->size);
    return alias;
}

/* The sum's histogram on cells kmin .. kmin + W - 1, point k's cell
 * [(k - 1/2) h, (k + 1/2) h): C[i] the mass below cell i, D[i] the mass
 * from cell i up. */
typedef struct {
    double h;
    long kmin, w, used; /* cells from kmin; the first `used` the range sized for */
    double *q, *below, *above;
} histogram;

static long last_below(const histogram *s, double t) /* largest i < w with C[i] <= t */
{
    long lo = 0, hi = s->w - 1;
    while (lo < hi) {
        long mid = (lo + hi + 1) / 2;
        if (s->below[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static long last_above(const histogram *s, double t) /* largest i with D[i] > t */
{
    long lo = 0, hi = s->w - 1;
    while (lo < hi) {
        long mid = (lo + hi + 1) / 2;
        if (s->above[mid] > t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The histogram's quantile at tail probability t of one side (a
 * tmc_dist_quantile_fn). */
static void histogram_quantile(void *ctx, int high, double t, double *x, double *slope)
{
    const histogram *s = ctx;
    long i = high ? last_above(s, t) : last_below(s, t);
    double into = high ? (t - (s->above[i] - s->q[i])) / s->q[i] : (t - s->below[i]) / s->q[i];
    double edge = (double)(s->kmin + i) + (high ? 0.5 : -0.5);
    *x = (edge + (high ? -into : into)) * s->h;
    if (slope) { /* a centred difference over a piece's width: a cell's own
                    h / q would be unbounded where a tail cell holds little */
        double d = t / (2 * TMC_MAX_SUB), a, b;
        histogram_quantile(ctx, high, t + d, &a, NULL);
        histogram_quantile(ctx, high, t - d, &b, NULL);
        *slope = (a - b) / (2 * d);
    }
}

/* Read the sum's masses off the circle for cells kmin .. kmin + L - 1,
 * fold those below 0 into the cell at 0, normalise; returns the mass
 * found in the slack, the cells past the range the circle was sized for
 * (what reaches them may also have wrapped around). */
static double read_histogram(const circle *c, histogram *s)
{
    long w = s->w;
    double total = 0, outer = 0;
    for (long i = 0; i < w; i++) {
        double q = c->z[2 * at(c, s->kmin + i)];
        s->q[i] = fmax(q, 0);
        total += s->q[i];
        if (i >= s->used)
            outer += s->q[i];
    }
    for (long i = 0; i < w && s->kmin + i < 0; i++) {
        s->q[-s->kmin] += s->q[i];
        s->q[i] = 0;
    }
    double below = 0;
    for (long i = 0; i < w; i++)
        s->q[i] /= total, s->below[i] = below, below += s->q[i];
    double above = 0;
    for (long i = w - 1; i >= 0; i--)
        above += s->q[i], s->above[i] = above;
    return outer / total;
}

/* Mean and sd of the histogram (its cells uniform), s. */
static void histogram_moments(const histogram *s, double *mean, double *sd)
{
    double m = 0, m2 = 0;
    for (long i = 0; i < s->w; i++) {
        double x = (double)(s->kmin + i) * s->h;
        m += s->q[i] * x;
    }
    for (long i = 0; i < s->w; i++) {
        double d = (double)(s->kmin + i) * s->h - m;
        m2 += s->q[i] * d * d;
    }
    *mean = m;
    *sd = sqrt(m2 + s->h * s->h / 12);
}

/* The circle's size and spacing for the sum of n steps of mean my, sd sy,
 * lattice range [ylo, yhi]: WRAP_SDS sds of the sum each side, and a whole
 * step's range beyond one step's WRAP_SDS sds (a heavy tail's single long
 * step). */
static void circle_size(circle *c, histogram *s, long n, double my, double sy, double ylo,
                        double yhi)
{
    double spread = WRAP_SDS * sqrt((double)n) * sy, mean = (double)n * my;
    double right = fmax(spread, yhi - my + STEP_SDS * sy);
    double left = fmax(spread, my - ylo + STEP_SDS * sy);
    /* long segments need no finer cells than a fraction of the sum's sd,
     * but never coarser than an eighth of a step's (the aliasing check) */
    double cells = fmax(8, TMC_SEGMENT_CELLS_PER_SD * fmin(1, sqrt(64.0 / (double)n)));
    double h = sy / cells;
    for (;; h *= 2) {
        long kmin = (long)floor(fmax(mean - left, -h) / h) - 1;
        long kmax = (long)ceil((mean + right) / h) + 1;
        long size = 1, used = kmax - kmin + 1;
        while (size < used + used / 8) /* a slack of an eighth at least */
            size *= 2;
        if (size <= TMC_SEGMENT_MAX_POINTS) {
            c->h = s->h = h, c->size = size;
            s->kmin = kmin, s->w = size, s->used = used;
            return;
        }
    }
}

/* One step's law, as the lattice needs it. */
typedef struct {
    max_law m;
    double lo_m, hi_m; /* M's range (all but TAIL_P each side), s */
    double cs;         /* the common part's sd, s */
} step_law;

/* The sum's histogram on a circle of c->size points of spacing c->h:
 * s's arrays allocated (free s->q) and filled; *alias as sum_of_n.
 * Returns the slack's mass (read_histogram), or NaN if memory runs out. */
static double lattice(circle *c, histogram *s, const step_law *y, long n, double *alias)
{
    c->z = malloc(2 * (size_t)c->size * sizeof *c->z);
    s->q = malloc(3 * (size_t)s->w * sizeof *s->q);
    double outer = NAN;
    if (c->z && s->q) {
        s->below = s->q + s->w, s->above = s->below + s->w;
        step_transform(c, &y->m, y->lo_m, y->hi_m, y->cs);
        *alias = sum_of_n(c, n);
        outer = read_histogram(c, s);
    }
    free(c->z);
    c->z = NULL;
    return outer;
}

/* The largest gap between two histograms' quantiles, sds, at 8 points per
 * octave of both tails down to t = 2^-33: the lattice's own error (the
 * finer one is within it of the exact law when the error falls with h),
 * and the round-off's in the far tails (the two circles' round-off differs). */
static double lattice_gap(histogram *a, histogram *b, double sd)
{
    double worst = 0, x, y, unused;
    for (int k = 0; k < TMC_MAX_OCTAVES; k++)
        for (int i = 0; i < 8; i++)
            for (int high = 0; high < 2; high++) {
                double t = ldexp(1.0 + i / 8.0, -(k + 2));
                histogram_quantile(a, high, t, &x, &unused);
                histogram_quantile(b, high, t, &y, &unused);
                worst = fmax(worst, fabs(x - y) / sd);
            }
    return worst;
}

int tmc_segment_law_init(tmc_segment_law *l, const tmc_jitter *j, double mu_s, long cards,
                         long n)
{
    memset(l, 0, sizeof *l);
    l->n = n;
    double mean, sd, skew;
    if (tmc_dist_max_moments(j, cards, &mean, &sd, &skew))
        return -1;
    double my = mean * mu_s, sy = sd * mu_s;
    step_law y = {{tmc_dist_card(j), mu_s, cards,
                   !(j->cv > 0 && !(j->kind == TMC_JITTER_NORMAL && j->rho == 1))},
                  mu_s, mu_s, j->kind == TMC_JITTER_NORMAL ? j->cv * sqrt(j->rho) * mu_s : 0};
    if (!y.m.constant) {
        y.lo_m = mu_s * tmc_dist_card_max_quantile(&y.m.card, log(TAIL_P), 1.0 / (double)cards);
        y.hi_m = mu_s * tmc_dist_card_max_quantile(&y.m.card, log1p(-TAIL_P), 1.0 / (double)cards);
    }
    l->mean_s = (double)n * my;
    l->sd_s = sqrt((double)n) * sy;
    /* two lattices, the second with cells half as wide: the table is the
     * finer one's, and their gap is counted in its error */
    circle c = {0}, fine = {0};
    histogram coarse_s = {0}, s = {0};
    circle_size(&c, &coarse_s, n, my, sy, fmax(y.lo_m - COMMON_SDS * y.cs, 0),
                y.hi_m + COMMON_SDS * y.cs);
    fine = (circle){c.h / 2, 2 * c.size, NULL};
    s = (histogram){c.h / 2, 2 * coarse_s.kmin, 2 * coarse_s.w, 2 * coarse_s.used, NULL, NULL,
                    NULL};
    l->points = fine.size;
    double alias, coarse_alias;
    double outer = lattice(&fine, &s, &y, n, &alias);
    double coarse_outer = lattice(&c, &coarse_s, &y, n, &coarse_alias);
    l->low = tmc_dist_table_alloc();
    int status = -1;
    if (l->low && !isnan(outer) && !isnan(coarse_outer)) {
        double hist_mean, hist_sd, lowest, top, unused;
        histogram_moments(&s, &hist_mean, &hist_sd);
        double table = tmc_dist_table_build(l->low, histogram_quantile, &s, &lowest);
        histogram_quantile(&s, 1, ldexp(1.0, -34), &top, &unused);
        l->max_s = top + table;
        l->error_sigma = table / l->sd_s + fabs(hist_mean - l->mean_s) / l->sd_s +
                         4 * fabs(hist_sd / l->sd_s - 1) + outer * 2 * WRAP_SDS + alias +
                         2 * lattice_gap(&coarse_s, &s, l->sd_s); /* a margin: the
                         two round-offs may share a part the gap does not see */
        l->bytes = 2 * TMC_MAX_SIDE * sizeof *l->low;
        status = isfinite(l->error_sigma) ? 0 : -1;
    }
    free(s.q);
    free(coarse_s.q);
    if (status)
        tmc_segment_law_free(l);
    return status;
}

void tmc_segment_law_free(tmc_segment_law *l)
{
    free(l->low);
    l->low = NULL;
}
