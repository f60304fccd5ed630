/* emax-1.x: c_N four ways (emax.h).
 * emax-1.1 Blom's approximation against quadrature: within +-0.03 for
 *          2 <= N <= 1e7, above c_N up to N = 16, below from N = 32;
 * emax-1.2 the Gumbel expansion against quadrature: above c_N, the error
 *          falls with N like 1 / ln N (0.12 <= error ln N <= 0.24);
 * emax-1.3 simulated mean and sd of the maximum (O(1) sampler at N = 8, 48,
 *          1024; brute force at N = 8, 48) within 4 standard errors of
 *          quadrature;
 * emax-1.4 the same bits whatever the thread count; a new seed changes them;
 * emax-1.5 the step time of docs/model.md 2's example: 48 cards, mu = 52.2 s,
 *          sigma = 2.61 s, + 0.58 s -> 58.6 s;
 * emax-1.6 the reference design's values are c_N rounded to 2 decimals;
 * emax-1.7 the standard errors are honest: over many seeds, the diffs
 *          (mean - c_N) / se of the sampler and of brute force have mean 0
 *          and variance 1.
 * Statistical tests: fixed seed, estimator and standard error stated,
 * tolerance 4 standard errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dist.h"
#include "emax_sim.h"

#define TOL_SE 4.0

static const long sweep[] = {2, 3, 5, 8, 16, 32, 48, 64, 100, 1024, 16384, 65536,
                             1000000, 10000000};
#define SWEEP (sizeof sweep / sizeof sweep[0])

/* emax-1.1 */
static void test_blom(void **state)
{
    (void)state;
    for (size_t i = 0; i < SWEEP; i++) {
        long n = sweep[i];
        double err = tmc_emax_blom(n) - tmc_dist_normal_emax(n, NULL);
        if (!(fabs(err) < 0.03))
            fail_msg("N=%ld: Blom's error %.5f, expected within 0.03", n, err);
        if (n <= 16 ? err <= 0 : err >= 0) /* the sweep skips 17..31 */
            fail_msg("N=%ld: Blom's error %.5f has the wrong sign", n, err);
    }
    assert_true(tmc_emax_blom(1) == 0.0); /* Phi^-1(1/2) = 0 = c_1 */
    assert_true(isnan(tmc_emax_blom(0)));
}

/* emax-1.2 */
static void test_gumbel(void **state)
{
    (void)state;
    double previous = INFINITY;
    for (size_t i = 0; i < SWEEP; i++) {
        long n = sweep[i];
        double err = tmc_emax_gumbel(n) - tmc_dist_normal_emax(n, NULL);
        double scaled = err * log((double)n);
        if (!(err > 0 && err < previous))
            fail_msg("N=%ld: Gumbel's error %.5f, expected positive and below %.5f", n, err,
                     previous);
        if (!(scaled >= 0.12 && scaled <= 0.24))
            fail_msg("N=%ld: Gumbel's error x ln N = %.4f, expected in [0.12, 0.24]", n,
                     scaled);
        previous = err;
    }
    assert_true(isnan(tmc_emax_gumbel(1)));
}

/* emax-1.3: estimator = sample mean of R maxima, SE = sample sd / sqrt(R);
 * sample sd with the delta-method SE sqrt((m4 - v^2) / (4 v R)). */
static void check_estimate(long n, const char *what, const tmc_emax_estimate *e,
                           double mean, double sd)
{
    double zm = (e->mean - mean) / e->se, zs = (e->sd - sd) / e->sd_se;
    if (!(fabs(zm) <= TOL_SE))
        fail_msg("N=%ld %s: mean %.5f vs quadrature %.5f: %.2f se", n, what, e->mean, mean, zm);
    if (!(fabs(zs) <= TOL_SE))
        fail_msg("N=%ld %s: sd %.5f vs quadrature %.5f: %.2f se", n, what, e->sd, sd, zs);
}

static void test_simulation(void **state)
{
    (void)state;
    static const long n[3] = {8, 48, 1024};
    for (int i = 0; i < 3; i++) {
        tmc_emax_row row;
        tmc_error err = {""};
        assert_int_equal(tmc_emax_compute(n[i], 200000, 41, 2, 64, &row, &err), 0);
        check_estimate(n[i], "sampler", &row.sampler, row.quad_mean, row.quad_sd);
        if (n[i] <= 64)
            check_estimate(n[i], "brute force", &row.brute, row.quad_mean, row.quad_sd);
        else
            assert_int_equal(row.brute.replicas, 0);
    }
}

/* emax-1.4: 10001 replicas, so the last chunk is partial. */
static void simulate(int threads, uint64_t seed, tmc_emax_estimate e[2])
{
    tmc_error err = {""};
    memset(e, 0, 2 * sizeof *e);
    assert_int_equal(tmc_emax_simulate(48, 10001, seed, threads, 2.2, &e[0], &e[1], &err), 0);
}

static void test_threads(void **state)
{
    (void)state;
    tmc_emax_estimate one[2], two[2], three[2], other[2];
    simulate(1, 5, one);
    simulate(2, 5, two);
    simulate(3, 5, three);
    simulate(2, 6, other);
    assert_memory_equal(one, two, sizeof one);
    assert_memory_equal(one, three, sizeof one);
    assert_true(one[0].mean != other[0].mean && one[1].mean != other[1].mean);
}

/* emax-1.5: docs/model.md 2 gives 52.2 + 2.233 x 2.61 + 0.58 = 58.6 s. */
static void test_step_time(void **state)
{
    (void)state;
    double c = tmc_dist_normal_emax(48, NULL);
    double t = tmc_emax_step_time(c, 52.2, 0.05 * 52.2, 0.58);
    if (fabs(t - 58.6) >= 0.05)
        fail_msg("step time %.4f s, docs/model.md 2 says about 58.6 s", t);
    assert_true(fabs(t - (52.2 + 2.2331208808 * 2.61 + 0.58)) < 1e-8);
    assert_true(tmc_emax_step_time(c, 52.2, 0, 0.58) == 52.2 + 0.58); /* no jitter */
}

/* emax-1.6 */
static void test_reference(void **state)
{
    (void)state;
    static const long n[3] = {8, 48, 1024};
    for (int i = 0; i < 3; i++) {
        double c = tmc_dist_normal_emax(n[i], NULL);
        assert_true(fabs(round(100 * c) / 100 - tmc_emax_reference(n[i])) < 1e-12);
    }
    assert_true(isnan(tmc_emax_reference(2)));
    assert_true(isnan(tmc_emax_reference(16384)));
}

/* emax-1.7: SEEDS values z_s of (mean - c_N) / se at N = 8. If se is right,
 * z ~ N(0, 1): the mean of z has SE 1 / sqrt(SEEDS), the sample variance of z
 * has SE sqrt(2 / (SEEDS - 1)). An se too small (e.g. correlated streams)
 * would inflate the variance. */
static void test_se_calibration(void **state)
{
    (void)state;
    enum { SEEDS = 400 };
    double sd, c = tmc_dist_normal_emax(8, &sd);
    double sum[2] = {0, 0}, sum2[2] = {0, 0};
    for (int s = 0; s < SEEDS; s++) {
        tmc_emax_estimate e[2];
        tmc_error err = {""};
        assert_int_equal(tmc_emax_simulate(8, 5000, 1000 + s, 2, c, &e[0], &e[1], &err), 0);
        for (int m = 0; m < 2; m++) {
            double z = (e[m].mean - c) / e[m].se;
            sum[m] += z;
            sum2[m] += z * z;
        }
    }
    for (int m = 0; m < 2; m++) {
        double mean = sum[m] / SEEDS, var = (sum2[m] - SEEDS * mean * mean) / (SEEDS - 1);
        double se_var = sqrt(2.0 / (SEEDS - 1));
        if (fabs(mean) > TOL_SE / sqrt(SEEDS) || fabs(var - 1) > TOL_SE * se_var)
            fail_msg("%s: z over %d seeds has mean %.3f, variance %.3f; expected 0 +- %.2f, "
                     "1 +- %.2f", m ? "brute force" : "sampler", SEEDS, mean, var,
                     1 / sqrt(SEEDS), se_var);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blom),       cmocka_unit_test(test_gumbel),
        cmocka_unit_test(test_simulation), cmocka_unit_test(test_threads),
        cmocka_unit_test(test_step_time),  cmocka_unit_test(test_reference),
        cmocka_unit_test(test_se_calibration),
    };
    return cmocka_run_group_tests_name("emax-1", tests, NULL, NULL);
}
