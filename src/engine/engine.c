/* engine.c - one replica, event by event (semantics in engine.h).
 *
 * Invariants of run_state: t is the current wall-clock time; next[k] is the
 * absolute time of the next arrival of process k (INFINITY when off), always
 * drawn from stream TMC_STREAM_FAILURES + k, so each process's arrival times
 * do not depend on what the others do. */
#include "engine.h"

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_randist.h>

/* Set by a signal handler, read at segment boundaries: the one global here,
 * because a handler cannot reach anything else. */
static volatile sig_atomic_t stop_requested;

void tmc_engine_request_stop(void)
{
    stop_requested = 1;
}

int tmc_engine_stop_requested(void)
{
    return stop_requested != 0;
}

enum { EV_FAILURE = 0, EV_OUTAGE = 1, EV_SPIKE = 2, EV_COUNT = 3 };

/* What one committed snapshot added to the split, so a loss spike that rolls
 * back several can move it to lost work. */
typedef struct {
    long steps;
    double compute_s, straggler_s, pause_s, fixed_s, save_s;
} committed_part;

typedef struct {
    const tmc_engine *e;
    gsl_rng *const *rng;
    double t;
    double next[EV_COUNT];
    double restore_s;       /* length of the restore under way */
    tmc_snapshots snapshots; /* asynchronous saves not yet committed */
    long slow;              /* slow cards still in the job */
    double arrivals[EV_COUNT]; /* arrivals that struck, for the likelihood ratio */
    double down_s;          /* time down (no failure or outage can strike) */
    double compute_s;       /* time in compute phases (spikes can strike) */
    double downtime_log_w;  /* likelihood ratio terms of the downtimes drawn */
    double downtimes_drawn, downtime_log_sum;
    committed_part *parts;  /* every committed snapshot's split, oldest first,
                               kept when a spike rolls back several */
    long n_parts, cap_parts;
    int trace_next[EV_COUNT]; /* outages and spikes replayed: next trace index */
    long steps_run;         /* steps completed while slow cards were in the job */
    tmc_failure_state failures;
    tmc_replica *out;
} run_state;

/* Pauses on one card need the maxima of N - 1 cards and of one card,
 * independent parts only (the common part is added once per step). */
static int init_pauses(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_pauses *p = &x->pauses;
    e->pause_every = p->enabled ? p->every_steps : 0;
    e->pause_s = p->enabled ? p->duration_s : 0;
    e->pause_one = p->enabled && p->cards == TMC_PAUSE_ONE && x->job.cards > 1;
    memset(&e->rest, 0, sizeof e->rest);
    memset(&e->single, 0, sizeof e->single);
    if (!e->pause_one)
        return 0;
    tmc_jitter indep = x->jitter;
    if (indep.kind == TMC_JITTER_NORMAL)
        indep.cv *= sqrt(1 - indep.rho), indep.rho = 0;
    return tmc_dist_max_init(&e->rest, &indep, cf->compute_s, x->job.cards - 1) ||
           tmc_dist_max_init(&e->single, &indep, cf->compute_s, 1);
}

int tmc_engine_init(tmc_engine *e, const tmc_experiment *x, const tmc_closed_form *cf)
{
    e->steps = x->job.steps;
    e->interval_steps = cf->interval_steps;
    e->fixed_s = x->job.exposed_comm_s + x->job.input_wait_s;
    e->save_s = x->checkpoint.save_s;
    e->async = x->checkpoint.mode == TMC_SAVE_ASYNC;
    e->write_s = x->checkpoint.write_s;
    e->restore_s = x->checkpoint.restore_s;
    e->downtime_s = x->outages.enabled ? x->outages.downtime_s : 0;
    e->downtime_sigma = x->outages.enabled ? sqrt(log1p(pow(x->outages.downtime_cv, 2))) : 0;
    e->downtime_mu = e->downtime_s > 0 ? log(e->downtime_s) - 0.5 * pow(e->downtime_sigma, 2) : 0;
    e->rate[EV_FAILURE] = cf->rate_failures;
    e->rate[EV_OUTAGE] = cf->rate_outages;
    e->rate[EV_SPIKE] = cf->rate_spikes;
    e->trace[EV_FAILURE] = (tmc_trace_ref){0, NULL}; /* replayed in failures.c */
    e->trace[EV_OUTAGE] = x->outages.enabled
        ? (tmc_trace_ref){x->outages.n_trace, x->outages.trace_days} : (tmc_trace_ref){0, NULL};
    e->trace[EV_SPIKE] = x->loss_spikes.enabled
        ? (tmc_trace_ref){x->loss_spikes.n_trace, x->loss_spikes.trace_days}
        : (tmc_trace_ref){0, NULL};
    if (x->failures.enabled)
        tmc_failures_model(&e->failures, x);
    e->aggregated = tmc_engine_mode(x) == TMC_MODE_AGGREGATED;
    e->horizon_s = tmc_engine_horizon_s(x, cf);
    e->cards = x->job.cards;
    for (int k = 0; k < TMC_TILTS; k++)
        e->tilt[k] = 1;
    e->deadline_wall_s = (x->deadline.days - x->deadline.reserve_days) * TMC_DAY_S;
    e->elite_wall_s = e->deadline_wall_s;
    e->spike_rollback = x->loss_spikes.enabled ? x->loss_spikes.rollback_snapshots : 1;
    const tmc_slow_cards *sc = &x->slow_cards;
    e->slow_fraction = sc->enabled ? sc->fraction : 0;
    e->slow_factor = sc->enabled ? sc->factor : 1;
    e->detect_after = sc->enabled ? sc->detect_after_steps : 0;
    e->evict_restore_s = sc->eviction_restore_s >= 0 ? sc->eviction_restore_s
                                                     : x->checkpoint.restore_s;
    if (init_pauses(e, x, cf))
        return -1;
    double mean, sd;
    if (tmc_dist_max_moments(&x->jitter, x->job.cards, &mean, &sd, &e->max_skew))
        return -1;
    e->max_mean_s = mean * cf->compute_s;
    e->max_sd_s = sd * cf->compute_s;
    return tmc_dist_max_init(&e->max, &x->jitter, cf->compute_s, x->job.cards);
}

double tmc_engine_horizon_s(const tmc_experiment *x, const tmc_closed_form *cf)
{
    if (x->monte_carlo.horizon_days > 0)
        return x->monte_carlo.horizon_days * TMC_DAY_S;
    double budget = (x->deadline.days - x->deadline.reserve_days) * TMC_DAY_S;
    return fmax(1000 * cf->uninterrupted_s, 2 * budget);
}

tmc_mode tmc_engine_mode(const tmc_experiment *x)
{
    tmc_mode m = x->monte_carlo.mode;
    if (m != TMC_MODE_AUTO)
        return m;
    double work = (double)x->monte_carlo.replicas * (double)x->job.steps;
    return work <= TMC_EXACT_BUDGET ? TMC_MODE_EXACT : TMC_MODE_AGGREGATED;
}

void tmc_engine_free(tmc_engine *e)
{
    tmc_dist_max_free(&e->max);
    tmc_dist_max_free(&e->rest);
    tmc_dist_max_free(&e->single);
}

/* The first time of a replayed trace after `from` (INFINITY past its end). */
static double trace_after(const tmc_trace_ref *tr, int *next, double from)
{
    while (*next < tr->n && tr->days[*next] * TMC_DAY_S <= from)
        (*next)++;
    return *next < tr->n ? tr->days[*next] * TMC_DAY_S : INFINITY;
}

/* The arrival of process k at time `from` is consumed: draw the next. */
static void draw_next(run_state *st, int k, double from)
{
    double rate = st->e->rate[k] * st->e->tilt[k];
    gsl_rng *r = st->rng[TMC_STREAM_FAILURES + k];
    if (k != EV_FAILURE && st->e->trace[k].n > 0)
        st->next[k] = trace_after(&st->e->trace[k], &st->trace_next[k], from);
    else if (rate <= 0)
        st->next[k] = INFINITY;
    else if (k == EV_FAILURE)
        st->next[k] = tmc_failures_after(&st->e->failures, &st->failures, r, from);
    else
        st->next[k] = from + gsl_ran_exponential(r, 1 / rate);
}

/* Arrivals of process k up to time t do not count (the job is down, or a
 * spike outside compute). A Poisson process forgets: drawing its next
 * arrival afresh from t is the same as discarding them one by one, and keeps
 * the arrivals that count, and the time they can strike in (the exposure),
 * apart for the likelihood ratio. Renewal processes (per-card lifetimes)
 * remember, so their arrivals are discarded one by one; a trace's next time
 * after t is found directly. */
static void discard_until(run_state *st, int k, double t)
{
    if (st->next[k] > t)
        return;
    if (k == EV_FAILURE && !tmc_failures_poisson(&st->e->failures)) {
        while (st->next[k] <= t)
            draw_next(st, k, st->next[k]);
        return;
    }
    draw_next(st, k, t);
}

/* The process with the earliest pending arrival among the first n. */
static int earliest(const run_state *st, int n)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (st->next[k] < st->next[best])
            best = k;
    return best;
}

/* Total slowest-card compute time of n steps drawn at once (aggregated
 * mode; engine.h states the approximation). */
static double segment_sum(const tmc_engine *e, long n, gsl_rng *r)
{
    double z = gsl_ran_gaussian_ziggurat(r, 1.0), rn = sqrt((double)n);
    double g = e->max_skew / rn;
    return n * e->max_mean_s + rn * e->max_sd_s * (z + g * (z * z - 1) / 6);
}

/* Paused steps among steps first + 1 .. first + n: multiples of k. */
static long paused_count(const tmc_engine *e, long first, long n)
{
    long k = e->pause_every;
    return k ? (first + n) / k - first / k : 0;
}

/* The slowest-card time of a step with a pause: all cards stop, or one
 * does, max(A_{N-1}, B + p), plus the step's common part. */
static double paused_step(const tmc_engine *e, gsl_rng *r)
{
    if (!e->pause_one)
        return tmc_dist_sample_max(&e->max, r) + e->pause_s;
    double a = tmc_dist_sample_max(&e->rest, r);
    double b = tmc_dist_sample_max(&e->single, r) + e->pause_s;
    double common = e->max.common_s > 0 ? e->max.common_s * gsl_ran_gaussian_ziggurat(r, 1.0)
                                        : 0;
    return fmax(fmax(a, b) + common, 0);
}

/* The slowest card of a step with st->slow slow cards: the normal group's
 * maximum and factor x the slow group's (each from the table at v^(n/m)),
 * a pausing card when the step has one (a normal card while any is left,
 * else a slow one), and the step's common part. */
static double slow_step(const run_state *st, int paused, gsl_rng *r)
{
    const tmc_engine *e = st->e;
    long slow = st->slow, normal = e->cards - slow;
    int one = paused && e->pause_one, one_normal = one && normal > 0;
    int one_slow = one && !one_normal; /* then slow = N >= 2 */
    normal -= one_normal;
    slow -= one_slow;
    double common = e->max.common_s > 0 ? e->max.common_s * gsl_ran_gaussian_ziggurat(r, 1.0)
                                        : 0;
    double x = normal > 0 ? tmc_dist_sample_max_of(&e->max, r, normal) + common : 0;
    if (one_normal)
        x = fmax(x, tmc_dist_sample_max(&e->single, r) + e->pause_s + common);
    x = fmax(x, e->slow_factor * (tmc_dist_sample_max_of(&e->max, r, slow) + common));
    if (one_slow)
        x = fmax(x, e->slow_factor * (tmc_dist_sample_max(&e->single, r) + common) +
                        e->pause_s);
    if (paused && !e->pause_one)
        x += e->pause_s;
    return fmax(x, 0);
}

/* Compute time of steps first + 1 .. first + n, one by one, until one ends
 * past `limit`: returns the sum of their slowest-card times and sets *cut to
 * 1 if one does, or to TMC_CUT_STOP if a stop was requested meanwhile. */
#define TMC_CUT_STOP 2
static double draw_steps(run_state *st, long first, long n, double t, double limit,
                         gsl_rng *r, int *cut)
{
    const tmc_engine *e = st->e;
    long k = e->pause_every, next = k ? first + k - first % k : -1, last = first + n;
    double sum = 0;
    *cut = 0;
    for (long step = first + 1; step <= last; step++) {
        double x;
        int paused = step == next;
        if (paused)
            next += k;
        if (st->slow > 0)
            x = slow_step(st, paused, r);
        else
            x = paused ? paused_step(e, r) : tmc_dist_sample_max(&e->max, r);
        t += x + e->fixed_s;
        sum += x;
        if (t > limit) {
            *cut = 1;
            break;
        }
        if ((step & 0xffff) == 0 && stop_requested) { /* a long segment: check often */
            *cut = TMC_CUT_STOP;
            break;
        }
        st->steps_run += st->slow > 0;
    }
    return sum;
}

/* The slowest-card compute time of a whole segment of n steps after step
 * `first`, drawn at once where the mode allows; *cut as draw_steps. */
static double segment_compute(run_state *st, long first, long n, double t,
                              double limit, gsl_rng *r, int *cut)
{
    const tmc_engine *e = st->e;
    long paused = paused_count(e, first, n);
    *cut = 0;
    if (st->slow > 0) /* step by step: detection counts the steps completed */
        return draw_steps(st, first, n, t, limit, r, cut);
    if (e->max.sigma == 0)
        return n * e->max.mu + paused * e->pause_s;
    if (!e->aggregated || n - paused < TMC_AGGREGATE_MIN_STEPS)
        return draw_steps(st, first, n, t, limit, r, cut);
    if (!e->pause_one)
        return segment_sum(e, n, r) + paused * e->pause_s;
    double sum = segment_sum(e, n - paused, r);
    for (long i = 0; i < paused; i++)
        sum += paused_step(e, r);
    return sum;
}

/* Steps first + 1 .. first + n; returns the interrupting process, or -1
 * with *sum_max the summed slowest-card compute times (pauses included).
 * On interruption st->t is the arrival time. */
static int run_compute(run_state *st, long first, long n, double *sum_max)
{
    const tmc_engine *e = st->e;
    discard_until(st, EV_SPIKE, st->t);
    int kind = earliest(st, EV_COUNT), cut;
    double limit = st->next[kind];
    double sum = segment_compute(st, first, n, st->t, limit, st->rng[TMC_STREAM_JITTER], &cut);
    double end = st->t + sum + n * e->fixed_s;
    if (cut == TMC_CUT_STOP) { /* the replica ends at its next check, discarded */
        st->out->stopped = 1;
        *sum_max = 0;
        return -1;
    }
    if (cut || end > limit) {
        st->compute_s += limit - st->t;
        st->t = limit;
        return kind;
    }
    st->compute_s += end - st->t;
    st->t = end;
    *sum_max = sum;
    return -1;
}

/* A phase of length d that only failures and outages can interrupt. */
static int run_uninterruptible_by_spikes(run_state *st, double d)
{
    int kind = earliest(st, EV_SPIKE);
    if (st->t + d > st->next[kind]) {
        st->t = st->next[kind];
        return kind;
    }
    st->t += d;
    return -1;
}

/* Count the arrival of process k at st->t, draw its next arrival, and sit
 * out an outage's downtime. */
/* The job is down for d seconds: arrivals meanwhile are discarded. */
static void stay_down(run_state *st, double d, double *account)
{
    if (d <= 0)
        return;
    st->t += d;
    *account += d;
    st->down_s += d;
    discard_until(st, EV_FAILURE, st->t);
    discard_until(st, EV_OUTAGE, st->t);
}

/* An outage's downtime: fixed, or lognormal with mean downtime_s. */
static double outage_downtime(run_state *st)
{
    const tmc_engine *e = st->e;
    if (e->downtime_sigma == 0 || e->downtime_s == 0)
        return e->downtime_s;
    /* importance sampling shifts the log-mean by ln theta; the density ratio
     * of the lognormal is exp(((y - mu - d)^2 - (y - mu)^2) / 2 s^2), y = ln x */
    double s = e->downtime_sigma, shift = log(e->tilt[4]);
    double x = gsl_ran_lognormal(st->rng[TMC_STREAM_DOWNTIMES], e->downtime_mu + shift, s);
    double y = log(x) - e->downtime_mu;
    if (shift != 0)
        st->downtime_log_w += ((y - shift) * (y - shift) - y * y) / (2 * s * s);
    st->downtimes_drawn++;
    st->downtime_log_sum += log(x);
    return x;
}

/* A card failure at st->t: its cause's detection delay, a wait for a spare,
 * and the restore the cause asks for. */
static void take_failure(run_state *st)
{
    const tmc_failure_model *m = &st->e->failures;
    int cause = tmc_failures_cause(m, st->rng[TMC_STREAM_CAUSES]);
    double failed_at = st->t;
    st->restore_s = m->n_causes ? m->restore_s[cause] : st->e->restore_s;
    stay_down(st, m->n_causes ? m->detection_s[cause] : 0, &st->out->detection_s);
    double wait = tmc_failures_take_spare(m, &st->failures, st->rng[TMC_STREAM_REPAIRS],
                                          failed_at, st->t);
    stay_down(st, wait, &st->out->spare_wait_s);
}

/* Count the arrival of process k at st->t, draw its next arrival, and sit
 * out what the job must wait before its restore. */
static void take_arrival(run_state *st, int k)
{
    tmc_replica *out = st->out;
    st->arrivals[k]++;
    draw_next(st, k, st->t);
    st->restore_s = st->e->restore_s;
    if (k == EV_FAILURE) {
        out->card_failures++;
        take_failure(st);
    } else if (k == EV_OUTAGE) {
        out->outages++;
        stay_down(st, outage_downtime(st), &out->downtime_s);
    } else {
        out->loss_spikes++;
    }
}

/* After an arrival of process k: downtime, then a restore that starts again
 * whenever a failure or outage strikes it. */
/* A restore struck this many times in a row can never finish in practice
 * (its chance e^(-rate x restore) is below 1e-6), and under an absurd rate
 * or importance tilt the clock may stop advancing at all (t + dt == t): an
 * error, not an endless loop (TMC_STALL_LIMIT, engine.h). */
static void recover(run_state *st, int k)
{
    take_arrival(st, k);
    long stalled = 0;
    while (st->t < st->e->horizon_s && !stop_requested) {
        double start = st->t;
        int hit = run_uninterruptible_by_spikes(st, st->restore_s);
        st->out->restore_s += st->t - start;
        if (hit < 0)
            return;
        if (++stalled == TMC_STALL_LIMIT) {
            st->out->failed = TMC_REPLICA_STALLED;
            return;
        }
        take_arrival(st, hit);
    }
}

/* First arrivals of every process; the failure state of the replica. */
static int start_processes(run_state *st)
{
    st->next[EV_FAILURE] = INFINITY;
    st->failures.heap = st->failures.repairs = NULL;
    st->trace_next[EV_OUTAGE] = st->trace_next[EV_SPIKE] = 0;
    if (st->e->rate[EV_FAILURE] > 0) {
        double first = tmc_failures_start(&st->e->failures, &st->failures,
                                          st->rng[TMC_STREAM_FAILURES]);
        if (first < 0)
            return -1;
        st->next[EV_FAILURE] = first;
    }
    draw_next(st, EV_OUTAGE, 0.0);
    draw_next(st, EV_SPIKE, 0.0);
    st->steps_run = 0;
    for (int k = 0; k < EV_COUNT; k++)
        st->arrivals[k] = 0;
    st->down_s = st->compute_s = 0;
    st->downtime_log_w = st->downtimes_drawn = st->downtime_log_sum = 0;
    st->slow = st->e->slow_fraction > 0
        ? (long)gsl_ran_binomial(st->rng[TMC_STREAM_SLOW], st->e->slow_fraction,
                                 (unsigned)st->e->cards) : 0;
    st->out->slow_cards = (double)st->slow;
    st->out->slow_runs = st->slow > 0;
    return 0;
}

/* Slow cards detected (after detect_after steps with them) are evicted right
 * after a commit: a restore, which failures and outages may interrupt like
 * any other, then the job runs on normal cards. */
static int evict_due(const run_state *st)
{
    return st->slow > 0 && st->e->detect_after > 0 && st->steps_run >= st->e->detect_after;
}

static void maybe_evict(run_state *st)
{
    const tmc_engine *e = st->e;
    if (!evict_due(st))
        return;
    st->out->slow_survival_s += st->t;
    st->out->evictions++;
    st->slow = 0;
    double start = st->t;
    int hit = run_uninterruptible_by_spikes(st, e->evict_restore_s);
    st->out->eviction_s += st->t - start;
    if (hit >= 0)
        recover(st, hit);
}

/* The likelihood ratio of the untilted to the tilted processes over the
 * run: prod over k of theta_k^-N_k exp((theta_k - 1) lambda_k A_k), N_k the
 * arrivals that struck and A_k the time they could strike in (failures and
 * outages: all but the time down; spikes: compute) (Rubinstein and Kroese
 * 2004, for Poisson processes). */
static void weigh(run_state *st)
{
    const tmc_engine *e = st->e;
    tmc_replica *out = st->out;
    double exposure[EV_COUNT] = {st->t - st->down_s, st->t - st->down_s, st->compute_s};
    double log_w = st->failures.repair_log_w + st->downtime_log_w;
    for (int k = 0; k < EV_COUNT; k++)
        if (e->tilt[k] != 1 && e->rate[k] > 0)
            log_w += -st->arrivals[k] * log(e->tilt[k]) +
                     (e->tilt[k] - 1) * e->rate[k] * exposure[k];
    double w = exp(log_w), miss = out->wall_s > e->deadline_wall_s;
    out->w = w;
    out->w2 = w * w;
    out->w_miss = w * miss;
    out->w2_miss = w * w * miss;
    if (out->wall_s >= e->elite_wall_s) {
        out->ce_w = w;
        for (int k = 0; k < EV_COUNT; k++) {
            out->ce_n[k] = w * st->arrivals[k];
            out->ce_a[k] = w * exposure[k];
        }
        out->ce_n[3] = w * st->failures.repairs_drawn;
        out->ce_a[3] = w * st->failures.repair_sum_s;
        out->ce_n[4] = w * st->downtimes_drawn;
        out->ce_a[4] = w * st->downtime_log_sum;
    }
}

int tmc_engine_tilt(tmc_engine *e, const double theta[TMC_TILTS], double elite_wall_s)
{
    for (int k = 0; k < TMC_TILTS; k++)
        if (!(theta[k] > 0 && isfinite(theta[k])))
            return -1;
    if (theta[EV_FAILURE] != 1 && e->rate[EV_FAILURE] > 0 && !tmc_failures_poisson(&e->failures))
        return -1;
    for (int k = EV_OUTAGE; k < EV_COUNT; k++) /* a replayed trace has nothing to tilt */
        if (theta[k] != 1 && e->trace[k].n > 0)
            return -1;
    if (theta[3] != 1 && e->failures.repair_kind == TMC_REPAIR_FIXED)
        return -1;
    for (int k = 0; k < TMC_TILTS; k++)
        e->tilt[k] = theta[k];
    e->failures.tilt = theta[EV_FAILURE];
    e->failures.repair_tilt = theta[3];
    e->elite_wall_s = elite_wall_s;
    return 0;
}

/* 1 when the replica must end now: a stop was requested or the horizon
 * passed (then it is censored). */
static int must_end(run_state *st)
{
    if (stop_requested)
        return st->out->stopped = 1;
    if (st->out->failed)
        return 1;
    if (st->t >= st->e->horizon_s)
        return (int)(st->out->censored = 1);
    return 0;
}

/* Remember a committed snapshot's part of the split for a loss spike that
 * rolls back several: the list grows as the run commits. Returns 0, or -1
 * (and marks the replica failed) if memory runs out. */
static int remember_part(run_state *st, const committed_part *p)
{
    if (st->n_parts == st->cap_parts) {
        long cap = st->cap_parts ? 2 * st->cap_parts : 64;
        committed_part *grown = realloc(st->parts, (size_t)cap * sizeof *grown);
        if (!grown)
            return st->out->failed = TMC_REPLICA_NO_MEMORY, -1;
        st->parts = grown;
        st->cap_parts = cap;
    }
    st->parts[st->n_parts++] = *p;
    return 0;
}

/* Add a committed stretch of n steps to the split. */
static void add_committed(run_state *st, long n, double sum_max, double pause, double save_s)
{
    const tmc_engine *e = st->e;
    committed_part p = {n, n * e->max.mu, sum_max - n * e->max.mu - pause, pause,
                        n * e->fixed_s, save_s};
    tmc_replica *out = st->out;
    out->compute_s += p.compute_s, out->straggler_s += p.straggler_s;
    out->pause_s += p.pause_s, out->fixed_s += p.fixed_s;
    out->save_s += p.save_s, out->saves += 1;
    if (e->spike_rollback > 1)
        remember_part(st, &p);
}

/* After a loss spike: drop the newest rollback - 1 committed snapshots too
 * (as many as there are); returns the committed step to resume from. */
static long spike_rollback(run_state *st, long committed)
{
    for (long i = 1; i < st->e->spike_rollback && st->n_parts > 0; i++) {
        const committed_part *p = &st->parts[--st->n_parts];
        tmc_replica *out = st->out;
        out->compute_s -= p->compute_s, out->pause_s -= p->pause_s;
        out->straggler_s -= p->straggler_s, out->fixed_s -= p->fixed_s;
        out->save_s -= p->save_s, out->saves -= 1;
        out->lost_s += p->compute_s + p->pause_s + p->straggler_s + p->fixed_s + p->save_s;
        committed -= p->steps;
    }
    return committed;
}

/* Asynchronous saves (snapshots.h): a segment ends with the blocking copy
 * (save_s); its snapshot commits write_s after the storage is free; the run
 * ends when the last snapshot has committed. */
static void commit_ready(run_state *st, long *committed, double *safe_s)
{
    tmc_snapshot s;
    while (tmc_snapshots_commit(&st->snapshots, st->t, &s)) {
        add_committed(st, s.step - *committed, s.straggler_s, s.pause_s, s.copy_s);
        *committed = s.step;
        *safe_s = s.capture_s;
    }
}

/* One segment and its copy; queues its snapshot (training waits while the
 * write queue is full). -1, or the process that interrupted it. */
static int async_segment(run_state *st, long progress, long n, long *committed,
                         double *safe_s)
{
    const tmc_engine *e = st->e;
    double sum_max = 0;
    int hit = run_compute(st, progress, n, &sum_max);
    if (hit < 0)
        hit = run_uninterruptible_by_spikes(st, e->save_s);
    if (hit >= 0)
        return hit;
    /* straggler_s carries the segment's summed slowest-card time until commit */
    tmc_snapshot s = {.step = progress + n, .capture_s = st->t, .straggler_s = sum_max,
                      .pause_s = paused_count(e, progress, n) * e->pause_s,
                      .copy_s = e->save_s};
    while (st->snapshots.count == TMC_SNAPSHOTS_MAX) {
        double start = st->t, free_at = st->snapshots.queue[st->snapshots.head].commit_s;
        if ((hit = run_uninterruptible_by_spikes(st, free_at - st->t)) >= 0)
            return hit;
        s.copy_s += st->t - start; /* accounted with the snapshot */
        s.capture_s = st->t;
        commit_ready(st, committed, safe_s);
    }
    tmc_snapshots_capture(&st->snapshots, &s, e->write_s);
    return -1;
}

static void run_async(run_state *st)
{
    const tmc_engine *e = st->e;
    long committed = 0, progress = 0;
    double safe_s = 0; /* the wall time up to which the work is saved */
    tmc_snapshots_reset(&st->snapshots);
    while (!must_end(st)) {
        commit_ready(st, &committed, &safe_s);
        if (committed == e->steps)
            return;
        if (evict_due(st) && st->snapshots.count == 0) {
            maybe_evict(st);
            safe_s = st->t;
        }
        int hit;
        if (progress < e->steps && !(evict_due(st) && st->snapshots.count > 0)) {
            long n = e->steps - progress < e->interval_steps ? e->steps - progress
                                                              : e->interval_steps;
            if ((hit = async_segment(st, progress, n, &committed, &safe_s)) < 0) {
                progress += n;
                continue;
            }
        } else { /* all steps done, or an eviction due: wait for the writes */
            double start = st->t;
            if ((hit = run_uninterruptible_by_spikes(st, st->snapshots.storage_free_s -
                                                         st->t)) < 0) {
                st->out->save_s += st->t - start;
                safe_s = st->t;
                continue;
            }
        }
        commit_ready(st, &committed, &safe_s);
        st->out->lost_s += st->t - safe_s;
        tmc_snapshots_abort(&st->snapshots);
        recover(st, hit);
        if (hit == EV_SPIKE)
            committed = spike_rollback(st, committed);
        progress = committed;
        safe_s = st->t;
    }
}

/* Synchronous saves: each segment's save commits at its end. */
static void run_sync(run_state *st)
{
    const tmc_engine *e = st->e;
    long done = 0;
    while (done < e->steps && !must_end(st)) {
        long n = e->steps - done < e->interval_steps ? e->steps - done : e->interval_steps;
        double seg_start = st->t, sum_max = 0;
        int hit = run_compute(st, done, n, &sum_max);
        if (hit < 0)
            hit = run_uninterruptible_by_spikes(st, e->save_s);
        if (hit >= 0) {
            st->out->lost_s += st->t - seg_start;
            recover(st, hit);
            if (hit == EV_SPIKE)
                done = spike_rollback(st, done);
            continue;
        }
        add_committed(st, n, sum_max, paused_count(e, done, n) * e->pause_s, e->save_s);
        done += n;
        if (done < e->steps)
            maybe_evict(st);
    }
}

void tmc_engine_run(const tmc_engine *e, uint64_t seed, uint64_t replica,
                    gsl_rng *const rng[TMC_STREAM_COUNT], tmc_replica *out)
{
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        tmc_rng_pcg_seed_replica(rng[s], seed, replica, (tmc_stream_kind)s);
    memset(out, 0, sizeof *out);
    run_state st = {.e = e, .rng = rng, .t = 0.0, .out = out};
    if (start_processes(&st)) {
        out->failed = TMC_REPLICA_NO_MEMORY; /* for the failure state: no result */
        tmc_failures_end(&st.failures);
        return;
    }
    if (e->async)
        run_async(&st);
    else
        run_sync(&st);
    free(st.parts);
    if (st.t > e->horizon_s) /* passed the horizon inside its last segment */
        out->censored = 1;
    out->wall_s = out->censored ? e->horizon_s : st.t;
    weigh(&st);
    if (st.slow > 0) /* never evicted: the slow cards stayed to the end */
        out->slow_survival_s += out->wall_s;
    tmc_failures_end(&st.failures);
}

void tmc_engine_accumulate(tmc_replica *a, const tmc_replica *b)
{
    a->wall_s += b->wall_s;
    a->compute_s += b->compute_s;
    a->straggler_s += b->straggler_s;
    a->pause_s += b->pause_s;
    a->fixed_s += b->fixed_s;
    a->save_s += b->save_s;
    a->lost_s += b->lost_s;
    a->restore_s += b->restore_s;
    a->downtime_s += b->downtime_s;
    a->detection_s += b->detection_s;
    a->spare_wait_s += b->spare_wait_s;
    a->eviction_s += b->eviction_s;
    a->slow_cards += b->slow_cards;
    a->slow_runs += b->slow_runs;
    a->slow_survival_s += b->slow_survival_s;
    a->evictions += b->evictions;
    a->w += b->w;
    a->w2 += b->w2;
    a->w_miss += b->w_miss;
    a->w2_miss += b->w2_miss;
    a->ce_w += b->ce_w;
    for (int k = 0; k < TMC_TILTS; k++) {
        a->ce_n[k] += b->ce_n[k];
        a->ce_a[k] += b->ce_a[k];
    }
    a->card_failures += b->card_failures;
    a->outages += b->outages;
    a->loss_spikes += b->loss_spikes;
    a->saves += b->saves;
    a->censored += b->censored;
}
