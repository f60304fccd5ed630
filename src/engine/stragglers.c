/* stragglers.c - the compute time of steps (stragglers.h). */
#include "stragglers.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "rng_pcg.h"

/* Pauses on one card need the maxima of N - 1 cards and of one card,
 * independent parts only (the common part is added once per step). */
static int init_pauses(tmc_straggler_model *m, const tmc_experiment *x,
                       const tmc_closed_form *cf)
{
    const tmc_pauses *p = &x->pauses;
    m->pause_every = p->enabled ? p->every_steps : 0;
    m->pause_s = p->enabled ? p->duration_s : 0;
    m->pause_one = p->enabled && p->cards == TMC_PAUSE_ONE && x->job.cards > 1;
    if (!m->pause_one)
        return 0;
    tmc_jitter indep = x->jitter;
    if (indep.kind == TMC_JITTER_NORMAL)
        indep.cv *= sqrt(1 - indep.rho), indep.rho = 0;
    return tmc_dist_max_init(&m->rest, &indep, cf->compute_s, x->job.cards - 1) ||
           tmc_dist_max_init(&m->single, &indep, cf->compute_s, 1);
}

int tmc_stragglers_init(tmc_straggler_model *m, const tmc_experiment *x,
                        const tmc_closed_form *cf, int aggregated)
{
    memset(m, 0, sizeof *m);
    m->aggregated = aggregated;
    m->fixed_s = x->job.exposed_comm_s + x->job.input_wait_s;
    m->cards = x->job.cards;
    const tmc_slow_cards *sc = &x->slow_cards;
    m->slow_fraction = sc->enabled ? sc->fraction : 0;
    m->slow_factor = sc->enabled ? sc->factor : 1;
    m->detect_after = sc->enabled ? sc->detect_after_steps : 0;
    double mean, sd;
    if (init_pauses(m, x, cf) ||
        tmc_dist_max_moments(&x->jitter, x->job.cards, &mean, &sd, &m->max_skew))
        return -1;
    m->max_mean_s = mean * cf->compute_s;
    m->max_sd_s = sd * cf->compute_s;
    return tmc_dist_max_init(&m->max, &x->jitter, cf->compute_s, x->job.cards);
}

void tmc_stragglers_free(tmc_straggler_model *m)
{
    tmc_dist_max_free(&m->max);
    tmc_dist_max_free(&m->rest);
    tmc_dist_max_free(&m->single);
}

void tmc_stragglers_start(const tmc_straggler_model *m, tmc_stragglers *s, gsl_rng *r)
{
    s->steps_run = 0;
    s->steps_simulated = 0;
    s->slow = m->slow_fraction > 0
        ? (long)gsl_ran_binomial(r, m->slow_fraction, (unsigned)m->cards) : 0;
}

long tmc_stragglers_paused(const tmc_straggler_model *m, long first, long n)
{
    long k = m->pause_every;
    return k ? (first + n) / k - first / k : 0;
}

int tmc_stragglers_evict_due(const tmc_straggler_model *m, const tmc_stragglers *s)
{
    return s->slow > 0 && m->detect_after > 0 && s->steps_run >= m->detect_after;
}

/* The common part of a step (correlated jitter), s. */
static double common(const tmc_straggler_model *m, gsl_rng *r)
{
    return m->max.common_s > 0 ? m->max.common_s * gsl_ran_gaussian_ziggurat(r, 1.0) : 0;
}

/* The slowest-card time of a step with a pause: all cards stop, or one
 * does, max(A_{N-1}, B + p), plus the step's common part. */
static double paused_step(const tmc_straggler_model *m, gsl_rng *r)
{
    if (!m->pause_one)
        return tmc_dist_sample_max(&m->max, r) + m->pause_s;
    double a = tmc_dist_sample_max(&m->rest, r);
    double b = tmc_dist_sample_max(&m->single, r) + m->pause_s;
    return fmax(fmax(a, b) + common(m, r), 0);
}

/* The slowest card of a step with s->slow slow cards: the normal group's
 * maximum and factor x the slow group's (each from the table at v^(n/m)),
 * a pausing card when the step has one (a normal card while any is left,
 * else a slow one), and the step's common part. */
static double slow_step(const tmc_straggler_model *m, const tmc_stragglers *s, int paused,
                        gsl_rng *r)
{
    long slow = s->slow, normal = m->cards - slow;
    int one = paused && m->pause_one, one_normal = one && normal > 0;
    int one_slow = one && !one_normal; /* then slow = N >= 2 */
    normal -= one_normal;
    slow -= one_slow;
    double c = common(m, r);
    double x = normal > 0 ? tmc_dist_sample_max_of(&m->max, r, normal) + c : 0;
    if (one_normal)
        x = fmax(x, tmc_dist_sample_max(&m->single, r) + m->pause_s + c);
    x = fmax(x, m->slow_factor * (tmc_dist_sample_max_of(&m->max, r, slow) + c));
    if (one_slow)
        x = fmax(x, m->slow_factor * (tmc_dist_sample_max(&m->single, r) + c) + m->pause_s);
    if (paused && !m->pause_one)
        x += m->pause_s;
    return fmax(x, 0);
}

/* One step of any kind. */
static double any_step(const tmc_straggler_model *m, const tmc_stragglers *s, int paused,
                       gsl_rng *r)
{
    if (s->slow > 0)
        return slow_step(m, s, paused, r);
    return paused ? paused_step(m, r) : tmc_dist_sample_max(&m->max, r);
}

/* The running wall time and compute sum of a stretch of steps. */
typedef struct {
    double t, sum;
} clock_sum;

/* n plain steps (no pause, no slow card, independent jitter only): the hot
 * loop, a PCG draw and a table read each (tmc_dist_max_at). Returns the
 * steps done: n, or fewer when the last one ended past the limit. */
static long plain_steps(const tmc_straggler_model *m, gsl_rng *r, long n, double limit,
                        clock_sum *c)
{
    tmc_pcg32_state *rs = r->state;
    const tmc_max_sampler *s = &m->max;
    double t = c->t, sum = c->sum, fixed = m->fixed_s;
    long i = 0;
    while (i < n) {
        double x = tmc_dist_max_at(s, tmc_rng_pcg_step(rs));
        x = x > 0 ? x : 0;
        t += x + fixed;
        sum += x;
        i++;
        if (t > limit)
            break;
    }
    c->t = t, c->sum = sum;
    return i;
}

/* Steps first + 1 .. first + n, one by one (stragglers.h). The pause and
 * stop-check steps are found by counting, so the plain stretches between
 * them run the hot loop when no slow card is in the job. */
static double draw_steps(const tmc_straggler_model *m, tmc_stragglers *s, long first,
                         long n, double t, double limit, gsl_rng *r,
                         const volatile sig_atomic_t *stop, int *cut)
{
    long k = m->pause_every, next_pause = k ? first + k - first % k : -1;
    long last = first + n;
    int fast = s->slow == 0 && m->max.low && m->max.common_s == 0;
    clock_sum c = {t, 0};
    for (long step = first + 1; step <= last; step++) {
        if (fast && step != next_pause) { /* plain steps up to a pause or a check */
            long end = ((step - 1) | (TMC_STEPS_PER_STOP_CHECK - 1)) + 1; /* next check */
            if (end > last)
                end = last;
            if (k && next_pause <= end)
                end = next_pause - 1;
            long done = plain_steps(m, r, end - step + 1, limit, &c);
            s->steps_simulated += done;
            step += done - 1;
            if (c.t > limit)
                return *cut = TMC_CUT_LIMIT, c.sum;
        } else {
            int paused = step == next_pause;
            if (paused)
                next_pause += k;
            double x = any_step(m, s, paused, r);
            s->steps_simulated++;
            c.t += x + m->fixed_s;
            c.sum += x;
            if (c.t > limit)
                return *cut = TMC_CUT_LIMIT, c.sum;
            s->steps_run += s->slow > 0;
        }
        if ((step & (TMC_STEPS_PER_STOP_CHECK - 1)) == 0 && *stop)
            return *cut = TMC_CUT_STOP, c.sum;
    }
    return c.sum;
}

/* Total slowest-card compute time of n steps drawn at once (aggregated
 * mode; the approximation in stragglers.h). */
static double segment_sum(const tmc_straggler_model *m, long n, gsl_rng *r)
{
    double z = gsl_ran_gaussian_ziggurat(r, 1.0), rn = sqrt((double)n);
    double g = m->max_skew / rn;
    return n * m->max_mean_s + rn * m->max_sd_s * (z + g * (z * z - 1) / 6);
}

double tmc_stragglers_segment(const tmc_straggler_model *m, tmc_stragglers *s, long first,
                              long n, double t, double limit, gsl_rng *r,
                              const volatile sig_atomic_t *stop, int *cut)
{
    long paused = tmc_stragglers_paused(m, first, n);
    *cut = TMC_CUT_NONE;
    if (s->slow > 0) /* step by step: detection counts the steps completed */
        return draw_steps(m, s, first, n, t, limit, r, stop, cut);
    if (m->max.sigma != 0 && (!m->aggregated || n - paused < TMC_AGGREGATE_MIN_STEPS))
        return draw_steps(m, s, first, n, t, limit, r, stop, cut);
    s->steps_simulated += n; /* the segment at once */
    if (m->max.sigma == 0)
        return n * m->max.mu + paused * m->pause_s;
    if (!m->pause_one)
        return segment_sum(m, n, r) + paused * m->pause_s;
    double sum = segment_sum(m, n - paused, r);
    for (long i = 0; i < paused; i++)
        sum += paused_step(m, r);
    return sum;
}
