/* processes.c - failures, outages and loss spikes (processes.h). */
#include "processes.h"

#include <math.h>
#include <string.h>
#include <gsl/gsl_randist.h>

#include "experiment_rules.h"
#include "forecast.h"

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
    m->notice_lead_s = m->outage_notice ? x->checkpoint.save_s : 0;
    const tmc_time_limit *tl = &x->time_limit;
    m->limit_s = tl->enabled ? tl->wall_hours * TMC_HOUR_S : INFINITY;
    m->requeue_s = tl->enabled ? tl->requeue_s : 0;
    m->limit_save = tmc_limit_saves(x);
    m->limit_renewed = tl->enabled && tl->restarts == TMC_RESTART_NEW;
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

/* Process k draws from stream TMC_STREAM_FAILURES + k (processes.h). */
_Static_assert((int)TMC_STREAM_OUTAGES == (int)TMC_STREAM_FAILURES + TMC_OUTAGE &&
                   (int)TMC_STREAM_SPIKES == (int)TMC_STREAM_FAILURES + TMC_SPIKE &&
                   TMC_FAILURE == 0 && TMC_PROCESSES == 3,
               "the processes' streams follow the processes' order (rng_pcg.h)");

/* The arrival of process k at time `from` is consumed: draw the next. */
static void draw_next(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                      int k, double from)
{
    double rate = m->rate[k] * m->tilt[k];
    if (k == TMC_OUTAGE && m->outage_events > 0) /* no product otherwise: every bit kept */
        rate *= p->outage_scale;
    gsl_rng *r = rng[TMC_STREAM_FAILURES + k];
    if (k != TMC_FAILURE && m->trace[k].n > 0)
        p->next[k] = trace_after(&m->trace[k], &p->trace_next[k], from);
    else if (rate <= 0)
        p->next[k] = INFINITY;
    else if (k == TMC_FAILURE)
        p->next[k] = tmc_failures_after(&m->failures, &p->failures, r, from);
    else
        p->next[k] = from + gsl_ran_exponential(r, 1 / rate);
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
    p->failures.bad_nodes = tmc_failures_draw_bad_nodes(&m->failures,
                                                        rng[TMC_STREAM_BAD_NODES]);
}

int tmc_processes_start(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng)
{
    memset(p, 0, sizeof *p);
    draw_rate_scales(m, p, rng);
    p->next[TMC_FAILURE] = INFINITY;
    if (m->rate[TMC_FAILURE] > 0) {
        double first = tmc_failures_start(&m->failures, &p->failures, rng[TMC_STREAM_FAILURES],
                                          rng[TMC_STREAM_SLOW], m->start_s);
        if (first < 0)
            return -1;
        p->next[TMC_FAILURE] = first;
    }
    draw_next(m, p, rng, TMC_OUTAGE, m->start_s);
    draw_next(m, p, rng, TMC_SPIKE, m->start_s);
    p->limit_at = m->limit_s; /* a forecast refuses time limits (config_progress.c) */
    return 0;
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
    if (k == TMC_FAILURE && !tmc_failures_poisson(&m->failures)) {
        while (p->next[k] <= t)
            draw_next(m, p, rng, k, p->next[k]);
        return;
    }
    draw_next(m, p, rng, k, t);
}

/* The job is down for d seconds from t: failures and outages meanwhile are
 * discarded. Returns the time it is up again. */
static double stay_down(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                        double t, double d, double *account)
{
    if (d <= 0)
        return t;
    /* a wait that passes the horizon is censored there: the split holds its
     * part before it (a replica waiting years for a repair adds no years) */
    double h = m->horizon_s > 0 ? m->horizon_s : INFINITY, counted = fmin(d, fmax(h - t, 0));
    t += d;
    *account += counted;
    p->down_s += d;
    tmc_processes_discard_until(m, p, rng, TMC_FAILURE, t);
    tmc_processes_discard_until(m, p, rng, TMC_OUTAGE, t);
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
 * new one (exact: the process is memoryless). Returns the cards to take: 0. */
static long bad_node_fault(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                           double t, tmc_replica *out)
{
    out->bad_node_faults++;
    if (tmc_failures_bad_node_fault(&m->failures, &p->failures, rng[TMC_STREAM_CAUSES])) {
        out->bad_node_retirements++;
        draw_next(m, p, rng, TMC_FAILURE, t);
    }
    return 0;
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
    int cause = tmc_failures_cause(f, rng[TMC_STREAM_CAUSES]);
    tmc_failure_scope scope = tmc_failures_scope(f, &p->failures, rng[TMC_STREAM_CAUSES]);
    long card = f->n_causes ? f->cause_cards[cause] : 1;
    long cards = scope == TMC_SCOPE_NODE ? f->cards_per_node : scope == TMC_SCOPE_JOB ? 0 : card;
    if (scope == TMC_SCOPE_BAD_NODE) /* rebooted in place, or retired and replaced */
        cards = bad_node_fault(m, p, rng, t, out);
    if (f->n_causes && !f->takes_spare[cause])
        cards = 0;
    int node_cause = f->n_causes && scope == TMC_SCOPE_CARD && f->cause_cards[cause] > 1;
    out->node_failures += scope == TMC_SCOPE_NODE || scope == TMC_SCOPE_BAD_NODE || node_cause;
    out->job_failures += scope == TMC_SCOPE_JOB;
    double failed_at = t;
    p->restore_s = f->n_causes ? f->restore_s[cause] : m->restore_s;
    t = stay_down(m, p, rng, t, tmc_failures_detection(f, cause, rng[TMC_STREAM_CAUSES]),
                  &out->detection_s);
    double wait = cards > 0 ? tmc_failures_take_spare(f, &p->failures, rng[TMC_STREAM_REPAIRS],
                                                      failed_at, t, cards) : 0;
    return stay_down(m, p, rng, t, wait, &out->spare_wait_s);
}

/* Process k's arrival at t: its wait before the restore (see below). */
static double strike_process(const tmc_process_model *m, tmc_processes *p,
                             gsl_rng *const *rng, int k, double t, tmc_replica *out)
{
    p->arrivals[k]++;
    draw_next(m, p, rng, k, t);
    if (k == TMC_FAILURE) {
        out->card_failures++;
        return take_failure(m, p, rng, t, out);
    }
    if (k == TMC_OUTAGE) {
        out->outages++;
        return stay_down(m, p, rng, t, outage_downtime(m, p, rng[TMC_STREAM_DOWNTIMES]),
                         &out->downtime_s);
    }
    out->loss_spikes++;
    return t;
}

double tmc_processes_strike(const tmc_process_model *m, tmc_processes *p,
                            gsl_rng *const *rng, int k, double t, tmc_replica *out)
{
    p->restore_s = m->restore_s;
    if (k == TMC_LIMIT) { /* requeued */
        out->requeues++;
        t = stay_down(m, p, rng, t, m->requeue_s, &out->requeue_s);
    } else if (k == TMC_TIMEOUT) { /* relaunched at once */
        out->save_timeouts++;
    } else {
        t = strike_process(m, p, rng, k, t, out);
    }
    if (k == TMC_LIMIT || m->limit_renewed) /* a new allocation from the restore */
        p->limit_at = t + m->limit_s;
    if (m->rate[TMC_FAILURE] > 0 && m->failures.job_renewal) /* a new process: new clocks */
        p->next[TMC_FAILURE] = tmc_failures_restart(&m->failures, &p->failures,
                                                    rng[TMC_STREAM_FAILURES], t);
    return t;
}
