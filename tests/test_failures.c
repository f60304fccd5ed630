/* failures-1.x: lifetimes, causes and spares (issue 4), each against a
 * closed form or a limiting case. Statistical checks: fixed seeds, the
 * estimator's standard error stated, tolerance 4 standard errors.
 * failures-1.1 the first failure of N new Weibull cards: min of N
 *              Weibull(lambda, k) is Weibull(lambda N^(-1/k), k), mean
 *              lambda N^(-1/k) Gamma(1 + 1/k), for k = 0.5, 1, 2, lambda =
 *              MTBF / Gamma(1 + 1/k) from the experiment; one lognormal
 *              card's first failure has mean MTBF (sd cv MTBF);
 * failures-1.2 Weibull shape 1 (per-card heap) against exponential (Poisson
 *              superposition): mean wall time and a two-sample KS test;
 * failures-1.3 a cause mix with one cause (share 1, default restore, no
 *              delay) is the single-cause model, replica for replica;
 * failures-1.4 a detection delay d on every failure: the mean wall time
 *              against (M + d) e^(r/M) (e^(w/M) - 1) per segment (Daly with
 *              a delay, closed_form.h);
 * failures-1.5 unlimited spares and a pool too large to empty give the same
 *              runs; no pool (0 spares) waits a repair per failure: against
 *              the delayed Daly form with d = the mean repair time;
 * failures-1.7 a replayed trace (one failure at day 1.0): every replica loses
 *              exactly the work since its last commit before 86,400 s plus a
 *              restore (no jitter: the arithmetic is exact);
 * failures-1.8 a failure renews the failed card alone (Weibull): the other
 *              cards keep their next-failure times;
 * failures-1.6 outages with lognormal downtimes (mean 1 h, cv 1): the delay
 *              enters Daly's form through its mean only;
 * failures-1.9 job renewal: the job's next failure after a restart, drawn
 *              by inversion of S(t)^N, against the brute-force minimum of N
 *              lifetimes drawn one by one (two-sample KS at alpha 1e-3, and
 *              the means at 4 se), for Weibull (k 5, N 8) and lognormal
 *              (cv 1.5, N 64); its mean against the closed form's job MTBF,
 *              7.5 h by hand for experiments/hang-8-job-renewal.json;
 * failures-1.10 an MTBF estimated from n = 5 failures (failures.mtbf_events):
 *              each replica's rate is Gamma(n) around it, so the count of
 *              failures over a fixed exposure (saves and restores free,
 *              a cut step the only loss) is negative binomial: mean
 *              lambda W = 10.03, variance 10.03 + 10.03^2 / 5 (4 se each, se of the variance
 *              from the fourth moment), and its law by a chi-square test
 *              at alpha 1e-3; with the MTBF known the count is Poisson
 *              (variance 10).
 * failures-1.11 scale-dependent rates (docs/model.md 3.13): per-card
 *              (4e-5 /s over 64 cards), per-node (g 8, 8 nodes, 4e-5 /s)
 *              and per-job (2e-5 /s) failures superpose to a Poisson
 *              process of 1e-4 /s, so over the exposure of failures-1.10 the
 *              count is Poisson of mean 10.0251 (mean and variance at 4 se),
 *              on each path: exponential (one process), Weibull shape 1
 *              (the per-card heap beside a node-and-job clock), the same
 *              with job renewal, and no per-card part (node 6e-5 + job
 *              4e-5); the part a failure is drawn from, by rate (4 se each);
 * failures-1.12 spares for a node failure (hand-derived, fixed repairs of
 *              100 s, g = 4): a pool of 6 gives the first node 4 cards at
 *              once; the second (at 20 s) takes the last 2 and waits for 2
 *              repairs, until 100 s (wait 80); a card failure at 150 s finds
 *              all 6 back and takes one; with no pool a node waits for its
 *              own repair (100 s); in the engine, nodes of 4 with a pool of 3
 *              and fixed 10 h repairs wait exactly 10 h per failure, job
 *              failures with no pool none. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "engine.h"
#include "failures.h"
#include "runner.h"
#include "support.h"

#define TOL_SE 4.0
#define R 3000

static tmc_experiment load(const char *const *sets, int n)
{
    return test_load("design-48", sets, n);
}

static void run(const tmc_experiment *x, uint64_t seed, double *wall, double *mean,
                double *se, tmc_closed_form *cf)
{
    test_run(x, cf, R, seed, wall);
    *mean = gsl_stats_mean(wall, 1, R);
    *se = gsl_stats_sd(wall, 1, R) / sqrt(R);
}

static void agree(double mean, double se, double exact, const char *what)
{
    double z = (mean - exact) / se;
    print_message("%s: simulated %.1f s +- %.1f, exact %.1f s (%.2f se)\n", what, mean, se,
                  exact, z);
    if (!(fabs(z) <= TOL_SE))
        fail_msg("%s: %.2f standard errors", what, z);
}

/* failures-1.1 */
static void test_first_failure(void **state)
{
    (void)state;
    static const double shapes[3] = {0.5, 1, 2};
    for (int i = 0; i < 3; i++) {
        char set[64];
        snprintf(set, sizeof set, "failures.shape=%g", shapes[i]);
        const char *sets[2] = {"failures.distribution=\"weibull\"", set};
        tmc_experiment x = load(sets, 2);
        tmc_failure_model m;
        tmc_failures_model(&m, &x);
        gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
        tmc_rng_pcg_seed(r, 300 + (uint64_t)i, 0);
        double first[2000];
        for (int k = 0; k < 2000; k++) {
            tmc_failure_state s;
            first[k] = tmc_failures_start(&m, &s, r, r, 0);
            tmc_failures_end(&s);
        }
        /* the scale from the experiment's MTBF, not from the model under test */
        double k = shapes[i];
        double scale = x.failures.per_card_mtbf_days * TMC_DAY_S / gsl_sf_gamma(1 + 1 / k) *
                       pow(48.0, -1 / k);
        double mean = scale * gsl_sf_gamma(1 + 1 / k);
        double sd = scale * sqrt(gsl_sf_gamma(1 + 2 / k) - pow(gsl_sf_gamma(1 + 1 / k), 2));
        double z = (gsl_stats_mean(first, 1, 2000) - mean) / (sd / sqrt(2000));
        if (fabs(z) > TOL_SE)
            fail_msg("shape %g: first failure %.2f se off Weibull(lambda 48^(-1/k), k)", k, z);
        gsl_rng_free(r);
    }
    /* one lognormal card (cv 0.5): its first failure is one lifetime, of mean
     * the MTBF and sd 0.5 x the MTBF */
    const char *logn[3] = {"failures.distribution=\"lognormal\"", "failures.lifetime_cv=0.5",
                           "job.cards=1"};
    tmc_experiment x = load(logn, 3);
    tmc_failure_model m;
    tmc_failures_model(&m, &x);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 310, 0);
    double first[2000], mtbf = x.failures.per_card_mtbf_days * TMC_DAY_S;
    for (int k = 0; k < 2000; k++) {
        tmc_failure_state st;
        first[k] = tmc_failures_start(&m, &st, r, r, 0);
        tmc_failures_end(&st);
    }
    double z = (gsl_stats_mean(first, 1, 2000) - mtbf) / (0.5 * mtbf / sqrt(2000));
    if (fabs(z) > TOL_SE)
        fail_msg("lognormal lifetime: mean %.2f se off the MTBF", z);
    gsl_rng_free(r);
}

static double wa[R], wb[R];

/* failures-1.2: per-card MTBF 30 days so that a run sees ~45 failures. */
static void test_weibull_shape_one(void **state)
{
    (void)state;
    const char *exp_sets[1] = {"failures.per_card_mtbf_days=30"};
    const char *wei_sets[3] = {"failures.per_card_mtbf_days=30",
                               "failures.distribution=\"weibull\"", "failures.shape=1"};
    tmc_experiment xe = load(exp_sets, 1), xw = load(wei_sets, 3);
    tmc_closed_form cf;
    double me, se_e, mw, se_w;
    run(&xe, 310, wa, &me, &se_e, &cf);
    run(&xw, 311, wb, &mw, &se_w, &cf);
    double z = (me - mw) / sqrt(se_e * se_e + se_w * se_w);
    gsl_sort(wa, 1, R);
    gsl_sort(wb, 1, R);
    double d = ks_statistic(wa, wb, R), crit = KS_CRITICAL_001(R);
    print_message("Weibull 1 vs exponential: %.2f se, KS D %.4f (critical %.4f)\n", z, d, crit);
    assert_true(fabs(z) < TOL_SE && d < crit);
}

/* failures-1.3 */
static void test_one_cause(void **state)
{
    (void)state;
    const char *base[1] = {"failures.per_card_mtbf_days=30"};
    const char *one[2] = {"failures.per_card_mtbf_days=30",
                          "failures.causes=[{\"name\": \"any\", \"share\": 1}]"};
    tmc_experiment x0 = load(base, 1), x1 = load(one, 2);
    tmc_closed_form cf;
    double m0, s0, m1, s1;
    run(&x0, 320, wa, &m0, &s0, &cf);
    run(&x1, 320, wb, &m1, &s1, &cf);
    for (int k = 0; k < R; k++)
        if (wa[k] != wb[k])
            fail_msg("replica %d: %.6f s without causes, %.6f s with one cause", k, wa[k], wb[k]);
}

/* failures-1.4: a watchdog of 600 s on every failure. */
static void test_detection_delay(void **state)
{
    (void)state;
    const char *sets[2] = {"failures.per_card_mtbf_days=30",
                           "failures.causes=[{\"name\": \"hang\", \"share\": 1, "
                           "\"detection_s\": 600}]"};
    tmc_experiment x = load(sets, 2);
    tmc_closed_form cf;
    double mean, se;
    run(&x, 330, wa, &mean, &se, &cf);
    assert_true(cf.daly_exact && cf.delay_mean_s == 600);
    agree(mean, se, cf.daly_wall_s, "600 s detection delay vs Daly with a delay");
}

/* failures-1.5 */
static void test_spares(void **state)
{
    (void)state;
    const char *many[2] = {"failures.per_card_mtbf_days=30", "failures.spares=1000000"};
    const char *none[1] = {"failures.per_card_mtbf_days=30"};
    tmc_experiment xm = load(many, 2), xn = load(none, 1);
    tmc_closed_form cf;
    double m0, s0, m1, s1;
    run(&xn, 340, wa, &m0, &s0, &cf);
    run(&xm, 340, wb, &m1, &s1, &cf);
    for (int k = 0; k < R; k++)
        if (wa[k] != wb[k])
            fail_msg("replica %d: %.6f s unlimited, %.6f s with 10^6 spares", k, wa[k], wb[k]);
    const char *zero[3] = {"failures.per_card_mtbf_days=30", "failures.spares=0",
                           "failures.repair_mean_hours=2"};
    tmc_experiment xz = load(zero, 3);
    run(&xz, 341, wa, &m0, &s0, &cf);
    assert_true(cf.daly_exact && cf.delay_mean_s == 7200);
    agree(m0, s0, cf.daly_wall_s, "no spares, 2 h repairs vs Daly with a delay");
}

/* failures-1.6 */
static void test_random_downtime(void **state)
{
    (void)state;
    const char *sets[2] = {"failures=null",
                           "outages={\"mean_interval_days\": 0.5, \"downtime_s\": 3600, "
                           "\"downtime_cv\": 1}"};
    tmc_experiment x = load(sets, 2);
    tmc_closed_form cf;
    double mean, se;
    run(&x, 350, wa, &mean, &se, &cf);
    assert_true(cf.daly_exact && cf.delay_mean_s == 3600);
    agree(mean, se, cf.daly_wall_s, "lognormal outage downtimes vs Daly with a delay");
}

/* failures-1.7 */
static void test_trace(void **state)
{
    (void)state;
    char dir[] = "/tmp/tmc-trace-XXXXXX", csv[64], set[128];
    assert_non_null(mkdtemp(dir));
    snprintf(csv, sizeof csv, "%s/trace.csv", dir);
    FILE *f = fopen(csv, "w");
    fputs("time_days # one failure, a day in\n1.0\n", f);
    fclose(f);
    snprintf(set, sizeof set, "failures={\"distribution\": \"trace\", \"trace\": \"%s\"}", csv);
    const char *sets[1] = {set};
    tmc_experiment x = load(sets, 1);
    assert_int_equal(x.failures.n_trace, 1);
    tmc_closed_form cf;
    double mean, se;
    run(&x, 360, wa, &mean, &se, &cf);
    double w = cf.interval_s + x.checkpoint.save_s, tf = TMC_DAY_S;
    double exact = cf.uninterrupted_s + (tf - floor(tf / w) * w) + x.checkpoint.restore_s;
    for (int k = 0; k < R; k++)
        if (fabs(wa[k] - exact) > 1e-9 * exact)
            fail_msg("replica %d: %.6f s, exact %.6f s", k, wa[k], exact);
    remove(csv);
    rmdir(dir);
}

/* failures-1.8 renewal: a failure replaces the failed card alone; the other
 * cards keep their next-failure times (their ages), for Weibull lifetimes */
static void test_renew_one_card(void **state)
{
    (void)state;
    const char *sets[3] = {"failures.distribution=\"weibull\"", "failures.shape=2",
                           "job.cards=8"};
    tmc_experiment x = load(sets, 3);
    tmc_failure_model m;
    tmc_failures_model(&m, &x);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 320, 0);
    tmc_failure_state st;
    double first = tmc_failures_start(&m, &st, r, r, 0), before[8];
    for (int i = 0; i < 8; i++)
        before[i] = st.heap[i];
    tmc_failures_after(&m, &st, r, first);
    int kept = 0; /* the 7 cards that did not fail keep their times exactly */
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            if (before[i] != first && st.heap[j] == before[i]) {
                kept++;
                break;
            }
    assert_int_equal(kept, 7);
    tmc_failures_end(&st);
    gsl_rng_free(r);
}

/* failures-1.9: one law, n draws each way. The KS statistic D of two
 * samples of n passes at alpha 1e-3 when D sqrt(n / 2) < 1.95. */
static void job_min_case(const char *const *sets, int n_sets, double job_mtbf_s)
{
    enum { N = 20000 };
    tmc_experiment x = test_load("hang-8-job-renewal", sets, n_sets);
    tmc_failure_model m;
    tmc_failures_model(&m, &x);
    assert_true(m.job_renewal);
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 320, 0);
    static double a[N], b[N];
    double t = 1000; /* the restart time: the draws are after it */
    tmc_failure_state known = {.rate_scale = 1}; /* the rate as given */
    for (int k = 0; k < N; k++)
        a[k] = tmc_failures_job_next(&m, &known, r, t) - t;
    for (int k = 0; k < N; k++) { /* brute force: every card's lifetime */
        double low = INFINITY;
        for (long c = 0; c < x.job.cards; c++) {
            double life = x.failures.distribution == TMC_LIFETIME_WEIBULL
                ? gsl_ran_weibull(r, m.life.a, m.life.b)   /* scale, shape */
                : gsl_ran_lognormal(r, m.life.a, m.life.b); /* mu, sigma */
            low = fmin(low, life);
        }
        b[k] = low;
    }
    double mean_a = gsl_stats_mean(a, 1, N), mean_b = gsl_stats_mean(b, 1, N);
    double se = sqrt(gsl_stats_variance(a, 1, N) / N + gsl_stats_variance(b, 1, N) / N);
    gsl_sort(a, 1, N);
    gsl_sort(b, 1, N);
    double d = 0;
    for (long i = 0, j = 0; i < N && j < N;) { /* the largest gap of the two ECDFs */
        double v = fmin(a[i], b[j]);
        while (i < N && a[i] <= v)
            i++;
        while (j < N && b[j] <= v)
            j++;
        d = fmax(d, fabs((double)i / N - (double)j / N));
    }
    print_message("job renewal, %s: inversion mean %.1f s, brute force %.1f s (%.2f se), "
                  "KS D sqrt(n/2) %.3f, closed form %.1f s\n", sets[n_sets - 1], mean_a, mean_b,
                  (mean_a - mean_b) / se, d * sqrt(N / 2.0), job_mtbf_s);
    if (!(fabs(mean_a - mean_b) <= TOL_SE * se))
        fail_msg("the job's next failure: means %.2f se apart", (mean_a - mean_b) / se);
    if (!(d * sqrt(N / 2.0) < 1.95))
        fail_msg("the job's next failure: KS D sqrt(n/2) = %.3f", d * sqrt(N / 2.0));
    if (!(fabs(mean_a - job_mtbf_s) <= TOL_SE * sqrt(gsl_stats_variance(a, 1, N) / N)))
        fail_msg("the job's next failure: mean %.1f s against the closed form %.1f s", mean_a,
                 job_mtbf_s);
    gsl_rng_free(r);
}

static void test_job_renewal(void **state)
{
    (void)state;
    tmc_experiment x = test_load("hang-8-job-renewal", NULL, 0);
    double weibull = tmc_closed_form_job_mtbf_s(&x.failures, x.job.cards);
    /* per-card mean 0.47366 d x 8^(-1/5): 7.5 h (the file rounds to 1e-5 d) */
    if (!(fabs(weibull / 3600 - 7.5) <= 7.5 * 2e-5))
        fail_msg("job MTBF %.6f h, 7.5 h by hand", weibull / 3600);
    const char *weib[1] = {"failures.shape=5"};
    job_min_case(weib, 1, weibull);
    const char *logn[3] = {"failures.distribution=\"lognormal\"", "failures.lifetime_cv=1.5",
                           "job.cards=64"};
    tmc_experiment y = test_load("hang-8-job-renewal", logn, 3);
    job_min_case(logn, 3, tmc_closed_form_job_mtbf_s(&y.failures, y.job.cards));
}


/* The card failures of replicas 0 .. n - 1 of x (run seed `seed`) into
 * counts[n]. */
static void failures_per_replica(const tmc_experiment *x, const tmc_closed_form *cf,
                                 uint64_t seed, double *counts, int n)
{
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, x, cf), 0);
    gsl_rng *rng[TMC_STREAM_COUNT];
    test_rngs_alloc(rng);
    for (int i = 0; i < n; i++) {
        tmc_replica o;
        tmc_engine_run(&e, seed, (uint64_t)i, rng, &o);
        counts[i] = o.card_failures;
    }
    test_rngs_free(rng);
    tmc_engine_free(&e);
}

/* failures-1.10: 2,000 steps of 50 s, K = 1, free saves and restores, no
 * jitter: the exposure is 100,000 s plus the step each failure cuts (25 s
 * on average), so with 64 cards at a per-card MTBF of 64 x 10,000 s the
 * count has mean lambda W = 10 / (1 - 25 lambda) = 10.0251. */
static void count_failures(double events, double *counts, int n)
{
    char text[512];
    snprintf(text, sizeof text,
             "{\"name\": \"nb\", \"job\": {\"steps\": 2000, \"cards\": 64, "
             "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": "
             "7.407407407407407, \"mtbf_events\": %g}, \"checkpoint\": {\"interval_steps\": "
             "1, \"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 30}}", events);
    tmc_experiment x = test_parse(text);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    failures_per_replica(&x, &cf, 11, counts, n);
}

/* failures-1.11: the exposure of failures-1.10, failures from `parts`. */
static void count_scoped(const char *parts, double *counts, int n)
{
    char text[768];
    snprintf(text, sizeof text,
             "{\"name\": \"scale\", \"job\": {\"steps\": 2000, \"cards\": 64, "
             "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
             "\"failures\": {%s}, \"checkpoint\": {\"interval_steps\": "
             "1, \"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 30}}", parts);
    tmc_experiment x = test_parse(text);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_true(fabs(cf.rate_failures - 1e-4) < 1e-15);
    failures_per_replica(&x, &cf, 12, counts, n);
}

static void moments_agree(const double *c, int n, double mean, double var, const char *what)
{
    double m = gsl_stats_mean(c, 1, n), v = gsl_stats_variance(c, 1, n), m4 = 0;
    for (int i = 0; i < n; i++)
        m4 += pow(c[i] - m, 4) / n;
    double se_m = sqrt(v / n), se_v = sqrt((m4 - v * v) / n);
    print_message("%s: count mean %.3f (%.2f se from %.3f), variance %.3f (%.2f se from %.3f)\n",
                  what, m, (m - mean) / se_m, mean, v, (v - var) / se_v, var);
    if (!(fabs(m - mean) <= TOL_SE * se_m) || !(fabs(v - var) <= TOL_SE * se_v))
        fail_msg("%s: the count's moments are off", what);
}

static void test_rate_uncertainty(void **state)
{
    (void)state;
    enum { N = 20000 };
    static double c[N];
    double mu = 10 / (1 - 25e-4);
    count_failures(0, c, N);
    moments_agree(c, N, mu, mu, "known MTBF (Poisson)");
    count_failures(5, c, N);
    moments_agree(c, N, mu, mu + mu * mu / 5, "MTBF from 5 failures (negative binomial)");
    /* chi-square against NB(n = 5, p = n / (n + lambda W)), bins of k with
     * expected counts >= 5, the rest pooled in the tail */
    double p = 5 / (5 + mu), chi2 = 0, tail_obs = N, tail_exp = N;
    int bins = 0;
    for (unsigned k = 0;; k++) {
        double exp_k = N * gsl_ran_negative_binomial_pdf(k, p, 5);
        if (exp_k < 5 && k > 10)
            break;
        double obs = 0;
        for (int i = 0; i < N; i++)
            obs += c[i] == k;
        chi2 += (obs - exp_k) * (obs - exp_k) / exp_k;
        tail_obs -= obs, tail_exp -= exp_k, bins++;
    }
    chi2 += (tail_obs - tail_exp) * (tail_obs - tail_exp) / tail_exp;
    double pv = gsl_cdf_chisq_Q(chi2, bins); /* bins + 1 cells, no parameter fitted */
    print_message("negative binomial: chi-square %.1f on %d dof, p = %.3g\n", chi2, bins, pv);
    if (!(pv > 1e-3))
        fail_msg("the count is not negative binomial (p = %.3g)", pv);
}

/* per-card 64 / 1.6e6 s, per-node 8 / 2e5 s, per-job 1 / 5e4 s: 4e-5, 4e-5
 * and 2e-5 per second */
#define SCOPED_PARTS "\"per_node_mtbf_days\": 2.3148148148148149, \"cards_per_node\": 8, " \
                     "\"per_job_mtbf_days\": 0.57870370370370372"
#define CARD_PART "\"per_card_mtbf_days\": 18.518518518518519"

static void test_scale_rates(void **state)
{
    (void)state;
    enum { N = 20000 };
    static double c[N];
    double mu = 10 / (1 - 25e-4);
    count_scoped(CARD_PART ", " SCOPED_PARTS, c, N);
    moments_agree(c, N, mu, mu, "per-card + node + job, exponential (Poisson)");
    count_scoped(CARD_PART ", \"distribution\": \"weibull\", \"shape\": 1, " SCOPED_PARTS,
                 c, N);
    moments_agree(c, N, mu, mu, "per-card heap (Weibull 1) + node + job clock");
    count_scoped(CARD_PART ", \"distribution\": \"weibull\", \"shape\": 1, "
                 "\"renewal\": \"job\", " SCOPED_PARTS, c, N);
    moments_agree(c, N, mu, mu, "job renewal (Weibull 1) + node + job clock");
    count_scoped("\"per_node_mtbf_days\": 1.5432098765432098, \"cards_per_node\": 8, "
                 "\"per_job_mtbf_days\": 0.28935185185185186", c, N);
    moments_agree(c, N, mu, mu, "node + job only");

    /* the part a failure comes from, by rate: 0.4, 0.4, 0.2 */
    tmc_experiment x = test_parse(
        "{\"name\": \"scope\", \"job\": {\"steps\": 10, \"cards\": 64, \"flop_per_step\": 1, "
        "\"peak_flops\": 1, \"efficiency\": 1}, \"failures\": {" CARD_PART ", " SCOPED_PARTS
        "}, \"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
        "\"deadline\": {\"days\": 30}}");
    tmc_failure_model m;
    tmc_failures_model(&m, &x);
    tmc_failure_state st = {.rate_scale = 1};
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 320, 0);
    double hits[3] = {0, 0, 0};
    for (int i = 0; i < N; i++)
        hits[tmc_failures_scope(&m, &st, r)]++;
    gsl_rng_free(r);
    static const double share[3] = {0.4, 0.4, 0.2};
    for (int k = 0; k < 3; k++) {
        double se = sqrt(share[k] * (1 - share[k]) / N), got = hits[k] / N;
        print_message("part %d: %.4f of the failures (%.2f se from %.1f)\n", k, got,
                      (got - share[k]) / se, share[k]);
        if (!(fabs(got - share[k]) <= TOL_SE * se))
            fail_msg("part %d: drawn %.4f of the time, its rate's share is %.1f", k, got,
                     share[k]);
    }
}

/* failures-1.12 (a node's g cards are one entry of the repair list, so
 * taking spares costs the same whatever g) */
static void test_node_spares(void **state)
{
    (void)state;
    tmc_failure_model m = {.cards = 16, .tilt = 1, .repair_tilt = 1, .spares = 6,
                           .repair_mean_s = 100, .repair_kind = TMC_REPAIR_FIXED,
                           .repair = {.mean = 100},
                           .scoped = 1, .node_rate = 1, .cards_per_node = 4,
                           .kind = TMC_LIFETIME_EXPONENTIAL, .mean_s = 1e6};
    tmc_failure_state s;
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 330, 0);
    assert_true(tmc_failures_start(&m, &s, r, r, 0) >= 0);
    /* node at 0, needed at 10 (after a detection delay): 4 of the 6 */
    assert_true(fabs(tmc_failures_take_spare(&m, &s, r, 0, 10, 4) - 0) < 1e-12);
    assert_int_equal(s.spares_left, 2);
    /* node at 20: the last 2, then the 2 earliest repairs (100 s): wait 80 */
    assert_true(fabs(tmc_failures_take_spare(&m, &s, r, 20, 20, 4) - 80) < 1e-12);
    assert_int_equal(s.spares_left, 0);
    /* 2 cards at 100 (the first node's, 2 of its 4 taken), 4 at 120: two
     * repairs of whole nodes */
    assert_int_equal(s.n_repairs, 2);
    assert_int_equal(s.repair_cards[0] + s.repair_cards[1], 6);
    /* a card at 150: all 6 back in the pool, one taken */
    assert_true(fabs(tmc_failures_take_spare(&m, &s, r, 150, 150, 1) - 0) < 1e-12);
    assert_int_equal(s.spares_left, 5);
    assert_int_equal(s.n_repairs, 1);
    tmc_failures_end(&s);
    /* no pool: the node waits for its own repair */
    m.spares = 0;
    assert_true(tmc_failures_start(&m, &s, r, r, 0) >= 0);
    assert_true(fabs(tmc_failures_take_spare(&m, &s, r, 0, 0, 4) - 100) < 1e-12);
    assert_int_equal(s.n_repairs, 0);
    tmc_failures_end(&s);
    gsl_rng_free(r);

    /* the engine: nodes of 4 with no pool and fixed 10 h repairs, no
     * detection delay. A node failure waits for its own repair: every
     * failure waits exactly 36,000 s (a pool of 3, less than a node, is
     * refused: it would shorten no wait, rules-1.4). A job failure takes no
     * card: none. */
    static const char *const parts[2] = {
        "\"per_node_mtbf_days\": 0.2, \"cards_per_node\": 4, \"spares\": 0, "
        "\"repair_mean_hours\": 10, \"repair_distribution\": \"fixed\"",
        "\"per_job_mtbf_days\": 0.2, \"spares\": 0, \"repair_mean_hours\": 10, "
        "\"repair_distribution\": \"fixed\""};
    for (int k = 0; k < 2; k++) {
        char text[768];
        snprintf(text, sizeof text,
                 "{\"name\": \"spares\", \"job\": {\"steps\": 2000, \"cards\": 64, "
                 "\"flop_per_step\": 3200, \"peak_flops\": 1, \"efficiency\": 1}, "
                 "\"failures\": {%s}, \"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, "
                 "\"restore_s\": 0}, \"deadline\": {\"days\": 30}}", parts[k]);
        tmc_experiment x = test_parse(text);
        tmc_closed_form cf;
        static double wall[50];
        tmc_replica o = test_run(&x, &cf, 50, 13, wall); /* sums over the replicas */
        double want = k == 0 ? 36000 * o.card_failures : 0;
        if (!(fabs(o.spare_wait_s - want) <= 1e-6 * fmax(1, want)) || !(o.card_failures > 20))
            fail_msg("%s failures: %.0f of them waited %.3f s for spares, by hand %.0f s",
                     k == 0 ? "node" : "job", o.card_failures, o.spare_wait_s, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_failure),   cmocka_unit_test(test_weibull_shape_one),
        cmocka_unit_test(test_one_cause),       cmocka_unit_test(test_detection_delay),
        cmocka_unit_test(test_spares),       cmocka_unit_test(test_random_downtime),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_renew_one_card),
        cmocka_unit_test(test_job_renewal),
        cmocka_unit_test(test_rate_uncertainty),
        cmocka_unit_test(test_scale_rates),
        cmocka_unit_test(test_node_spares),
    };
    return cmocka_run_group_tests_name("failures-1", tests, NULL, NULL);
}
