/* test_slowdown.c - a run that slows down since its last restart
 * (src/model/slowdown.c) against quadratures and searches written here.
 *
 * sd-1.1 n(h), the steps done h seconds after a restart, linear (0.5 and
 *        0.04 per hour) and saturating (max_extra 0.3): against the
 *        trapezoid rule on 1 / (b + y e(h)) with 200,000 panels, at h = 1,
 *        10 and 100 hours, relative 1e-7 (the rule's error is below 1e-9
 *        there);
 * sd-1.2 the time for n steps inverts n(h): n(time_for(n)) = n to 1e-9
 *        relative, n from 1 to 1e4 steps (1e5 at 0.5 an hour take e^6250 s),
 *        both forms;
 * sd-1.3 with restarts at rate lambda (one a day) and a refresh at age w
 *        (6 h, and none): E[n] against the trapezoid rule on
 *        e^(-lambda h) / (b + y e(h)) (to 60 / lambda without a refresh),
 *        relative 1e-6; E[L] = (1 - e^(-lambda w)) / lambda exactly;
 * sd-1.4 the best refresh period maximises E[n] / (E[L] + e^(-lambda w) C):
 *        a grid of 4,000 periods searched here (the pace from sd-1.3's
 *        trapezoid) finds the same period within two grid steps (0.5 %),
 *        lambda 0 and one a day; a saturating drift whose whole loss
 *        theta ln(B / b) is below the cost never pays (INFINITY), with
 *        restarts a week apart or none;
 * sd-1.5 the first-order period sqrt(2 C b / (y a)) comes within 3 % of the
 *        best at a small drift (per_hour 0.001, a 600 s cost), where
 *        ln(1 + x) ~ x - x^2 / 2 holds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>

#include "slowdown.h"

#define Y_S 450.0 /* a step's slowest-card time, s */
#define B_S 460.0 /* a step's whole share of time, s */

static tmc_slowdown linear(double per_hour)
{
    return (tmc_slowdown){.enabled = 1, .per_hour = per_hour, .refresh_s = -1};
}

/* The extra, written again here: a h, or s (1 - e^(-a h / s)). */
static double extra(const tmc_slowdown *d, double h)
{
    double a = d->per_hour / 3600;
    return d->max_extra > 0 ? d->max_extra * (1 - exp(-a * h / d->max_extra)) : a * h;
}

/* Trapezoid rule of e^(-lambda h) / (b + y e(h)) over [0, hi]. */
static double trapezoid(const tmc_slowdown *d, double lambda, double hi, int panels)
{
    double dh = hi / panels, sum = 0;
    for (int i = 0; i <= panels; i++) {
        double h = i * dh, v = exp(-lambda * h) / (B_S + Y_S * extra(d, h));
        sum += (i == 0 || i == panels) ? v / 2 : v;
    }
    return sum * dh;
}

static void sd_1_1_steps_in(void **state)
{
    (void)state;
    tmc_slowdown ds[] = {linear(0.5), linear(0.04), linear(0.5)};
    ds[2].max_extra = 0.3;
    for (size_t i = 0; i < 3; i++) {
        tmc_slowdown_stretch st = {&ds[i], Y_S, B_S};
        for (double hours = 1; hours <= 100; hours *= 10) {
            double want = trapezoid(&ds[i], 0, hours * 3600, 200000);
            double got = tmc_slowdown_steps_in(&st, hours * 3600);
            if (!(fabs(got / want - 1) < 1e-7))
                fail_msg("drift %zu, %g h: n %.12g, trapezoid %.12g", i, hours, got, want);
        }
    }
}

static void sd_1_2_inverse(void **state)
{
    (void)state;
    tmc_slowdown ds[] = {linear(0.5), linear(0.5)};
    ds[1].max_extra = 0.3;
    for (size_t i = 0; i < 2; i++) {
        tmc_slowdown_stretch st = {&ds[i], Y_S, B_S};
        for (double n = 1; n <= 1e4; n *= 10) { /* 1e5 linear: e^6250 s */
            double back = tmc_slowdown_steps_in(&st, tmc_slowdown_time_for(&st, n));
            if (!(fabs(back / n - 1) < 1e-9))
                fail_msg("drift %zu: n(time_for(%g)) = %.12g", i, n, back);
        }
    }
}

static void sd_1_3_renewal(void **state)
{
    (void)state;
    tmc_slowdown ds[] = {linear(0.05), linear(0.05)};
    ds[1].max_extra = 0.3;
    double lambda = 1 / 86400.0;
    for (size_t i = 0; i < 2; i++) {
        tmc_slowdown_stretch st = {&ds[i], Y_S, B_S};
        double ws[] = {6 * 3600.0, INFINITY};
        for (int j = 0; j < 2; j++) {
            double hi = isfinite(ws[j]) ? ws[j] : 60 / lambda;
            double want = trapezoid(&ds[i], lambda, hi, 400000);
            double got = tmc_slowdown_mean_steps(&st, lambda, ws[j]);
            if (!(fabs(got / want - 1) < 1e-6))
                fail_msg("drift %zu, w %g: E[n] %.12g, trapezoid %.12g", i, ws[j], got, want);
        }
        assert_true(fabs(tmc_slowdown_mean_length(lambda, 21600) -
                         (1 - exp(-lambda * 21600)) / lambda) < 1e-6);
    }
}

/* The pace at compute age w, from the trapezoid. */
static double pace(const tmc_slowdown *d, double lambda, double w, double cost)
{
    double len = lambda > 0 ? (1 - exp(-lambda * w)) / lambda : w;
    return trapezoid(d, lambda, w, 2000) / (len + exp(-lambda * w) * cost);
}

static void sd_1_4_best(void **state)
{
    (void)state;
    tmc_slowdown d = linear(0.2);
    tmc_slowdown_stretch st = {&d, Y_S, B_S};
    double cost = 900, lambdas[] = {0, 1 / 86400.0};
    for (int j = 0; j < 2; j++) {
        double best = 0, at = 0, ratio = pow(1e4, 1.0 / 4000);
        for (double w = 600; w < 6e6; w *= ratio) {
            double v = pace(&d, lambdas[j], w, cost);
            if (v > best)
                best = v, at = w;
        }
        double got = tmc_slowdown_best_period_s(&st, lambdas[j], cost);
        if (!(fabs(got / at - 1) < 2 * (ratio - 1)))
            fail_msg("lambda %g: best period %.6g s, grid %.6g s", lambdas[j], got, at);
    }
    /* saturating: whole loss theta ln(B / b), theta = s / a = 5,400 s,
     * B = b + y s = 505 s: 504 s, below a cost of 1,000 s */
    d.max_extra = 0.1, d.per_hour = 0.0666667;
    assert_true(isinf(tmc_slowdown_best_period_s(&st, 0, 1000)));
    /* nor with restarts a week apart, where the pace is flat in w past a
     * few weeks and only rounding would pick a period */
    assert_true(isinf(tmc_slowdown_best_period_s(&st, 1 / 6e5, 1000)));
}

static void sd_1_5_first_order(void **state)
{
    (void)state;
    tmc_slowdown d = linear(0.001);
    tmc_slowdown_stretch st = {&d, Y_S, B_S};
    double best = tmc_slowdown_best_period_s(&st, 0, 600);
    double first = tmc_slowdown_first_order_period_s(&st, 600);
    assert_true(fabs(first - sqrt(2 * 600 * B_S / (Y_S * 0.001 / 3600))) < 1e-6);
    if (!(fabs(first / best - 1) < 0.03))
        fail_msg("first order %.6g s, best %.6g s", first, best);
}

int main(void)
{
    gsl_set_error_handler_off();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sd_1_1_steps_in), cmocka_unit_test(sd_1_2_inverse),
        cmocka_unit_test(sd_1_3_renewal),  cmocka_unit_test(sd_1_4_best),
        cmocka_unit_test(sd_1_5_first_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
