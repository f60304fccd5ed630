/* closed_form.c - the formulas of docs/model.md, each cited in closed_form.h. */
#include "closed_form.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "dist.h"
#include "durations.h"
#include "experiment_rules.h"
#include "forecast.h"
#include "laws.h"
#include "renewal.h"

/* Fixed-point steps for the aged clocks of job renewal (age_job_clocks):
 * the rate settles to the last bit in a handful. */
#define TMC_AGE_STEPS 20

long tmc_closed_form_steps(double tokens, double batch_sequences, double sequence_tokens)
{
    if (!(tokens > 0 && batch_sequences > 0 && sequence_tokens > 0))
        return -1;
    double steps = ceil(tokens / (batch_sequences * sequence_tokens));
    return steps < (double)LONG_MAX ? (long)steps : -1;
}

double tmc_closed_form_compute_s(const tmc_job *job)
{
    return job->flop_per_step / ((double)job->cards * job->peak_flops * job->efficiency);
}

double tmc_closed_form_step_s(const tmc_job *job, const tmc_jitter *jitter)
{
    double mu = tmc_closed_form_compute_s(job);
    return tmc_dist_expected_max(jitter, mu, job->cards) + job->exposed_comm_s +
           job->input_wait_s;
}

long tmc_closed_form_interval_steps(const tmc_checkpoint *cp, double step_s, long steps)
{
    /* in double first: interval / step can exceed LONG_MAX for tiny steps */
    double k = cp->interval_steps > 0 ? (double)cp->interval_steps
                                      : round(cp->interval_s / step_s);
    return !(k >= 1) ? 1 : k > (double)steps ? steps : (long)k;
}

double tmc_closed_form_young_overhead(double tau_s, double save_s, double restore_s,
                                      double mtbf_s)
{
    return save_s / tau_s + (tau_s / 2 + restore_s) / mtbf_s;
}

double tmc_closed_form_young_interval(double save_s, double mtbf_s)
{
    return sqrt(2 * save_s * mtbf_s);
}

/* The expected time from an interruption until the work resumes: a delay
 * d (nothing strikes), then a restore r that interruptions at rate a strike
 * again, each bringing the delay and the restore afresh:
 * e^(a r) d + (e^(a r) - 1) / a (Daly 2006); d + r when restores are immune
 * (a = 0: checkpoint.restore_immune). */
static double recovery_s(double r, double d, double a)
{
    /* (d + 1/a)(e^(a r) - 1) + d: no 0 x inf when d = 0 and a r overflows */
    return a > 0 ? (d + 1 / a) * expm1(a * r) + d : d + r;
}

/* Expected time to finish w seconds of work then succeed, exponential
 * interruptions of mean m, a delay d after each (nothing strikes then), and
 * restore r (Daly 2006, eq. 13 per segment): the e^(w/m) - 1 interruptions
 * of the work, each costing m + recovery_s, which is (m + d) e^(r/m) when
 * restores are struck and m + d + r when they are immune. */
static double daly_segment(double w, double r, double m, double d, int immune)
{
    return (m + recovery_s(r, d, immune ? 0 : 1 / m)) * expm1(w / m);
}

/* Daly's wall time: the segments of k steps and the last, shorter one. */
static double daly_wall_s(long steps, double step_s, long k, double save_s, double restore_s,
                          double mtbf_s, double delay_s, int immune)
{
    long full = steps / k, rest = steps % k;
    if (isinf(mtbf_s))
        return steps * step_s + (double)(full + (rest > 0)) * save_s;
    double wall = full * daly_segment(k * step_s + save_s, restore_s, mtbf_s, delay_s, immune);
    if (rest > 0)
        wall += daly_segment(rest * step_s + save_s, restore_s, mtbf_s, delay_s, immune);
    return wall;
}

double tmc_closed_form_daly_wall_delayed_s(long steps, double step_s, long k,
                                           double save_s, double restore_s,
                                           double mtbf_s, double delay_s)
{
    return daly_wall_s(steps, step_s, k, save_s, restore_s, mtbf_s, delay_s, 0);
}

double tmc_closed_form_daly_wall_s(long steps, double step_s, long k, double save_s,
                                   double restore_s, double mtbf_s)
{
    return tmc_closed_form_daly_wall_delayed_s(steps, step_s, k, save_s, restore_s, mtbf_s,
                                               0);
}

double tmc_closed_form_daly_interval(double save_s, double mtbf_s)
{
    if (save_s >= 2 * mtbf_s)
        return mtbf_s;
    double x = save_s / (2 * mtbf_s);
    return sqrt(2 * save_s * mtbf_s) * (1 + sqrt(x) / 3 + x / 9) - save_s;
}

/* Without a spare pool, the mean wait for the failed card's own repair, s:
 * the repair pipeline's E[R] / (1 - f), E[R] = A + (1 - a) M (docs/model.md
 * 3.17); without an automatic stage or silent failures, M itself. */
static double own_repair_wait_s(const tmc_failures *f)
{
    double m = f->repair_mean_hours * 3600;
    if (!(f->repair_auto_share > 0) && !(f->repair_fail_share > 0))
        return m;
    if (f->repair_auto_share > 0)
        m = f->repair_auto_hours * 3600 + (1 - f->repair_auto_share) * m;
    return m / (1 - f->repair_fail_share);
}

/* Without a spare pool, what is left of the failed card's own repair after
 * a detection delay d (the repair starts at the failure), s: E[(R - d)+],
 * M e^(-d/M) for an exponential repair (memoryless), (M - d)+ for a fixed
 * one; for a repair pipeline E[R] / (1 - f), an upper bound. */
static double repair_left_s(const tmc_failures *f, double d)
{
    double m = f->repair_mean_hours * 3600;
    if (d <= 0 || f->repair_auto_share > 0 || f->repair_fail_share > 0)
        return own_repair_wait_s(f);
    const tmc_law_type *law = tmc_repair_laws[f->repair_distribution];
    if (!law->excess_mean) /* lognormal, Weibull: an upper bound */
        return own_repair_wait_s(f);
    tmc_law repair = tmc_law_prepare(law, m, f->repair_shape, f->repair_cv);
    return law->excess_mean(&repair, d);
}

/* Erlang's loss formula B(w, a): the share of Poisson arrivals (a per mean
 * service time) that find all w servers busy, by the recursion B(0) = 1,
 * B(j) = a B(j - 1) / (j + a B(j - 1)); it holds for any service law. */
static double erlang_b(long w, double a)
{
    double b = 1;
    for (long j = 1; j <= w; j++)
        b = a * b / ((double)j + a * b);
    return b;
}

/* The failure rate of each part, 1/s (first order): node failures and bad
 * nodes' faults (*bad of them), the job's own, and the rest of
 * rate_failures the cards'. */
static void parts_of(const tmc_experiment *x, const tmc_closed_form *cf,
                     double r[TMC_FAILURE_PARTS], double *bad)
{
    const tmc_failures *f = &x->failures;
    double g = (double)f->cards_per_node;
    double nodes = (double)tmc_job_nodes(x->job.cards, f->cards_per_node);
    double node = f->per_node_mtbf_days > 0 && g > 0 ? nodes / (f->per_node_mtbf_days *
                                                                TMC_DAY_S) : 0;
    double job = f->per_job_mtbf_days > 0 ? 1 / (f->per_job_mtbf_days * TMC_DAY_S) : 0;
    *bad = f->bad_node_share > 0 && g > 0
        ? tmc_closed_form_bad_nodes_held(f, x->job.cards) / (f->bad_node_mtbf_days * TMC_DAY_S)
        : 0;
    double burst = f->burst_per_node_mtbf_days > 0 && g > 0
        ? nodes / (f->burst_per_node_mtbf_days * TMC_DAY_S) : 0;
    r[TMC_PART_CARD] = fmax(cf->rate_failures - node - job - *bad - burst, 0);
    r[TMC_PART_NODE] = node + *bad;
    r[TMC_PART_JOB] = job;
    r[TMC_PART_BURST] = burst;
}

double tmc_closed_form_part_rates(const tmc_experiment *x, const tmc_closed_form *cf,
                                  double r[TMC_FAILURE_PARTS])
{
    double bad;
    parts_of(x, cf, r, &bad);
    return r[0] + r[1] + r[2] + r[3];
}

double tmc_closed_form_cause_share(const tmc_experiment *x, const tmc_closed_form *cf, int i)
{
    const tmc_failure_cause *c = &x->failures.causes[i];
    double r[TMC_FAILURE_PARTS], total = tmc_closed_form_part_rates(x, cf, r), sum = 0;
    if (!(total > 0))
        return c->part_share[TMC_PART_CARD];
    for (int p = 0; p < TMC_FAILURE_PARTS; p++)
        sum += r[p] * c->part_share[p];
    return sum / total;
}

/* The failures that take hardware (not a job's, not a bad node's reboot
 * in place, which a fleet's bad node does not do, and of a cause that
 * takes a spare in its part): their rate, 1/s, and the
 * cards each takes on average (1, a node's g, a burst's k g); *bursts the
 * part of the rate that is bursts. */
static double hardware_parts(const tmc_experiment *x, const tmc_closed_form *cf, double *cards,
                             double *bursts)
{
    const tmc_failures *f = &x->failures;
    double g = (double)f->cards_per_node, r[TMC_FAILURE_PARTS], bad;
    parts_of(x, cf, r, &bad);
    if (f->bad_node_placement == TMC_BAD_IN_FLEET) /* its faults send it to repair */
        bad = 0;
    double card = r[TMC_PART_CARD], node = r[TMC_PART_NODE] - bad, burst = r[TMC_PART_BURST];
    double s_card = 1, s_node = 1, s_burst = 1, per = 1;
    if (f->n_causes) { /* the causes' scopes and spares weigh the card part's cards */
        s_card = s_node = s_burst = per = 0;
        for (int i = 0; i < f->n_causes; i++)
            if (f->causes[i].takes_spare) {
                const double *ps = f->causes[i].part_share;
                s_card += ps[TMC_PART_CARD];
                s_node += ps[TMC_PART_NODE];
                s_burst += ps[TMC_PART_BURST];
                per += ps[TMC_PART_CARD] * (f->causes[i].scope == TMC_CAUSE_NODE ? g : 1);
            }
        per = s_card > 0 ? per / s_card : 1;
    }
    double rate = card * s_card + node * s_node + burst * s_burst;
    *bursts = burst * s_burst;
    double k = burst > 0 ? tmc_closed_form_burst_mean_nodes(f, x->job.cards) : 0;
    *cards = rate > 0 ? (card * s_card * per + node * s_node * g + burst * s_burst * k * g) / rate
                      : 1;
    return rate;
}

static double hardware_rate(const tmc_experiment *x, const tmc_closed_form *cf, double *cards)
{
    double bursts;
    return hardware_parts(x, cf, cards, &bursts);
}

/* The share of failures taking hardware that find no warm standby left, 1
 * without standbys (docs/model.md 3.20). The W standbys left serve w =
 * floor(W / cards per failure) failures. A pool that depletes: E[(K -
 * w)+] / k for the failures K, Poisson of mean k = their rate over the
 * failure-free time (first order); E[min(K, w)] = sum_{j < w} P(K > j). A
 * pool refilled d after each take: a loss system of w servers (a standby
 * being replaced is busy) serving failures at rate l for d each, Erlang's
 * B(w, l d) in the long run. */
static double cold_share(const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_failures *f = &x->failures;
    double refill = f->standby_refill_hours * 3600, cards;
    long left = f->standbys - (x->observed.enabled && !(refill > 0)
                                   ? x->observed.standbys_used : 0);
    double rate = hardware_rate(x, cf, &cards), k = rate * cf->failure_free_s, warm = 0;
    double units = (double)left / cards; /* NaN when a rate overflowed: no warm share */
    if (!(units >= 1) || !(k > 0))
        return 1;
    long w = units < 1e15 ? (long)floor(units) : (long)1e15; /* the sum below stops early */
    if (refill > 0)
        return erlang_b(w, rate * refill);
    for (long j = 0; j < w; j++) {
        double q = tmc_laws_poisson_over((unsigned)j, k);
        if (q < 1e-17) /* the rest add nothing */
            break;
        warm += q;
    }
    return (k - warm) / k;
}

/* The mean ready time for a cold share `cold` of the failures. */
static double ready_s(const tmc_failures *f, double cold)
{
    return (1 - cold) * f->standby_swap_s + cold * f->spare_provision_s;
}

double tmc_closed_form_ready_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return ready_s(&x->failures, cold_share(x, cf));
}

double tmc_closed_form_erlang_b(long w, double a)
{
    return w < 0 || !(a >= 0) ? NAN : erlang_b(w, a);
}

/* A repair's law for the blocked wait of any law (docs/model.md 3.21):
 * the manual stage M (mean m) after an automatic stage A that ends a share
 * a of repairs; S the survival of R, ex(x) = E[(R - x)+]. */
typedef struct {
    const tmc_failures *f;
    double m, big_a, a, mean; /* M's mean, A, a (0: no stage, A ignored), E[R] */
    double mu, sigma, scale;  /* lognormal's log-mean and log-sd; Weibull's scale */
    long units;
} repair_shape;

/* E[(M - x)+]: lognormal m Phi((mu + s^2 - ln x) / s) - x Phi((mu - ln x) / s);
 * Weibull scale Gamma(1 + 1/k) Q(1/k, (x / scale)^k) (Q the regularized
 * upper incomplete gamma). */
static double manual_excess(const repair_shape *r, double x)
{
    if (x <= 0)
        return r->m - x;
    double k = r->f->repair_shape, z;
    switch (r->f->repair_distribution) {
    case TMC_REPAIR_FIXED: return x < r->m ? r->m - x : 0;
    case TMC_REPAIR_LOGNORMAL:
        z = (r->mu - log(x)) / r->sigma;
        return r->m * gsl_cdf_ugaussian_P(z + r->sigma) - x * gsl_cdf_ugaussian_P(z);
    case TMC_REPAIR_WEIBULL:
        z = pow(x / r->scale, k); /* GSL's Q(a, inf) is NaN, not 0 */
        return isfinite(z) ? r->scale * gsl_sf_gamma(1 + 1 / k) * gsl_sf_gamma_inc_Q(1 / k, z)
                           : 0;
    default: return r->m * exp(-x / r->m);
    }
}

/* E[(R - x)+] of the whole repair: A - x + (1 - a) M before A, then
 * (1 - a) E[(M - (x - A))+]. */
static double repair_excess(const repair_shape *r, double x)
{
    return x < r->big_a ? r->big_a - x + (1 - r->a) * r->m
                        : (1 - r->a) * manual_excess(r, x - r->big_a);
}

static repair_shape repair_shape_of(const tmc_failures *f, long units)
{
    repair_shape r = {.f = f, .m = f->repair_mean_hours * TMC_HOUR_S, .units = units};
    r.a = f->repair_auto_share > 0 ? f->repair_auto_share : 0;
    r.big_a = r.a > 0 ? f->repair_auto_hours * TMC_HOUR_S : 0;
    r.mean = r.big_a + (1 - r.a) * r.m;
    r.sigma = sqrt(log1p(f->repair_cv * f->repair_cv));
    r.mu = log(r.m) - r.sigma * r.sigma / 2;
    r.scale = f->repair_shape > 0 ? r.m / gsl_sf_gamma(1 + 1 / f->repair_shape) : r.m;
    return r;
}

/* The blocked wait of f's repairs after a delay d: the integral of
 * S(x) S_e(x)^U from d, S_e(x) = E[(R - x)+] / E[R], is, since S_e' =
 * -S / E[R], E[R] S_e(d)^(U + 1) / (U + 1) for any law (R / (U + 1) at
 * d = 0); a silent failure share f divides it by 1 - f (first order: the
 * unit taken may come back bad, docs/model.md 3.17). Seconds. */
double tmc_closed_form_blocked_wait_s(const tmc_failures *f, long units, double d)
{
    repair_shape r = repair_shape_of(f, units);
    if (!(r.mean > 0)) /* instant repairs: no wait (and S_e would be 0 / 0) */
        return 0;
    double n = (double)units + 1, se = d > 0 ? repair_excess(&r, d) / r.mean : 1;
    return r.mean / n * pow(fmax(se, 0), n) / (1 - f->repair_fail_share);
}

/* The modified offered load of a pool full at 0 (Jagerman 1975; Massey and
 * Whitt 1994): at t the units in repair of M/G/infinity from empty are
 * Poisson of mean a(t) = rate E[min(R, t)] = rate (E[R] - E[(R - t)+]), and
 * the chance of a wait B(U, a(t)); averaged over [0, t], s. */
typedef struct {
    repair_shape r;
    double rate, scale; /* failures per second; 1 / (1 - f) */
} offered_load;

static double mol_integrand(double t, void *p)
{
    const offered_load *o = p;
    double a = o->rate * (o->r.mean - repair_excess(&o->r, t)) * o->scale;
    return erlang_b(o->r.units, a);
}

static double blocking_mol(const tmc_failures *f, long u, double rate, double t)
{
    offered_load o = {repair_shape_of(f, u), rate, 1 / (1 - f->repair_fail_share)};
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
    if (!w || !(t > 0))
        return (gsl_integration_workspace_free(w), 0);
    gsl_function fn = {mol_integrand, &o};
    double v = NAN, err;
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    gsl_integration_qag(&fn, 0, t, 1e-9, 1e-7, 200, GSL_INTEG_GAUSS31, w, &v, &err);
    gsl_set_error_handler(old);
    gsl_integration_workspace_free(w);
    return v / t;
}

/* The chance that a failure finds all u units in repair, averaged over a
 * run of t seconds up that starts with `start` units in repair (0: the pool
 * full; a forecast's cards in repair, exact for exponential repairs,
 * docs/model.md 3.21).
 * While the job is up the count in repair is a birth-death chain on 0..u:
 * births at `rate` below u, deaths k / R (exponential repairs; a failure at
 * u leaves it at u). By uniformization at nu = rate + u / R, the mean of
 * p_u over [0, t] is sum_n P(N > n) (e_0 Q^n)_u / (nu t), N ~ Poisson(nu t),
 * Q = I + G / nu (Ross, Stochastic Processes, 1996, chapter 5); it tends to
 * B(u, a) as t grows, which it falls back to past 2e6 terms x states. */
static double blocking_over(long u, double rate, double repair_s, double t, long start)
{
    double mu = 1 / repair_s, nu = rate + (double)u * mu, m = nu * t;
    if (!(m > 0) || u == 0)
        return u == 0 ? 1 : 0;
    if (m * (double)(u + 1) > 2e6)
        return erlang_b(u, rate * repair_s);
    double *p = calloc((size_t)(2 * (u + 1)), sizeof *p), sum = 0;
    if (!p)
        return erlang_b(u, rate * repair_s);
    double *q = p + u + 1;
    p[start < u ? start : u] = 1;
    /* P(N > n), N ~ Poisson(m), one n at a time: the pmf by its ratio (in
     * logs: e^-m underflows past m = 745), the tail by subtraction, whose
     * rounding (about n 1e-16 absolute) is far below what is printed; a
     * CDF call per n cost 0.2 s a run on long runs */
    double log_pmf = -m, log_m = log(m), tail = 1, stop = m + 40 * sqrt(m) + 40;
    for (unsigned n = 0;; n++) {
        if (n > 0)
            log_pmf += log_m - log((double)n);
        tail -= log_pmf > -745 ? exp(log_pmf) : 0; /* no slow underflow path */
        sum += fmax(tail, 0) * p[u];
        if ((tail < 1e-15 && n > m) || n > stop)
            break;
        for (long k = 0; k <= u; k++) {
            double up = k < u ? rate : 0, down = (double)k * mu;
            q[k] = p[k] * (1 - (up + down) / nu) + (k > 0 ? p[k - 1] * rate / nu : 0) +
                   (k < u ? p[k + 1] * (double)(k + 1) * mu / nu : 0);
        }
        for (long k = 0; k <= u; k++)
            p[k] = q[k];
    }
    free(p);
    return sum / m;
}

/* The smallest pool w with B(w, a) < p (at most 1e7 units). */
static long pool_for(double a, double p)
{
    double b = 1;
    long j = 0;
    for (; b >= p && j < 10000000; j++)
        b = a * b / ((double)(j + 1) + a * b);
    return j;
}

/* With bursts (docs/model.md 3.24) the pool counts nodes: a burst takes k
 * of them, any other failure that takes hardware one (a card's failure
 * counted as a node: an upper bound), and the blocking is the batch
 * chain's (closed_form_bursts.c), in the long run (a short run from a full
 * pool waits less). burst: the bursts' rate of out->rate, 1/s. */
static void burst_pool(const tmc_experiment *x, long pool, double burst,
                       tmc_spare_pool_form *out)
{
    const tmc_failures *f = &x->failures;
    long g = f->cards_per_node, cards = x->job.cards;
    double single = out->rate - burst, r = out->repair_s;
    double k = tmc_closed_form_burst_mean_nodes(f, cards);
    out->unit_cards = (double)g;
    out->units = pool < 0 ? -1 : pool / g;
    out->burst_share = burst / out->rate;
    out->burst_nodes = k;
    out->in_repair_mean = (single + burst * k) * r;
    out->wait_p_steady = out->wait_p =
        out->units < 0 ? 0 : tmc_closed_form_burst_blocking(f, cards, out->units, single, burst, r);
    out->wait_blocked_s = tmc_closed_form_blocked_wait_s(f, out->units < 0 ? 0 : out->units, 0);
    out->units_1pct = tmc_closed_form_burst_pool_for(f, cards, single, burst, r, 0.01);
    out->units_10pct = tmc_closed_form_burst_pool_for(f, cards, single, burst, r, 0.10);
}

void tmc_closed_form_spare_pool(const tmc_experiment *x, const tmc_closed_form *cf,
                                tmc_spare_pool_form *out)
{
    const tmc_failures *f = &x->failures;
    int refilled = f->standby_refill_hours > 0;
    long left = f->standbys - (x->observed.enabled && !refilled
                                   ? x->observed.standbys_used : 0);
    double cards = 1, bursts = 0, hw = f->enabled ? hardware_parts(x, cf, &cards, &bursts) : 0;
    out->enabled = hw > 0;
    out->burst_share = out->burst_nodes = 0;
    out->unit_cards = cards;
    /* with a refill a standby's card is repaired outside: only the cold share
     * reaches the pool; without, every card joins it through repair */
    out->rate = refilled ? hw * cold_share(x, cf) : hw;
    if (x->checkpoint.restore_immune && isfinite(cf->mtbf_s)) /* no failure in restores, */
        out->rate /= 1 + x->checkpoint.restore_s / cf->mtbf_s; /* where repairs go on */
    out->repair_s = own_repair_wait_s(f);
    out->in_repair_mean = out->rate * out->repair_s;
    /* a fleet's reserve, once fetched, is the pool's (its fetches left out) */
    long pool = f->spares < 0 ? -1 : f->spares + (refilled ? 0 : left) +
                                     f->reserve_nodes * f->cards_per_node;
    out->units = pool < 0 ? -1 : (long)floor((double)pool / cards + 1e-3);
    int none = out->units < 0 || !out->enabled;
    out->wait_p_steady = none ? 0 : erlang_b(out->units, out->in_repair_mean);
    int markov = f->repair_distribution == TMC_REPAIR_EXPONENTIAL &&
                 !(f->repair_auto_share > 0) && !(f->repair_fail_share > 0);
    double run = cf->uninterrupted_s; /* the time the pool's start is averaged over */
    /* a forecast's cards in repair at its start (its view keeps the count) */
    long start = (long)floor((double)x->observed.cards_in_repair / cards + 1e-3);
    out->wait_p = none ? 0
                : markov ? blocking_over(out->units, out->rate, out->repair_s, run, start)
                         : blocking_mol(f, out->units, out->rate, run);
    out->wait_blocked_s = tmc_closed_form_blocked_wait_s(f, out->units < 0 ? 0 : out->units,
                                                         0);
    out->units_1pct = pool_for(out->in_repair_mean, 0.01);
    out->units_10pct = pool_for(out->in_repair_mean, 0.10);
    if (bursts > 0)
        burst_pool(x, pool, out->rate * bursts / hw, out);
}

/* How far cause i's repair has run when the job takes a spare, s: its
 * detection delay when repairs start at the failure; none when they start
 * at the detection (failures.repair_from): the pool's arrivals are then
 * the failures shifted by their delays, still Poisson, so only this head
 * start changes. */
static double repair_head_start_s(const tmc_failures *f, int i)
{
    return f->repair_from == TMC_REPAIR_FROM_DETECTION ? 0 : f->causes[i].detection_s;
}

/* A finite pool's waits (docs/model.md 3.21), per failure averaged over all
 * failures, s: the share that takes hardware and finds no standby, times
 * B(U, a), times the blocked wait after each cause's detection delay. */
static double pool_delay_s(const tmc_experiment *x, const tmc_closed_form *cf, double cold)
{
    const tmc_failures *f = &x->failures;
    tmc_spare_pool_form p;
    tmc_closed_form_spare_pool(x, cf, &p);
    if (!p.enabled || p.units < 0 || !(cf->rate_failures > 0))
        return 0;
    double cards, to_pool = hardware_rate(x, cf, &cards) / cf->rate_failures;
    double wait = p.wait_blocked_s, share = 0, sum = 0;
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].takes_spare) {
            double c = tmc_closed_form_cause_share(x, cf, i);
            share += c;
            sum += c * tmc_closed_form_blocked_wait_s(f, p.units, repair_head_start_s(f, i));
        }
    if (share > 0)
        wait = sum / share;
    return to_pool * cold * p.wait_p * wait;
}

/* What the waits for repaired cards add to the delay D of a failure,
 * averaged over all failures, s: with P = 0 (no pool) the rest of the
 * card's own repair after its cause's detection, E[(R - d)+] (E[R] when
 * repairs start at the detection; docs/model.md
 * 3.16; a hang waits for no repair, issue 19), for the share of failures
 * that take hardware (not a job's) and find no standby; with a finite
 * pool its waits (3.21); 0 with unlimited spares. */
static double repair_delay_s(const tmc_experiment *x, const tmc_closed_form *cf, double cold)
{
    const tmc_failures *f = &x->failures;
    if (f->spares > 0)
        return pool_delay_s(x, cf, cold);
    if (f->spares < 0 || !(cf->rate_failures > 0))
        return 0;
    double cards, to_pool = hardware_rate(x, cf, &cards) / cf->rate_failures;
    double wait = own_repair_wait_s(f), share = 0, sum = 0;
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].takes_spare) { /* a hang waits for no repair (issue 19) */
            double c = tmc_closed_form_cause_share(x, cf, i);
            share += c;
            sum += c * repair_left_s(f, repair_head_start_s(f, i));
        }
    if (share > 0)
        wait = sum / share;
    return to_pool * cold * wait;
}

/* Per card failure: the share-weighted restore time, and the delay before it
 * (detection; the rest of the card's own repair when there is no spare
 * pool and its cause takes a spare, an upper bound with standbys, whose
 * cards join the pool after repair; for the failures that take hardware,
 * the standby's swap or the cold spare's provisioning), s. */
static void failure_costs(const tmc_experiment *x, const tmc_closed_form *cf, double *restore,
                          double *delay)
{
    const tmc_failures *f = &x->failures;
    double cold = cold_share(x, cf), cards;
    double hardware = cf->rate_failures > 0 ? hardware_rate(x, cf, &cards) / cf->rate_failures
                                            : 0;
    double ready = hardware * ready_s(f, cold); /* the share computed once */
    *restore = x->checkpoint.restore_s;
    *delay = 0;
    if (f->n_causes)
        *restore = 0;
    for (int i = 0; i < f->n_causes; i++) {
        const tmc_failure_cause *c = &f->causes[i];
        double share = tmc_closed_form_cause_share(x, cf, i);
        *restore += share * (c->restore_s >= 0 ? c->restore_s : x->checkpoint.restore_s);
        *delay += share * c->detection_s;
    }
    *delay += ready + repair_delay_s(x, cf, cold);
}

/* A spike noticed n snapshots late also redoes n - 1 whole intervals, s. */
static double spike_redo_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return x->loss_spikes.enabled
        ? (x->loss_spikes.rollback_snapshots - 1) * cf->interval_s : 0;
}

/* The mean restore time and delay over all interruptions, weighted by rate. */
static void interruption_costs(const tmc_experiment *x, tmc_closed_form *cf)
{
    double rate = 1 / cf->mtbf_s, r_f, d_f, r = x->checkpoint.restore_s;
    failure_costs(x, cf, &r_f, &d_f);
    cf->restore_mean_s = rate > 0 ? (cf->rate_failures * r_f +
                                     (cf->rate_outages + cf->rate_spikes) * r) / rate
                                  : r;
    double spike_redo = spike_redo_s(x, cf);
    cf->delay_mean_s = rate > 0 ? (cf->rate_failures * d_f +
                                   cf->rate_outages * x->outages.downtime_s +
                                   cf->rate_spikes * spike_redo) / rate
                                : 0;
}

/* One kind of interruption after which the job's clocks age while it is
 * down: its rate, and the time down, shift + X with X of law (a failure
 * cause's detection delay) or fixed. */
typedef struct {
    double rate, shift;
    const tmc_law_type *law;
    tmc_law x;
} down_kind;

static down_kind fixed_kind(double rate, double shift)
{
    return (down_kind){rate, shift, tmc_law_fixed, tmc_law_prepare(tmc_law_fixed, 0, 0, 0)};
}

/* The kinds and what ages the clocks after each: at the failure, its time
 * down (each failure cause's detection delay drawn from its law, the rest
 * of the failures' delay at its mean; an outage's mean downtime; a time
 * limit's requeue; a spike's none); at the restore, none of that; in both,
 * the restore when it is immune (the clocks start at its start). Returns
 * how many (at most TMC_MAX_CAUSES + 3). */
static int down_kinds(const tmc_experiment *x, const tmc_closed_form *cf, int at_failure,
                      down_kind *k)
{
    const tmc_failures *f = &x->failures;
    double r_f, d_f, detected = 0, r = x->checkpoint.restore_s;
    double immune = x->checkpoint.restore_immune, down = at_failure;
    int n = 0;
    failure_costs(x, cf, &r_f, &d_f);
    for (int i = 0; i < f->n_causes; i++)
        detected += tmc_closed_form_cause_share(x, cf, i) * f->causes[i].detection_s;
    for (int i = 0; i < f->n_causes; i++, n++) {
        const tmc_failure_cause *c = &f->causes[i];
        k[n] = fixed_kind(cf->rate_failures * tmc_closed_form_cause_share(x, cf, i),
                          down * (d_f - detected) +
                              immune * (c->restore_s >= 0 ? c->restore_s : r));
        if (at_failure && c->detection_s > 0) {
            k[n].law = tmc_detection_laws[c->detection_law];
            k[n].x = tmc_law_prepare(k[n].law, c->detection_s, 0, c->detection_cv);
        }
    }
    if (!f->n_causes)
        k[n++] = fixed_kind(cf->rate_failures, down * d_f + immune * r_f);
    double outage_down = x->outages.enabled ? x->outages.downtime_s : 0;
    k[n++] = fixed_kind(cf->rate_outages, down * outage_down + immune * r);
    k[n++] = fixed_kind(cf->rate_spikes, immune * r);
    k[n++] = fixed_kind(cf->rate_limits, down * x->time_limit.requeue_s + immune * r);
    return n;
}

/* The job's clocks' mean forward time after a restart, over the kinds of
 * interruption by rate, s (NAN if the table cannot be built). */
static double aged_gap_s(const tmc_experiment *x, const tmc_closed_form *cf,
                         const tmc_law_type *law, const tmc_law *life)
{
    down_kind k[TMC_MAX_CAUSES + 3];
    int n = down_kinds(x, cf, x->failures.renewal_at == TMC_RENEWAL_AT_FAILURE, k);
    double reach = 0, sum = 0, rate = 0;
    for (int i = 0; i < n; i++)
        reach = fmax(reach, tmc_renewal_reach(k[i].law, &k[i].x, k[i].shift));
    tmc_renewal_table t;
    if (tmc_renewal_build(&t, law, life, (double)x->job.cards, reach))
        return NAN;
    for (int i = 0; i < n; i++) {
        sum += k[i].rate * tmc_renewal_forward_mean(&t, k[i].law, &k[i].x, k[i].shift);
        rate += k[i].rate;
    }
    tmc_renewal_free(&t);
    return rate > 0 ? sum / rate : t.mu;
}

/* Job renewal: the clocks start again at each interruption's instant
 * (failures.renewal_at "failure") or at its restore's start, and age while
 * the job is down after that (the time down; an immune restore in either
 * timing), so the first failure after the job is exposed again comes, on
 * average, the forward time at that age (renewal.h), not the mean gap mu:
 * failures that fall due meanwhile are dropped and renew the clocks
 * again. Averaged over each cause's detection law and over the kinds of
 * interruption by rate (time limits included), whose weights the new rate
 * changes: a fixed point, a few steps. */
static void age_job_clocks(const tmc_experiment *x, tmc_closed_form *cf)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled || f->renewal != TMC_RENEWAL_JOB || !(f->per_card_mtbf_days > 0) ||
        tmc_laws_lifetime_memoryless(f->distribution) ||
        (f->renewal_at == TMC_RENEWAL_AT_RESTORE && !x->checkpoint.restore_immune))
        return;
    const tmc_law_type *law = tmc_lifetime_laws[f->distribution];
    tmc_law life = tmc_law_prepare(law, f->per_card_mtbf_days * TMC_DAY_S, f->shape,
                                   f->lifetime_cv);
    double scoped = tmc_closed_form_scoped_rate(f, x->job.cards), last = -1;
    for (int i = 0; i < TMC_AGE_STEPS && cf->rate_failures != last; i++) {
        double gap = aged_gap_s(x, cf, law, &life);
        if (!(gap > 0))
            return; /* no table: the gap unaged */
        last = cf->rate_failures;
        cf->rate_failures = 1 / gap + scoped;
        cf->mtbf_s = 1 / (cf->rate_failures + cf->rate_outages + cf->rate_spikes);
        interruption_costs(x, cf);
    }
}

/* E[min(w, X)] for X exponential of rate `rate` (w when rate is 0), and
 * P(X < w). */
static double truncated_mean(double w, double rate)
{
    return rate > 0 ? -expm1(-rate * w) / rate : w;
}

/* Daly's segment with loss spikes that strike compute only (issue 14): the
 * segment's work tau is struck at rate a + b (a: failures and outages, b:
 * spikes), its save c at rate a alone. An attempt that meets no arrival
 * succeeds, with probability q = e^-((a + b) tau + a c); any arrival sends
 * the job back to the segment's start after its recovery. An a-recovery is
 * a delay d_a (nothing strikes) and a restore r_a that a strikes again:
 * R_a = e^(a r_a) d_a + (e^(a r_a) - 1) / a. A spike's is its delay d_b
 * (the snapshots it rolls back beyond one) and a restore r_b which, if a
 * strikes, becomes an a-recovery: R_b = d_b + E[min(r_b, X_a)] +
 * P(X_a < r_b) R_a. Then, by renewal,
 * E = [E[min(tau, X)] + P(X < tau) R + P(X >= tau) (E[min(c, X_a)] +
 *      P(X_a < c) R_a)] / q,  R = (a R_a + b R_b) / (a + b),
 * which for b = 0 is Daly's (M + D) e^(r/M) (e^((tau + c)/M) - 1). Immune
 * restores: a strikes no restore, R_a = d_a + r_a, R_b = d_b + r_b. */
typedef struct {
    double a, b;     /* arrivals per second: failures + outages; spikes */
    double r_a, d_a; /* restore and delay after a failure or outage, s */
    double r_b, d_b; /* after a spike, s */
    int immune;      /* checkpoint.restore_immune */
} segment_rates;

static double spike_segment(double tau, double c, const segment_rates *s)
{
    double a = s->a, ab = s->a + s->b, a_restore = s->immune ? 0 : a;
    double r_a = recovery_s(s->r_a, s->d_a, a_restore);
    double hit_b = a_restore > 0 ? -expm1(-a_restore * s->r_b) : 0;
    double r_b = s->d_b + truncated_mean(s->r_b, a_restore) + hit_b * r_a;
    double recover = ab > 0 ? (a * r_a + s->b * r_b) / ab : 0;
    double hit_tau = -expm1(-ab * tau), hit_c = -expm1(-a * c);
    double attempt = truncated_mean(tau, ab) + hit_tau * recover +
                     (1 - hit_tau) * (truncated_mean(c, a) + hit_c * r_a);
    return attempt / exp(-ab * tau - a * c);
}

/* Daly's wall time, spikes striking compute only: the segments of k steps
 * and the last, shorter one. */
static double spike_wall_s(long steps, double step_s, long k, double save_s,
                           const segment_rates *s)
{
    long full = steps / k, rest = steps % k;
    double wall = full * spike_segment(k * step_s, save_s, s);
    if (rest > 0)
        wall += spike_segment(rest * step_s, save_s, s);
    return wall;
}

/* The rates and recoveries of spike_segment for x. */
static void segment_rates_of(const tmc_experiment *x, const tmc_closed_form *cf,
                             segment_rates *s)
{
    double r_f, d_f, r = x->checkpoint.restore_s;
    failure_costs(x, cf, &r_f, &d_f);
    s->a = cf->rate_failures + cf->rate_outages;
    s->b = cf->rate_spikes;
    s->r_a = s->a > 0 ? (cf->rate_failures * r_f + cf->rate_outages * r) / s->a : r;
    s->d_a = s->a > 0 ? (cf->rate_failures * d_f + cf->rate_outages * x->outages.downtime_s) /
                            s->a : 0;
    s->r_b = r;
    s->d_b = spike_redo_s(x, cf);
    s->immune = x->checkpoint.restore_immune;
}

/* Saves and restores of random duration, or saves that time out
 * (docs/model.md 3.12). */
static int durations_random(const tmc_checkpoint *cp)
{
    return cp->save_cv > 0 || cp->restore_cv > 0 || cp->save_timeout_s > 0;
}

/* The expected time to get through restores of mean r_s (each attempt
 * drawn afresh, struck at rate 1/m, a delay d after each strike):
 * (m + d) (1 - phi) / phi, phi = E[e^(-R/m)]; E[R] = r_s without strikes
 * or when restores are immune. */
static double restores_s(const tmc_checkpoint *cp, double r_s, double m, double d)
{
    if (isinf(m) || cp->restore_immune)
        return r_s;
    tmc_duration_law l = tmc_durations_law(cp->duration_law, cp->restore_cv);
    double phi = tmc_durations_laplace(&l, r_s, 1 / m);
    return (m + d) * (1 - phi) / phi;
}

/* Daly's segment with random save and restore times and a save timeout T
 * (docs/model.md 3.12): an attempt computes w, then saves for C; a strike
 * (rate 1/m, F its time) sends it back after a delay d and restores K0; a
 * save that reaches T without a strike sends it back after restores K0'
 * (the default restore, no delay). By renewal,
 * E = [E[min(w + min(C, T), F)] + P(F < w + min(C, T)) (d + K0)
 *      + P(F > w + T, C > T) K0'] / P(F > w + C, C <= T),
 * which is (m + d) e^(r/m) (e^((w + c)/m) - 1) for fixed C = c < T and R = r. */
static double random_segment(double w, const tmc_checkpoint *cp, double r_s, double m,
                             double d)
{
    double rate = isinf(m) ? 0 : 1 / m;
    tmc_duration_law sl = tmc_durations_law(cp->duration_law, cp->save_cv);
    tmc_save_terms st;
    if (tmc_durations_save_terms(&sl, cp->save_s, cp->save_timeout_s, rate, &st))
        return NAN;
    double up = exp(-rate * w), success = up * st.finish;
    if (!(success > 0))
        return INFINITY;
    double busy = truncated_mean(w, rate) + up * st.busy_s;
    double attempt = busy + (1 - up * st.reach) * (d + restores_s(cp, r_s, m, d)) +
                     up * st.time_out * restores_s(cp, cp->restore_s, m, d);
    return attempt / success;
}

/* Daly's wall time with random durations: the segments of k steps and the
 * last, shorter one. */
static double random_wall_s(long steps, double step_s, long k, const tmc_checkpoint *cp,
                            double r_s, double m, double d)
{
    long full = steps / k, rest = steps % k;
    double wall = full * random_segment(k * step_s, cp, r_s, m, d);
    if (rest > 0)
        wall += random_segment(rest * step_s, cp, r_s, m, d);
    return wall;
}

/* Daly's form sees one rate per process and a run that starts at a
 * commit: rates drawn per replica (mtbf_events > 0: Daly's T is convex
 * in the rate, so T at the mean rate is below the mean T) and a forecast's
 * steps done past its last commit (redone after a failure in the first
 * segment, left out by forecast()) make it approximate (docs/model.md
 * 3.11, 3.15). */
static int daly_one_rate_from_commit(const tmc_experiment *x)
{
    if (x->failures.enabled && x->failures.mtbf_events > 0)
        return 0;
    if (x->outages.enabled && x->outages.mtbf_events > 0)
        return 0;
    return !x->observed.enabled || x->observed.steps_done <= x->observed.committed_step;
}

/* Daly's assumptions hold exactly: constant steps, every interruption
 * Poisson, one restore time (or immune restores: each interruption then
 * costs its own D + r once, and the form is linear in their means); spikes
 * (compute only) are in spike_segment. */
static int daly_exact(const tmc_experiment *x)
{
    if (!daly_one_rate_from_commit(x))
        return 0;
    const tmc_failures *f = &x->failures;
    int one_restore = 1;
    for (int i = 0; i < f->n_causes && !x->checkpoint.restore_immune; i++)
        one_restore &= f->causes[i].restore_s < 0 ||
                       f->causes[i].restore_s == x->checkpoint.restore_s;
    int one_snapshot = !x->loss_spikes.enabled || x->loss_spikes.rollback_snapshots == 1;
    /* random durations: exact in random_segment, not beside spikes */
    int durations = !durations_random(&x->checkpoint) || !x->loss_spikes.enabled;
    return x->jitter.cv == 0 && !x->slowdown.enabled && one_snapshot && !x->pauses.enabled && !tmc_outages_noticed(x) &&
           !x->time_limit.enabled && durations &&
           (x->checkpoint.mode == TMC_SAVE_SYNC || x->checkpoint.write_s == 0) &&
           (!f->enabled || (tmc_laws_lifetime_memoryless(f->distribution) && one_restore &&
                            f->spares <= 0 && f->standbys == 0));
}

/* Arrivals per second of an outage or spike process: 1 / mean interval, or
 * a replayed trace's own average rate (n times over the last one). */
static double process_rate(int enabled, double mean_days, int n_trace, const double *days)
{
    if (!enabled)
        return 0;
    return n_trace > 0 ? n_trace / (days[n_trace - 1] * TMC_DAY_S) : 1 / (mean_days * TMC_DAY_S);
}

static double card_part_mtbf_s(const tmc_failures *f, long cards);

double tmc_closed_form_scoped_rate(const tmc_failures *f, long cards)
{
    double rate = 0;
    if (f->per_node_mtbf_days > 0 && f->cards_per_node > 0)
        rate += (double)tmc_job_nodes(cards, f->cards_per_node) /
                (f->per_node_mtbf_days * TMC_DAY_S);
    if (f->per_job_mtbf_days > 0)
        rate += 1 / (f->per_job_mtbf_days * TMC_DAY_S);
    if (f->burst_per_node_mtbf_days > 0 && f->cards_per_node > 0) /* docs/model.md 3.24 */
        rate += (double)tmc_job_nodes(cards, f->cards_per_node) /
                (f->burst_per_node_mtbf_days * TMC_DAY_S);
    if (f->bad_node_share > 0 && f->cards_per_node > 0) /* their mean rate at the start: */
        rate += tmc_closed_form_bad_nodes_held(f, cards) / /* an upper bound if retired */
                (f->bad_node_mtbf_days * TMC_DAY_S);
    return rate;
}

double tmc_closed_form_bad_nodes_held(const tmc_failures *f, long cards)
{
    if (!(f->bad_node_share > 0) || f->cards_per_node <= 0)
        return 0;
    long nodes = tmc_job_nodes(cards, f->cards_per_node);
    if (!(f->bad_node_placement == TMC_BAD_IN_FLEET && f->bad_node_known))
        return (double)nodes * f->bad_node_share;
    long pool = f->spares > 0 ? f->spares / f->cards_per_node : 0;
    double held = 0;
    for (long k = pool + 1; k <= nodes + pool; k++)
        held += (double)(k - pool) *
                gsl_ran_binomial_pdf((unsigned)k, f->bad_node_share, (unsigned)(nodes + pool));
    return held;
}

double tmc_closed_form_job_mtbf_s(const tmc_failures *f, long cards)
{
    double scoped = tmc_closed_form_scoped_rate(f, cards);
    if (scoped == 0)
        return card_part_mtbf_s(f, cards);
    double card = f->per_card_mtbf_days > 0 ? card_part_mtbf_s(f, cards) : INFINITY;
    return 1 / (1 / card + scoped); /* superposed: the rates add */
}

/* The per-card part alone: the job's mean time between its failures, s. */
static double card_part_mtbf_s(const tmc_failures *f, long cards)
{
    double mean = f->per_card_mtbf_days * TMC_DAY_S, n = (double)cards;
    if (tmc_failures_replayed(f)) /* its cards' mean, as if exponential */
        return mean / n;
    const tmc_law_type *law = tmc_lifetime_laws[f->distribution];
    tmc_law life = tmc_law_prepare(law, mean, f->shape, f->lifetime_cv);
    return law->min_mean(&life, n); /* the mean of the first of n lifetimes */
}

static void interruption_rates(const tmc_experiment *x, tmc_closed_form *cf)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        cf->rate_failures = 0;
    else if (tmc_failures_replayed(f)) /* the trace's own average rate */
        cf->rate_failures = f->n_trace / (f->trace_days[f->n_trace - 1] * TMC_DAY_S);
    else if (f->renewal == TMC_RENEWAL_JOB) /* a renewal process of the job's (+ node, job) */
        cf->rate_failures = 1 / tmc_closed_form_job_mtbf_s(f, x->job.cards);
    else /* N renewal processes of the cards', plus the node and job rates (3.13) */
        cf->rate_failures = (f->per_card_mtbf_days > 0
                                 ? x->job.cards / (f->per_card_mtbf_days * TMC_DAY_S) : 0) +
                            tmc_closed_form_scoped_rate(f, x->job.cards);
    cf->rate_outages = process_rate(x->outages.enabled, x->outages.mean_interval_days,
                                    x->outages.n_trace, x->outages.trace_days);
    cf->rate_spikes = process_rate(x->loss_spikes.enabled, x->loss_spikes.mean_interval_days,
                                   x->loss_spikes.n_trace, x->loss_spikes.trace_days);
    /* planned, not random: in no M (tmc_closed_form_limits_added_s) */
    cf->rate_limits = x->time_limit.enabled ? 1 / tmc_limit_allocation_s(x) : 0;
    double rate = cf->rate_failures + cf->rate_outages + cf->rate_spikes;
    cf->mtbf_s = rate > 0 ? 1 / rate : INFINITY;
}

/* What an emergency save costs before the arrival: the save c and the
 * step under way (half a step on average), s. */
static double emergency_cost_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return x->checkpoint.save_s + cf->step_s / 2;
}

/* Daly's wall time w of the interruptions that lose work, plus the outages
 * with notice (docs/model.md 3.8). While the job computes (w - F of w, F
 * the failures' delays, l_f d_f / (1 + l_f d_f) of it, as in Daly's delayed
 * segment, plus the emergency saves and the steps they cut, e = c + t_s / 2
 * each) they strike at rate l: N = l (w - F) / (1 - l e) of them. Each then
 * costs e, its downtime D and a restore r that outages strike again
 * (recovery_s; immune restores: D + r). First order in the failures' share
 * of the restores. */
static double add_noticed_outages(const tmc_experiment *x, const tmc_closed_form *cf,
                                  double w)
{
    double down = x->outages.downtime_s, l = cf->rate_outages, r = x->checkpoint.restore_s;
    double e = emergency_cost_s(x, cf), r_f, d_f;
    failure_costs(x, cf, &r_f, &d_f);
    if (l * e >= 1) /* an emergency save does not fit between outages */
        return INFINITY;
    /* immune restores: the failures' restores are down time too */
    double down_f = d_f + (x->checkpoint.restore_immune ? r_f : 0);
    double up = w / (1 + cf->rate_failures * down_f);
    double n = l * up / (1 - l * e);
    return w + n * (e + recovery_s(r, down, x->checkpoint.restore_immune ? 0 : l));
}

/* The Poisson interruptions that lose work: all but outages with notice
 * (their own term; time limits are in no M: tmc_closed_form_limits_added_s). */
static void rework_rates(const tmc_experiment *x, const tmc_closed_form *cf,
                         tmc_closed_form *rw)
{
    *rw = *cf;
    if (!tmc_outages_noticed(x))
        return;
    rw->rate_outages = 0;
    double rate = rw->rate_failures + rw->rate_outages + rw->rate_spikes;
    rw->mtbf_s = rate > 0 ? 1 / rate : INFINITY;
    interruption_costs(x, rw);
}

/* What time limits add to a run whose own wall time is w (docs/model.md
 * 3.9). Allocation 1 runs L before its limit, each next one L from its
 * restore r; a limit costs the loss e (with a save before it: the save c
 * and half a step; else the work since the last commit: (L - r) mod
 * (tau + c) (L mod (tau + c) in allocation 1) when nothing else struck the
 * allocation, probability p = e^(-lambda L), else half a segment tau + c,
 * an interruption having moved the segments at random), the requeue wait
 * Q and the next restore (seg: tau + c, or with two levels the period back
 * to a persistent snapshot, which a limit needs). Allocation 1 holds L - e1 of w, the next ones L - r - e each,
 * the last needs r more, so there are N = 0 limits if w <= L, else
 * N = 1 + max(0, ceil((w - (L - e1) - (L - r)) / (L - r - e))), and they add
 * N (Q + r) + e1 + (N - 1) e. Seconds; INFINITY if an allocation cannot
 * hold any work. */
double tmc_closed_form_limits_added_s(const tmc_experiment *x, const tmc_closed_form *cf,
                                      double w, double seg)
{
    const tmc_time_limit *tl = &x->time_limit;
    if (!tl->enabled)
        return 0;
    double big_l = tmc_limit_allocation_s(x), r = x->checkpoint.restore_s, e1, e;
    double p = exp(-(cf->rate_failures + cf->rate_outages + cf->rate_spikes) * big_l);
    if (tmc_limit_saves(x))
        e1 = e = emergency_cost_s(x, cf);
    else
        e1 = p * fmod(big_l, seg) + (1 - p) * seg / 2,
        e = p * fmod(big_l - r, seg) + (1 - p) * seg / 2;
    if (tl->restarts == TMC_RESTART_NEW && p < 1) {
        /* every restart starts an allocation: one ends at its limit when no
         * restart comes within L (probability p), so limits come at the
         * rate lambda p / (1 - p) of the run's time, and cut the segments
         * at their fixed place (the allocation started with them) */
        double lambda = -log(p) / big_l, e_new = tmc_limit_saves(x) ? e : fmod(big_l - r, seg);
        return w * lambda * p / (1 - p) * (tl->requeue_s + r + e_new);
    }
    if (w <= big_l)
        return 0;
    if (big_l - r - e <= 0)
        return INFINITY;
    double more = ceil((w - (big_l - e1) - (big_l - r)) / (big_l - r - e));
    double n = 1 + fmax(0, more);
    return n * (tl->requeue_s + r) + e1 + (n - 1) * e;
}

/* Periodic pauses add, per step on average, p / k on all cards, or on one
 * card E[max(A, B + p)] - E[max] over k (dist.h). max_s = E[max_i X_i]. */
static double pause_per_step(const tmc_experiment *x, double max_s, double mu)
{
    const tmc_pauses *p = &x->pauses;
    if (!p->enabled)
        return 0;
    if (p->cards == TMC_PAUSE_ALL || x->job.cards == 1)
        return p->duration_s / p->every_steps;
    double paused = mu * tmc_dist_paused_max_mean(&x->jitter, x->job.cards,
                                                  p->duration_s / mu);
    return (paused - max_s) / p->every_steps;
}

/* A segment's save without other interruptions: c, or with random saves
 * and a timeout the renewal of random_segment at rate 0. */
static void save_costs(const tmc_experiment *x, tmc_closed_form *cf)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    tmc_duration_law l = tmc_durations_law(cp->duration_law, cp->save_cv);
    tmc_save_terms st;
    cf->save_cost_s = cp->save_s;
    cf->save_timeout_p = cf->save_timeouts_mean = 0;
    if (cp->save_timeout_s <= 0 || tmc_durations_save_terms(&l, cp->save_s, cp->save_timeout_s,
                                                             0, &st))
        return;
    cf->save_timeout_p = st.time_out;
    cf->save_timeouts_mean = cf->segments * st.time_out / st.finish;
    cf->save_cost_s = random_segment(cf->interval_s, cp, cp->restore_s, INFINITY, 0) -
                      cf->interval_s;
}

/* The pool's figures (docs/model.md 3.21): P(wait), the wait per failure
 * and per run, the failures of a run counted as Daly's interruptions are,
 * wall / (M + D) of them, a share rate_failures M failures. */
static void spare_waits(const tmc_experiment *x, tmc_closed_form *cf)
{
    tmc_spare_pool_form p;
    cf->spare_wait_p = cf->spare_wait_per_failure_s = cf->spare_wait_s = 0;
    cf->spare_finite = x->failures.enabled && x->failures.spares >= 0;
    if (!cf->spare_finite || !(cf->rate_failures > 0))
        return;
    tmc_closed_form_spare_pool(x, cf, &p);
    /* P = 0: every failure that takes hardware and finds no standby waits */
    cf->spare_wait_p = x->failures.spares == 0 ? (p.enabled ? 1 : 0) : p.wait_p;
    cf->spare_wait_per_failure_s = repair_delay_s(x, cf, cold_share(x, cf));
    double failures = cf->rate_failures * cf->mtbf_s * cf->daly_wall_s /
                      (cf->mtbf_s + tmc_closed_form_down_s(x, cf));
    cf->spare_wait_s = failures * cf->spare_wait_per_failure_s;
}

double tmc_closed_form_down_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    return cf->delay_mean_s + (x->checkpoint.restore_immune ? cf->restore_mean_s : 0);
}

double tmc_closed_form_overhead(const tmc_closed_form *cf, double wall_s)
{
    if (!(cf->remaining_free_s > 0)) /* a forecast with only the final save left */
        return NAN;
    return (wall_s - cf->before_s) / cf->remaining_free_s - 1;
}

/* A forecast (docs/model.md 3.15): the closed forms of the steps not yet
 * done, at the same K and the posterior mean failure and outage rates,
 * after the elapsed time. */
static void forecast(const tmc_experiment *x, tmc_closed_form *cf)
{
    const tmc_observed *p = &x->observed;
    long left = x->job.steps - p->steps_done;
    tmc_forecast_rate post, post_o;
    tmc_forecast_failure_rate(x, &post);
    tmc_forecast_outage_rate(x, &post_o);
    tmc_experiment y = *x; /* a view: plain fields changed, never released */
    tmc_closed_form r;
    y.observed.enabled = 0;
    y.job.steps = left > 0 ? left : 1; /* only the final save left: one step */
    y.checkpoint.interval_steps = cf->interval_steps;
    tmc_forecast_scale_failure_rates(&y.failures, post.mean);
    if (!(y.failures.standby_refill_hours > 0)) /* those used are gone */
        y.failures.standbys -= p->standbys_used;
    y.outages.mean_interval_days /= post_o.mean;
    tmc_closed_form_compute(&y, &r);
    cf->before_s = p->elapsed_days * TMC_DAY_S;
    cf->remaining_free_s = left * cf->step_s;
    cf->left_mtbf_s = r.mtbf_s;
    cf->left_young_interval_s = r.young_interval_s;
    cf->left_daly_interval_s = r.daly_interval_s;
    cf->spare_wait_p = r.spare_wait_p; /* the steps left, from the cards in repair now */
    cf->spare_wait_per_failure_s = r.spare_wait_per_failure_s;
    cf->spare_wait_s = r.spare_wait_s;
    cf->overhead_young = r.overhead_young;
    cf->overhead_daly = r.overhead_daly;
    cf->daly_wall_s = cf->before_s + r.daly_wall_s;
    double reserve = x->deadline.reserve_days;
    cf->completion_days =
        reserve + (cf->before_s + r.failure_free_s * (1 + cf->overhead_young)) / TMC_DAY_S;
    cf->completion_days_daly = reserve + cf->daly_wall_s / TMC_DAY_S;
}

int tmc_closed_form_paced(const tmc_experiment *x)
{
    return x->observed.enabled && x->observed.step_s > 0 && x->job.pace == TMC_PACE_OBSERVED;
}

double tmc_closed_form_step_floor_s(const tmc_experiment *x)
{
    const tmc_pauses *p = &x->pauses;
    return x->job.exposed_comm_s + x->job.input_wait_s +
           (p->enabled ? p->duration_s / p->every_steps : 0);
}

/* t_s at efficiency e, pauses included, s. */
static double step_at(const tmc_experiment *x, double e)
{
    tmc_job job = x->job;
    job.efficiency = e;
    double t = tmc_closed_form_step_s(&job, &x->jitter);
    double fixed = job.exposed_comm_s + job.input_wait_s;
    tmc_experiment y = *x; /* a view: the job changed, never released */
    y.job = job;
    return t + pause_per_step(&y, t - fixed, tmc_closed_form_compute_s(&job));
}

/* x on the cards its step was observed on: progress.cards, 0: job.cards.
 * A view (experiment.h), never released. */
static tmc_experiment on_observed_cards(const tmc_experiment *x)
{
    tmc_experiment y = *x;
    if (x->observed.enabled && x->observed.cards > 0)
        y.job.cards = x->observed.cards;
    return y;
}

int tmc_closed_form_pace_fixes_key(const char *key)
{
    static const char *const fixed[] = {"job.efficiency", "job.peak_flops",
                                        "job.flop_per_step"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(key, fixed[i]))
            return 1;
    return 0;
}

double tmc_closed_form_step_at_efficiency(const tmc_experiment *x, double e)
{
    if (!(e > 0))
        return INFINITY;
    tmc_experiment seen = on_observed_cards(x);
    return step_at(&seen, e);
}

double tmc_closed_form_efficiency_for_step(const tmc_experiment *x_given, double step_s)
{
    tmc_experiment seen = on_observed_cards(x_given);
    const tmc_experiment *x = &seen;
    double e = x->job.efficiency, floor = tmc_closed_form_step_floor_s(x);
    /* no efficiency gives it: at F (to rounding: F's terms summed) or below */
    if (!(step_s - floor > 1e-12 * floor) || !isfinite(step_s))
        return NAN;
    int one_card = x->pauses.enabled && x->pauses.cards != TMC_PAUSE_ALL && x->job.cards > 1;
    if (!one_card)
        return e * (step_at(x, e) - floor) / (step_s - floor);
    double lo = e, hi = e; /* t_s falls as e grows */
    while (step_at(x, lo) < step_s)
        lo /= 2;
    while (step_at(x, hi) > step_s)
        hi *= 2;
    while (hi - lo > 1e-13 * hi) {
        double mid = 0.5 * (lo + hi);
        *(step_at(x, mid) > step_s ? &lo : &hi) = mid;
    }
    return 0.5 * (lo + hi);
}

static void compute(const tmc_experiment *x, tmc_closed_form *cf);

void tmc_closed_form_compute(const tmc_experiment *x, tmc_closed_form *cf)
{
    double plan_step_s = step_at(x, x->job.efficiency);
    if (!tmc_closed_form_paced(x)) {
        compute(x, cf);
    } else {
        tmc_experiment y = *x; /* a view: the efficiency changed, never released */
        y.job.efficiency = tmc_closed_form_efficiency_for_step(x, x->observed.step_s);
        compute(&y, cf);
    }
    cf->plan_step_s = plan_step_s;
    tmc_experiment seen = on_observed_cards(x);
    cf->observed_plan_step_s = step_at(&seen, x->job.efficiency);
}

/* Asynchronous saves: the time between two snapshots written to storage,
 * s: a segment and its copy; with two levels (persistent_every m) m
 * segments, m - 1 local copies and a persistent one. */
static double write_period_s(const tmc_checkpoint *cp, double interval_s)
{
    double m = (double)(cp->persistent_every > 1 ? cp->persistent_every : 1);
    double local = cp->local_save_s >= 0 ? cp->local_save_s : cp->save_s;
    return m * interval_s + (m - 1) * local + cp->save_s;
}

static void compute(const tmc_experiment *x, tmc_closed_form *cf)
{
    cf->pace_efficiency = x->job.efficiency;
    const tmc_checkpoint *cp = &x->checkpoint;
    long s = x->job.steps;
    cf->compute_s = tmc_closed_form_compute_s(&x->job);
    cf->step_s = tmc_closed_form_step_s(&x->job, &x->jitter);
    double sigma = x->jitter.cv * cf->compute_s, fixed = x->job.exposed_comm_s +
                                                         x->job.input_wait_s;
    cf->emax_coeff = sigma > 0 ? (cf->step_s - fixed - cf->compute_s) / sigma : 0;
    cf->pause_per_step_s = pause_per_step(x, cf->step_s - fixed, cf->compute_s);
    cf->step_s += cf->pause_per_step_s;
    cf->interval_steps = tmc_closed_form_interval_steps(cp, cf->step_s, s);
    cf->interval_s = cf->interval_steps * cf->step_s;
    cf->segments = (s + cf->interval_steps - 1) / cf->interval_steps;
    cf->failure_free_s = s * cf->step_s;
    save_costs(x, cf);
    cf->uninterrupted_s = cf->failure_free_s + cf->segments * cf->save_cost_s;
    interruption_rates(x, cf);
    interruption_costs(x, cf);
    age_job_clocks(x, cf);
    cf->write_backlog = 0;
    cf->write_period_s = write_period_s(cp, cf->interval_s);
    if (cp->mode == TMC_SAVE_ASYNC) {
        /* the run ends when the last write commits; an interruption also
         * loses, on average about, the write of the newest snapshot */
        cf->uninterrupted_s += cp->write_s;
        cf->delay_mean_s += cp->write_s;
        cf->write_backlog = cp->write_s > cf->write_period_s;
    }

    /* Young and Daly over the interruptions that lose work (rw), with the
     * mean restore and the mean delay before it; outages with notice cost
     * a fixed amount each instead */
    tmc_closed_form rw;
    rework_rates(x, cf, &rw);
    /* the optimum's M: a time limit that loses work counts, once per L */
    double rework = 1 / rw.mtbf_s + (tmc_limit_saves(x) ? 0 : cf->rate_limits);
    cf->rework_mtbf_s = rework > 0 ? 1 / rework : INFINITY;
    cf->overhead_young = tmc_closed_form_young_overhead(cf->interval_s, cf->save_cost_s,
                                                        rw.restore_mean_s +
                                                        rw.delay_mean_s, rw.mtbf_s);
    cf->young_interval_s = tmc_closed_form_young_interval(cp->save_s, cf->rework_mtbf_s);
    cf->daly_interval_s = tmc_closed_form_daly_interval(cp->save_s, cf->rework_mtbf_s);
    /* a slowdown: its mean extra a step is work the interruptions can lose;
     * every interruption and time limit starts its hours again */
    tmc_slowdown_costs_of(x, cf->step_s, fixed, cf->save_cost_s, cf->interval_steps,
                          1 / cf->mtbf_s + (x->time_limit.enabled ? cf->rate_limits : 0),
                          &cf->slowdown);
    double step = cf->step_s + cf->slowdown.step_extra_s;
    if (rw.rate_spikes > 0) { /* they strike compute only: spike_segment */
        segment_rates sr;
        segment_rates_of(x, &rw, &sr);
        cf->daly_wall_s = spike_wall_s(s, step, cf->interval_steps, cf->save_cost_s, &sr);
    } else if (durations_random(cp)) {
        cf->daly_wall_s = random_wall_s(s, step, cf->interval_steps, cp, rw.restore_mean_s,
                                        rw.mtbf_s, rw.delay_mean_s);
    } else {
        cf->daly_wall_s = daly_wall_s(s, step, cf->interval_steps, cp->save_s,
                                      rw.restore_mean_s, rw.mtbf_s, rw.delay_mean_s,
                                      cp->restore_immune);
    }
    cf->daly_wall_s += cf->slowdown.refreshes * cf->slowdown.refresh_cost_s;
    cf->overhead_young += cf->slowdown.added_s / cf->failure_free_s;
    if (tmc_outages_noticed(x)) {
        cf->overhead_young += cf->rate_outages * (emergency_cost_s(x, cf) +
                                                  x->checkpoint.restore_s +
                                                  x->outages.downtime_s);
        cf->daly_wall_s = add_noticed_outages(x, cf, cf->daly_wall_s);
    }
    if (x->time_limit.enabled) {
        double young_wall = cf->failure_free_s * (1 + cf->overhead_young);
        double seg = cf->interval_s + cp->save_s;
        cf->overhead_young +=
            tmc_closed_form_limits_added_s(x, cf, young_wall, seg) / cf->failure_free_s;
        cf->daly_wall_s += tmc_closed_form_limits_added_s(x, cf, cf->daly_wall_s, seg);
    }
    if (cp->mode == TMC_SAVE_ASYNC) {
        /* the final write: the run ends when it commits (issue 14) */
        cf->overhead_young += cp->write_s / cf->failure_free_s;
        cf->daly_wall_s += cp->write_s;
    }
    cf->overhead_daly = cf->daly_wall_s / cf->failure_free_s - 1;
    spare_waits(x, cf);
    double reserve = x->deadline.reserve_days;
    cf->completion_days = reserve + cf->failure_free_s * (1 + cf->overhead_young) / TMC_DAY_S;
    cf->completion_days_daly = reserve + cf->daly_wall_s / TMC_DAY_S;
    cf->budget_step_s = (x->deadline.days - reserve) * TMC_DAY_S / s;
    cf->daly_exact = daly_exact(x);
    cf->before_s = 0;
    cf->remaining_free_s = cf->failure_free_s;
    cf->left_mtbf_s = cf->left_young_interval_s = cf->left_daly_interval_s = 0;
    if (x->observed.enabled)
        forecast(x, cf);
}
