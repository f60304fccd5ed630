/* rng_pcg.c - PCG32 XSH RR as a gsl_rng_type. See rng_pcg.h for the
 * recurrence, the source and the known answer. */
#include "rng_pcg.h"

typedef tmc_pcg32_state pcg32_state;

static void pcg32_seed_state(pcg32_state *s, uint64_t initstate, uint64_t stream)
{
    s->state = 0u;
    s->inc = (stream << 1u) | 1u;
    tmc_rng_pcg_step(s);
    s->state += initstate;
    tmc_rng_pcg_step(s);
}

static void pcg32_set(void *vstate, unsigned long int seed)
{
    pcg32_seed_state(vstate, (uint64_t)seed, 0u);
}

static unsigned long int pcg32_get(void *vstate)
{
    return tmc_rng_pcg_step(vstate);
}

static double pcg32_get_double(void *vstate)
{
    return tmc_rng_pcg_step(vstate) / 4294967296.0;
}

static const gsl_rng_type pcg32_type = {
    "pcg32", 0xffffffffUL, 0UL, sizeof(pcg32_state),
    &pcg32_set, &pcg32_get, &pcg32_get_double};

const gsl_rng_type *tmc_rng_pcg32 = &pcg32_type;

void tmc_rng_pcg_seed(gsl_rng *r, uint64_t initstate, uint64_t stream)
{
    pcg32_seed_state(r->state, initstate, stream);
}

/* SplitMix64 finalizer (Steele, Lea, Flood 2014): a bijective 64-bit mix. */
static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The second bank holds the kinds past the first, TMC_STREAM_BANK of them at
 * most: one more and two kinds of one replica would share a stream. */
_Static_assert(TMC_STREAM_COUNT <= 2 * TMC_STREAM_BANK,
               "a third bank of streams is needed (rng_pcg.h)");

void tmc_rng_pcg_seed_replica(gsl_rng *r, uint64_t seed, uint64_t replica,
                              tmc_stream_kind kind)
{
    uint64_t k = (uint64_t)kind, bank = k < TMC_STREAM_BANK ? 0 : (uint64_t)1 << 62;
    uint64_t stream = bank + replica * TMC_STREAM_BANK + k % TMC_STREAM_BANK;
    tmc_rng_pcg_seed(r, splitmix64(seed ^ splitmix64(stream)), stream);
}
