/* rng-1.x: PCG32 as a gsl_rng_type.
 * rng-1.1 known answers from pcg-c's pcg32-demo (seed 42, stream 54);
 * rng-1.2 bit-exact agreement with Debian's libpcg-cpp over 100,000 outputs
 *         for several (initstate, stream) pairs;
 * rng-1.3 GSL plumbing: gsl_rng_uniform is get() / 2^32, range and name;
 * rng-1.4 replica streams differ and depend only on (seed, replica, kind);
 * rng-1.5 tmc_rng_exponential against gsl_ran_exponential on twin streams
 *         (PCG, and GSL's mt19937 through the generic path): the same
 *         output read, so the two draws are within 2 ulp of each other
 *         (log(1 - u) against log1p(-u)) and the streams stay in step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <math.h>

#include "rng_pcg.h"

/* rng-1.1: the first six outputs of pcg32_srandom_r(42, 54), as printed by
 * pcg-c's pcg32-demo and quoted in the PCG paper's reference outputs. */
static void test_known_answer(void **state)
{
    (void)state;
    static const uint32_t expected[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330,
                                         0x83d2f293, 0xbfa4784b, 0xcbed606e};
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 42, 54);
    for (int i = 0; i < 6; i++)
        assert_int_equal(gsl_rng_get(r), expected[i]);
    gsl_rng_free(r);
}

/* rng-1.2: compare against the independent C++ implementation. */
static void compare_with_cpp(uint64_t initstate, uint64_t stream, long count)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %llu %llu %ld", PCG_CPP_REFERENCE,
             (unsigned long long)initstate, (unsigned long long)stream, count);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, initstate, stream);
    unsigned int ref;
    long n = 0;
    while (fscanf(p, "%x", &ref) == 1) {
        unsigned long ours = gsl_rng_get(r);
        if (ours != ref)
            fail_msg("pcg32(%llu, %llu) output %ld: ours %08lx, libpcg-cpp %08x",
                     (unsigned long long)initstate, (unsigned long long)stream, n, ours, ref);
        n++;
    }
    assert_int_equal(pclose(p), 0);
    assert_int_equal(n, count);
    gsl_rng_free(r);
}

static void test_against_libpcg_cpp(void **state)
{
    (void)state;
    compare_with_cpp(42, 54, 100000);
    compare_with_cpp(0, 0, 100000);
    compare_with_cpp(0xdeadbeefcafef00dULL, 0x7fffffffffffffffULL, 100000);
    compare_with_cpp(1, 123456789, 100000);
}

/* rng-1.3: the GSL view of the generator. */
static void test_gsl_interface(void **state)
{
    (void)state;
    gsl_rng *a = gsl_rng_alloc(tmc_rng_pcg32);
    gsl_rng *b = gsl_rng_alloc(tmc_rng_pcg32);
    assert_string_equal(gsl_rng_name(a), "pcg32");
    assert_int_equal(gsl_rng_min(a), 0);
    assert_int_equal(gsl_rng_max(a), 0xffffffffUL);
    tmc_rng_pcg_seed(a, 42, 54);
    tmc_rng_pcg_seed(b, 42, 54);
    for (int i = 0; i < 1000; i++) {
        double u = gsl_rng_uniform(a);
        assert_true(u >= 0 && u < 1);
        assert_true(u == gsl_rng_get(b) / 4294967296.0);
    }
    /* gsl_rng_set(r, s) is initstate s on stream 0 */
    gsl_rng_set(a, 42);
    tmc_rng_pcg_seed(b, 42, 0);
    assert_int_equal(gsl_rng_get(a), gsl_rng_get(b));
    gsl_rng_free(a);
    gsl_rng_free(b);
}

/* rng-1.4: replica streams. */
static void test_replica_streams(void **state)
{
    (void)state;
    gsl_rng *a = gsl_rng_alloc(tmc_rng_pcg32);
    gsl_rng *b = gsl_rng_alloc(tmc_rng_pcg32);
    unsigned long first[3][TMC_STREAM_COUNT];
    for (int rep = 0; rep < 3; rep++)
        for (int k = 0; k < TMC_STREAM_COUNT; k++) {
            tmc_rng_pcg_seed_replica(a, 1, (uint64_t)rep, (tmc_stream_kind)k);
            first[rep][k] = gsl_rng_get(a);
            tmc_rng_pcg_seed_replica(b, 1, (uint64_t)rep, (tmc_stream_kind)k);
            assert_int_equal(gsl_rng_get(b), first[rep][k]); /* repeatable */
        }
    for (int i = 0; i < 3 * TMC_STREAM_COUNT; i++)
        for (int j = 0; j < i; j++)
            assert_true(first[i / TMC_STREAM_COUNT][i % TMC_STREAM_COUNT] !=
                        first[j / TMC_STREAM_COUNT][j % TMC_STREAM_COUNT]);
    tmc_rng_pcg_seed_replica(a, 2, 0, TMC_STREAM_JITTER); /* another seed */
    assert_true(gsl_rng_get(a) != first[0][TMC_STREAM_JITTER]);
    gsl_rng_free(a);
    gsl_rng_free(b);
}

static void twin_exponentials(const gsl_rng_type *type)
{
    gsl_rng *a = gsl_rng_alloc(type), *b = gsl_rng_alloc(type);
    if (type == tmc_rng_pcg32) {
        tmc_rng_pcg_seed(a, 7, 3);
        tmc_rng_pcg_seed(b, 7, 3);
    } else {
        gsl_rng_set(a, 7);
        gsl_rng_set(b, 7);
    }
    for (long i = 0; i < 1000000; i++) {
        double mean = 1 + (double)(i % 7), x = tmc_rng_exponential(a, mean);
        double y = gsl_ran_exponential(b, mean);
        if (!(fabs(x - y) <= 2 * fabs(y) * 0x1p-52))
            fail_msg("%s draw %ld: %.17g against gsl's %.17g", gsl_rng_name(a), i, x, y);
    }
    assert_int_equal(gsl_rng_get(a), gsl_rng_get(b)); /* in step */
    gsl_rng_free(a);
    gsl_rng_free(b);
}

/* rng-1.5 */
static void test_exponential(void **state)
{
    (void)state;
    twin_exponentials(tmc_rng_pcg32);
    twin_exponentials(gsl_rng_mt19937);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_answer),
        cmocka_unit_test(test_against_libpcg_cpp),
        cmocka_unit_test(test_gsl_interface),
        cmocka_unit_test(test_replica_streams),
        cmocka_unit_test(test_exponential),
    };
    return cmocka_run_group_tests_name("rng-1", tests, NULL, NULL);
}
