/* sparewait-1.x: the closed form of a finite spare pool's waits
 * (docs/model.md 3.21) by hand, by an independent computation, and
 * against the engine.
 *
 *   1.1 Erlang's B(U, a) by hand (U = 0, 1, 2) and as the truncated
 *       Poisson ratio P(X = U) / P(X <= U), X ~ Poisson(a), through GSL's
 *       Poisson pmf and cdf (not the recursion the code uses).
 *   1.2 The blocked wait E[(min(R_own, R_e1..R_eU) - d)+] by GSL quadrature
 *       of S(x) S_e(x)^U from d (exponential and fixed repairs), against
 *       the code's closed expressions; U = 0 is the failed card's own repair.
 *   1.3 P = 0 and P = 1 by hand: the pool's delay per failure in Daly's T.
 *       P = 1, exponential repairs of R, a failure rate l: a = l R, a run
 *       long against R, so the delay is B(1, a) R / 2 = a / (1 + a) R / 2;
 *       the closed form's Daly T must be Daly's delayed formula with it.
 *   1.4 The engine's mean spare wait per failure against the closed form,
 *       where its assumptions hold (exponential repairs short against the
 *       run, no detection delay): card failures with P = 2, node failures
 *       with P = 16 cards (2 nodes of 8). Estimator: the ratio
 *       sum(wait) / sum(failures) over n replicas; its standard error by the
 *       delta method, sqrt(var(w_i - rho f_i) / n) / mean(f); |z| < 4.
 *   1.5 The issue's spares-repro figures (14.01, 6.00, 3.36 and 1.27 days
 *       for 0, 1, 2 and 4 spares, checked against a simulation written
 *       apart by spares-1.x): a run of about 7 failures against 48 h
 *       repairs, where the pool's start matters; Daly's T within 3 %.
 *   1.6 plan's pools; 1.7 a forecast's pool (below).
 *   1.8 P = 0 reported by hand: P(wait) 1, the rest of the own repair per
 *       failure taking hardware (job failures and hangs wait none). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

#include "closed_form.h"
#include "finishable.h"
#include "engine.h"
#include "support.h"

#define HOUR 3600.0
#define DAY 86400.0

static void near(double got, double want, double rel, const char *what)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("%s: %.12g against %.12g", what, got, want);
}

/* sparewait-1.1 */
static void erlang_by_hand(void **state)
{
    (void)state;
    near(tmc_closed_form_erlang_b(0, 3), 1, 1e-15, "B(0, 3)");
    near(tmc_closed_form_erlang_b(1, 3), 3.0 / 4, 1e-15, "B(1, 3)");
    near(tmc_closed_form_erlang_b(2, 3), 4.5 / 8.5, 1e-14, "B(2, 3)"); /* (9/2) / (1 + 3 + 9/2) */
    long u[] = {1, 4, 16, 40};
    double a[] = {0.2, 2.998, 11.5, 30};
    for (int i = 0; i < 4; i++) {
        double b = gsl_ran_poisson_pdf((unsigned)u[i], a[i]) /
                   gsl_cdf_poisson_P((unsigned)u[i], a[i]);
        near(tmc_closed_form_erlang_b(u[i], a[i]), b, 1e-12, "B(U, a) as truncated Poisson");
    }
    assert_true(isnan(tmc_closed_form_erlang_b(-1, 1)));
}

typedef struct {
    double r; /* the repair's mean, s */
    int law;  /* 0 exponential, 1 fixed, 2 lognormal of cv 2 */
    long u;
} wait_case;

static double survival(const wait_case *c, double x)
{
    double s2 = log1p(4.0);
    switch (c->law) {
    case 1: return x < c->r ? 1 : 0;
    case 2: return gsl_cdf_lognormal_Q(x, log(c->r) - s2 / 2, sqrt(s2));
    default: return exp(-x / c->r);
    }
}

static double survival_fn(double x, void *p)
{
    return survival(p, x);
}

/* The integral of fn from x to infinity, in pieces at R, 10 R, 1,000 R
 * (a heavy tail defeats one infinite interval). */
static double tail_integral(double (*fn)(double, void *), void *p, double x, double r)
{
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(2000);
    gsl_function f = {fn, p};
    double cut[] = {r, 10 * r, 1000 * r}, sum = 0, v, err;
    for (int i = 0; i < 3; i++)
        if (x < cut[i]) {
            gsl_integration_qag(&f, x, cut[i], 0, 1e-10, 2000, GSL_INTEG_GAUSS21, w, &v, &err);
            sum += v;
            x = cut[i];
        }
    gsl_integration_qagiu(&f, x, 0, 1e-10, 2000, w, &v, &err);
    gsl_integration_workspace_free(w);
    return sum + v;
}

/* S_e(x) = (1 / R) integral of S from x: by quadrature for the lognormal */
static double residual_survival(const wait_case *c, double x)
{
    if (c->law == 1)
        return x < c->r ? 1 - x / c->r : 0;
    if (c->law == 0)
        return exp(-x / c->r);
    return tail_integral(survival_fn, (void *)c, x, c->r) / c->r;
}

/* S(x) S_e(x)^U: a fresh repair and U equilibrium residuals all longer than x */
static double integrand(double x, void *p)
{
    const wait_case *c = p;
    return survival(c, x) * pow(residual_survival(c, x), (double)c->u);
}

static double wait_by_quadrature(const wait_case *c, double d)
{
    if (c->law != 1)
        return tail_integral(integrand, (void *)c, d, c->r);
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    gsl_function f = {integrand, (void *)c};
    double v, err;
    gsl_integration_qag(&f, d, c->r, 0, 1e-12, 1000, GSL_INTEG_GAUSS61, w, &v, &err);
    gsl_integration_workspace_free(w);
    return v;
}

/* sparewait-1.2 */
static void blocked_wait_by_quadrature(void **state)
{
    (void)state;
    const char *laws[] = {"exponential", "fixed", "lognormal"};
    double r = 24 * HOUR, d[] = {0, 600, 5 * HOUR};
    long u[] = {0, 1, 2, 7};
    for (int law = 0; law < 3; law++) {
        char text[700];
        snprintf(text, sizeof text,
                 "{\"name\": \"w\", \"job\": {\"steps\": 10, \"cards\": 8, "
                 "\"flop_per_step\": 8e12, \"peak_flops\": 1e12, \"efficiency\": 1.0}, "
                 "\"failures\": {\"distribution\": \"exponential\", "
                 "\"per_card_mtbf_days\": 10, \"spares\": 1, \"repair_mean_hours\": 24, "
                 "\"repair_distribution\": \"%s\", \"repair_cv\": 2}, "
                 "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
                 "\"deadline\": {\"days\": 10}}", laws[law]);
        tmc_experiment x = test_parse(text);
        for (int i = law == 2 ? 3 : 0; i < 4; i++) /* the lognormal: U = 7 (slow) */
            for (int j = 0; j < 3; j += law == 2 ? 2 : 1) {
                wait_case c = {r, law, u[i]};
                near(tmc_closed_form_blocked_wait_s(&x.failures, u[i], d[j]),
                     wait_by_quadrature(&c, d[j]), law == 2 ? 1e-5 : 1e-9, laws[law]);
            }
        /* by hand: U = 0 is the own repair's mean, U = 1 half of it (any law) */
        near(tmc_closed_form_blocked_wait_s(&x.failures, 0, 0), r, 1e-12, "own repair");
        near(tmc_closed_form_blocked_wait_s(&x.failures, 1, 0), r / 2, 1e-12, "first of two");
    }
    tmc_experiment fixed = test_parse(
        "{\"name\": \"w\", \"job\": {\"steps\": 10, \"cards\": 8, \"flop_per_step\": 8e12, "
        "\"peak_flops\": 1e12, \"efficiency\": 1.0}, \"failures\": {\"distribution\": "
        "\"exponential\", \"per_card_mtbf_days\": 10, \"spares\": 1, "
        "\"repair_mean_hours\": 24, \"repair_distribution\": \"fixed\"}, \"checkpoint\": "
        "{\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 10}}");
    near(tmc_closed_form_blocked_wait_s(&fixed.failures, 0, HOUR), r - HOUR, 1e-12, "own fixed");
}

/* 100 cards failing l = 100 / mtbf_days a day, exponential repairs of
 * repair_h, `spares` cards; saves and restores as given. */
static tmc_experiment small_case(double mtbf_days, double repair_h, int spares, long steps)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"name\": \"sparewait\", \"job\": {\"steps\": %ld, \"cards\": 100, "
             "\"flop_per_step\": 6e14, \"peak_flops\": 1e12, \"efficiency\": 1.0, "
             "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "
             "\"jitter\": {\"distribution\": \"normal\", \"cv\": 0}, "
             "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": %.17g, "
             "\"spares\": %d, \"repair_mean_hours\": %.17g}, "
             "\"checkpoint\": {\"interval_steps\": 100, \"save_s\": 10, \"restore_s\": 60}, "
             "\"deadline\": {\"days\": 1000, \"reserve_days\": 0}, "
             "\"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}",
             steps, mtbf_days, spares, repair_h);
    return test_parse(text);
}

/* sparewait-1.3 */
static void p0_p1_by_hand(void **state)
{
    (void)state;
    /* 100 cards of 10 days: l = 10 a day; repairs of 6 h: a = 2.5; 50 days of work */
    double l = 10 / DAY, r = 6 * HOUR, a = l * r;
    tmc_experiment one = small_case(10, 6, 1, 720000), none = small_case(10, 6, 0, 720000),
                   lots = small_case(10, 6, -1, 720000);
    tmc_closed_form c1, c0, cu;
    tmc_closed_form_compute(&one, &c1);
    tmc_closed_form_compute(&none, &c0);
    tmc_closed_form_compute(&lots, &cu);
    /* P = 0: every failure waits its own repair, R (docs/model.md 3.16) */
    near(c0.delay_mean_s, r, 1e-12, "P = 0: D = R");
    near(cu.delay_mean_s, 0, 0, "unlimited: D = 0");
    assert_true(cu.spare_wait_s == 0 && cu.spare_wait_p == 0);
    /* P = 1: a / (1 + a) R / 2 in the long run; the run (50 days against
     * 6 h repairs) averages a little less, the pool full at its start */
    double hand = a / (1 + a) * r / 2;
    print_message("P = 1: D = %.2f s (long run %.2f s), P(wait) %.5f (B = %.5f)\n",
                  c1.delay_mean_s, hand, c1.spare_wait_p, a / (1 + a));
    near(c1.delay_mean_s, hand, 0.01, "P = 1: D = B(1, a) R / 2");
    assert_true(c1.delay_mean_s < hand);
    double daly = tmc_closed_form_daly_wall_delayed_s(720000, 6, 100, 10, 60, 8640.0,
                                                      c1.delay_mean_s);
    near(c1.daly_wall_s, daly, 1e-12, "P = 1: Daly's T with the wait");
    double failures = c1.daly_wall_s / (8640.0 + c1.delay_mean_s);
    near(c1.spare_wait_s, failures * c1.delay_mean_s, 1e-12, "P = 1: the wait per run");
}

/* The ratio estimator of the engine's wait per failure. */
static void engine_wait_agrees(const tmc_experiment *x, const char *what)
{
    enum { N = 400 };
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    tmc_replica *r = malloc(N * sizeof *r);
    test_replicas(x, 7, r, N);
    double sw = 0, sf = 0;
    for (int i = 0; i < N; i++)
        sw += r[i].spare_wait_s, sf += r[i].card_failures;
    double rho = sw / sf, v = 0, mf = sf / N;
    for (int i = 0; i < N; i++) {
        double e = r[i].spare_wait_s - rho * r[i].card_failures;
        v += e * e;
    }
    double se = sqrt(v / (N - 1) / N) / mf, want = cf.spare_wait_per_failure_s;
    double z = (rho - want) / se;
    print_message("%s: engine %.2f +- %.2f s a failure (%.1f failures a run), closed form "
                  "%.2f s, z = %.2f\n", what, rho, se, mf, want, z);
    free(r);
    if (!(fabs(z) < 4))
        fail_msg("%s: engine %.3f against %.3f s a failure, z = %.2f", what, rho, want, z);
}

/* sparewait-1.4 */
static void engine_cards(void **state)
{
    (void)state;
    /* 100 cards of 1.6667 days: 60 failures a day, repairs of 1 h: a = 2.5;
     * P = 2: B = 0.4717, 0.943 h a failure; 10 days of work */
    tmc_experiment x = small_case(100.0 / 60, 1, 2, 144000);
    engine_wait_agrees(&x, "cards, P = 2");
}

static void engine_nodes(void **state)
{
    (void)state;
    /* 128 nodes of 8 failing every 5.12 days: 25 a day, repairs of 2.4 h:
     * a = 2.5 nodes; 16 cards = 2 nodes */
    const char *text =
        "{\"name\": \"sparewait-nodes\", \"job\": {\"steps\": 144000, \"cards\": 1024, "
        "\"flop_per_step\": 6.144e15, \"peak_flops\": 1e12, \"efficiency\": 1.0, "
        "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "
        "\"jitter\": {\"distribution\": \"normal\", \"cv\": 0}, "
        "\"failures\": {\"distribution\": \"exponential\", \"per_node_mtbf_days\": 5.12, "
        "\"cards_per_node\": 8, \"spares\": 16, \"repair_mean_hours\": 2.4}, "
        "\"checkpoint\": {\"interval_steps\": 100, \"save_s\": 10, \"restore_s\": 60}, "
        "\"deadline\": {\"days\": 1000, \"reserve_days\": 0}, "
        "\"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}";
    tmc_experiment x = test_parse(text);
    engine_wait_agrees(&x, "nodes, P = 16 cards");
}

/* sparewait-1.5 */
static void issue_figures(void **state)
{
    (void)state;
    int spares[] = {0, 1, 2, 4};
    double issue[] = {14.01, 6.00, 3.36, 1.27};
    for (int i = 0; i < 4; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"name\": \"spares-repro\", \"job\": {\"steps\": 1000, \"cards\": 100, "
                 "\"flop_per_step\": 6e14, \"peak_flops\": 1e12, \"efficiency\": 1.0}, "
                 "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 1, "
                 "\"spares\": %d, \"repair_mean_hours\": 48}, "
                 "\"checkpoint\": {\"interval_steps\": 1, \"save_s\": 0, \"restore_s\": 0}, "
                 "\"deadline\": {\"days\": 1000}, "
                 "\"monte_carlo\": {\"replicas\": 100, \"seed\": 1}}",
                 spares[i]);
        tmc_experiment x = test_parse(text);
        tmc_closed_form cf;
        tmc_closed_form_compute(&x, &cf);
        print_message("spares %d: Daly %.3f d, the issue's %.2f d\n", spares[i],
                      cf.completion_days_daly, issue[i]);
        near(cf.completion_days_daly, issue[i], 0.03, "spares-repro");
    }
}

/* sparewait-1.6: the pool `plan` asks for, the smallest U with B(U, a)
 * below 1 % and 10 %, by the truncated Poisson ratio of 1.1; a the mean
 * units in repair, l R, by hand (the issue's case: 128 nodes of 42.7
 * days, 24 h repairs: a = 128 / 42.7 = 2.9977 nodes). */
static long smallest(double a, double p)
{
    long u = 0;
    while (gsl_ran_poisson_pdf((unsigned)u, a) / gsl_cdf_poisson_P((unsigned)u, a) >= p)
        u++;
    return u;
}

static void plan_pool(void **state)
{
    (void)state;
    tmc_experiment x = test_load("spares-1024", NULL, 0);
    tmc_closed_form cf;
    tmc_spare_pool_form s;
    tmc_closed_form_compute(&x, &cf);
    tmc_closed_form_spare_pool(&x, &cf, &s);
    double a = 128 / 42.7;
    near(s.in_repair_mean, a, 1e-12, "units in repair");
    near(s.unit_cards, 8, 0, "a node's cards");
    assert_int_equal(s.units, 2);
    assert_int_equal(s.units_10pct, smallest(a, 0.10));
    assert_int_equal(s.units_1pct, smallest(a, 0.01));
    print_message("a = %.4f nodes: %ld nodes for 10 %%, %ld for 1 %%\n", a, s.units_10pct,
                  s.units_1pct);
    near(s.wait_p_steady, 4.492977 / 8.490635, 1e-6, "B(2, a) by hand"); /* a^2/2 / (1 + a + a^2/2) */
}

/* sparewait-1.7: a forecast starts its pool with the cards in repair now
 * (forecast-design-48-day9: both spares out on day 9, 48 h exponential
 * repairs): the chain of docs/model.md 3.21 started there. Estimator: the
 * engine's mean T over 3,000 replicas (seed 11) against Daly's T, |z| < 4
 * (from a full pool, Daly gave 26.259 days against about 26.385). */
static void forecast_start(void **state)
{
    (void)state;
    enum { N = 3000 };
    tmc_experiment x = test_load("forecast-design-48-day9", NULL, 0);
    tmc_closed_form cf;
    double *wall = malloc(N * sizeof *wall), m = 0, v = 0;
    test_run(&x, &cf, N, 11, wall);
    for (int i = 0; i < N; i++)
        m += wall[i] / N;
    for (int i = 0; i < N; i++)
        v += (wall[i] - m) * (wall[i] - m) / (N - 1);
    double se = sqrt(v / N), z = (cf.daly_wall_s - m) / se;
    print_message("forecast: Daly %.4f d, engine %.4f +- %.4f d (z = %.2f)\n",
                  cf.daly_wall_s / DAY, m / DAY, se / DAY, z);
    free(wall);
    if (!(fabs(z) < 4))
        fail_msg("forecast: Daly %.4f against %.4f days, z = %.2f", cf.daly_wall_s / DAY,
                 m / DAY, z);
}

/* sparewait-1.8: a pool of 0 usable units reports its waits (the tester's
 * defect: P(wait) 0 %, 0 h a failure with spares 0, though Young's L held
 * them). By hand, exponential repairs of R: with P = 0 every failure that
 * takes hardware waits E[(R - d)+] = R e^(-d / R) after a detection delay
 * d (docs/model.md 3.16, 3.21 at U = 0); P(wait) is 1; per run, Daly's
 * count of failures wall / (M + D) times that. */
static tmc_experiment p0_case(const char *extra)
{
    char text[1200];
    snprintf(text, sizeof text,
             "{\"name\": \"sparewait-p0\", \"job\": {\"steps\": 720000, \"cards\": 100, "
             "\"flop_per_step\": 6e14, \"peak_flops\": 1e12, \"efficiency\": 1.0, "
             "\"exposed_comm_s\": 0, \"input_wait_s\": 0}, "
             "\"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 10, "
             "\"spares\": 0, \"repair_mean_hours\": 6%s}, "
             "\"checkpoint\": {\"interval_steps\": 100, \"save_s\": 10, \"restore_s\": 60}, "
             "\"deadline\": {\"days\": 1000, \"reserve_days\": 0}}", extra);
    return test_parse(text);
}

static void p0_reported(void **state)
{
    (void)state;
    double r = 6 * HOUR, m = DAY / 10; /* 10 card failures a day */
    tmc_experiment plain = p0_case("");
    tmc_closed_form c;
    tmc_closed_form_compute(&plain, &c);
    assert_true(c.spare_finite);
    near(c.spare_wait_p, 1, 0, "P = 0: P(wait)");
    near(c.spare_wait_per_failure_s, r, 1e-12, "P = 0: R a failure");
    near(c.spare_wait_s, c.daly_wall_s / (m + r) * r, 1e-12, "P = 0: the wait per run");
    /* a job failure (10 a day more) takes no card: half the failures wait R */
    tmc_experiment job = p0_case(", \"per_job_mtbf_days\": 0.1");
    tmc_closed_form_compute(&job, &c);
    near(c.spare_wait_per_failure_s, r / 2, 1e-12, "P = 0 with job failures: R / 2");
    near(c.delay_mean_s, r / 2, 1e-12, "P = 0 with job failures: D = R / 2");
    near(c.spare_wait_s, c.daly_wall_s / (m / 2 + r / 2) * r / 2, 1e-12, "job: per run");
    /* causes: 3/4 hardware detected after 1 h, 1/4 hangs after 10 min that
     * take no spare: the wait is 3/4 R e^(-1 / 6), D adds the detections */
    tmc_experiment causes = p0_case(
        ", \"causes\": [{\"name\": \"hw\", \"share\": 0.75, \"detection_s\": 3600}, "
        "{\"name\": \"hang\", \"share\": 0.25, \"detection_s\": 600, "
        "\"takes_spare\": false}]");
    tmc_closed_form_compute(&causes, &c);
    double w = 0.75 * r * exp(-HOUR / r);
    near(c.spare_wait_p, 1, 0, "P = 0 with causes: P(wait)");
    near(c.spare_wait_per_failure_s, w, 1e-12, "P = 0 with causes: 3/4 R e^(-d/R)");
    near(c.delay_mean_s, w + 0.75 * 3600 + 0.25 * 600, 1e-12, "causes: D");
    /* 2 standbys, no refill: the first two failures swap one in, the rest
     * (the cold share: k - P(K > 0) - P(K > 1) of the k = l x failure-free
     * time expected, K Poisson) wait R each; the standbys' cards that come
     * back from repair are not counted (the bound of 3.16) */
    tmc_experiment warm = p0_case(", \"standbys\": 2");
    tmc_closed_form_compute(&warm, &c);
    double k = c.failure_free_s / m;
    double cold = (k - gsl_cdf_poisson_Q(0, k) - gsl_cdf_poisson_Q(1, k)) / k;
    near(c.spare_wait_p, 1, 0, "P = 0 with standbys: P(wait) of a cold failure");
    near(c.spare_wait_per_failure_s, cold * r, 1e-12, "P = 0 with standbys: cold R");
    /* unlimited spares: nothing reported */
    tmc_experiment lots = small_case(10, 6, -1, 720000);
    tmc_closed_form_compute(&lots, &c);
    assert_false(c.spare_finite);
    assert_true(c.spare_wait_p == 0 && c.spare_wait_s == 0);
}

/* spare-wait-1.9: instant Weibull repairs (repair_mean_hours 0) behind a
 * detection delay of 600 s: the blocked wait is 0 by hand (no card is ever
 * in repair), and the closed form and the finishable check see a number:
 * GSL's Q(a, inf) and E[R] = 0 gave 0 x NaN, and the run was refused as
 * "more than 1e300 times" the uninterrupted one (issue 33 item 5). */
static void test_instant_weibull_repairs(void **state)
{
    (void)state;
    tmc_experiment x = test_parse(
        "{\"name\": \"w0\", \"source\": \"test_spare_wait.c\","
        " \"job\": {\"steps\": 1000, \"cards\": 48, \"flop_per_step\": 480,"
        "         \"peak_flops\": 1, \"efficiency\": 1},"
        " \"failures\": {\"distribution\": \"exponential\", \"per_card_mtbf_days\": 337,"
        "              \"spares\": 2, \"repair_distribution\": \"weibull\","
        "              \"repair_shape\": 0.7, \"repair_mean_hours\": 0,"
        "              \"causes\": [{\"name\": \"x\", \"share\": 1, \"detection_s\": 600}]},"
        " \"checkpoint\": {\"interval_steps\": 100, \"save_s\": 10, \"restore_s\": 60},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0}}");
    double w = tmc_closed_form_blocked_wait_s(&x.failures, 2, 600);
    if (!(w == 0))
        fail_msg("blocked wait of instant repairs %g s, by hand 0", w);
    tmc_closed_form cf;
    tmc_closed_form_compute(&x, &cf);
    assert_true(isfinite(cf.daly_wall_s) && isfinite(cf.delay_mean_s));
    char why[1024];
    if (tmc_finishable_check(&x, why, sizeof why) != 0)
        fail_msg("refused: %s", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instant_weibull_repairs),
        cmocka_unit_test(erlang_by_hand),
        cmocka_unit_test(blocked_wait_by_quadrature),
        cmocka_unit_test(p0_p1_by_hand),
        cmocka_unit_test(engine_cards),
        cmocka_unit_test(engine_nodes),
        cmocka_unit_test(issue_figures),
        cmocka_unit_test(plan_pool),
        cmocka_unit_test(forecast_start),
        cmocka_unit_test(p0_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
