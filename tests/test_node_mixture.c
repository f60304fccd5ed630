/* fit-5.x: bad nodes in a fault log, the two-type Poisson mixture of
 * faults per node (src/fit/node_mixture.h).
 *
 * fit-5.1 the EM fit is the maximum likelihood: on 400 counts drawn from
 *         a known mixture (a quarter of the nodes at mean 6, the rest at
 *         1), an independent grid search of the log-likelihood, written
 *         here, over p, mu_g and mu_b (steps 0.005, 0.01, 0.02) finds no
 *         point above the EM's maximum, and its best point lies within a
 *         grid step of the EM's estimate.
 * fit-5.2 the truth back: on 200,000 counts from the same mixture the
 *         estimates are within 2 % of p, mu_g and mu_b (the maximum
 *         likelihood estimate is consistent; over 20 other seeds at this
 *         size their relative standard deviations were 0.30 %, 0.34 % and
 *         0.19 %, so 2 % is about 6 of them).
 * fit-5.3 the test: the mixture above gives the smallest bootstrap
 *         p-value, 1 / (sets + 1); 400 counts of one Poisson rate (a draw
 *         whose LR is above 1) give a p-value above 0.05 that agrees with
 *         P(LR >= lr) under one rate estimated apart, from 300 sets this
 *         test draws itself (4 binomial standard errors of the two). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "node_mixture.h"

#define P_BAD 0.25
#define MU_GOOD 1.0
#define MU_BAD 6.0

static long *draw_mixture(int n, unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    long *c = malloc((size_t)n * sizeof *c);
    assert_non_null(c);
    for (int i = 0; i < n; i++)
        c[i] = (long)gsl_ran_poisson(r, gsl_rng_uniform(r) < P_BAD ? MU_BAD : MU_GOOD);
    gsl_rng_free(r);
    return c;
}

#define TOP 64 /* counts above are not drawn at these means */

/* The mixture's log-likelihood, written apart from the fit's, over the
 * histogram h[TOP] of the counts. */
static double loglik(const double *h, double p, double mg, double mb)
{
    double l = 0;
    for (unsigned c = 0; c < TOP; c++)
        if (h[c] > 0)
            l += h[c] * log((1 - p) * gsl_ran_poisson_pdf(c, mg) +
                            p * gsl_ran_poisson_pdf(c, mb));
    return l;
}

static void fit_5_1_grid(void **state)
{
    (void)state;
    enum { N = 400 };
    long *c = draw_mixture(N, 5);
    tmc_node_mixture m;
    assert_int_equal(tmc_node_mixture_fit(c, N, 1.0, 0, 1, &m), 0);
    double h[TOP] = {0};
    for (int i = 0; i < N; i++)
        h[c[i]]++;
    double best = -INFINITY, bp = 0, bg = 0, bb = 0;
    for (double p = 0.1; p <= 0.45; p += 0.005)
        for (double g = 0.6; g <= 1.6; g += 0.01)
            for (double b = 4; b <= 8.5; b += 0.02) {
                double l = loglik(h, p, g, b);
                if (l > best)
                    best = l, bp = p, bg = g, bb = b;
            }
    print_message("fit-5.1: EM p %.4f mu_g %.4f mu_b %.4f (loglik %.6f); grid %.3f %.2f %.2f "
                  "(%.6f)\n", m.share, m.good_per_day, m.bad_per_day, m.loglik, bp, bg, bb, best);
    assert_true(best <= m.loglik + 1e-9);
    assert_true(fabs(m.loglik - loglik(h, m.share, m.good_per_day, m.bad_per_day)) < 1e-6);
    assert_true(fabs(bp - m.share) <= 0.005 && fabs(bg - m.good_per_day) <= 0.01 &&
                fabs(bb - m.bad_per_day) <= 0.02);
    free(c);
}

static void fit_5_2_truth(void **state)
{
    (void)state;
    enum { N = 200000 };
    long *c = draw_mixture(N, 6);
    tmc_node_mixture m;
    assert_int_equal(tmc_node_mixture_fit(c, N, 2.0, 0, 1, &m), 0); /* rates per day: / 2 */
    print_message("fit-5.2: p %.4f (%.2f), mu_g %.4f (%.1f), mu_b %.4f (%.1f)\n", m.share,
                  P_BAD, 2 * m.good_per_day, MU_GOOD, 2 * m.bad_per_day, MU_BAD);
    assert_true(fabs(m.share / P_BAD - 1) < 0.02);
    assert_true(fabs(2 * m.good_per_day / MU_GOOD - 1) < 0.02);
    assert_true(fabs(2 * m.bad_per_day / MU_BAD - 1) < 0.02);
    free(c);
}

static void fit_5_3_test(void **state)
{
    (void)state;
    enum { N = 400, SETS = 99 };
    long *c = draw_mixture(N, 5);
    tmc_node_mixture m;
    assert_int_equal(tmc_node_mixture_fit(c, N, 1.0, SETS, 1, &m), 0);
    print_message("fit-5.3: mixture LR %.1f, p %.4f\n", m.lr, m.p);
    assert_true(m.bootstrap == SETS && fabs(m.p - 1.0 / (SETS + 1)) < 1e-12);
    /* one rate (the mixture's mean): the first seed from 9 whose LR is above
     * 1, so that p is not trivially 1 */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    for (unsigned long seed = 9; seed < 100; seed++) {
        gsl_rng_set(r, seed);
        for (int i = 0; i < N; i++)
            c[i] = (long)gsl_ran_poisson(r, 2.25);
        assert_int_equal(tmc_node_mixture_fit(c, N, 1.0, SETS, 1, &m), 0);
        if (m.lr > 1)
            break;
    }
    double total = 0;
    for (int i = 0; i < N; i++)
        total += (double)c[i];
    /* P(LR >= lr) under one Poisson rate, by an independent draw of 300
     * sets (another generator seed); its binomial se beside the fit's own
     * bootstrap's (SETS sets) */
    enum { CHECK = 300 };
    long *d = malloc(N * sizeof *d);
    int above = 0;
    gsl_rng_set(r, 12345);
    for (int b = 0; b < CHECK; b++) {
        for (int i = 0; i < N; i++)
            d[i] = (long)gsl_ran_poisson(r, total / N);
        tmc_node_mixture x;
        assert_int_equal(tmc_node_mixture_fit(d, N, 1.0, 0, 1, &x), 0);
        above += x.lr >= m.lr;
    }
    gsl_rng_free(r);
    double q = (double)above / CHECK, se = sqrt(q * (1 - q) / CHECK + q * (1 - q) / SETS);
    print_message("fit-5.3: one rate LR %.2f, p %.4f; independent draw %.4f +- %.4f (z = %.2f)\n",
                  m.lr, m.p, q, se, (m.p - q) / se);
    assert_true(m.p > 0.05 && fabs(m.p - q) <= 4 * se);
    free(d);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fit_5_1_grid),
        cmocka_unit_test(fit_5_2_truth),
        cmocka_unit_test(fit_5_3_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
