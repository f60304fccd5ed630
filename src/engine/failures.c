/* failures.c - lifetimes, causes and spares (failures.h).
 * Invariants: heap[0] is the earliest next-failure time of the N cards (a
 * min-heap over heap[0..N-1]); repairs[0..n_repairs-1] are the completion
 * times of repairs in progress, unordered (the pool is small). */
#include "failures.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "closed_form.h"

void tmc_failures_model(tmc_failure_model *m, const tmc_experiment *x)
{
    const tmc_failures *f = &x->failures;
    m->cards = x->job.cards;
    m->tilt = 1;
    m->repair_tilt = 1;
    m->kind = f->distribution;
    m->mean_s = f->per_card_mtbf_days * TMC_DAY_S;
    m->shape = f->shape;
    m->weibull_scale_s = m->mean_s / gsl_sf_gamma(1 + 1 / f->shape);
    m->log_sigma = sqrt(log1p(f->lifetime_cv * f->lifetime_cv));
    m->log_mu = log(m->mean_s) - 0.5 * m->log_sigma * m->log_sigma;
    m->spares = f->spares;
    m->repair_mean_s = f->repair_mean_hours * 3600;
    m->repair_kind = f->repair_distribution;
    m->n_causes = f->n_causes;
    m->trace_days = f->trace_days;
    m->n_trace = f->n_trace;
    m->mtbf_events = f->mtbf_events;
    m->job_renewal = f->renewal == TMC_RENEWAL_JOB &&
                     (m->kind == TMC_LIFETIME_WEIBULL || m->kind == TMC_LIFETIME_LOGNORMAL);
    double cum = 0;
    for (int i = 0; i < f->n_causes; i++) {
        cum += f->causes[i].share;
        m->cum_share[i] = cum;
        m->detection_s[i] = f->causes[i].detection_s;
        m->restore_s[i] = f->causes[i].restore_s >= 0 ? f->causes[i].restore_s
                                                      : x->checkpoint.restore_s;
    }
}

int tmc_failures_poisson(const tmc_failure_model *m)
{
    return m->kind == TMC_LIFETIME_EXPONENTIAL; /* Weibull shape 1 takes the heap: a check */
}

static double lifetime(const tmc_failure_model *m, const tmc_failure_state *s, gsl_rng *r)
{
    if (m->kind == TMC_LIFETIME_WEIBULL)
        return gsl_ran_weibull(r, m->weibull_scale_s, m->shape) / s->rate_scale;
    if (m->kind == TMC_LIFETIME_LOGNORMAL)
        return gsl_ran_lognormal(r, m->log_mu, m->log_sigma) / s->rate_scale;
    return gsl_ran_exponential(r, m->mean_s) / s->rate_scale;
}

/* Restore the heap order below position i after heap[i] grew. */
static void sift_down(double *h, long n, long i)
{
    for (;;) {
        long l = 2 * i + 1, small = i;
        if (l < n && h[l] < h[small])
            small = l;
        if (l + 1 < n && h[l + 1] < h[small])
            small = l + 1;
        if (small == i)
            return;
        double tmp = h[i];
        h[i] = h[small];
        h[small] = tmp;
        i = small;
    }
}

/* The first trace failure after time t, s (INFINITY past the last). */
static double trace_after(const tmc_failure_model *m, tmc_failure_state *s, double t)
{
    while (s->trace_next < m->n_trace && m->trace_days[s->trace_next] * TMC_DAY_S <= t)
        s->trace_next++;
    return s->trace_next < m->n_trace ? m->trace_days[s->trace_next] * TMC_DAY_S : INFINITY;
}

double tmc_failures_job_next(const tmc_failure_model *m, const tmc_failure_state *s,
                             gsl_rng *r, double t)
{
    double n = (double)m->cards, u = s->rate_scale;
    if (m->kind == TMC_LIFETIME_WEIBULL)
        return t + gsl_ran_weibull(r, m->weibull_scale_s * pow(n, -1 / m->shape), m->shape) / u;
    /* S(x)^N = U: x = S^-1(U^(1/N)) = P^-1(1 - U^(1/N)), accurate near 0 */
    double p = -expm1(log(gsl_rng_uniform_pos(r)) / n);
    return t + gsl_cdf_lognormal_Pinv(p, m->log_mu, m->log_sigma) / u;
}

double tmc_failures_start(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          gsl_rng *scale)
{
    s->rate_scale = m->mtbf_events > 0
        ? gsl_ran_gamma(scale, m->mtbf_events, 1 / m->mtbf_events) : 1;
    s->trace_next = 0;
    s->heap = NULL;
    s->repairs = NULL;
    s->n_repairs = 0;
    s->spares_left = m->spares;
    s->repair_log_w = s->repairs_drawn = s->repair_sum_s = 0;
    /* the pool's cards plus the one that just failed can all be in repair */
    if (m->spares >= 0 && !(s->repairs = malloc((size_t)(m->spares + 1) * sizeof *s->repairs)))
        return -1;
    if (m->kind == TMC_LIFETIME_TRACE)
        return trace_after(m, s, -1);
    if (tmc_failures_poisson(m))
        return gsl_ran_exponential(r, m->mean_s / (m->cards * m->tilt * s->rate_scale));
    if (m->job_renewal)
        return tmc_failures_job_next(m, s, r, 0);
    if (!(s->heap = malloc((size_t)m->cards * sizeof *s->heap)))
        return -1;
    for (long i = 0; i < m->cards; i++)
        s->heap[i] = lifetime(m, s, r);
    for (long i = m->cards / 2 - 1; i >= 0; i--)
        sift_down(s->heap, m->cards, i);
    return s->heap[0];
}

double tmc_failures_after(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double t)
{
    if (m->kind == TMC_LIFETIME_TRACE)
        return trace_after(m, s, t);
    if (m->job_renewal) /* discarded while down: the restart renews it anyway */
        return tmc_failures_job_next(m, s, r, t);
    if (!s->heap)
        return t + gsl_ran_exponential(r, m->mean_s / (m->cards * m->tilt * s->rate_scale));
    s->heap[0] = t + lifetime(m, s, r);
    sift_down(s->heap, m->cards, 0);
    return s->heap[0];
}

int tmc_failures_cause(const tmc_failure_model *m, gsl_rng *r)
{
    if (m->n_causes <= 1)
        return 0;
    double u = gsl_rng_uniform(r);
    int i = 0;
    while (i < m->n_causes - 1 && u >= m->cum_share[i])
        i++;
    return i;
}

/* Repairs finished by time t return to the pool. */
static void collect_repairs(tmc_failure_state *s, double t)
{
    for (long i = 0; i < s->n_repairs;)
        if (s->repairs[i] <= t) {
            s->repairs[i] = s->repairs[--s->n_repairs];
            s->spares_left++;
        } else {
            i++;
        }
}

/* A repair time: fixed, or exponential drawn with the tilted mean; its
 * likelihood ratio term log f(x; m) - log f(x; rho m) = ln rho - x / m +
 * x / (rho m). */
static double repair_time(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r)
{
    if (m->repair_kind == TMC_REPAIR_FIXED)
        return m->repair_mean_s;
    double rho = m->repair_tilt, x = gsl_ran_exponential(r, m->repair_mean_s * rho);
    if (rho != 1)
        s->repair_log_w += log(rho) - x / m->repair_mean_s + x / (rho * m->repair_mean_s);
    s->repairs_drawn++;
    s->repair_sum_s += x;
    return x;
}

double tmc_failures_take_spare(const tmc_failure_model *m, tmc_failure_state *s,
                               gsl_rng *r, double failed_at, double t)
{
    if (m->spares < 0)
        return 0;
    s->repairs[s->n_repairs++] = failed_at + repair_time(m, s, r);
    collect_repairs(s, t);
    if (s->spares_left > 0) {
        s->spares_left--;
        return 0;
    }
    long first = 0; /* the pool is empty: the earliest repair, this card's included */
    for (long i = 1; i < s->n_repairs; i++)
        if (s->repairs[i] < s->repairs[first])
            first = i;
    double wait = s->repairs[first] - t;
    s->repairs[first] = s->repairs[--s->n_repairs]; /* that card joins the job */
    return wait;
}

void tmc_failures_end(tmc_failure_state *s)
{
    free(s->heap);
    free(s->repairs);
    s->heap = s->repairs = NULL;
}
