/* node_mixture.c - a two-type Poisson mixture of faults per node by EM
 * (node_mixture.h). */
#include "node_mixture.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include <math.h>
#include <stdlib.h>

#define EM_MAX_STEPS 100000
#define EM_TOLERANCE 1e-10 /* on the log-likelihood */

/* The counts as a histogram: h[c] nodes had c faults, c = 0 .. top. EM
 * then costs O(top) a step, not O(nodes). */
typedef struct {
    double *h;
    long top;
    int n;
} histogram;

/* log Pois(c; mu), mu > 0 */
static double log_pois(long c, double mu)
{
    return (double)c * log(mu) - mu - gsl_sf_lnfact((unsigned int)c);
}

static double loglik(const histogram *k, double p, double mg, double mb)
{
    double l = 0;
    for (long c = 0; c <= k->top; c++) {
        if (k->h[c] == 0)
            continue;
        double a = log1p(-p) + log_pois(c, mg), b = log(p) + log_pois(c, mb);
        double hi = fmax(a, b);
        l += k->h[c] * (hi + log(exp(a - hi) + exp(b - hi)));
    }
    return l;
}

/* EM: the means (mg, mb) are lambda T. Returns the log-likelihood at the
 * fixed point. */
static double em(const histogram *k, double *p, double *mg, double *mb, int *steps)
{
    double l = loglik(k, *p, *mg, *mb);
    for (*steps = 1; *steps <= EM_MAX_STEPS; (*steps)++) {
        double sr = 0, src = 0, sc = 0;
        for (long c = 0; c <= k->top; c++) { /* E: the chance a node with c is bad */
            if (k->h[c] == 0)
                continue;
            double a = log1p(-*p) + log_pois(c, *mg), b = log(*p) + log_pois(c, *mb);
            double r = k->h[c] / (1 + exp(a - b));
            sr += r;
            src += r * (double)c;
            sc += k->h[c] * (double)c;
        }
        /* M: weighted means; kept off the boundary so that logs stay finite */
        *p = fmin(fmax(sr / k->n, 1e-12), 1 - 1e-12);
        *mb = fmax(src / fmax(sr, 1e-300), 1e-12);
        *mg = fmax((sc - src) / fmax(k->n - sr, 1e-300), 1e-12);
        double next = loglik(k, *p, *mg, *mb);
        if (fabs(next - l) < EM_TOLERANCE * (1 + fabs(l))) {
            l = next;
            break;
        }
        l = next;
    }
    if (*mg > *mb) { /* name the components: the bad ones fail more */
        double t = *mg;
        *mg = *mb;
        *mb = t;
        *p = 1 - *p;
    }
    return l;
}

/* The mixture against one rate on the counts in k: the LR statistic and
 * the fit, from a start that puts a tenth of the nodes at the midpoint of
 * the mean and the largest count. */
static double lr_of(const histogram *k, double *p, double *mg, double *mb, double *l_mix,
                    double *l_one, int *steps)
{
    double total = 0;
    for (long c = 0; c <= k->top; c++)
        total += k->h[c] * (double)c;
    double mean = total / k->n;
    *l_one = 0;
    for (long c = 0; c <= k->top; c++)
        *l_one += k->h[c] > 0 && mean > 0 ? k->h[c] * log_pois(c, mean) : 0;
    *p = 0.1;
    *mg = fmax(0.5 * mean, 1e-6);
    *mb = fmax(0.5 * (mean + (double)k->top), 2 * *mg);
    *l_mix = em(k, p, mg, mb, steps);
    return fmax(0, 2 * (*l_mix - *l_one));
}

/* counts[n] into k (h of top + 1 zeros filled); -1 if memory runs out. */
static int tally(const long *counts, int n, long top, histogram *k)
{
    k->n = n;
    k->top = top;
    if (!(k->h = calloc((size_t)top + 1, sizeof *k->h)))
        return -1;
    for (int i = 0; i < n; i++)
        k->h[counts[i]]++;
    return 0;
}

/* The histogram of n Poisson(mean) counts drawn at once, O(top) and not
 * O(n): the counts of each value c = 0, 1, ... are the cells of a
 * multinomial, drawn as binomials of the nodes left with P(c) / P(>= c)
 * (the conditional form of gsl_ran_multinomial). -1 if memory runs out. */
static int draw_histogram(gsl_rng *r, int n, double mean, histogram *k)
{
    long cap = (long)(mean + 12 * sqrt(mean) + 32), c = 0;
    unsigned left = (unsigned)n;
    double tail = 1; /* P(X >= c) */
    k->n = n;
    if (!(k->h = calloc((size_t)cap + 1, sizeof *k->h)))
        return -1;
    for (; left > 0; c++) {
        if (c > cap) { /* beyond 12 sd: grow */
            double *h = realloc(k->h, sizeof *h * (size_t)(2 * cap + 1));
            if (!h)
                return free(k->h), -1;
            for (long i = cap + 1; i <= 2 * cap; i++)
                h[i] = 0;
            k->h = h, cap *= 2;
        }
        double pc = gsl_ran_poisson_pdf((unsigned)c, mean);
        unsigned x = pc < tail ? gsl_ran_binomial(r, pc / tail, left) : left;
        k->h[c] = x;
        left -= x;
        tail = fmax(tail - pc, 0);
    }
    k->top = c - 1;
    return 0;
}

/* P(LR >= lr) when every node fails at one rate (the mean count), from
 * `sets` sets of n Poisson counts (seed), each drawn as its histogram:
 * (above + 1) / (sets + 1), never 0 (Davison and Hinkley, "Bootstrap
 * Methods", 1997, 4.2). NAN if memory runs out (*done 0). */
static double bootstrap_p(int n, double mean, double lr, int sets, unsigned long seed,
                          int *done)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    *done = 0;
    int above = 0;
    for (int b = 0; r && b < sets; b++) {
        gsl_rng_set(r, seed + (unsigned long)b);
        histogram k;
        if (draw_histogram(r, n, mean, &k))
            break;
        double bp, bg, bb, l1, l0;
        int steps;
        above += lr_of(&k, &bp, &bg, &bb, &l1, &l0, &steps) >= lr;
        free(k.h);
        (*done)++;
    }
    gsl_rng_free(r);
    return *done == sets ? (above + 1.0) / (sets + 1.0) : NAN;
}

int tmc_node_mixture_fit(const long *counts, int n, double exposure_days, int bootstrap,
                         unsigned long seed, tmc_node_mixture *out)
{
    *out = (tmc_node_mixture){NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0};
    long total = 0, top = 0;
    for (int i = 0; i < n; i++) {
        total += counts[i];
        top = counts[i] > top ? counts[i] : top;
    }
    histogram k;
    if (n < 2 || total == 0 || !(exposure_days > 0) || tally(counts, n, top, &k))
        return -1;
    double p, mg, mb;
    out->lr = lr_of(&k, &p, &mg, &mb, &out->loglik, &out->loglik_one, &out->iterations);
    free(k.h);
    out->share = p;
    out->good_per_day = mg / exposure_days;
    out->bad_per_day = mb / exposure_days;
    if (bootstrap > 0)
        out->p = bootstrap_p(n, (double)total / n, out->lr, bootstrap, seed, &out->bootstrap);
    return 0;
}
