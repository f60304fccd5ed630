/* test_segment_law.c - a segment's summed step time drawn at once
 * (src/model/segment_law.c) against laws known in closed form, an
 * independent simulation by the per-step sampler, and its own error bound.
 *
 * seglaw-1.1 one normal card (cv 0.05, with and without a common part, rho
 *            0.5): the sum of n steps is Normal(n mu, sqrt(n) cv mu), so the
 *            table is checked quantile by quantile at 8 draws u per octave
 *            of both tails (down to t = 2^-33) and the middle, n = 2, 31,
 *            1,000, 10,000: the largest error, in sds of the sum, must be
 *            within the bound the build measured and within 0.02 (the
 *            engine's TMC_SEGMENT_MAX_ERROR_SIGMA);
 * seglaw-1.2 one gamma card (cv 0.5): the sum is Gamma(n / cv^2, cv^2 mu),
 *            the same checks, n = 2, 31, 1,000;
 * seglaw-1.3 48 normal cards (cv 0.05), n = 31: 200,000 draws of the law
 *            against 200,000 sums of 31 draws of the per-step sampler
 *            (dist.h, itself checked in test_dist): two-sample
 *            Kolmogorov-Smirnov, D below c sqrt(2 / m) with c = 1.9495
 *            (alpha 0.001); and the law's mean within 4 standard errors
 *            (sd / sqrt(m)) of the exact n E[max], E[max] by quadrature
 *            (tmc_dist_expected_max);
 * seglaw-1.4 a law too heavy for the lattice (lognormal cv 2, n = 2) reports
 *            a bound above 0.02, and the straggler model built on it draws
 *            that length step by step (no law kept); a light one keeps its
 *            law and reports its bound and memory;
 * seglaw-1.5 no draw exceeds max_s (the engine's test of whether a notice can
 *            fall inside a segment), at the 64 most extreme u of each side;
 * seglaw-1.6 the laws built on 1 and on 3 threads are the same bytes, the
 *            segment laws and the block laws, on design-48-stress (every
 *            block kept) and at 16,384 cards, where a block law is too
 *            coarse and ends the blocks (the engine still builds).
 * Fixed seeds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort_double.h>

#include "closed_form.h"
#include "dist.h"
#include "engine.h"
#include "segment_law.h"
#include "stragglers.h"
#include "support.h"

typedef double (*quantile_fn)(double v, const double *p);

/* Normal(p0, p1) at v, through the tail that keeps precision. */
static double normal_q(double v, const double *p)
{
    return v < 0.5 ? p[0] + p[1] * gsl_cdf_ugaussian_Pinv(v)
                   : p[0] + p[1] * gsl_cdf_ugaussian_Qinv(1 - v);
}

/* Gamma(shape p0, scale p1) at v. */
static double gamma_q(double v, const double *p)
{
    return v < 0.5 ? gsl_cdf_gamma_Pinv(v, p[0], p[1]) : gsl_cdf_gamma_Qinv(1 - v, p[0], p[1]);
}

/* The largest |table - exact| over u at 8 points per octave of both tails
 * and 64 in the middle, in sds of the sum. */
static double worst_error(const tmc_segment_law *l, quantile_fn q, const double *p)
{
    double worst = 0;
    for (int e = 1; e <= 32; e++)
        for (int f = 0; f < 8; f++)
            for (int high = 0; high < 2; high++) {
                uint32_t low = (uint32_t)((((uint64_t)1 << e) >> 1) +
                                          (uint64_t)f * ((((uint64_t)1 << e) >> 1) / 8));
                uint32_t u = high ? ~low : low;
                double v = (u + 0.5) / 4294967296.0;
                worst = fmax(worst, fabs(tmc_segment_law_at(l, u) - q(v, p)) / l->sd_s);
            }
    for (int i = 0; i < 64; i++) {
        uint32_t u = (uint32_t)(0x40000000u + (uint32_t)i * 0x01000000u);
        double v = (u + 0.5) / 4294967296.0;
        worst = fmax(worst, fabs(tmc_segment_law_at(l, u) - q(v, p)) / l->sd_s);
    }
    return worst;
}

/* The sd of the table's values over 2^20 evenly spaced draws u (the
 * midpoint rule over v; the tails beyond 2^-21 weigh below 1e-5 of it). */
static double table_sd(const tmc_segment_law *l)
{
    double m = 0, m2 = 0;
    for (uint32_t i = 0; i < (1u << 20); i++) {
        double x = tmc_segment_law_at(l, (i << 12) | 0x800u) - l->mean_s;
        m += x, m2 += x * x;
    }
    m /= 1 << 20;
    return sqrt(m2 / (1 << 20) - m * m);
}

static void check_exact(const tmc_jitter *j, long n, quantile_fn q, const double *p, double sd,
                        const char *what)
{
    tmc_segment_law l;
    assert_int_equal(tmc_segment_law_init(&l, j, 1.0, 1, n), 0);
    double worst = worst_error(&l, q, p), rel = table_sd(&l) / sd - 1;
    if (!(worst <= l.error_sigma && worst <= TMC_SEGMENT_MAX_ERROR_SIGMA))
        fail_msg("%s, n = %ld: largest error %.3g sd, the build's bound %.3g sd", what, n, worst,
                 l.error_sigma);
    /* the midpoint rule's own gap, as measured here: below 1e-6 */
    if (fabs(rel) > 1e-5)
        fail_msg("%s, n = %ld: the table's sd is %.3g off, relative", what, n, rel);
    print_message("%s, n = %ld: largest error %.2g sd, bound %.2g sd, sd off by %.2g\n", what, n,
                  worst, l.error_sigma, rel);
    tmc_segment_law_free(&l);
}

static void seglaw_1_1_normal(void **state)
{
    (void)state;
    long ns[] = {2, 31, 1000, 10000};
    for (int rho = 0; rho < 2; rho++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            tmc_jitter j = {.kind = TMC_JITTER_NORMAL, .cv = 0.05, .rho = rho ? 0.5 : 0};
            double p[2] = {(double)ns[i], sqrt((double)ns[i]) * 0.05};
            check_exact(&j, ns[i], normal_q, p, p[1], rho ? "normal, rho 0.5" : "normal");
        }
}

static void seglaw_1_2_gamma(void **state)
{
    (void)state;
    long ns[] = {2, 31, 1000};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        tmc_jitter j = {.kind = TMC_JITTER_GAMMA, .cv = 0.5};
        double p[2] = {(double)ns[i] / 0.25, 0.25};
        check_exact(&j, ns[i], gamma_q, p, sqrt(p[0]) * p[1], "gamma cv 0.5");
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void seglaw_1_3_independent(void **state)
{
    (void)state;
    enum { M = 200000, N = 31 };
    tmc_jitter j = {.kind = TMC_JITTER_NORMAL, .cv = 0.05};
    tmc_segment_law l;
    tmc_max_sampler s;
    assert_int_equal(tmc_segment_law_init(&l, &j, 1.0, 48, N), 0);
    assert_int_equal(tmc_dist_max_init(&s, &j, 1.0, 48), 0);
    double *a = malloc(M * sizeof *a), *b = malloc(M * sizeof *b);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 35, 1);
    double sum = 0, sum2 = 0;
    for (long i = 0; i < M; i++) {
        a[i] = tmc_segment_law_draw(&l, r);
        sum += a[i], sum2 += a[i] * a[i];
    }
    for (long i = 0; i < M; i++) {
        b[i] = 0;
        for (int k = 0; k < N; k++)
            b[i] += tmc_dist_sample_max(&s, r);
    }
    qsort(a, M, sizeof *a, cmp);
    qsort(b, M, sizeof *b, cmp);
    double d = 0;
    for (long i = 0, k = 0; i < M || k < M;) { /* the two-sample KS statistic */
        double x = i < M && (k == M || a[i] <= b[k]) ? a[i] : b[k];
        while (i < M && a[i] <= x)
            i++;
        while (k < M && b[k] <= x)
            k++;
        d = fmax(d, fabs((double)(i - k) / M));
    }
    double crit = 1.9495 * sqrt(2.0 / M);
    double mean = sum / M, sd = sqrt(sum2 / M - mean * mean);
    double want = N * tmc_dist_expected_max(&j, 1.0, 48), z = (mean - want) / (sd / sqrt(M));
    print_message("48 cards, 31 steps: KS D %.5f (critical %.5f); mean %.6f, exact %.6f, z %.2f\n",
                  d, crit, mean, want, z);
    if (d > crit || fabs(z) > 4)
        fail_msg("the law against 31 per-step draws: D %.5f (critical %.5f), mean z %.2f", d,
                 crit, z);
    free(a);
    free(b);
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
    tmc_segment_law_free(&l);
}

static void seglaw_1_4_fallback(void **state)
{
    (void)state;
    tmc_jitter heavy = {.kind = TMC_JITTER_LOGNORMAL, .cv = 2};
    tmc_segment_law l;
    assert_int_equal(tmc_segment_law_init(&l, &heavy, 1.0, 1, 2), 0);
    if (!(l.error_sigma > TMC_SEGMENT_MAX_ERROR_SIGMA))
        fail_msg("lognormal cv 2, 2 steps: bound %.3g sd, expected above %.3g", l.error_sigma,
                 TMC_SEGMENT_MAX_ERROR_SIGMA);
    tmc_segment_law_free(&l);
    const char *sets[] = {"job.cards=1", "job.steps=64", "checkpoint.interval_steps=2",
                          "monte_carlo.mode=\"segments\"",
                          "jitter={\"distribution\": \"lognormal\", \"cv\": 2}"};
    tmc_experiment x = test_load("design-48-stress", sets, 5);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_straggler_model m;
    assert_int_equal(tmc_stragglers_init(&m, &x, &cf, 1, 1), 0);
    assert_null(m.law[0].low);
    assert_true(m.law_bytes == 0);
    tmc_stragglers_free(&m);
    sets[4] = "jitter={\"distribution\": \"normal\", \"cv\": 0.05}";
    x = test_load("design-48-stress", sets, 5);
    tmc_closed_form_compute(&x, &cf);
    assert_int_equal(tmc_stragglers_init(&m, &x, &cf, 1, 1), 0);
    assert_non_null(m.law[0].low);
    assert_int_equal(m.law[0].n, 2);
    assert_true(m.law_error > 0 && m.law_error <= TMC_SEGMENT_MAX_ERROR_SIGMA);
    assert_true(m.law_bytes == 2 * TMC_MAX_SIDE * sizeof(tmc_cubic));
    tmc_stragglers_free(&m);
}

static void seglaw_1_5_max(void **state)
{
    (void)state;
    tmc_jitter js[] = {{.kind = TMC_JITTER_NORMAL, .cv = 0.05},
                       {.kind = TMC_JITTER_GAMMA, .cv = 0.5},
                       {.kind = TMC_JITTER_LOGNORMAL, .cv = 0.3}};
    for (size_t i = 0; i < sizeof js / sizeof js[0]; i++) {
        tmc_segment_law l;
        assert_int_equal(tmc_segment_law_init(&l, &js[i], 2.0, 1024, 31), 0);
        for (uint32_t k = 0; k < 64; k++) {
            double hi = tmc_segment_law_at(&l, 0xFFFFFFFFu - k), lo = tmc_segment_law_at(&l, k);
            if (!(hi <= l.max_s && lo <= hi))
                fail_msg("law %zu: the draw at u = 2^32 - 1 - %u is %.17g, above max_s %.17g", i,
                         k, hi, l.max_s);
        }
        tmc_segment_law_free(&l);
    }
}

static void same_law(const tmc_segment_law *a, const tmc_segment_law *b)
{
    assert_int_equal(a->n, b->n);
    assert_true(a->error_sigma == b->error_sigma && a->max_s == b->max_s);
    if (a->low || b->low)
        assert_memory_equal(a->low, b->low, 2 * TMC_MAX_SIDE * sizeof *a->low);
}

static void seglaw_1_6_threads(void **state)
{
    (void)state;
    const char *sets[] = {"job.cards=16384"};
    for (int k = 0; k < 2; k++) {
        tmc_experiment x = test_load("design-48-stress", sets, k);
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        tmc_engine one, three;
        assert_int_equal(tmc_engine_init_threads(&one, &x, &cf, 1), 0);
        assert_int_equal(tmc_engine_init_threads(&three, &x, &cf, 3), 0);
        const tmc_straggler_model *a = &one.stragglers, *b = &three.stragglers;
        assert_int_equal(a->blocks, b->blocks);
        if (k == 0 ? a->blocks != TMC_BLOCK_LAWS : !(a->blocks > 0 && a->blocks < TMC_BLOCK_LAWS))
            fail_msg("%s: %d block laws kept", k ? "16,384 cards" : "design-48-stress",
                     a->blocks);
        for (int i = 0; i < TMC_SEGMENT_LAWS; i++)
            same_law(&a->law[i], &b->law[i]);
        for (int i = 0; i < a->blocks; i++)
            same_law(&a->block[i], &b->block[i]);
        assert_true(a->law_error == b->law_error && a->law_bytes == b->law_bytes);
        tmc_engine_free(&one);
        tmc_engine_free(&three);
    }
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seglaw_1_1_normal),      cmocka_unit_test(seglaw_1_2_gamma),
        cmocka_unit_test(seglaw_1_3_independent), cmocka_unit_test(seglaw_1_4_fallback),
        cmocka_unit_test(seglaw_1_5_max),         cmocka_unit_test(seglaw_1_6_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
