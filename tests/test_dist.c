/* dist-1.x: the maximum of N normals.
 * dist-1.1 c_N by quadrature reproduces docs/model.md 2 (4 decimals);
 * dist-1.2 the O(1) sampler's mean and sd against quadrature, N = 8, 48, 1024;
 * dist-1.3 the sampler's histogram against the exact CDF Phi(x)^N per bin;
 * dist-1.4 the sampler against brute force (N explicit normal draws), N = 8;
 * dist-1.5 no jitter: the sampler returns mu and draws nothing;
 * dist-1.6 the sampler's quantile table agrees with the exact quantile;
 * dist-1.7 lognormal and gamma cards: table exactness, mean and sd of the
 *          maximum against quadrature, and against brute force;
 * dist-1.9 the maximum over m of the sampler's n cards: m = n repeats the
 *          plain draw; m = 1, 7, 40 match c_m by quadrature (4 se);
 * dist-1.8 correlated normal cards: moments against quadrature; rho = 1
 *          leaves only the common part (mean mu, sd sigma);
 * dist-1.10 the extremes (issue 12): for every jitter law, n from 1 to 1e7,
 *          every group size m from 1 to n and u at 0, 1, 2^31 - 1, 2^31,
 *          2^32 - 2, 2^32 - 1 and between, both draws agree with the quantile
 *          computed directly as F^-1((u + 1/2)/2^32)^(1/m)) (not through
 *          v^(n/m)), within the table's error; run under ASan in CI, it
 *          also shows that no read falls outside the table;
 * dist-1.11 gamma cards with small cv (shapes 400 to 40,000), where GSL's
 *          own inverse CDF is NaN or a whole sd off at scattered points:
 *          the quantile (checked against GSL's CDF, else by root finding)
 *          builds a table within 1e-6 sigma at n = 1, 48, 1e7,
 *          and each quantile is within 1e-6 sd of plain bisection on GSL's
 *          CDF (from P = 3e-7 to 1 - 1e-6);
 * dist-1.12 one lognormal card: mean mu from the jitter's definition.
 * dist-1.13 the engine's running sums (tmc_dist_max_sums) and every way
 *          of computing them this processor has (one by one, SSE2 pairs,
 *          AVX2 quads) equal, bit for bit, the in-order sums of
 *          tmc_dist_max_at clamped at 0, and leave the stream where
 *          one-by-one draws do: every law, lengths 0 to 256, random streams
 *          and the lowest and highest draws in each lane.
 * Statistical tests: fixed seed, estimator and standard error stated,
 * tolerance 4 standard errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>

#include "dist.h"
#include "dist_sums.h"
#include "rng_pcg.h"

#define DRAWS 200000
#define TOL_SE 4.0

/* A sampler of the maximum of n standard normals (shifted by mu = 10 so
 * that cv = 0.1 gives sigma = 1). */
static tmc_max_sampler standard_max(long n)
{
    tmc_jitter j = {TMC_JITTER_NORMAL, 0.1, 0};
    tmc_max_sampler s;
    tmc_dist_max_init(&s, &j, 10.0, n);
    return s;
}

/* dist-1.1: docs/model.md 2's table, given to 4 decimals. */
static void test_emax_table(void **state)
{
    (void)state;
    static const long n[5] = {2, 8, 48, 1024, 16384};
    static const double c[5] = {0.5642, 1.4236, 2.2331, 3.2482, 3.9714};
    for (int i = 0; i < 5; i++) {
        double got = tmc_dist_normal_emax(n[i], NULL);
        if (fabs(got - c[i]) > 0.5e-4)
            fail_msg("c_%ld = %.6f, docs/model.md 2 says %.4f", n[i], got, c[i]);
    }
    /* c_2 = 1/sqrt(pi) exactly; c_1 = 0 */
    assert_true(fabs(tmc_dist_normal_emax(2, NULL) - 1 / sqrt(M_PI)) < 1e-9);
    assert_true(fabs(tmc_dist_normal_emax(1, NULL)) < 1e-9);
}

/* dist-1.2: estimator = sample mean of DRAWS maxima, SE = sd_quad / sqrt(DRAWS);
 * sample sd with SE sqrt((m4 - s^4) / (4 s^2 DRAWS)) from the sample's m4. */
static void check_moments(long n, uint64_t seed)
{
    tmc_max_sampler s = standard_max(n);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, seed, 0);
    double sd_q, c = tmc_dist_normal_emax(n, &sd_q);
    double sum = 0, sum2 = 0, sum4 = 0;
    for (long i = 0; i < DRAWS; i++) {
        double x = tmc_dist_sample_max(&s, r) - 10.0 - c; /* centred on the exact mean */
        sum += x;
        sum2 += x * x;
        sum4 += x * x * x * x;
    }
    double mean = sum / DRAWS, se = sd_q / sqrt((double)DRAWS);
    double var = sum2 / DRAWS - mean * mean, sd = sqrt(var);
    double se_sd = sqrt((sum4 / DRAWS - var * var) / (4 * var * DRAWS));
    if (fabs(mean) > TOL_SE * se)
        fail_msg("N=%ld: mean of max %.5f vs c_N %.5f: %.2f se", n, mean + c, c, mean / se);
    if (fabs(sd - sd_q) > TOL_SE * se_sd)
        fail_msg("N=%ld: sd of max %.5f vs quadrature %.5f: %.2f se", n, sd, sd_q,
                 (sd - sd_q) / se_sd);
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
}

static void test_sampler_moments(void **state)
{
    (void)state;
    check_moments(8, 11);
    check_moments(48, 12);
    check_moments(1024, 13);
    check_moments(16384, 14);
}

/* dist-1.3: 10 bins between quantiles of the exact CDF F(x) = Phi(x)^N; the
 * count in a bin is Binomial(DRAWS, p_b), SE sqrt(DRAWS p_b (1 - p_b)). */
static void check_histogram(long n, uint64_t seed)
{
    enum { BINS = 10 };
    double edge[BINS + 1];
    long count[BINS] = {0};
    for (int b = 0; b <= BINS; b++) /* F(edge_b) = b / BINS */
        edge[b] = b == 0 ? -INFINITY : b == BINS ? INFINITY
                : gsl_cdf_ugaussian_Pinv(pow((double)b / BINS, 1.0 / n));
    tmc_max_sampler s = standard_max(n);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, seed, 0);
    for (long i = 0; i < DRAWS; i++) {
        double x = tmc_dist_sample_max(&s, r) - 10.0;
        int b = 0;
        while (x > edge[b + 1])
            b++;
        count[b]++;
    }
    double p = 1.0 / BINS, expect = DRAWS * p, se = sqrt(DRAWS * p * (1 - p));
    for (int b = 0; b < BINS; b++)
        if (fabs(count[b] - expect) > TOL_SE * se)
            fail_msg("N=%ld bin %d: %ld draws, expected %.0f +- %.0f", n, b, count[b],
                     expect, se);
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
}

static void test_sampler_histogram(void **state)
{
    (void)state;
    check_histogram(8, 21);
    check_histogram(48, 22);
    check_histogram(1024, 23);
}

/* dist-1.4: difference of the two means, SE = sqrt(v1/M + v2/M). */
static void test_against_brute_force(void **state)
{
    (void)state;
    const long n = 8, m = 100000;
    tmc_max_sampler s = standard_max(n);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 31, 0);
    double a = 0, a2 = 0, b = 0, b2 = 0;
    for (long i = 0; i < m; i++) {
        double x = tmc_dist_sample_max(&s, r) - 10.0, y = -INFINITY;
        for (long k = 0; k < n; k++)
            y = fmax(y, gsl_ran_gaussian_ziggurat(r, 1.0));
        a += x, a2 += x * x, b += y, b2 += y * y;
    }
    double ma = a / m, mb = b / m;
    double se = sqrt((a2 / m - ma * ma) / m + (b2 / m - mb * mb) / m);
    if (fabs(ma - mb) > TOL_SE * se)
        fail_msg("O(1) mean %.5f vs brute force %.5f: %.2f se", ma, mb, (ma - mb) / se);
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
}

/* dist-1.6: the sampler's table against the exact quantile. The reference
 * draws the same 32-bit outputs u and evaluates mu + sigma Q(v) exactly at
 * v = (u + 1/2) / 2^32 (log v from log1p(-w) above 1/2, where w = 1 - v is
 * exact). Agreement within 1e-9 sigma: finer than the spacing of the 2^32
 * values of v in all but the tails. */
static void check_table(long n)
{
    tmc_max_sampler s = standard_max(n);
    if (!(s.max_error < 1e-9))
        fail_msg("N=%ld: table error measured at build %.3g sigma", n, s.max_error);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32), *ref = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 61, (uint64_t)n);
    tmc_rng_pcg_seed(ref, 61, (uint64_t)n);
    double worst = 0;
    for (long i = 0; i < 1000000; i++) {
        uint32_t u = (uint32_t)gsl_rng_get(ref);
        double v = (u + 0.5) / 4294967296.0, w = (~u + 0.5) / 4294967296.0;
        double q = tmc_dist_max_quantile(u < 0x80000000u ? log(v) : log1p(-w), 1.0 / n);
        worst = fmax(worst, fabs(tmc_dist_sample_max(&s, r) - 10.0 - q));
    }
    if (!(worst < 1e-9))
        fail_msg("N=%ld: table differs from the exact quantile by %.3g sigma", n, worst);
    gsl_rng_free(r);
    gsl_rng_free(ref);
    tmc_dist_max_free(&s);
}

static void test_table_exactness(void **state)
{
    (void)state;
    static const long n[7] = {1, 2, 8, 48, 1024, 16384, 10000000};
    for (int i = 0; i < 7; i++)
        check_table(n[i]);
}

/* dist-1.7: a sampler for kind/cv over n cards (mu = 1). Estimators: the
 * sample mean of DRAWS maxima (SE sd / sqrt(DRAWS)) and sample sd (SE from
 * the sample's fourth moment), against tmc_dist_max_moments; brute force is
 * the mean of n explicit GSL draws, compared through the difference. */
static void check_heavy(tmc_jitter_kind kind, double cv, long n, uint64_t seed)
{
    tmc_jitter j = {kind, cv, 0};
    tmc_max_sampler s;
    assert_int_equal(tmc_dist_max_init(&s, &j, 1.0, n), 0);
    if (!(s.max_error < 1e-9))
        fail_msg("kind %d cv %g N=%ld: table error %.3g sigma", kind, cv, n, s.max_error);
    double mean_q, sd_q, skew_q;
    assert_int_equal(tmc_dist_max_moments(&j, n, &mean_q, &sd_q, &skew_q), 0);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, seed, 0);
    double sum = 0, sum2 = 0, sum4 = 0, bsum = 0, bsum2 = 0;
    long brute = n <= 48 ? 50000 : 0;
    for (long i = 0; i < DRAWS; i++) {
        double x = tmc_dist_sample_max(&s, r) - mean_q;
        sum += x, sum2 += x * x, sum4 += x * x * x * x;
    }
    tmc_card_dist d = tmc_dist_card(&j);
    for (long i = 0; i < brute; i++) {
        double m = 0;
        for (long k = 0; k < n; k++)
            m = fmax(m, kind == TMC_JITTER_GAMMA ? gsl_ran_gamma(r, d.shape, d.scale)
                                                 : gsl_ran_lognormal(r, d.m, d.s));
        bsum += m - mean_q, bsum2 += (m - mean_q) * (m - mean_q);
    }
    double mean = sum / DRAWS, var = sum2 / DRAWS - mean * mean, sd = sqrt(var);
    double se = sd_q / sqrt((double)DRAWS);
    double se_sd = sqrt((sum4 / DRAWS - var * var) / (4 * var * DRAWS));
    if (fabs(mean) > TOL_SE * se)
        fail_msg("kind %d cv %g N=%ld: mean %.3f se off quadrature", kind, cv, n, mean / se);
    if (fabs(sd - sd_q) > TOL_SE * se_sd)
        fail_msg("kind %d cv %g N=%ld: sd %.3f se off", kind, cv, n, (sd - sd_q) / se_sd);
    if (brute) {
        double bm = bsum / brute, bvar = bsum2 / brute - bm * bm;
        double se_d = sqrt(var / DRAWS + bvar / brute);
        if (fabs(mean - bm) > TOL_SE * se_d)
            fail_msg("kind %d cv %g N=%ld: O(1) vs brute force %.2f se", kind, cv, n,
                     (mean - bm) / se_d);
    }
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
}

static void test_heavy_tails(void **state)
{
    (void)state;
    static const tmc_jitter_kind kinds[2] = {TMC_JITTER_LOGNORMAL, TMC_JITTER_GAMMA};
    static const double cvs[2] = {0.05, 0.5};
    static const long ns[3] = {8, 48, 1024};
    uint64_t seed = 70;
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 2; c++)
            for (int i = 0; i < 3; i++)
                check_heavy(kinds[k], cvs[c], ns[i], seed++);
}

/* dist-1.8 */
static void test_correlation(void **state)
{
    (void)state;
    static const double rhos[3] = {0.5, 0.9, 1.0};
    for (int i = 0; i < 3; i++) {
        tmc_jitter j = {TMC_JITTER_NORMAL, 0.05, rhos[i]};
        tmc_max_sampler s;
        assert_int_equal(tmc_dist_max_init(&s, &j, 1.0, 48), 0);
        double mean_q, sd_q, skew_q;
        assert_int_equal(tmc_dist_max_moments(&j, 48, &mean_q, &sd_q, &skew_q), 0);
        gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
        tmc_rng_pcg_seed(r, 80 + (uint64_t)i, 0);
        double sum = 0, sum2 = 0;
        for (long k = 0; k < DRAWS; k++) {
            double x = tmc_dist_sample_max(&s, r) - mean_q;
            sum += x, sum2 += x * x;
        }
        double mean = sum / DRAWS, sd = sqrt(sum2 / DRAWS - mean * mean);
        double se = sd_q / sqrt((double)DRAWS), se_sd = sd_q / sqrt(2.0 * DRAWS);
        if (fabs(mean) > TOL_SE * se || fabs(sd - sd_q) > TOL_SE * se_sd)
            fail_msg("rho %g: mean %.2f se, sd %.2f se off", rhos[i], mean / se,
                     (sd - sd_q) / se_sd);
        if (rhos[i] == 1.0) /* every card equal: no straggler term */
            assert_true(fabs(mean_q - 1) < 1e-15 && fabs(sd_q - 0.05) < 1e-15);
        gsl_rng_free(r);
        tmc_dist_max_free(&s);
    }
}

/* dist-1.9 */
static void test_max_of_subset(void **state)
{
    (void)state;
    tmc_max_sampler s = standard_max(48);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32), *q = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 90, 0);
    tmc_rng_pcg_seed(q, 90, 0);
    for (int i = 0; i < 100000; i++) {
        double a = tmc_dist_sample_max(&s, r), b = tmc_dist_sample_max_of(&s, q, 48);
        if (fabs(a - b) > 1e-9)
            fail_msg("draw %d: %.12f plain, %.12f through max_of(48)", i, a, b);
    }
    static const long ms[3] = {1, 7, 40};
    for (int i = 0; i < 3; i++) {
        double sd, c = tmc_dist_normal_emax(ms[i], &sd), sum = 0;
        for (long k = 0; k < DRAWS; k++)
            sum += tmc_dist_sample_max_of(&s, r, ms[i]) - 10.0;
        double z = (sum / DRAWS - c) / (sd / sqrt((double)DRAWS));
        if (fabs(z) > TOL_SE)
            fail_msg("max of %ld of 48: mean %.2f se off c_%ld", ms[i], z, ms[i]);
    }
    gsl_rng_free(r);
    gsl_rng_free(q);
    tmc_dist_max_free(&s);
}

/* dist-1.5 */
static void test_no_jitter(void **state)
{
    (void)state;
    tmc_jitter j = {TMC_JITTER_NORMAL, 0.0, 0};
    tmc_max_sampler s;
    tmc_dist_max_init(&s, &j, 52.178, 48);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32), *ref = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 5, 0);
    tmc_rng_pcg_seed(ref, 5, 0);
    assert_true(tmc_dist_sample_max(&s, r) == 52.178);
    assert_int_equal(gsl_rng_get(r), gsl_rng_get(ref)); /* nothing drawn */
    assert_true(tmc_dist_expected_max(&j, 52.178, 48) == 52.178);
    gsl_rng_free(r);
    gsl_rng_free(ref);
}

/* The gamma quantile at P = e^log_p (upper tail Q = 1 - P above 1/2) by
 * plain bisection on GSL's CDF: a reference that does not use GSL's inverse
 * (NaN or a whole sd off at scattered points for large shapes) nor the
 * library's root finder. */
static double gamma_quantile_bisect(const tmc_card_dist *d, double log_p)
{
    int upper = log_p > -M_LN2;
    double target = upper ? -expm1(log_p) : exp(log_p), lo = 0, hi = d->shape * d->scale;
    while ((upper ? gsl_cdf_gamma_Q(hi, d->shape, d->scale)
                  : -gsl_cdf_gamma_P(hi, d->shape, d->scale)) > (upper ? target : -target))
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        double below = upper ? gsl_cdf_gamma_Q(mid, d->shape, d->scale) > target
                             : gsl_cdf_gamma_P(mid, d->shape, d->scale) < target;
        if (below)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* The quantile of the maximum of m cards at U = (u + 1/2) / 2^32, seconds,
 * computed directly as F^-1(U^(1/m)) with the upper tail 1 - U^(1/m) kept
 * exact: an independent route from the sampler's v^(n/m). */
static double direct_max_quantile(const tmc_jitter *j, double mu, uint32_t u, long m)
{
    double log_u = u < 0x80000000u ? log((u + 0.5) / 4294967296.0)
                                   : log1p(-((~u) + 0.5) / 4294967296.0);
    double log_p = log_u / (double)m, q = -expm1(log_p), p = exp(log_p);
    tmc_card_dist d = tmc_dist_card(j);
    if (j->kind == TMC_JITTER_GAMMA)
        return mu * gamma_quantile_bisect(&d, log_p);
    double z = q < 0.5 ? gsl_cdf_ugaussian_Qinv(q) : gsl_cdf_ugaussian_Pinv(p);
    return j->kind == TMC_JITTER_NORMAL ? mu * (1 + d.c * z) : mu * exp(d.m + d.s * z);
}

/* dist-1.10 */
static void test_extremes(void **state)
{
    (void)state;
    static const tmc_jitter laws[] = {{TMC_JITTER_NORMAL, 0.05, 0}, {TMC_JITTER_NORMAL, 0.2, 0},
                                      {TMC_JITTER_LOGNORMAL, 0.5, 0},
                                      {TMC_JITTER_LOGNORMAL, 2, 0},
                                      {TMC_JITTER_GAMMA, 0.1, 0}, {TMC_JITTER_GAMMA, 1.5, 0},
                                      {TMC_JITTER_GAMMA, 0.015, 0}};
    static const long ns[] = {1, 2, 7, 100, 256, 512, 100000, 10000000};
    static const uint32_t us[] = {0, 1, 2, 3, 1000, 0x3fffffffu, 0x7ffffffeu, 0x7fffffffu,
                                  0x80000000u, 0x80000001u, 0xc0000000u, 0xfffffc00u,
                                  0xfffffffdu, 0xfffffffeu, 0xffffffffu};
    const double mu = 10;
    for (size_t l = 0; l < sizeof laws / sizeof *laws; l++)
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            long n = ns[i], ms[] = {1, 2, 3, n / 2, n - 1, n};
            tmc_max_sampler s;
            assert_int_equal(tmc_dist_max_init(&s, &laws[l], mu, n), 0);
            /* the table's own error, measured at build, plus rounding */
            double tol = 8 * s.max_error * s.sigma + 1e-9 * mu;
            for (size_t k = 0; k < sizeof ms / sizeof *ms; k++) {
                long m = ms[k];
                if (m < 1 || m > n)
                    continue;
                double prev = -INFINITY;
                for (size_t q = 0; q < sizeof us / sizeof *us; q++) {
                    double want = fmax(direct_max_quantile(&laws[l], mu, us[q], m), 0);
                    double got = tmc_dist_max_of_at(&s, us[q], m);
                    if (!isfinite(got) || fabs(got - want) > tol || got < prev)
                        fail_msg("law %zu n %ld m %ld u %#x: %.17g, direct %.17g (tol %.3g)",
                                 l, n, m, (unsigned)us[q], got, want, tol);
                    prev = got;
                    if (m == n) {
                        double all = tmc_dist_max_at(&s, us[q]);
                        if (!isfinite(all) || fabs(fmax(all, 0) - want) > tol)
                            fail_msg("law %zu n %ld u %#x: %.17g, direct %.17g", l, n,
                                     (unsigned)us[q], all, want);
                    }
                }
            }
            tmc_dist_max_free(&s);
        }
}

/* dist-1.11 */
static void test_gamma_small_cv(void **state)
{
    (void)state;
    /* cv values where GSL's inverse failed (a table build is ~0.3 s each) */
    static const double cvs[] = {0.005, 0.015, 0.02, 0.0311};
    static const long ns[] = {1, 48, 10000000};
    for (size_t i = 0; i < sizeof cvs / sizeof *cvs; i++) {
        tmc_jitter j = {TMC_JITTER_GAMMA, cvs[i], 0};
        tmc_card_dist d = tmc_dist_card(&j);
        for (double lp = -15; lp < -1e-6; lp += 0.05) { /* P from 3e-7 to 1 - 1e-6 */
            double y = tmc_dist_card_max_quantile(&d, lp, 1.0);
            double want = gamma_quantile_bisect(&d, lp);
            if (!(fabs(y - want) <= 1e-6 * cvs[i])) /* 1e-6 sd */
                fail_msg("gamma cv %g at log p %.2f: quantile %.15g, bisection %.15g",
                         cvs[i], lp, y, want);
        }
        for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
            tmc_max_sampler s;
            assert_int_equal(tmc_dist_max_init(&s, &j, 1.0, ns[k]), 0);
            if (!(s.max_error <= 1e-6))
                fail_msg("gamma cv %g, n %ld: table error %.3g sigma", cvs[i], ns[k], s.max_error);
            tmc_dist_max_free(&s);
        }
    }
}

/* dist-1.12 one lognormal card, from the jitter's definition alone: mean
 * mu, sd cv mu (mutation testing found a wrong log-mean invisible to the
 * quadrature checks, which share tmc_dist_card). Estimator: the sample mean
 * of 200,000 draws, SE = cv mu / sqrt(n); tolerance 4 SE. */
static void test_lognormal_card(void **state)
{
    (void)state;
    tmc_jitter j = {TMC_JITTER_LOGNORMAL, 0.5, 0};
    tmc_max_sampler s;
    assert_int_equal(tmc_dist_max_init(&s, &j, 10.0, 1), 0);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 112, 0);
    double sum = 0;
    for (long k = 0; k < DRAWS; k++)
        sum += tmc_dist_sample_max(&s, r);
    double z = (sum / DRAWS - 10.0) / (5.0 / sqrt((double)DRAWS));
    if (fabs(z) > TOL_SE)
        fail_msg("one lognormal card: mean %.2f se off mu", z);
    gsl_rng_free(r);
    tmc_dist_max_free(&s);
}

/* dist-1.13 */
#define PCG_MULTIPLIER 6364136223846793005ULL

/* States whose next output is 0 and 2^32 - 1: with the top 5 bits 0 the
 * rotation is 0, and the xorshift ((old >> 18) ^ old) >> 27 is then 0 for
 * old < 2^27 and all ones for bits 41 to 58 set (rng_pcg.h). */
#define STATE_LOWEST_DRAW 5u
#define STATE_HIGHEST_DRAW 0x07FFFE0000000000ULL

/* The state one step before st (the LCG run backwards). */
static tmc_pcg32_state state_before(tmc_pcg32_state st)
{
    uint64_t inv = PCG_MULTIPLIER; /* Newton: inv = a^-1 mod 2^64 */
    for (int i = 0; i < 6; i++)
        inv *= 2 - PCG_MULTIPLIER * inv;
    st.state = (st.state - st.inc) * inv;
    return st;
}

/* Every way of computing the sums there is on this processor (dist_sums.h),
 * and the one the engine takes. */
static tmc_dist_sums_fn *ways[4];
static const char *way_names[4];
static int n_ways;

static void find_ways(void)
{
    n_ways = 0;
    ways[n_ways] = tmc_dist_max_sums, way_names[n_ways++] = "engine's";
    ways[n_ways] = tmc_dist_max_sums_one, way_names[n_ways++] = "one by one";
    if (tmc_dist_max_sums_sse2())
        ways[n_ways] = tmc_dist_max_sums_sse2(), way_names[n_ways++] = "SSE2 pairs";
    if (tmc_dist_max_sums_avx2())
        ways[n_ways] = tmc_dist_max_sums_avx2(), way_names[n_ways++] = "AVX2 quads";
}

static void check_sums(const tmc_max_sampler *s, tmc_pcg32_state st, int n)
{
    for (int w = 0; w < n_ways; w++) {
        double got[300], start = 1.25, want = start;
        tmc_pcg32_state a = st, b = st;
        double last = ways[w](s, &a, start, got, n);
        for (int i = 0; i < n; i++) {
            double y = tmc_dist_max_at(s, tmc_rng_pcg_step(&b));
            want += y > 0 ? y : 0;
            if (memcmp(&got[i], &want, sizeof want))
                fail_msg("%s, n %d: sum %d is %.17g, in order %.17g", way_names[w], n, i,
                         got[i], want);
        }
        if (last != want || a.state != b.state)
            fail_msg("%s, n %d: returned %.17g (want %.17g) or the stream moved differently",
                     way_names[w], n, last, want);
    }
}

static void test_running_sums(void **state)
{
    (void)state;
    static const tmc_jitter laws[] = {{TMC_JITTER_NORMAL, 0.05, 0}, {TMC_JITTER_NORMAL, 0.2, 0},
                                      {TMC_JITTER_LOGNORMAL, 2, 0}, {TMC_JITTER_GAMMA, 1.5, 0}};
    static const long ns[] = {1, 8, 100000};
    static const int lengths[] = {0, 1, 2, 3, 4, 5, 7, 32, 255, 256};
    find_ways();
    print_message("dist-1.13: %d ways to sum (the engine's, one by one%s%s)\n", n_ways,
                  tmc_dist_max_sums_sse2() ? ", SSE2" : "", tmc_dist_max_sums_avx2() ? ", AVX2" : "");
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    for (size_t l = 0; l < sizeof laws / sizeof *laws; l++)
        for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
            tmc_max_sampler s;
            assert_int_equal(tmc_dist_max_init(&s, &laws[l], 10, ns[i]), 0);
            tmc_rng_pcg_seed(r, 13 + l, i);
            tmc_pcg32_state st = *(tmc_pcg32_state *)r->state;
            for (int k = 0; k < 400; k++) { /* 400 x 256 random draws */
                check_sums(&s, st, 256);
                for (int d = 0; d < 256; d++)
                    tmc_rng_pcg_step(&st);
            }
            for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++)
                check_sums(&s, st, lengths[k]);
            tmc_pcg32_state low = {STATE_LOWEST_DRAW, st.inc}, high = {STATE_HIGHEST_DRAW, st.inc};
            tmc_pcg32_state probe = low;
            assert_int_equal(tmc_rng_pcg_step(&probe), 0);
            probe = high;
            assert_int_equal(tmc_rng_pcg_step(&probe), 0xffffffffu);
            probe = state_before(high);
            tmc_rng_pcg_step(&probe);
            assert_true(probe.state == high.state);
            check_sums(&s, low, 1); /* one draw: no pair */
            check_sums(&s, state_before(state_before(low)), 3); /* the third: no pair */
            for (int lane = 0; lane < 4; lane++) { /* the extreme in each lane */
                tmc_pcg32_state a = low, b = high;
                for (int k = 0; k < lane; k++)
                    a = state_before(a), b = state_before(b);
                check_sums(&s, a, 4);
                check_sums(&s, b, 4);
                check_sums(&s, a, 8);
            }
            tmc_dist_max_free(&s);
        }
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_emax_table),
        cmocka_unit_test(test_sampler_moments),
        cmocka_unit_test(test_sampler_histogram),
        cmocka_unit_test(test_against_brute_force),
        cmocka_unit_test(test_no_jitter),
        cmocka_unit_test(test_table_exactness),
        cmocka_unit_test(test_heavy_tails),
        cmocka_unit_test(test_correlation),
        cmocka_unit_test(test_max_of_subset),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_gamma_small_cv),
        cmocka_unit_test(test_lognormal_card),
        cmocka_unit_test(test_running_sums),
    };
    gsl_set_error_handler_off(); /* as trainmc's main does: statuses are checked */
    return cmocka_run_group_tests_name("dist-1", tests, NULL, NULL);
}
