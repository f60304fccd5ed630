/* test_stragglers.c - the compute time of a segment (src/engine/stragglers.c)
 * against its definition, draw by draw.
 *
 * The engine draws plain steps in batches and rewinds the jitter stream when
 * an interruption falls inside a batch, or, when every step is plain, draws
 * them ahead across segments (stragglers.h). The definition it
 * must reproduce exactly is the one-by-one loop of docs/reference/simulation-semantics.md
 * (2): step i of a segment starting at t ends at t + S_i + i fixed_s, S_i the
 * sum of the first i slowest-card times, each one tmc_dist_sample_max draw
 * (plus p on a step where all cards pause); the first step ending past the
 * limit is the last drawn. Every case compares the returned sum bit for
 * bit, the cut, the steps counted and the stream's next output, so a
 * misplaced cut or a stream left one draw early or late fails.
 *
 * stragglers-1.1 plain steps: every cut position of segments of 1 to 100 steps
 * stragglers-1.2 the cut at every step of a 300-step segment, several laws
 * stragglers-1.3 pauses of all cards every 7 steps, and a segment across a
 *                stop check (step 65,536)
 * stragglers-1.4 a law that can fall below 0 (normal, cv 0.2, one card) is
 *                clamped at 0, drawn ahead and in batches (with pauses); the
 *                nonnegative flag holds for the table
 * stragglers-1.5 the steps done before an arrival with notice (an emergency
 *                save) without jitter, segments mode: the segment is gone
 *                through step by step; hand-derived with constant steps
 * stragglers-1.6 segments mode: a notice inside the segment's longest end
 *                makes it step by step; otherwise one draw of its law
 * Every cut also checks the steps completed before it and their sum.
 * Drawn ahead, a stretch's sum may differ from the in-order sum in the last
 * bits (same_sum); the cut, the steps and the stream must still match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>

#include "engine.h"
#include "support.h"

enum { MAX_STEPS = 400 };

/* The definition: steps first + 1 .. first + n from r, one by one; returns
 * the sum, *cut and *steps as tmc_stragglers_segment, and on a cut *before,
 * the sum of the steps that ended before the limit (done_sum). */
static double reference(const tmc_straggler_model *m, long first, long n, double t,
                        double limit, gsl_rng *r, int *cut, long *steps, double *before)
{
    double sum = 0;
    *cut = 0;
    for (long i = 1; i <= n; i++) {
        long step = first + i;
        double x = tmc_dist_sample_max(&m->max, r);
        if (m->pause_every && step % m->pause_every == 0)
            x += m->pause_s;
        *before = sum;
        sum += x;
        *steps = i;
        if (t + sum + (double)i * m->fixed_s > limit) {
            *cut = 1;
            break;
        }
    }
    return sum;
}

/* The step ends g(1..n) of an uncut segment, from a generator seeded `seed`. */
static void step_ends(const tmc_straggler_model *m, long first, long n, double t,
                      uint64_t seed, double *ends)
{
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, seed, 7);
    double sum = 0;
    for (long i = 1; i <= n; i++) {
        double x = tmc_dist_sample_max(&m->max, r);
        if (m->pause_every && (first + i) % m->pause_every == 0)
            x += m->pause_s;
        sum += x;
        ends[i] = t + sum + (double)i * m->fixed_s;
    }
    gsl_rng_free(r);
}

/* A PCG state whose next output is 0, the lowest draw there is: with
 * old < 2^27 both the xorshift and the rotation are 0 (rng_pcg.h). */
#define STATE_LOWEST_DRAW 5u

/* The sums agree bit for bit when steps are drawn in batches (pauses in the
 * model); drawn ahead (model.ahead), a stretch's sum is a difference of
 * running sums, which may differ from the in-order sum in the last bits. */
static int same_sum(const tmc_straggler_model *m, double got, double want)
{
    return m->ahead ? fabs(got - want) <= 1e-12 * fabs(want) : got == want;
}

/* One segment both ways from the same seed (and the same state, when
 * `state` is not 0); everything must match. Then a second segment of 50
 * steps without a limit: the engine must go on with the stream exactly
 * where one-by-one draws leave it (with batches, its next output is the
 * same too). */
static void compare_from(const tmc_straggler_model *m, long first, long n, double t,
                         double limit, uint64_t seed, uint64_t state)
{
    static const volatile sig_atomic_t no_stop = 0;
    gsl_rng *a = gsl_rng_alloc(tmc_rng_pcg32), *b = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(a, seed, 7);
    tmc_rng_pcg_seed(b, seed, 7);
    if (state)
        ((tmc_pcg32_state *)a->state)->state = ((tmc_pcg32_state *)b->state)->state = state;
    tmc_stragglers s = {0};
    int cut, want_cut;
    long want_steps = 0;
    double before = 0;
    double got = tmc_stragglers_segment(m, &s, first, n, t, limit, 1, a, &no_stop, &cut);
    double want = reference(m, first, n, t, limit, b, &want_cut, &want_steps, &before);
    if (!same_sum(m, got, want) || (cut != 0) != want_cut ||
        s.steps_simulated != (double)want_steps)
        fail_msg("first %ld, n %ld, limit %.17g: sum %.17g (want %.17g), cut %d (%d), steps "
                 "%.0f (%ld)", first, n, limit, got, want, cut, want_cut, s.steps_simulated,
                 want_steps);
    /* the steps completed before the cut, for an emergency save */
    if (want_cut && (s.done_steps != want_steps - 1 || !same_sum(m, s.done_sum, before)))
        fail_msg("first %ld, n %ld, limit %.17g: %ld steps done before the cut, summing "
                 "%.17g; want %ld, %.17g", first, n, limit, s.done_steps, s.done_sum,
                 want_steps - 1, before);
    long next = first + want_steps;
    double got2 = tmc_stragglers_segment(m, &s, next, 50, t, INFINITY, 1, a, &no_stop, &cut);
    double want2 = reference(m, next, 50, t, INFINITY, b, &want_cut, &want_steps, &before);
    if (!same_sum(m, got2, want2))
        fail_msg("first %ld, n %ld, limit %.17g: the next segment's sum %.17g, want %.17g: the "
                 "stream is not where one-by-one draws leave it", first, n, limit, got2, want2);
    if (!m->ahead && gsl_rng_get(a) != gsl_rng_get(b))
        fail_msg("first %ld, n %ld, limit %.17g: the stream's next output differs", first, n,
                 limit);
    gsl_rng_free(a);
    gsl_rng_free(b);
}

static void compare(const tmc_straggler_model *m, long first, long n, double t, double limit,
                    uint64_t seed)
{
    compare_from(m, first, n, t, limit, seed, 0);
}

/* A straggler model of design-48-stress with overrides, exact mode. */
static tmc_straggler_model model(const char *const *sets, int n)
{
    tmc_experiment x = test_load("design-48-stress", sets, n);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    tmc_straggler_model m;
    assert_int_equal(
        tmc_stragglers_init(&m, &x, &cf, x.monte_carlo.mode == TMC_MODE_SEGMENTS, 1), 0);
    return m;
}

/* Every cut position of segments of n steps: limits between consecutive
 * step ends (the cut at step c), before the first and after the last. */
static void every_cut(const tmc_straggler_model *m, long first, long n, uint64_t seed)
{
    double ends[MAX_STEPS + 1], t = 1000.0;
    step_ends(m, first, n, t, seed, ends);
    ends[0] = t;
    compare(m, first, n, t, INFINITY, seed);
    compare(m, first, n, t, t, seed); /* the first step is cut */
    for (long c = 1; c <= n; c++)
        compare(m, first, n, t, 0.5 * (ends[c - 1] + ends[c]), seed);
    if (!m->ahead) /* the last step ends exactly at it: not cut (a tie drawn ahead is
                      decided by sums that may differ in the last bit) */
        compare(m, first, n, t, ends[n], seed);
}

static void stragglers_1_1_plain_cuts(void **state)
{
    (void)state;
    tmc_straggler_model m = model(NULL, 0);
    assert_true(m.max.nonnegative && m.ahead);
    static const long lengths[] = {1, 2, 5, 31, 32, 33, 63, 64, 65, 100};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        every_cut(&m, 340, lengths[i], 11 + i);
    tmc_stragglers_free(&m);
}

static void stragglers_1_2_laws(void **state)
{
    (void)state;
    static const char *const laws[][2] = {
        {"job.cards=8", "jitter={\"distribution\": \"normal\", \"cv\": 0.05}"},
        {"job.cards=16384", "jitter={\"distribution\": \"lognormal\", \"cv\": 0.3}"},
        {"job.cards=1024", "jitter={\"distribution\": \"gamma\", \"cv\": 0.5}"},
    };
    for (size_t i = 0; i < sizeof laws / sizeof laws[0]; i++) {
        tmc_straggler_model m = model(laws[i], 2);
        every_cut(&m, 0, 300, 100 + i);
        tmc_stragglers_free(&m);
    }
}

static void stragglers_1_3_pauses_and_checks(void **state)
{
    (void)state;
    const char *sets[] = {"pauses={\"every_steps\": 7, \"duration_s\": 30, \"cards\": \"all\"}"};
    tmc_straggler_model m = model(sets, 1);
    assert_false(m.ahead); /* batches between the pauses */
    every_cut(&m, 3, 100, 21);
    tmc_stragglers_free(&m);
    tmc_straggler_model plain = model(NULL, 0);
    every_cut(&plain, TMC_STEPS_PER_STOP_CHECK - 40, 90, 22); /* across step 65,536 */
    tmc_stragglers_free(&plain);
}

static void stragglers_1_4_clamp(void **state)
{
    (void)state;
    const char *sets[] = {"job.cards=1", "jitter={\"distribution\": \"normal\", \"cv\": 0.2}"};
    tmc_straggler_model m = model(sets, 2);
    /* 1 + 0.2 Z < 0 for Z < -5: the exact value at the lowest draw is below 0 */
    assert_false(m.max.nonnegative);
    assert_true(m.max.mu * tmc_dist_card_max_quantile(&m.max.card, log(0x1p-33), 1) < 0);
    assert_true(m.ahead);
    every_cut(&m, 0, 100, 31);
    compare_from(&m, 0, 40, 0, INFINITY, 32, STATE_LOWEST_DRAW); /* its first draw is 0 */
    tmc_stragglers_free(&m);
    const char *paused[] = {"job.cards=1", "jitter={\"distribution\": \"normal\", \"cv\": 0.2}",
                            "pauses={\"every_steps\": 7, \"duration_s\": 30, \"cards\": \"all\"}"};
    tmc_straggler_model b = model(paused, 3); /* in batches */
    assert_false(b.ahead);
    compare_from(&b, 0, 40, 0, INFINITY, 33, STATE_LOWEST_DRAW);
    tmc_stragglers_free(&b);
    tmc_straggler_model ok = model(NULL, 0); /* 48 cards, cv 0.05 */
    assert_true(ok.max.nonnegative);
    assert_true(tmc_dist_max_at(&ok.max, 0) > 0); /* the lowest draw there is */
    tmc_stragglers_free(&ok);
}

/* Constant steps of mu = 10 s plus a fixed 1 s, all cards pausing 5 s on
 * steps 3, 6, 9 (mean 11 + 5 / 3 s a step). From step 0: steps end at 11,
 * 22, 38, 49, 60, 76, ... So with an arrival with notice (the engine needs
 * the steps done) 37.9 s into the segment two steps are done (sum of
 * slowest-card times 20), at 38 s three (35). From step 1, step 3 ends at
 * 11 + 16 = 27... steps 2, 3 paused on 3: 11, 27: 26.9 s -> one step.
 * Constant steps are drawn one by one then, even in segments mode. */
static void stragglers_1_5_done_by_notice(void **state)
{
    (void)state;
    static const volatile sig_atomic_t no_stop = 0;
    const char *sets[] = {"job.cards=1", "jitter.cv=0", "job.flop_per_step=10",
                          "job.peak_flops=1", "job.efficiency=1", "job.exposed_comm_s=1",
                          "job.input_wait_s=0", "monte_carlo.mode=\"segments\"",
                          "pauses={\"every_steps\": 3, \"duration_s\": 5, \"cards\": \"all\"}"};
    tmc_straggler_model m = model(sets, 9);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    static const struct {
        long first, n;
        double elapsed, steps, sum;
    } cases[] = {{0, 10, 37.9, 2, 20}, {0, 10, 38, 3, 35}, {0, 10, 10.9, 0, 0},
                 {1, 10, 26.9, 1, 10}, {1, 10, 27, 2, 25}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tmc_stragglers s = {0};
        int cut;
        tmc_stragglers_segment(&m, &s, cases[i].first, cases[i].n, 0, cases[i].elapsed, 1, r,
                               &no_stop, &cut);
        if (cut != TMC_CUT_LIMIT || s.done_steps != cases[i].steps ||
            fabs(s.done_sum - cases[i].sum) > 1e-9)
            fail_msg("from step %ld, %.1f s in: cut %d, %ld steps summing %.3f, hand %.0f, %.0f",
                     cases[i].first, cases[i].elapsed, cut, s.done_steps, s.done_sum,
                     cases[i].steps, cases[i].sum);
    }
    gsl_rng_free(r);
    tmc_stragglers_free(&m);
}

/* stragglers-1.6 segments mode with jitter (5 %, 48 cards, K = 31): a
 * segment whose limit is an arrival with notice falling before its
 * longest possible end is gone through step by step (the emergency save
 * needs the steps done: cut at the limit, the steps before it counted,
 * their sum below the time to the limit); the same limit without notice,
 * or a notice past the longest end, takes one draw of the law (no cut, the
 * whole segment's sum, 31 steps simulated). */
static void stragglers_1_6_notice_steps(void **state)
{
    (void)state;
    static const volatile sig_atomic_t no_stop = 0;
    const char *sets[] = {"checkpoint.interval_steps=31", "monte_carlo.mode=\"segments\""};
    tmc_straggler_model m = model(sets, 2);
    assert_non_null(m.law[0].low);
    assert_int_equal(m.law[0].n, 31);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 16, 7);
    double mean = m.law[0].mean_s, fixed = m.fixed_s, limit = 0.5 * (mean + 31 * fixed);
    tmc_stragglers s = {0};
    int cut;
    double sum = tmc_stragglers_segment(&m, &s, 0, 31, 0, limit, 1, r, &no_stop, &cut);
    if (cut != TMC_CUT_LIMIT || s.done_steps < 10 || s.done_steps > 20 ||
        s.done_sum + s.done_steps * fixed > limit || sum + s.done_steps * fixed <= limit)
        fail_msg("notice half-way: cut %d, %ld steps done summing %.3f s (limit %.3f s)", cut,
                 s.done_steps, s.done_sum, limit);
    for (int notice = 0; notice < 2; notice++) {
        tmc_stragglers w = {0};
        double at = notice ? m.law[0].max_s + 31 * fixed + 1 : limit;
        sum = tmc_stragglers_segment(&m, &w, 0, 31, 0, at, notice, r, &no_stop, &cut);
        if (cut != TMC_CUT_NONE || fabs(sum - mean) > 6 * m.law[0].sd_s ||
            (notice && w.steps_simulated != 31))
            fail_msg("drawn whole (notice %d): cut %d, sum %.3f (mean %.3f), %g steps", notice,
                     cut, sum, mean, w.steps_simulated);
    }
    gsl_rng_free(r);
    tmc_stragglers_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stragglers_1_1_plain_cuts),
        cmocka_unit_test(stragglers_1_2_laws),
        cmocka_unit_test(stragglers_1_3_pauses_and_checks),
        cmocka_unit_test(stragglers_1_4_clamp),
        cmocka_unit_test(stragglers_1_5_done_by_notice),
        cmocka_unit_test(stragglers_1_6_notice_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
