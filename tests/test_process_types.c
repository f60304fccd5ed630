/* process-1.x: the kinds of interruption as rows (processes.h), against
 * docs/reference/simulation-semantics.md and by hand.
 * process-1.1 the rows say what the semantics say (section numbers): only
 *             a loss spike strikes in compute only (4) and rolls back past
 *             the newest commit (5); only the time limit starts a new
 *             allocation (4) and has a restore it cut redone in full (5);
 *             only a failure takes one elastic group down (9); an outage and
 *             the limit may come with notice (3); the three processes have
 *             arrivals, each from its own stream (rng_pcg.h: failures,
 *             outages, spikes), the limit and a save timeout none. Those
 *             that strike whenever the job is up come first
 *             (TMC_PROCESSES_ANYTIME).
 * process-1.2 each kind struck at t = 100 s with no random draw: a loss
 *             spike and a save timeout wait nothing; an outage of a fixed
 *             600 s downtime waits 600 s; the limit waits its 300 s requeue
 *             and its next allocation ends 3,600 s after that (4,000 s); each
 *             counts its own event once and nothing else.
 * process-1.3 notice: an outage with notice strikes at its arrival, the
 *             limit at limit_at, both one save (16 s) ahead; without notice
 *             neither is announced.
 * process-1.4 an outage with notice at the very time the limit strikes
 *             (1,350 s: 0.375 h, 0.015625 d; tests/process_types/), both
 *             saves due at 1,345 s, inside the compute of 1,330 - 1,360 s
 *             (3 steps of 10 s, saves of 5 s): "the outage's [save point]
 *             is taken" (section 3), so the outage
 *             strikes and is counted, and the limit, passed during its 30 s
 *             downtime, strikes when the job is up: 1 outage, 1 requeue.
 *             Were the limit's taken, its 41 s requeue would discard the
 *             outage: 0 outages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "processes.h"
#include "support.h"

/* Every figure below is exact in binary: compared with ==. */
#define assert_exact(got, want)                                                    \
    do {                                                                           \
        double got_ = (got), want_ = (want);                                       \
        if (got_ != want_)                                                         \
            fail_msg("%s = %.17g, not %.17g", #got, got_, want_);                  \
    } while (0)

/* The semantics, written out: one row per kind. */
static const struct {
    int kind, stream, arrivals, compute_only, rolls_back, new_allocation, redoes_restore,
        takes_one_group, noticed;
} expected[] = {
    {TMC_FAILURE, TMC_STREAM_FAILURES, 1, 0, 0, 0, 0, 1, 0},
    {TMC_OUTAGE, TMC_STREAM_OUTAGES, 1, 0, 0, 0, 0, 0, 1},
    {TMC_SPIKE, TMC_STREAM_SPIKES, 1, 1, 1, 0, 0, 0, 0},
    {TMC_LIMIT, -1, 0, 0, 0, 1, 1, 0, 1},
    {TMC_TIMEOUT, -1, 0, 0, 0, 0, 0, 0, 0},
    {TMC_REFRESH, -1, 0, 0, 0, 0, 0, 0, 1},
};

static void test_rows(void **state)
{
    (void)state;
    assert_int_equal(sizeof expected / sizeof expected[0], TMC_KINDS);
    for (int i = 0; i < TMC_KINDS; i++) {
        const tmc_process_type *t = &tmc_process_types[expected[i].kind];
        assert_non_null(t->name);
        assert_non_null(t->wait);
        assert_int_equal(t->arrival != NULL, expected[i].arrivals);
        if (expected[i].arrivals)
            assert_int_equal(t->stream, expected[i].stream);
        assert_int_equal(t->start != NULL, expected[i].arrivals);
        assert_int_equal(t->compute_only, expected[i].compute_only);
        assert_int_equal(t->rolls_back, expected[i].rolls_back);
        assert_int_equal(t->new_allocation, expected[i].new_allocation);
        assert_int_equal(t->redoes_restore, expected[i].redoes_restore);
        assert_int_equal(t->takes_one_group, expected[i].takes_one_group);
        assert_int_equal(t->noticed != NULL, expected[i].noticed);
    }
    for (int k = 0; k < TMC_PROCESSES; k++)
        assert_int_equal(tmc_process_types[k].compute_only, k >= TMC_PROCESSES_ANYTIME);
}

typedef struct {
    tmc_process_model m;
    tmc_processes p;
    gsl_rng *rng[TMC_STREAM_COUNT];
    tmc_replica out;
} bench;

/* No process on (rates 0): nothing is drawn; a 3,600 s limit, a 300 s
 * requeue, a fixed 600 s downtime, a 16 s save. */
static void bench_start(bench *b)
{
    memset(b, 0, sizeof *b);
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        b->rng[s] = gsl_rng_alloc(gsl_rng_taus);
    for (int k = 0; k < TMC_TILTS; k++)
        b->m.tilt[k] = 1;
    b->m.restore_s = 50;
    b->m.limit_s = 3600;
    b->m.requeue_s = 300;
    b->m.downtime_s = 600;
    b->m.notice_lead_s = 16;
    assert_int_equal(tmc_processes_start(&b->m, &b->p, b->rng), 0);
    assert_true(isinf(b->p.next[TMC_FAILURE]) && isinf(b->p.next[TMC_OUTAGE]));
    assert_exact(b->p.limit_at, 3600);
}

static void bench_end(bench *b)
{
    tmc_processes_end(&b->p);
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(b->rng[s]);
}

/* The counts of out, all but `field` zero and that one 1. */
static void assert_counted(const tmc_replica *out, const double *field)
{
    const double *counts[] = {&out->card_failures, &out->outages, &out->loss_spikes,
                              &out->requeues, &out->save_timeouts};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        assert_exact(*counts[i], counts[i] == field ? 1 : 0);
}

static double strike(bench *b, int k)
{
    memset(&b->out, 0, sizeof b->out);
    return tmc_processes_strike(&b->m, &b->p, b->rng, k, 100, &b->out);
}

static void test_strikes(void **state)
{
    (void)state;
    bench b;
    bench_start(&b);
    assert_exact(strike(&b, TMC_SPIKE), 100);
    assert_counted(&b.out, &b.out.loss_spikes);
    assert_exact(b.p.arrivals[TMC_SPIKE], 1);
    assert_exact(b.p.limit_at, 3600);
    assert_exact(strike(&b, TMC_TIMEOUT), 100);
    assert_counted(&b.out, &b.out.save_timeouts);
    assert_exact(b.p.limit_at, 3600);
    assert_exact(strike(&b, TMC_OUTAGE), 700);
    assert_counted(&b.out, &b.out.outages);
    assert_exact(b.out.downtime_s, 600);
    assert_exact(b.p.down_s, 600);
    assert_exact(b.p.limit_at, 3600);
    assert_exact(strike(&b, TMC_LIMIT), 400);
    assert_counted(&b.out, &b.out.requeues);
    assert_exact(b.out.requeue_s, 300);
    assert_exact(b.p.limit_at, 4000);
    assert_exact(b.p.restore_s, 50);
    assert_exact(b.p.arrivals[TMC_OUTAGE], 1);
    assert_exact(b.p.arrivals[TMC_FAILURE], 0);
    bench_end(&b);
}

static void test_notice(void **state)
{
    (void)state;
    bench b;
    bench_start(&b);
    b.p.next[TMC_OUTAGE] = 5000;
    double at = 0, lead = 0;
    const tmc_process_type *outage = &tmc_process_types[TMC_OUTAGE];
    const tmc_process_type *limit = &tmc_process_types[TMC_LIMIT];
    assert_int_equal(outage->noticed(&b.m, &b.p, &at, &lead), 0);
    assert_int_equal(limit->noticed(&b.m, &b.p, &at, &lead), 0);
    b.m.outage_notice = b.m.limit_save = 1;
    assert_int_equal(outage->noticed(&b.m, &b.p, &at, &lead), 1);
    assert_exact(at, 5000);
    assert_exact(lead, 16);
    assert_int_equal(limit->noticed(&b.m, &b.p, &at, &lead), 1);
    assert_exact(at, 3600);
    assert_exact(lead, 16);
    bench_end(&b);
}

static void test_notice_tie(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/process_types/notice-tie.json", TMC_SOURCE_DIR);
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_load(path, NULL, 0, &x, &err))
        fail_msg("%s", err.msg);
    tmc_replica out;
    test_replicas(&x, 1, &out, 1);
    assert_exact(out.outages, 1);
    assert_exact(out.requeues, 1);
    tmc_experiment_release(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_strikes),
        cmocka_unit_test(test_notice),
        cmocka_unit_test(test_notice_tie),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
