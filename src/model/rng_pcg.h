/* rng_pcg.h - PCG32 (XSH RR 64/32) as a GSL generator, with stream selection.
 *
 * Source: M. E. O'Neill, "PCG: A Family of Simple Fast Space-Efficient
 * Statistically Good Algorithms for Random Number Generation", HMC-CS-2014-0905
 * (2014); reference implementation pcg-c / pcg-cpp.
 *
 * Recurrence: state' = state * 6364136223846793005 + inc (mod 2^64), inc odd;
 * output = rotr32(((state >> 18) ^ state) >> 27, state >> 59) of the *old*
 * state. Period 2^64 per stream; 2^63 streams, chosen by inc = 2*stream + 1.
 * Known answer (checked in tests/test_rng_pcg.c): seeded with initstate 42,
 * stream 54, the first output is 0xa15c02b7.
 *
 * Because tmc_rng_pcg32 is a gsl_rng_type, every GSL sampler (gsl_ran_*,
 * gsl_rng_uniform_pos, ...) draws from it unchanged. */
#ifndef TMC_RNG_PCG_H
#define TMC_RNG_PCG_H

#include <math.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

/* The generator's state: plain data, as in pcg-c. inc is always odd and
 * selects the stream. */
typedef struct {
    uint64_t state;
    uint64_t inc;
} tmc_pcg32_state;

/* The generator type: gsl_rng_alloc(tmc_rng_pcg32). gsl_rng_set(r, s) seeds
 * initstate s on stream 0. get() returns 32 bits in [0, 2^32 - 1];
 * get_double() returns get() / 2^32 in [0, 1), as GSL's 32-bit generators do. */
extern const gsl_rng_type *tmc_rng_pcg32;

/* Seed r (which must have been allocated with tmc_rng_pcg32) exactly as
 * pcg32_srandom_r(initstate, stream) does in pcg-c and pcg32(initstate,
 * stream) in pcg-cpp. */
void tmc_rng_pcg_seed(gsl_rng *r, uint64_t initstate, uint64_t stream);

/* Streams of one replica: each random process of a run has its own stream so
 * that changing one process (e.g. the outage rate) leaves the draws of the
 * others untouched (common random numbers across settings). */
typedef enum {
    TMC_STREAM_JITTER = 0,   /* per-step maximum card compute time */
    TMC_STREAM_FAILURES = 1, /* card failure arrivals */
    TMC_STREAM_OUTAGES = 2,  /* common outage arrivals */
    TMC_STREAM_SPIKES = 3,   /* loss spike arrivals */
    TMC_STREAM_CAUSES = 4,   /* the cause of each card failure */
    TMC_STREAM_REPAIRS = 5,  /* repair times of failed cards */
    TMC_STREAM_DOWNTIMES = 6, /* durations of common outages */
    TMC_STREAM_SLOW = 7,     /* which cards are persistently slow, then the
                                replica's failure rate (failures.mtbf_events) */
    TMC_STREAM_SAVES = 8,    /* random save times (checkpoint.save_cv) */
    TMC_STREAM_RESTORES = 9, /* random restore times (checkpoint.restore_cv) */
    TMC_STREAM_OUTAGE_RATE = 10, /* the replica's outage rate (outages.mtbf_events) */
    TMC_STREAM_REPAIR_MEAN = 11, /* the replica's repair mean (failures.repair_events) */
    TMC_STREAM_BAD_NODES = 12, /* how many of the job's nodes are bad (failures.bad_node_share) */
    TMC_STREAM_NODES = 13,   /* which node a failure takes (two levels of snapshots:
                                whether its partner's copy survives) */
    TMC_STREAM_BURSTS = 14,  /* the nodes each burst takes (failures.burst_*) */
    TMC_STREAM_COUNT = 15
} tmc_stream_kind;

/* The first bank of streams: kinds below it keep the numbering they had
 * before the later kinds were added, so that adding a process leaves every
 * earlier result unchanged. */
#define TMC_STREAM_BANK 8

/* Seed r for process `kind` of replica `replica` under run seed `seed`:
 * stream = replica * TMC_STREAM_BANK + kind for the first bank, and
 * 2^62 + replica * TMC_STREAM_BANK + (kind - TMC_STREAM_BANK) for the
 * second; initstate = a SplitMix64 hash of (seed, stream) so that
 * neighbouring streams do not start from one state. Depends only on
 * (seed, replica, kind): never on threads or ranks. */
void tmc_rng_pcg_seed_replica(gsl_rng *r, uint64_t seed, uint64_t replica,
                              tmc_stream_kind kind);

/* Advance s and return its next 32-bit output (pcg32_random_r in pcg-c). */
static inline uint32_t tmc_rng_pcg_step(tmc_pcg32_state *s)
{
    uint64_t old = s->state;
    s->state = old * 6364136223846793005ULL + s->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* The next 32-bit output of r, which must have been allocated with
 * tmc_rng_pcg32: the value gsl_rng_get(r) would return, without the call
 * through GSL's function pointer (the engine's hot loop uses it). */
static inline uint32_t tmc_rng_pcg_next(gsl_rng *r)
{
    return tmc_rng_pcg_step(r->state);
}

/* The output the next tmc_rng_pcg_next(r) returns, r unchanged: what a
 * draw will read can be fetched ahead of it. */
static inline uint32_t tmc_rng_pcg_peek(const gsl_rng *r)
{
    tmc_pcg32_state s = *(const tmc_pcg32_state *)r->state;
    return tmc_rng_pcg_step(&s);
}

/* An exponential draw of mean `mean` (seconds, or any unit) from r: -mean
 * ln(1 - u), u = gsl_rng_uniform(r), the value gsl_ran_exponential reads, so
 * a stream is consumed as before. With a tmc_rng_pcg32 generator (the
 * engine's) the output is taken without GSL's function pointer. 1 - u is
 * exact for a 32-bit generator, and glibc's log is about 2.7 times as fast
 * as the log1p GSL calls (7.8 against 21 ns on the development machine; the
 * engine's arrivals spent 9 % of a run there); the two agree to within one
 * unit in the last place. */
static inline double tmc_rng_exponential(gsl_rng *r, double mean)
{
    double u = r->type == tmc_rng_pcg32 ? (double)tmc_rng_pcg_next(r) * 0x1p-32
                                        : gsl_rng_uniform(r);
    return -mean * log(1 - u);
}

#endif
