/* dist_sums.c - running sums of the slowest card's draws (dist_sums.h).
 * Every way reads the same table rows with the same IEEE operations in
 * the same order (tmc_dist_table_row, tmc_dist_cubic), so the bits agree;
 * the wider ways only put two or four draws side by side in one register.
 * The PCG draws themselves stay one by one: each needs the state before. */
#include "dist_sums.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TMC_DIST_X86 1
#endif

double tmc_dist_max_sums_one(const tmc_max_sampler *s, tmc_pcg32_state *st, double start,
                             double *p, int n)
{
    /* a local copy of the state stays in registers: through the pointer,
     * every draw would reload the state its previous store wrote */
    tmc_pcg32_state local = *st;
    double sum = start;
    for (int i = 0; i < n; i++) {
        double y = tmc_dist_max_at(s, tmc_rng_pcg_step(&local));
        p[i] = sum += y > 0 ? y : 0;
    }
    *st = local;
    return sum;
}

#ifdef TMC_DIST_X86
/* Two draws' values, clamped at 0, as tmc_dist_table_row and tmc_dist_cubic
 * compute them one at a time, lane by lane. */
static inline __m128d max_pair(const tmc_max_sampler *s, uint32_t u0, uint32_t u1)
{
    const __m128i exponent_piece = _mm_set1_epi64x((1 << TMC_MAX_SIGN_BIT) - 1);
    const __m128i first = _mm_set1_epi64x(TMC_MAX_FIRST_ROW);
    const __m128d start_bits = _mm_castsi128_pd(
        _mm_set1_epi64x((long long)~(((uint64_t)1 << TMC_MAX_ROW_SHIFT) - 1)));
    __m128i d = _mm_unpacklo_epi32(_mm_cvtsi32_si128(tmc_dist_as_int32(u0)),
                                   _mm_cvtsi32_si128(tmc_dist_as_int32(u1)));
    __m128d dd = _mm_cvtepi32_pd(d);
    __m128d t = _mm_add_pd(_mm_add_pd(dd, dd), _mm_set1_pd(1.0));
    __m128i raw = _mm_srli_epi64(_mm_castpd_si128(t), TMC_MAX_ROW_SHIFT);
    __m128i side = _mm_slli_epi64(_mm_srli_epi64(raw, TMC_MAX_SIGN_BIT), TMC_MAX_SIDE_BITS);
    __m128i row = _mm_add_epi64(_mm_sub_epi64(_mm_and_si128(raw, exponent_piece), first), side);
    __m128d g = _mm_sub_pd(t, _mm_and_pd(t, start_bits));
    const double *a = s->low[_mm_cvtsi128_si64(row)].c;
    const double *b = s->low[_mm_cvtsi128_si64(_mm_unpackhi_epi64(row, row))].c;
    __m128d a01 = _mm_loadu_pd(a), b01 = _mm_loadu_pd(b);
    __m128d a23 = _mm_loadu_pd(a + 2), b23 = _mm_loadu_pd(b + 2);
    /* tmc_dist_cubic */
    __m128d low = _mm_add_pd(_mm_unpacklo_pd(a01, b01), _mm_mul_pd(g, _mm_unpackhi_pd(a01, b01)));
    __m128d high = _mm_add_pd(_mm_unpacklo_pd(a23, b23), _mm_mul_pd(g, _mm_unpackhi_pd(a23, b23)));
    __m128d y = _mm_add_pd(low, _mm_mul_pd(_mm_mul_pd(g, g), high));
    return _mm_max_pd(y, _mm_setzero_pd()); /* y > 0 ? y : 0, lane by lane */
}

static double sums_sse2(const tmc_max_sampler *s, tmc_pcg32_state *st, double start,
                        double *p, int n)
{
    tmc_pcg32_state local = *st;
    double sum = start;
    int i = 0;
    for (; i + 1 < n; i += 2) {
        uint32_t u0 = tmc_rng_pcg_step(&local), u1 = tmc_rng_pcg_step(&local);
        __m128d y = max_pair(s, u0, u1);
        p[i] = sum += _mm_cvtsd_f64(y);
        p[i + 1] = sum += _mm_cvtsd_f64(_mm_unpackhi_pd(y, y));
    }
    *st = local;
    return tmc_dist_max_sums_one(s, st, sum, p + i, n - i);
}

/* Four draws' values, clamped at 0, lane by lane as max_pair. */
__attribute__((target("avx2"))) static inline __m256d max_quad(const tmc_max_sampler *s,
                                                              __m128i u)
{
    const __m256i exponent_piece = _mm256_set1_epi64x((1 << TMC_MAX_SIGN_BIT) - 1);
    const __m256i first = _mm256_set1_epi64x(TMC_MAX_FIRST_ROW);
    const __m256d start_bits = _mm256_castsi256_pd(
        _mm256_set1_epi64x((long long)~(((uint64_t)1 << TMC_MAX_ROW_SHIFT) - 1)));
    __m256d dd = _mm256_cvtepi32_pd(u); /* u's lanes as int32 */
    __m256d t = _mm256_add_pd(_mm256_add_pd(dd, dd), _mm256_set1_pd(1.0));
    __m256i raw = _mm256_srli_epi64(_mm256_castpd_si256(t), TMC_MAX_ROW_SHIFT);
    __m256i side = _mm256_slli_epi64(_mm256_srli_epi64(raw, TMC_MAX_SIGN_BIT),
                                     TMC_MAX_SIDE_BITS);
    __m256i row = _mm256_add_epi64(
        _mm256_sub_epi64(_mm256_and_si256(raw, exponent_piece), first), side);
    __m256d g = _mm256_sub_pd(t, _mm256_and_pd(t, start_bits));
    __m128i r01 = _mm256_castsi256_si128(row), r23 = _mm256_extracti128_si256(row, 1);
    __m256d c0 = _mm256_loadu_pd(s->low[_mm_cvtsi128_si64(r01)].c);
    __m256d c1 = _mm256_loadu_pd(s->low[_mm_extract_epi64(r01, 1)].c);
    __m256d c2 = _mm256_loadu_pd(s->low[_mm_cvtsi128_si64(r23)].c);
    __m256d c3 = _mm256_loadu_pd(s->low[_mm_extract_epi64(r23, 1)].c);
    /* rows to coefficients: k0 holds every draw's c[0], and so on */
    __m256d lo01 = _mm256_unpacklo_pd(c0, c1), hi01 = _mm256_unpackhi_pd(c0, c1);
    __m256d lo23 = _mm256_unpacklo_pd(c2, c3), hi23 = _mm256_unpackhi_pd(c2, c3);
    __m256d k0 = _mm256_permute2f128_pd(lo01, lo23, 0x20);
    __m256d k2 = _mm256_permute2f128_pd(lo01, lo23, 0x31);
    __m256d k1 = _mm256_permute2f128_pd(hi01, hi23, 0x20);
    __m256d k3 = _mm256_permute2f128_pd(hi01, hi23, 0x31);
    /* tmc_dist_cubic */
    __m256d low = _mm256_add_pd(k0, _mm256_mul_pd(g, k1));
    __m256d high = _mm256_add_pd(k2, _mm256_mul_pd(g, k3));
    __m256d y = _mm256_add_pd(low, _mm256_mul_pd(_mm256_mul_pd(g, g), high));
    return _mm256_max_pd(y, _mm256_setzero_pd());
}

__attribute__((target("avx2"))) static double sums_avx2(const tmc_max_sampler *s,
                                                       tmc_pcg32_state *st, double start,
                                                       double *p, int n)
{
    tmc_pcg32_state local = *st;
    double sum = start;
    int i = 0;
    for (; i + 3 < n; i += 4) {
        int32_t u0 = tmc_dist_as_int32(tmc_rng_pcg_step(&local));
        int32_t u1 = tmc_dist_as_int32(tmc_rng_pcg_step(&local));
        int32_t u2 = tmc_dist_as_int32(tmc_rng_pcg_step(&local));
        int32_t u3 = tmc_dist_as_int32(tmc_rng_pcg_step(&local));
        __m256d y = max_quad(s, _mm_setr_epi32(u0, u1, u2, u3));
        __m128d y01 = _mm256_castpd256_pd128(y), y23 = _mm256_extractf128_pd(y, 1);
        p[i] = sum += _mm_cvtsd_f64(y01);
        p[i + 1] = sum += _mm_cvtsd_f64(_mm_unpackhi_pd(y01, y01));
        p[i + 2] = sum += _mm_cvtsd_f64(y23);
        p[i + 3] = sum += _mm_cvtsd_f64(_mm_unpackhi_pd(y23, y23));
    }
    *st = local;
    return tmc_dist_max_sums_one(s, st, sum, p + i, n - i);
}
#endif

tmc_dist_sums_fn *tmc_dist_max_sums_sse2(void)
{
#ifdef TMC_DIST_X86
    return sums_sse2;
#else
    return NULL;
#endif
}

tmc_dist_sums_fn *tmc_dist_max_sums_avx2(void)
{
#ifdef TMC_DIST_X86
    return __builtin_cpu_supports("avx2") ? sums_avx2 : NULL;
#else
    return NULL;
#endif
}

double tmc_dist_max_sums(const tmc_max_sampler *s, tmc_pcg32_state *st, double start,
                         double *p, int n)
{
#ifdef TMC_DIST_X86
    if (__builtin_cpu_supports("avx2"))
        return sums_avx2(s, st, start, p, n);
    return sums_sse2(s, st, start, p, n);
#else
    return tmc_dist_max_sums_one(s, st, start, p, n);
#endif
}
