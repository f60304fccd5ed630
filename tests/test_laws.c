/* laws-1.x: the law types (src/model/laws.[ch]) against the experiment
 * file's choices and against values derived by hand.
 * laws-1.1 each kind's table names its laws as the loader's choice list of
 *          its key does, in the same order (the enum is both's index):
 *          failures.distribution (whose last choice, "trace", is a replay,
 *          not a law), failures.repair_distribution,
 *          checkpoint.duration_law, failures.causes[].detection_distribution; read
 *          from the key table (config_fields.c) through
 *          tmc_cfg_find_section, so the two cannot drift.
 * laws-1.2 each law's derived parameters give back the mean and cv it was
 *          set by, by the textbook moments: Weibull lambda Gamma(1 + 1/k),
 *          lognormal e^(mu + sigma^2 / 2) and sqrt(e^(sigma^2) - 1), gamma
 *          k theta and 1 / sqrt(k), uniform (a + b) / 2 and (b - a) /
 *          sqrt(12) / mean; to 1e-12 relative.
 * laws-1.3 the mean of the minimum of n: exponential m / n, Weibull of
 *          shape 2 m / sqrt(n) (by hand), to 1e-12; lognormal, the
 *          integral of S^n over t > 0 (in the log scale), against the
 *          quantile of the minimum integrated over u in (0, 1),
 *          P^-1(1 - (1 - u)^(1/n)) (another integrand, GSL qags on a finite
 *          range), to 1e-7: m = 1e4 s, n = 1024, cv 0.8; m = 40,924 s, n =
 *          8, cv 0.3 and m = 1e6 s, n = 4096, cv 0.5 (where the integral in
 *          t failed and gave NaN: M = inf and no failure at all under job
 *          renewal); m = 3600 s, n = 1e6, cv 3.
 * laws-1.4 E[(X - d)+]: exponential m e^(-d / m), fixed (m - d)+, by hand.
 * laws-1.5 cdf and quantile are inverses for the laws that have both, at
 *          u = 0.01, 0.3, 0.5, 0.9, 0.999; the uniform's cdf at its ends
 *          and middle is 0, 1, 1/2.
 * laws-1.6 the renewal function's forward mean (src/model/renewal.[ch]),
 *          mu (1 + m(d)) - d for gaps the minimum of n lifetimes, against
 *          what renewal theory gives exactly: Weibull of shape 1 (the
 *          minimum of 8 exponential, a Poisson process) forgets, mu / 8 at
 *          every d (0.1, 1 and 3 times it), to 1e-4; far past the start
 *          (d = 40 mu) the forward time has its stationary mean
 *          E[X^2] / (2 E[X]), for Weibull of shape 5 and 8 cards
 *          mu Gamma(1 + 2/k) / (2 Gamma(1 + 1/k)^2) (Ross, Stochastic
 *          Processes 3.4), to 1e-3; d <= 0 gives mu itself.
 * laws-1.7 the same at d = 0.9 mu (shape 5, 8 cards: a failure falls in
 *          (0, d] in about a quarter of the runs), and its mean over d
 *          exponential of mean 0.9 mu (256 quantiles), against a simulation
 *          written here: 200,000 renewal sequences of min-of-8 Weibull
 *          gaps each (fixed seed), the mean first renewal after d minus d,
 *          within 4 standard errors (sd / sqrt(n), about 0.0016 mu). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_gamma.h>

#include "config_internal.h"
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "laws.h"
#include "renewal.h"

static const field *find_field(const field *fields, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(fields[i].key, key))
            return &fields[i];
    fail_msg("no key %s in the key table", key);
    return NULL;
}

/* The law names of table[0..n-1] are choices[0..n-1], and choices has
 * `extra` more (a trace) before its end. */
static void same_names(const char *key, const tmc_law_type *const *table, int n,
                       const char *const *choices, int extra)
{
    for (int i = 0; i < n; i++) {
        if (!table[i] || !choices[i] || strcmp(table[i]->name, choices[i]))
            fail_msg("%s: law %d is \"%s\", the key table's choice \"%s\"", key, i,
                     table[i] ? table[i]->name : "(none)", choices[i] ? choices[i] : "(end)");
    }
    int more = 0;
    while (choices[n + more])
        more++;
    if (more != extra)
        fail_msg("%s: the key table has %d choices after the laws, not %d", key, more, extra);
}

static void test_names(void **state)
{
    (void)state;
    const section *f = tmc_cfg_find_section("failures");
    const section *cp = tmc_cfg_find_section("checkpoint");
    assert_non_null(f);
    assert_non_null(cp);
    const field *life = find_field(f->fields, f->n_fields, "distribution");
    assert_string_equal(life->choices[TMC_LIFETIME_TRACE], "trace");
    same_names("failures.distribution", tmc_lifetime_laws, TMC_LIFETIME_LAW_COUNT,
               life->choices, 1);
    same_names("failures.repair_distribution", tmc_repair_laws, TMC_REPAIR_LAW_COUNT,
               find_field(f->fields, f->n_fields, "repair_distribution")->choices, 0);
    same_names("checkpoint.duration_law", tmc_duration_laws, TMC_DURATION_LAW_COUNT,
               find_field(cp->fields, cp->n_fields, "duration_law")->choices, 0);
    same_names("failures.causes[].detection_distribution", tmc_detection_laws, TMC_DETECTION_LAW_COUNT,
               find_field(tmc_cfg_cause.fields, tmc_cfg_cause.n_fields, "detection_distribution")->choices,
               0);
}

static void near(const char *what, double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("%s: %.17g, by hand %.17g (relative tolerance %g)", what, got, want, rel);
}

static void test_moments(void **state)
{
    (void)state;
    double m = 3600, k = 0.7, cv = 0.4;
    tmc_law w = tmc_law_prepare(tmc_law_weibull, m, k, 0);
    near("Weibull mean", w.a * gsl_sf_gamma(1 + 1 / w.b), m, 1e-12);
    tmc_law l = tmc_law_prepare(tmc_law_lognormal, m, 0, cv);
    near("lognormal mean", exp(l.a + l.b * l.b / 2), m, 1e-12);
    near("lognormal cv", sqrt(expm1(l.b * l.b)), cv, 1e-12);
    tmc_law g = tmc_law_prepare(tmc_law_gamma, m, 0, cv);
    near("gamma mean", g.a * g.b, m, 1e-12);
    near("gamma cv", 1 / sqrt(g.a), cv, 1e-12);
    tmc_law u = tmc_law_prepare(tmc_law_uniform, m, 0, cv);
    near("uniform mean", (u.a + u.b) / 2, m, 1e-12);
    near("uniform cv", (u.b - u.a) / sqrt(12.0) / m, cv, 1e-12);
}

/* The quantile of the minimum of n lognormals at u (params: mu, sigma, n). */
static double min_quantile(double u, void *params)
{
    const double *q = params;
    return u <= 0 || u >= 1 ? 0 : gsl_cdf_lognormal_Pinv(-expm1(log1p(-u) / q[2]), q[0], q[1]);
}

static void test_min_mean(void **state)
{
    (void)state;
    double m = 1e6, n = 4096;
    tmc_law e = tmc_law_prepare(tmc_law_exponential, m, 0, 0);
    near("exponential E[min]", tmc_law_exponential->min_mean(&e, n), m / n, 1e-12);
    tmc_law w = tmc_law_prepare(tmc_law_weibull, m, 2, 0);
    near("Weibull k = 2 E[min]", tmc_law_weibull->min_mean(&w, n), m / sqrt(n), 1e-12);
    const double cases[][3] = {{1e4, 1024, 0.8}, {40924, 8, 0.3}, {1e6, 4096, 0.5},
                               {3600, 1e6, 3}}; /* mean, n, cv */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tmc_law l = tmc_law_prepare(tmc_law_lognormal, cases[i][0], 0, cases[i][2]);
        double q[3] = {l.a, l.b, cases[i][1]}, want, abserr;
        gsl_function fn = {min_quantile, q};
        gsl_integration_workspace *ws = gsl_integration_workspace_alloc(1000);
        assert_int_equal(gsl_integration_qags(&fn, 0, 1, 0, 1e-10, 1000, ws, &want, &abserr),
                         0);
        gsl_integration_workspace_free(ws);
        near("lognormal E[min of n]", tmc_law_lognormal->min_mean(&l, cases[i][1]), want, 1e-7);
    }
}

static void test_excess_mean(void **state)
{
    (void)state;
    double m = 7200, d = 1800;
    tmc_law e = tmc_law_prepare(tmc_law_exponential, m, 0, 0);
    near("exponential E[(X - d)+]", tmc_law_exponential->excess_mean(&e, d),
         m * exp(-0.25), 1e-12);
    tmc_law f = tmc_law_prepare(tmc_law_fixed, m, 0, 0);
    near("fixed E[(X - d)+]", tmc_law_fixed->excess_mean(&f, d), 5400, 1e-12);
    assert_true(tmc_law_fixed->excess_mean(&f, 2 * m) == 0);
}

static void test_cdf_quantile(void **state)
{
    (void)state;
    const tmc_law_type *types[] = {tmc_law_lognormal, tmc_law_gamma, tmc_law_uniform};
    const double us[] = {0.01, 0.3, 0.5, 0.9, 0.999};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        tmc_law l = tmc_law_prepare(types[i], 1, 0, 0.5);
        for (size_t j = 0; j < sizeof us / sizeof us[0]; j++)
            near(types[i]->name, types[i]->cdf(&l, types[i]->quantile(&l, us[j])), us[j],
                 1e-9);
    }
    tmc_law u = tmc_law_prepare(tmc_law_uniform, 2, 0, 0.25);
    assert_true(tmc_law_uniform->cdf(&u, u.a) == 0 && tmc_law_uniform->cdf(&u, u.b) == 1);
    near("uniform cdf at its mean", tmc_law_uniform->cdf(&u, 2), 0.5, 1e-15);
}

/* The forward time at d from a table built to reach d. */
static double forward(const tmc_law *w, double n, double d)
{
    tmc_renewal_table t;
    assert_int_equal(tmc_renewal_build(&t, tmc_law_weibull, w, n, d), 0);
    double f = tmc_renewal_forward_at(&t, d);
    tmc_renewal_free(&t);
    return f;
}

static void test_renewal_limits(void **state)
{
    (void)state;
    double mu = 36000, n = 8;
    tmc_law e = tmc_law_prepare(tmc_law_weibull, mu, 1, 0); /* exponential */
    for (double f = 0.1; f < 4; f *= 3.1623)
        near("Weibull k = 1: forgets", forward(&e, n, f * mu / n), mu / n, 1e-4);
    tmc_law w = tmc_law_prepare(tmc_law_weibull, mu, 5, 0);
    double gap = tmc_law_weibull->min_mean(&w, n);
    near("d = 0", forward(&w, n, 0), gap, 1e-15);
    double g1 = gsl_sf_gamma(1.2), g2 = gsl_sf_gamma(1.4);
    near("stationary forward time", forward(&w, n, 40 * gap), gap * g2 / (2 * g1 * g1), 1e-3);
}

/* The first renewal after d minus d, of gaps the first of 8 Weibull(5). */
static double simulated_forward(gsl_rng *r, const tmc_law *w, double d)
{
    double t = 0;
    while (t <= d) {
        double first = INFINITY;
        for (int c = 0; c < 8; c++)
            first = fmin(first, gsl_ran_weibull(r, w->a, 5));
        t += first;
    }
    return t - d;
}

static void test_renewal_simulated(void **state)
{
    (void)state;
    double mu = 36000, n = 8;
    tmc_law w = tmc_law_prepare(tmc_law_weibull, mu, 5, 0);
    double gap = tmc_law_weibull->min_mean(&w, n), d = 0.9 * gap;
    tmc_law dexp = tmc_law_prepare(tmc_law_exponential, d, 0, 0);
    tmc_renewal_table t;
    assert_int_equal(tmc_renewal_build(&t, tmc_law_weibull, &w, n,
                                       tmc_renewal_reach(tmc_law_exponential, &dexp, 0)), 0);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 3406);
    const int runs = 200000;
    for (int random = 0; random < 2; random++) { /* d fixed, then exponential of mean d */
        double sum = 0, sum2 = 0;
        for (int i = 0; i < runs; i++) {
            double x = simulated_forward(r, &w, random ? gsl_ran_exponential(r, d) : d);
            sum += x, sum2 += x * x;
        }
        double mean = sum / runs, se = sqrt((sum2 / runs - mean * mean) / runs);
        double got = random ? tmc_renewal_forward_mean(&t, tmc_law_exponential, &dexp, 0)
                            : tmc_renewal_forward_at(&t, d);
        if (!(fabs(got - mean) <= 4 * se))
            fail_msg("forward mean at d = 0.9 mu (%s): %.6g s, simulated %.6g +- %.3g s",
                     random ? "exponential" : "fixed", got, mean, se);
    }
    gsl_rng_free(r);
    tmc_renewal_free(&t);
}

int main(void)
{
    gsl_set_error_handler_off(); /* a failed quadrature shows as a failed test */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),      cmocka_unit_test(test_moments),
        cmocka_unit_test(test_min_mean),   cmocka_unit_test(test_excess_mean),
        cmocka_unit_test(test_cdf_quantile), cmocka_unit_test(test_renewal_limits),
        cmocka_unit_test(test_renewal_simulated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
