/* processes.c - failures, outages and loss spikes (processes.h). */
#include "processes.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "experiment_rules.h"
#include "forecast.h"
#include "rng_pcg.h"
#include "times.h"

static tmc_trace_ref trace_of(int enabled, int n, const double *days)
{
    return enabled ? (tmc_trace_ref){n, days} : (tmc_trace_ref){0, NULL};
}

void tmc_processes_model(tmc_process_model *m, const tmc_experiment *x,
                         const tmc_closed_form *cf)
{
    memset(m, 0, sizeof *m);
    m->restore_s = x->checkpoint.restore_s;
    m->downtime_s = x->outages.enabled ? x->outages.downtime_s : 0;
    m->downtime_sigma = x->outages.enabled ? sqrt(log1p(pow(x->outages.downtime_cv, 2))) : 0;
    m->downtime_mu = m->downtime_s > 0 ? log(m->downtime_s) - 0.5 * pow(m->downtime_sigma, 2)
                                       : 0;
    m->outage_events = x->outages.enabled ? x->outages.mtbf_events : 0;
    tmc_forecast_rate post;
    tmc_forecast_outage_rate(x, &post);
    m->outage_shape = post.shape;
    m->outage_rate = post.rate;
    m->outage_notice = tmc_outages_noticed(x);
    m->notice_lead_s = x->checkpoint.save_s; /* read only with notice */
    const tmc_time_limit *tl = &x->time_limit;
    m->limit_s = tl->enabled ? tmc_limit_allocation_s(x) : INFINITY;
    m->requeue_s = tl->enabled ? tl->requeue_s : 0;
    m->limit_save = tmc_limit_saves(x);
    m->limit_renewed = tl->enabled && tl->restarts == TMC_RESTART_NEW;
    const tmc_slowdown *d = &x->slowdown;
    int refresh = d->enabled && d->refresh_hours > 0;
    m->refresh_after_s = refresh ? d->refresh_hours * 3600 : INFINITY;
    m->refresh_s = d->refresh_s >= 0 ? d->refresh_s : x->checkpoint.restore_s;
    m->any_notice = m->outage_notice || m->limit_save || refresh;
    m->renew_at_failure = x->failures.renewal_at == TMC_RENEWAL_AT_FAILURE;
    m->start_s = x->observed.enabled ? x->observed.elapsed_days * TMC_DAY_S : 0;
    m->rate[TMC_FAILURE] = cf->rate_failures;
    m->rate[TMC_OUTAGE] = cf->rate_outages;
    m->rate[TMC_SPIKE] = cf->rate_spikes;
    /* failure traces are replayed in failures.c */
    m->trace[TMC_OUTAGE] = trace_of(x->outages.enabled, x->outages.n_trace,
                                    x->outages.trace_days);
    m->trace[TMC_SPIKE] = trace_of(x->loss_spikes.enabled, x->loss_spikes.n_trace,
                                   x->loss_spikes.trace_days);
    if (x->failures.enabled)
        tmc_failures_model(&m->failures, x);
    m->levels = x->checkpoint.persistent_every > 1;
    m->local_restore_s = x->checkpoint.local_restore_s >= 0 ? x->checkpoint.local_restore_s
                                                            : x->checkpoint.restore_s;
    for (int k = 0; k < TMC_TILTS; k++)
        m->tilt[k] = 1;
}

/* The first time of a replayed trace after `from` (INFINITY past its end). */
static double trace_after(const tmc_trace_ref *tr, int *next, double from)
{
    while (*next < tr->n && tr->days[*next] * TMC_DAY_S <= from)
        (*next)++;
    return *next < tr->n ? tr->days[*next] * TMC_DAY_S : INFINITY;
}

/* The arrival of process k at time `from` is consumed: draw the next (a
 * failure trace is replayed in failures.c: m->trace[TMC_FAILURE] is empty). */
static void draw_next(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                      int k, double from)
{
    if (m->trace[k].n > 0)
        p->next[k] = trace_after(&m->trace[k], &p->trace_next[k], from);
    else
        p->next[k] = tmc_process_types[k].arrival(m, p, rng[tmc_process_types[k].stream], k,
                                                  from);
}

/* A Poisson process's next arrival after `from` at rate r (tilted). */
static double poisson_after(gsl_rng *r, double rate, double from)
{
    return rate <= 0 ? INFINITY : from + tmc_rng_exponential(r, 1 / rate);
}

static double spike_arrival(const tmc_process_model *m, tmc_processes *p, gsl_rng *r, int k,
                            double from)
{
    (void)p;
    return poisson_after(r, m->rate[k] * m->tilt[k], from);
}

/* Outages: this replica's own rate when it was drawn (outages.mtbf_events). */
static double outage_arrival(const tmc_process_model *m, tmc_processes *p, gsl_rng *r, int k,
                             double from)
{
    double rate = m->rate[k] * m->tilt[k];
    if (m->outage_events > 0) /* no product otherwise: every bit kept */
        rate *= p->outage_scale;
    return poisson_after(r, rate, from);
}

/* Failures: Poisson or per-card renewal (failures.h). */
static double failure_arrival(const tmc_process_model *m, tmc_processes *p, gsl_rng *r, int k,
                              double from)
{
    if (m->rate[k] * m->tilt[k] <= 0)
        return INFINITY;
    return tmc_failures_after(&m->failures, &p->failures, r, from);
}

static int failures_remember(const tmc_process_model *m)
{
    return !tmc_failures_poisson(&m->failures);
}

/* The replica's own outage rate and repair mean when they were estimated
 * from few events (docs/model.md 3.11), each on its own stream so that
 * every other draw is the same with or without them: the outage rate's
 * multiplier ~ Gamma(n, 1/n) as the failure rate's (tmc_failures_start),
 * the repair mean's n / Gamma(n, 1) (tmc_failures_draw_repair_scale).
 * Before any arrival or repair is drawn: a forecast's start draws repairs. */
static void draw_rate_scales(const tmc_process_model *m, tmc_processes *p,
                             gsl_rng *const *rng)
{
    double n = m->outage_events; /* a forecast: the posterior (forecast.h) */
    p->outage_scale = n > 0 ? gsl_ran_gamma(rng[TMC_STREAM_OUTAGE_RATE], m->outage_shape,
                                            1 / m->outage_rate) : 1;
    p->failures.repair_scale = tmc_failures_draw_repair_scale(&m->failures,
                                                              rng[TMC_STREAM_REPAIR_MEAN]);
    tmc_failures_draw_bad_nodes(&m->failures, &p->failures, rng[TMC_STREAM_BAD_NODES]);
}

/* Failures start the cards' clocks (and may run out of memory). */
static int failure_start(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                         int k)
{
    p->next[k] = INFINITY;
    if (m->rate[k] > 0) {
        double first = tmc_failures_start(&m->failures, &p->failures,
                                          rng[tmc_process_types[k].stream],
                                          rng[TMC_STREAM_SLOW], m->start_s);
        if (first < 0)
            return -1;
        p->next[k] = first;
    }
    return 0;
}

static int poisson_start(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                         int k)
{
    draw_next(m, p, rng, k, m->start_s);
    return 0;
}

int tmc_processes_start(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng)
{
    memset(p, 0, sizeof *p);
    draw_rate_scales(m, p, rng);
    for (int k = 0; k < TMC_PROCESSES; k++)
        if (tmc_process_types[k].start(m, p, rng, k))
            return -1;
    p->limit_at = m->limit_s; /* a forecast refuses time limits (config_progress.c) */
    return 0;
}

void tmc_processes_restarted(const tmc_process_model *m, tmc_processes *p, double t)
{
    p->refresh_at = t + m->refresh_after_s;
}

void tmc_processes_end(tmc_processes *p)
{
    tmc_failures_end(&p->failures);
}

/* A Poisson process forgets: drawing its next arrival afresh from t is the
 * same as discarding the arrivals before t one by one, and keeps the
 * arrivals that count, and the time they can strike in, apart for the
 * likelihood ratio. Renewal processes (per-card lifetimes) remember, so
 * their arrivals are discarded one by one; a trace's next time after t is
 * found directly. */
void tmc_processes_discard_until(const tmc_process_model *m, tmc_processes *p,
                                 gsl_rng *const *rng, int k, double t)
{
    if (p->next[k] > t)
        return;
    const tmc_process_type *type = &tmc_process_types[k];
    if (type->remembers && type->remembers(m)) {
        while (p->next[k] <= t)
            draw_next(m, p, rng, k, p->next[k]);
        return;
    }
    draw_next(m, p, rng, k, t);
}

/* The job is down for d seconds from t: arrivals meanwhile are discarded
 * (those in compute only are discarded when compute starts). Returns the
 * time it is up again. */
static double stay_down(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                        double t, double d, double *account)
{
    if (d <= 0)
        return t;
    /* a wait that passes the horizon is censored there: the split holds its
     * part before it (a replica waiting years for a repair adds no years) */
    double h = m->horizon_s > 0 ? m->horizon_s : INFINITY;
    double counted = tmc_time_min(d, tmc_time_max(h - t, 0));
    t += d;
    *account += counted;
    p->down_s += d;
    tmc_processes_discard_all_until(m, p, rng, 0, t);
    return t;
}

/* An outage's downtime: fixed, or lognormal with mean downtime_s. */
static double outage_downtime(const tmc_process_model *m, tmc_processes *p, gsl_rng *r)
{
    if (m->downtime_sigma == 0 || m->downtime_s == 0)
        return m->downtime_s;
    /* importance sampling shifts the log-mean by ln theta; the density ratio
     * of the lognormal is exp(((y - mu - d)^2 - (y - mu)^2) / 2 s^2), y = ln x */
    double s = m->downtime_sigma, shift = log(m->tilt[TMC_TILT_DOWNTIMES]);
    double x = gsl_ran_lognormal(r, m->downtime_mu + shift, s);
    double y = log(x) - m->downtime_mu;
    if (shift != 0)
        p->downtime_log_w += ((y - shift) * (y - shift) - y * y) / (2 * s * s);
    p->downtimes_drawn++;
    p->downtime_log_sum += log(x);
    return x;
}

/* A bad node's fault at t (docs/reference/simulation-semantics.md 5): it takes no
 * spare (the node is rebooted in place, or retired and replaced by a good
 * node from outside the pool). A retirement lowers the job's failure rate,
 * so the next failure, drawn at the old rate, is drawn again from t at the
 * new one (exact: the process is memoryless). Returns the cards to take: 0;
 * in a fleet the node's, which its cause may still keep in place. */
static long bad_node_fault(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                           double t, tmc_replica *out)
{
    out->bad_node_faults++;
    if (m->failures.bad_fleet)
        return m->failures.cards_per_node;
    if (tmc_failures_bad_node_fault(&m->failures, &p->failures, rng[TMC_STREAM_CAUSES])) {
        out->bad_node_retirements++;
        draw_next(m, p, rng, TMC_FAILURE, t);
    }
    return 0;
}

/* Two levels: node `node` lost its memory; 1 when a node next to it on
 * the ring (each node's snapshot is copied to the next one, SCR's
 * partner scheme) lost its memory since the newest snapshot too, so some
 * shard has no copy left, or the job has one node (no partner). */
static int partner_lost(tmc_processes *p, long node, long nodes)
{
    if (nodes <= 1 || p->n_lost_nodes == TMC_LOST_NODES_MAX)
        return 1;
    int seen = 0;
    for (int i = 0; i < p->n_lost_nodes; i++) {
        long d = (p->lost_nodes[i] - node + nodes) % nodes;
        if (d == 1 || d == nodes - 1)
            return 1;
        seen |= d == 0;
    }
    if (!seen)
        p->lost_nodes[p->n_lost_nodes++] = node;
    return 0;
}

/* Two levels: the node a failure took. A card's failure strikes a card
 * drawn uniformly (its node is the card's; a node failure's cards are
 * spread the same way), a node's a node drawn uniformly, from a stream of
 * their own. A bad node's fault is drawn as a node's, and with lifetimes
 * that are not exponential the card's age is not consulted: both
 * approximations (docs/reference/simulation-semantics.md 13). */
static long failed_node(const tmc_failure_model *f, tmc_failure_scope scope, gsl_rng *r)
{
    if (scope == TMC_SCOPE_CARD)
        return (long)gsl_rng_uniform_int(r, (unsigned long)f->cards) / f->cards_per_node;
    return (long)gsl_rng_uniform_int(r, (unsigned long)f->nodes);
}

/* Two levels: what a failure restores from. A persistent snapshot when its
 * cause says so, or when its node loses its memory (the failure is not a
 * hang or the job's own, which restart the processes in place) and a
 * partner's did too since the newest snapshot. */
static void failure_level(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                          int cause, tmc_failure_scope scope)
{
    const tmc_failure_model *f = &m->failures;
    int in_place = scope == TMC_SCOPE_JOB || (f->n_causes && !f->takes_spare[cause]);
    if (f->n_causes && f->level[cause] == TMC_LEVEL_PERSISTENT)
        p->local_lost = 1;
    else if (!in_place &&
             partner_lost(p, failed_node(f, scope, rng[TMC_STREAM_NODES]), f->nodes))
        p->local_lost = 1;
    if (!p->local_lost)
        p->restore_s = m->local_restore_s;
}

/* A failure at t: its cause's detection delay, a wait for spares (one card,
 * a node's g, or none for a job failure: docs/model.md 3.13; a card failure
 * of a cause of scope "node" takes g, one of a cause that takes no spare
 * none), and the restore the cause asks for. The detection delay is drawn
 * from the causes' stream after the cause and the part, and only when its
 * law is not fixed (issue 19). */
static double take_failure(const tmc_process_model *m, tmc_processes *p,
                           gsl_rng *const *rng, double t, tmc_replica *out)
{
    const tmc_failure_model *f = &m->failures;
    /* the job's nodes as the failure strikes */
    tmc_failures_commit_aging(f, &p->failures, rng[TMC_STREAM_CAUSES], t);
    double u = tmc_failures_cause_draw(f, rng[TMC_STREAM_CAUSES]);
    tmc_failure_scope scope = tmc_failures_scope(f, &p->failures, rng[TMC_STREAM_CAUSES]);
    int cause = tmc_failures_cause(f, scope, u);
    long card = f->n_causes ? f->cause_cards[cause] : 1;
    long cards = scope == TMC_SCOPE_NODE ? f->cards_per_node : scope == TMC_SCOPE_JOB ? 0 : card;
    if (scope == TMC_SCOPE_BAD_NODE) /* rebooted in place, or retired and replaced */
        cards = bad_node_fault(m, p, rng, t, out);
    long burst = scope == TMC_SCOPE_BURST ? tmc_failures_burst_nodes(f, rng[TMC_STREAM_BURSTS])
                                          : 0;
    if (burst > 0) {
        cards = burst * f->cards_per_node;
        out->bursts++;
        out->burst_nodes += (double)burst;
    }
    if (f->n_causes && !f->takes_spare[cause])
        cards = 0;
    int node_cause = f->n_causes && scope == TMC_SCOPE_CARD && f->cause_cards[cause] > 1;
    out->node_failures += scope == TMC_SCOPE_NODE || scope == TMC_SCOPE_BAD_NODE || node_cause;
    out->job_failures += scope == TMC_SCOPE_JOB;
    double failed_at = t, struck_at = t;
    p->restore_s = f->n_causes ? f->restore_s[cause] : m->restore_s;
    /* a burst's nodes are neighbours (a switch's, a rack's): their partners'
     * copies go with them (docs/reference/simulation-semantics.md 13) */
    if (m->levels && burst > 1 && cards > 0)
        p->local_lost = 1;
    if (m->levels)
        failure_level(m, p, rng, cause, scope == TMC_SCOPE_BURST ? TMC_SCOPE_NODE : scope);
    t = stay_down(m, p, rng, t, tmc_failures_detection(f, cause, rng[TMC_STREAM_CAUSES]),
                  &out->detection_s);
    if (f->repair_from_detection)
        failed_at = t; /* the repair starts as the job takes a spare */
    long bad_held = p->failures.bad_nodes;
    if (f->bad_fleet && cards > 0)
        tmc_failures_node_leaves(f, &p->failures, rng[TMC_STREAM_CAUSES],
                                 scope == TMC_SCOPE_BAD_NODE, burst > 0 ? burst : 1, struck_at);
    out->bad_node_repairs += (double)p->failures.leaving_bad;
    double wait = cards > 0 ? tmc_failures_take_spare(f, &p->failures, rng[TMC_STREAM_REPAIRS],
                                                      failed_at, t, cards) : 0;
    if (isinf(wait)) /* the fleet retired below the job: it waits to the horizon */
        wait = fmax(m->horizon_s - t, 0);
    /* a fleet's bad nodes held changed the job's rate: the next failure is
     * drawn again from the fault at the new one (memoryless, and the
     * failures that fall due while the job is down are discarded) */
    if (p->failures.bad_nodes != bad_held)
        draw_next(m, p, rng, TMC_FAILURE, struck_at);
    return stay_down(m, p, rng, t, wait, &out->spare_wait_s);
}

static double failure_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                           double t, tmc_replica *out)
{
    out->card_failures++;
    return take_failure(m, p, rng, t, out);
}

static double outage_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                          double t, tmc_replica *out)
{
    out->outages++;
    return stay_down(m, p, rng, t, outage_downtime(m, p, rng[TMC_STREAM_DOWNTIMES]),
                     &out->downtime_s);
}

/* A loss spike: no wait; its rollback is the save policy's (checkpoint.c). */
static double spike_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                         double t, tmc_replica *out)
{
    (void)m, (void)p, (void)rng;
    out->loss_spikes++;
    return t;
}

/* The time limit: requeued, the job waits for the next allocation. */
static double limit_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                         double t, tmc_replica *out)
{
    out->requeues++;
    return stay_down(m, p, rng, t, m->requeue_s, &out->requeue_s);
}

/* A save timeout: relaunched at once. */
static double timeout_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                           double t, tmc_replica *out)
{
    (void)m, (void)p, (void)rng;
    out->save_timeouts++;
    return t;
}

/* Outages with notice (outages.notice_s of at least a save). */
static int outage_noticed(const tmc_process_model *m, const tmc_processes *p, double *at,
                          double *lead_s)
{
    *at = p->next[TMC_OUTAGE];
    *lead_s = m->notice_lead_s;
    return m->outage_notice;
}

/* A time limit with a save before it (time_limit.at_limit "save"). */
static int limit_noticed(const tmc_process_model *m, const tmc_processes *p, double *at,
                         double *lead_s)
{
    *at = p->limit_at;
    *lead_s = m->notice_lead_s;
    return m->limit_save;
}

/* A refresh restart: no wait, then a restart of its own cost. */
static double refresh_wait(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                           double t, tmc_replica *out)
{
    (void)rng;
    out->refreshes++;
    p->restore_s = m->refresh_s;
    return t;
}

/* A refresh restart is always saved for: its save ends as it is due. */
static int refresh_noticed(const tmc_process_model *m, const tmc_processes *p, double *at,
                           double *lead_s)
{
    *at = p->refresh_at;
    *lead_s = m->notice_lead_s;
    return isfinite(m->refresh_after_s) && m->refresh_after_s > 0; /* off in a zeroed model */
}

const tmc_process_type tmc_process_types[TMC_KINDS] = {
    [TMC_FAILURE] = {.name = "failure", .stream = TMC_STREAM_FAILURES,
                     .start = failure_start, .arrival = failure_arrival,
                     .remembers = failures_remember, .wait = failure_wait,
                     .takes_one_group = 1},
    [TMC_OUTAGE] = {.name = "outage", .stream = TMC_STREAM_OUTAGES,
                    .start = poisson_start, .arrival = outage_arrival,
                    .wait = outage_wait, .noticed = outage_noticed, .loses_local = 1},
    [TMC_SPIKE] = {.name = "loss spike", .stream = TMC_STREAM_SPIKES,
                   .start = poisson_start, .arrival = spike_arrival,
                   .wait = spike_wait, .compute_only = 1, .rolls_back = 1,
                   .loses_local = 1},
    [TMC_LIMIT] = {.name = "time limit", .wait = limit_wait, .noticed = limit_noticed,
                   .new_allocation = 1, .redoes_restore = 1, .loses_local = 1},
    [TMC_TIMEOUT] = {.name = "save timeout", .wait = timeout_wait, .loses_local = 1},
    [TMC_REFRESH] = {.name = "refresh restart", .wait = refresh_wait,
                     .noticed = refresh_noticed},
};

/* Job renewal: every card's clock starts again at t (failures.h). While
 * the job is down, the failures that fall due are dropped and each renews
 * the clocks again from its instant (tmc_failures_after). */
static void renew_job_clocks(const tmc_process_model *m, tmc_processes *p,
                             gsl_rng *const *rng, double t)
{
    p->next[TMC_FAILURE] = tmc_failures_restart(&m->failures, &p->failures,
                                                rng[TMC_STREAM_FAILURES], t);
}

double tmc_processes_strike(const tmc_process_model *m, tmc_processes *p,
                            gsl_rng *const *rng, int k, double t, tmc_replica *out)
{
    const tmc_process_type *type = &tmc_process_types[k];
    p->restore_s = m->restore_s;
    if (type->arrival) { /* a random process: its next arrival */
        p->arrivals[k]++;
        draw_next(m, p, rng, k, t);
    }
    /* job renewal: a new process, new clocks, from the interruption's
     * instant or from the restore's start (failures.renewal_at); with no
     * time down the two draw the same numbers in the same order */
    int renews = m->rate[TMC_FAILURE] > 0 && m->failures.job_renewal;
    if (renews && m->renew_at_failure)
        renew_job_clocks(m, p, rng, t);
    t = type->wait(m, p, rng, t, out);
    if (m->levels) {
        p->local_lost |= type->loses_local;
        out->persistent_restores += p->local_lost;
    }
    if (type->new_allocation || m->limit_renewed) /* a new allocation from the restore */
        p->limit_at = t + m->limit_s;
    if (renews && !m->renew_at_failure)
        renew_job_clocks(m, p, rng, t);
    return t;
}
