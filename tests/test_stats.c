/* stats-1.x: summaries of completion times.
 * stats-1.1 Wilson bounds solve (p_hat - p)^2 = z^2 p (1 - p) / n, and k = 0
 *           gives [0, z^2 / (n + z^2)];
 * stats-1.2 mean, sd, quantiles (GSL's interpolation), P(x <= threshold);
 * stats-1.3 histogram: counts add to n, the maximum lands in the last bin,
 *           and a constant sample does not break it;
 * stats-1.4 the quantiles found by selection equal, bit for bit, GSL's
 *           interpolation on the sorted sample (gsl_sort, then
 *           gsl_stats_quantile_from_sorted_data, here in the test), with
 *           ties, n = 1, 2, 3 and 10^5, every count and edge equals the
 *           sorted sample's, and the sample is left in its order. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

#define Z95 1.959963984540054

static void test_wilson(void **state)
{
    (void)state;
    static const long k[4] = {81, 1, 9990, 5000}, n[4] = {263, 10, 10000, 10000};
    for (int i = 0; i < 4; i++) {
        double lo, hi, ph = (double)k[i] / n[i];
        tmc_stats_wilson(k[i], n[i], 0.95, &lo, &hi);
        double bounds[2] = {lo, hi};
        for (int b = 0; b < 2; b++) {
            double p = bounds[b];
            double resid = (ph - p) * (ph - p) - Z95 * Z95 * p * (1 - p) / n[i];
            if (fabs(resid) > 1e-12)
                fail_msg("k=%ld n=%ld bound %.6f: residual %.3g", k[i], n[i], p, resid);
        }
        assert_true(lo < ph && ph < hi);
    }
    double lo, hi;
    tmc_stats_wilson(0, 10000, 0.95, &lo, &hi);
    assert_true(lo == 0);
    assert_true(fabs(hi - Z95 * Z95 / (10000 + Z95 * Z95)) < 1e-12);
    tmc_stats_wilson(10000, 10000, 0.95, &lo, &hi);
    assert_true(hi == 1 && fabs(lo - 10000 / (10000 + Z95 * Z95)) < 1e-12);
}

static void test_summary(void **state)
{
    (void)state;
    double x[100];
    for (int i = 0; i < 100; i++) /* 1..100, shuffled order must not matter */
        x[i] = (double)((i * 37) % 100 + 1);
    tmc_summary s;
    assert_int_equal(tmc_stats_summarize(x, 100, 30.0, &s), 0);
    assert_true(fabs(s.mean - 50.5) < 1e-12);
    assert_true(fabs(s.sd - sqrt(841.6666666666666)) < 1e-9); /* n(n+1)/12 = 841.67 */
    assert_true(fabs(s.quantile[2] - 50.5) < 1e-12); /* p50 */
    assert_true(fabs(s.quantile[0] - 1.99) < 1e-12); /* 1 + 0.01 x 99 */
    assert_true(fabs(s.quantile[4] - 99.01) < 1e-12);
    assert_true(fabs(s.quantile[1] - 5.95) < 1e-12);  /* p05: 1 + 0.05 x 99 */
    assert_true(fabs(s.quantile[3] - 95.05) < 1e-12); /* p95: 1 + 0.95 x 99 */
    assert_int_equal(s.met, 30);
    assert_true(s.p_met == 0.3);
    assert_true(s.min == 1 && s.max == 100);
}

static void test_histogram(void **state)
{
    (void)state;
    double x[1000];
    for (int i = 0; i < 1000; i++)
        x[i] = 24.5 + 0.001 * (i % 250);
    tmc_summary s;
    assert_int_equal(tmc_stats_summarize(x, 1000, 30, &s), 0);
    long total = 0;
    for (int b = 0; b < TMC_STATS_BINS; b++)
        total += s.bin_count[b];
    assert_int_equal(total, 1000);
    assert_true(s.bin_count[TMC_STATS_BINS - 1] > 0);
    assert_true(s.bin_lo[0] == 24.5);
    double c[3] = {7, 7, 7};
    assert_int_equal(tmc_stats_summarize(c, 3, 7, &s), 0);
    assert_int_equal(s.bin_count[0], 3);
    assert_true(s.sd == 0 && s.p_met == 1);
}

/* One sample x[n] summarised as given and, for the reference, after a
 * sort: the same summary, every field; x is left as it was. */
static void same_as_sorted(const double *x, long n, double threshold)
{
    double *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    memcpy(a, x, (size_t)n * sizeof *a);
    memcpy(b, x, (size_t)n * sizeof *b);
    gsl_sort(b, 1, (size_t)n);
    tmc_summary s, t;
    assert_int_equal(tmc_stats_summarize(a, n, threshold, &s), 0);
    assert_memory_equal(a, x, (size_t)n * sizeof *a);
    assert_int_equal(tmc_stats_summarize(b, n, threshold, &t), 0); /* sorted */
    for (int i = 0; i < TMC_STATS_NQ; i++) {
        double want = gsl_stats_quantile_from_sorted_data(b, 1, (size_t)n, tmc_stats_levels[i]);
        if (s.quantile[i] != want)
            fail_msg("n=%ld level %g: %.17g, sorted %.17g", n, tmc_stats_levels[i],
                     s.quantile[i], want);
    }
    assert_true(s.min == b[0] && s.max == b[n - 1]);
    long met = 0;
    while (met < n && b[met] <= threshold)
        met++;
    assert_int_equal(s.met, met);
    for (int k = 0; k < TMC_STATS_BINS; k++)
        assert_int_equal(s.bin_count[k], t.bin_count[k]);
    assert_memory_equal(s.bin_lo, t.bin_lo, sizeof s.bin_lo);
    free(a);
    free(b);
}

static void test_selection(void **state)
{
    (void)state;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 1404);
    long n = 100000;
    double *x = malloc((size_t)n * sizeof *x);
    assert_non_null(x);
    for (long i = 0; i < n; i++) /* completion days, and restart counts: many ties */
        x[i] = 27 + gsl_rng_uniform(r);
    same_as_sorted(x, n, 27.5);
    for (long i = 0; i < n; i++)
        x[i] = (double)gsl_rng_uniform_int(r, 40);
    same_as_sorted(x, n, 20);
    for (long m = 1; m <= 3; m++) {
        for (long i = 0; i < m; i++)
            x[i] = (double)(3 - i);
        same_as_sorted(x, m, 2);
    }
    free(x);
    gsl_rng_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_selection),
    };
    return cmocka_run_group_tests_name("stats-1", tests, NULL, NULL);
}
