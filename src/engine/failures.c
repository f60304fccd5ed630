/* failures.c - lifetimes, causes and spares (failures.h).
 * Invariants: heap[0] is the earliest next-failure time of the N cards (a
 * min-heap over heap[0..N-1]); repairs[0..n_repairs-1] are the completion
 * times of repairs in progress, unordered, each of repair_cards[i] cards
 * (a node's g cards are one repair, so the list stays as short as the
 * failures in repair, whatever g). With unit_cards g > 1 the pool's
 * spares_left cards are nodes_left whole nodes (g cards each, bad_nodes_left
 * of them bad) and loose cards (spares_left - g nodes_left, bad_left - g
 * bad_nodes_left of them bad): a node is taken, repaired and comes back
 * whole, so a bad return is never split across replacements. */
#include "failures.h"

#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_randist.h>

#include "closed_form.h"
#include "experiment_rules.h"
#include "forecast.h"
#include "rng_pcg.h"
#include "times.h"

/* The pool's unit: a node's g cards when some failure takes a whole node
 * (per-node part, or a cause of scope "node": real hosts are swapped and
 * come back from repair as whole machines), else 1. */
static long node_unit(const tmc_failure_model *m)
{
    int node = m->node_rate > 0 || m->burst_rate > 0 || m->bad_fleet;
    for (int i = 0; i < m->n_causes; i++)
        node |= m->cause_cards[i] > 1 && m->takes_spare[i];
    return node && m->cards_per_node > 1 ? m->cards_per_node : 1;
}

/* Bursts (docs/model.md 3.24): their rate, scaled as node failures are,
 * and the size law; a table's weights cumulated. */
static void bursts_model(tmc_failure_model *m, const tmc_failures *f)
{
    m->burst_rate = f->burst_per_node_mtbf_days > 0
        ? (double)m->nodes / (f->burst_per_node_mtbf_days * TMC_DAY_S) : 0;
    m->burst_size = f->burst_size;
    m->burst_nodes = f->burst_nodes;
    m->n_burst_weights = f->n_burst_weights;
    double cum = 0;
    for (int i = 0; i < f->n_burst_weights; i++)
        m->burst_cum[i] = cum += f->burst_weights[i];
}

void tmc_failures_model(tmc_failure_model *m, const tmc_experiment *x)
{
    const tmc_failures *f = &x->failures;
    m->cards = x->job.cards;
    m->tilt = 1;
    m->repair_tilt = 1;
    m->kind = f->distribution;
    m->mean_s = f->per_card_mtbf_days * TMC_DAY_S;
    if (m->kind != TMC_LIFETIME_TRACE)
        m->life = tmc_law_prepare(tmc_lifetime_laws[m->kind], m->mean_s, f->shape,
                                  f->lifetime_cv);
    m->spares = f->spares;
    m->standbys = f->standbys - (x->observed.enabled ? x->observed.standbys_used : 0);
    m->swap_s = f->standby_swap_s;
    m->pool_cards = f->spares + f->standbys;
    m->refill_s = f->standby_refill_hours * TMC_HOUR_S;
    m->start_refills = m->refill_s > 0 ? f->standbys - m->standbys : 0;
    if (m->start_refills > 0) /* refilled from the forecast's start */
        m->standbys = f->standbys;
    m->provision_s = f->spare_provision_s;
    m->repair_mean_s = f->repair_mean_hours * TMC_HOUR_S;
    m->repair_from_detection = f->repair_from == TMC_REPAIR_FROM_DETECTION;
    m->repair_kind = f->repair_distribution;
    m->repair = tmc_law_prepare(tmc_repair_laws[m->repair_kind], m->repair_mean_s,
                                f->repair_shape, f->repair_cv);
    m->auto_share = f->repair_auto_share;
    m->auto_s = f->repair_auto_hours * TMC_HOUR_S;
    m->fail_share = f->repair_fail_share;
    m->repair_events = f->repair_events;
    m->n_causes = f->n_causes;
    m->trace_days = f->trace_days;
    m->n_trace = f->n_trace;
    m->mtbf_events = f->mtbf_events;
    tmc_forecast_rate post;
    tmc_forecast_failure_rate(x, &post);
    m->rate_shape = post.shape;
    m->rate_rate = post.rate;
    m->start_in_repair = x->observed.enabled ? x->observed.cards_in_repair : 0;
    m->job_renewal = f->renewal == TMC_RENEWAL_JOB && m->kind != TMC_LIFETIME_TRACE &&
                     !tmc_lifetime_laws[m->kind]->memoryless;
    m->cards_per_node = f->cards_per_node;
    m->card_rate = f->per_card_mtbf_days > 0 ? (double)m->cards / m->mean_s : 0;
    m->node_rate = f->per_node_mtbf_days > 0
        ? (double)tmc_job_nodes(m->cards, f->cards_per_node) /
          (f->per_node_mtbf_days * TMC_DAY_S) : 0;
    m->job_rate = f->per_job_mtbf_days > 0 ? 1 / (f->per_job_mtbf_days * TMC_DAY_S) : 0;
    m->nodes = tmc_job_nodes(m->cards, f->cards_per_node);
    m->bad_share = f->bad_node_share;
    m->bad_rate = f->bad_node_mtbf_days > 0 ? 1 / (f->bad_node_mtbf_days * TMC_DAY_S) : 0;
    m->bad_retire_after = f->bad_node_retire_after;
    m->aging_rate = f->node_aging_days > 0 ? 1 / (f->node_aging_days * TMC_DAY_S) : 0;
    m->retire_k = f->bad_node_placement == TMC_BAD_IN_FLEET ? f->retire_after_failures : 0;
    m->retire_window_s = f->retire_window_days > 0 ? f->retire_window_days * TMC_DAY_S
                                                   : INFINITY;
    m->bad_fleet = (m->bad_share > 0 || m->aging_rate > 0 || m->retire_k > 0 ||
                    f->reserve_nodes > 0) &&
                   f->bad_node_placement == TMC_BAD_IN_FLEET;
    m->reserve_nodes = m->bad_fleet ? f->reserve_nodes : 0;
    m->reserve_fetch_s = f->reserve_fetch_s;
    m->bad_known = f->bad_node_known;
    m->pool_fifo = m->bad_fleet && f->spare_order == TMC_SPARE_FIFO;
    m->bad_cure = f->bad_node_cure_share;
    m->misdiagnosis = f->misdiagnosis_share;
    bursts_model(m, f);
    m->scoped = m->node_rate > 0 || m->job_rate > 0 || m->bad_share > 0 || m->burst_rate > 0 ||
                m->aging_rate > 0;
    double cum[TMC_FAILURE_PARTS] = {0};
    for (int i = 0; i < f->n_causes; i++) {
        for (int p = 0; p < TMC_FAILURE_PARTS; p++)
            m->cum_share[p][i] = cum[p] += f->causes[i].part_share[p];
        m->detection_s[i] = f->causes[i].detection_s;
        m->restore_s[i] = f->causes[i].restore_s >= 0 ? f->causes[i].restore_s
                                                      : x->checkpoint.restore_s;
        m->takes_spare[i] = f->causes[i].takes_spare;
        m->level[i] = (int)f->causes[i].level;
        m->cause_cards[i] = f->causes[i].scope == TMC_CAUSE_NODE ? f->cards_per_node : 1;
        m->detection_law[i] = f->causes[i].detection_law;
        if (m->detection_s[i] > 0) /* none: no delay, nothing drawn */
            m->detection[i] = tmc_law_prepare(tmc_detection_laws[m->detection_law[i]],
                                              m->detection_s[i], 0, f->causes[i].detection_cv);
    }
    m->unit_cards = node_unit(m);
}

int tmc_failures_poisson(const tmc_failure_model *m)
{
    /* Weibull shape 1 takes the heap: a check */
    return tmc_laws_lifetime_memoryless(m->kind);
}

/* The Poisson process's rate with `bad` bad nodes held, 1/s. */
static double poisson_rate(const tmc_failure_model *m, const tmc_failure_state *s, long bad)
{
    return (m->card_rate + m->node_rate + m->job_rate + (double)bad * m->bad_rate +
            m->burst_rate) * m->tilt * s->rate_scale;
}

/* The mean gap of the Poisson failure process, s (the same expression as
 * before scale-dependent rates when there are none: bit-identical draws). */
static double poisson_mean_s(const tmc_failure_model *m, const tmc_failure_state *s)
{
    if (!m->scoped)
        return m->mean_s / (m->cards * m->tilt * s->rate_scale);
    return 1 / poisson_rate(m, s, s->bad_nodes);
}

/* Aging (failures.node_aging_days): each good node turns bad after an
 * exponential time, independently, so looking at a set of good nodes only
 * now and then is exact: since the last look each turned bad with
 * probability 1 - e^(-a dt), a binomial count: the pool's when the pool is
 * touched, a node in repair when it leaves repair for the pool or the job
 * (since its repair started, age_repair). The job's nodes age by competing
 * clocks as its next failure is drawn (aging_after). */
static long aged_of(const tmc_failure_model *m, gsl_rng *r, long good, double dt)
{
    if (good <= 0 || !(dt > 0))
        return 0;
    return (long)gsl_ran_binomial(r, -expm1(-m->aging_rate * dt), (unsigned int)good);
}

/* The job's bad nodes at the failure drawn last (aging_after) become its
 * state when that failure strikes or when the next one is drawn from a
 * later time; one drawn from before it (a fleet's swap redraws from the
 * fault) drops them: nothing has seen them, and the nodes' clocks are
 * memoryless. */
void tmc_failures_commit_aging(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                               double t)
{
    if (!(s->job_aged_at < s->pending_at && s->pending_at <= t))
        return;
    if (m->retire_k > 0)
        tmc_node_history_age(&s->history, r, TMC_NODE_JOB_GOOD, m->nodes - s->bad_nodes,
                             s->pending_bad - s->bad_nodes);
    s->aged += s->pending_bad - s->bad_nodes;
    s->bad_nodes = s->pending_bad;
    s->job_aged_at = s->pending_at;
}

static void age_pool(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r, double t)
{
    if (!(m->aging_rate > 0) || !(t > s->pool_aged_at) || m->pool_fifo) /* fifo: as they leave */
        return;
    long units = m->unit_cards > 1 ? s->nodes_left : s->spares_left;
    long k = aged_of(m, r, units - s->bad_pool_nodes, t - s->pool_aged_at);
    if (m->retire_k > 0)
        tmc_node_history_age(&s->history, r, TMC_NODE_POOL_GOOD, units - s->bad_pool_nodes, k);
    s->bad_pool_nodes += k;
    s->aged += k;
    s->pool_aged_at = t;
}

/* Aging: the job's rate grows as its good nodes turn bad, so its next
 * failure after t is the first of two competing exponential clocks, drawn
 * again at each aging (Gillespie 1977): a failure at the rate with the bad
 * nodes held, and one of the g good nodes turning bad at g a. At most one
 * aging per node between failures; thinning at the rate with every node
 * bad, tried first, took 1e8 candidates a failure when bad nodes fail 1e8
 * times as often as good ones. */
static double aging_after(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double t)
{
    tmc_failures_commit_aging(m, s, r, t);
    /* from the last look to t (a failure drawn while the job was down and
     * dropped leaves the job's nodes as of its own time) */
    long k = aged_of(m, r, m->nodes - s->bad_nodes, t - s->job_aged_at);
    if (m->retire_k > 0)
        tmc_node_history_age(&s->history, r, TMC_NODE_JOB_GOOD, m->nodes - s->bad_nodes, k);
    s->bad_nodes += k;
    s->aged += k;
    if (t > s->job_aged_at)
        s->job_aged_at = t;
    long held = s->bad_nodes;
    for (;;) {
        double fail = poisson_rate(m, s, held), age = (double)(m->nodes - held) * m->aging_rate;
        t += tmc_rng_exponential(r, 1 / (fail + age));
        if (gsl_rng_uniform(r) * (fail + age) < fail)
            break;
        held++;
    }
    s->pending_bad = held; /* the job's state once this failure strikes */
    s->pending_at = t;
    return t;
}

/* Not Poisson: the next node or job failure after t, s. */
static double scoped_after(const tmc_failure_model *m, const tmc_failure_state *s,
                           gsl_rng *r, double t)
{
    return t + tmc_rng_exponential(r, 1 / ((m->node_rate + m->job_rate) * s->rate_scale));
}

static double lifetime(const tmc_failure_model *m, const tmc_failure_state *s, gsl_rng *r)
{
    return tmc_lifetime_laws[m->kind]->draw(&m->life, r) / s->rate_scale;
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
    /* job renewal: a law not memoryless, so one with min_draw (Weibull, lognormal) */
    return t + tmc_lifetime_laws[m->kind]->min_draw(&m->life, (double)m->cards, r) /
                   s->rate_scale;
}

static double repair_time(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r);

/* `cards` cards go to one repair starting at `from`: its time, then (fail_share
 * > 0 only) whether it fails silently, both drawn from r. A repair of
 * unit_cards > 1 cards that were one node comes back as one (`whole`); in a
 * fleet a bad node's comes back bad (`cohort`). With retirement the node
 * is record `id` (-1: none), and one that retires when its repair ends
 * leaves the fleet now: nothing may take it (node_history.h). */
static void add_repair(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                       double from, long cards, int whole, int cohort, long id)
{
    s->repairs[s->n_repairs] = from + repair_time(m, s, r);
    if (s->repair_unit && tmc_node_history_retires(&s->history, id, s->repairs[s->n_repairs])) {
        s->retired++;
        return;
    }
    if (s->repair_unit)
        s->repair_unit[s->n_repairs] = id;
    if (cohort && m->bad_cure > 0 && gsl_rng_uniform(r) < m->bad_cure) {
        cohort = 0; /* cured: it comes back good */
        s->cures++;
    }
    if (s->repair_seen) /* aging: a good node ages from here (age_repair) */
        s->repair_seen[s->n_repairs] = from;
    if (s->repair_cohort)
        s->repair_cohort[s->n_repairs] = (char)cohort;
    s->repair_cards[s->n_repairs] = cards;
    if (s->repair_node)
        s->repair_node[s->n_repairs] = whole && cards == m->unit_cards;
    if (s->repair_bad)
        s->repair_bad[s->n_repairs] = gsl_rng_uniform(r) < m->fail_share;
    s->n_repairs++;
}

/* A forecast's cards already in repair at t0: out of the pool until their
 * repairs, drawn from t0, end; whole nodes when the pool's unit is a node
 * (a remainder as loose cards). The rest of the pool: whole nodes, then
 * loose cards. */
static void start_repairs(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double t0)
{
    long g = m->unit_cards > 1 ? m->unit_cards : 1;
    for (long left = m->start_in_repair; left > 0;) {
        long cards = left >= g ? g : 1;
        add_repair(m, s, r, t0, cards, cards == g, 0, -1);
        s->spares_left -= cards;
        left -= cards;
    }
    s->nodes_left = g > 1 && s->spares_left > 0 ? s->spares_left / g : 0;
}

/* The pool's whole nodes at the start (a fleet's pool is whole nodes). */
static long pool_nodes(const tmc_failure_model *m)
{
    return m->unit_cards > 1 ? m->spares / m->unit_cards : m->spares;
}

static void draw_job_and_pool(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r);

void tmc_failures_draw_bad_nodes(const tmc_failure_model *m, tmc_failure_state *s,
                                 gsl_rng *r)
{
    s->bad_nodes = s->bad_pool_nodes = s->reserve_bad = 0;
    s->reserve_left = m->reserve_nodes;
    if (!(m->bad_share > 0))
        return;
    draw_job_and_pool(m, s, r);
    if (m->reserve_nodes > 0) /* after the others, which it leaves as they were */
        s->reserve_bad = (long)gsl_ran_binomial(r, m->bad_share, (unsigned int)m->reserve_nodes);
}

/* The bad nodes of the job and of the pool (tmc_failures_draw_bad_nodes). */
static void draw_job_and_pool(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r)
{
    if (!(m->bad_fleet && m->bad_known)) {
        s->bad_nodes = (long)gsl_ran_binomial(r, m->bad_share, (unsigned int)m->nodes);
        if (m->bad_fleet)
            s->bad_pool_nodes = (long)gsl_ran_binomial(r, m->bad_share,
                                                       (unsigned int)pool_nodes(m));
        return;
    }
    long pool = pool_nodes(m);
    long bad = (long)gsl_ran_binomial(r, m->bad_share, (unsigned int)(m->nodes + pool));
    s->bad_nodes = bad > pool ? bad - pool : 0; /* the good ones go to the job first */
    s->bad_pool_nodes = bad - s->bad_nodes;
}

/* Retirement: the records of the k nodes that leave the job (leaving_bad
 * of them bad, listed first), each of which failed at t; or, misdiagnosed,
 * the faulty one (bad: faulty_bad) records the failure and stays, and
 * another leaves. */
static void name_leaving(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r, long k,
                         int misdiagnosed, int faulty_bad, double t)
{
    tmc_node_history *h = &s->history;
    long bad = s->bad_nodes, good = m->nodes - bad, out = s->leaving_bad;
    s->n_leaving = s->leaving_next = 0;
    if (misdiagnosed) {
        tmc_node_place at = faulty_bad ? TMC_NODE_JOB_BAD : TMC_NODE_JOB_GOOD;
        long faulty = tmc_node_history_fail(h, tmc_node_history_pick(h, r, at,
                                                                     faulty_bad ? bad : good), t);
        bad -= faulty_bad; /* the others */
        good -= !faulty_bad;
        s->leaving[s->n_leaving++] = tmc_node_history_pick(
            h, r, out ? TMC_NODE_JOB_BAD : TMC_NODE_JOB_GOOD, out ? bad : good);
        tmc_node_history_put(h, faulty, at);
        return;
    }
    for (long i = 0; i < out; i++)
        s->leaving[s->n_leaving++] =
            tmc_node_history_fail(h, tmc_node_history_pick(h, r, TMC_NODE_JOB_BAD, bad - i), t);
    for (long i = 0; i < k - out; i++)
        s->leaving[s->n_leaving++] =
            tmc_node_history_fail(h, tmc_node_history_pick(h, r, TMC_NODE_JOB_GOOD, good - i), t);
}

void tmc_failures_node_leaves(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                              int bad_fault, long k, double t)
{
    long bad = s->bad_nodes, nodes = m->nodes;
    int misdiagnosed = 0, faulty_bad = 0;
    if (k == 1) {
        s->leaving_bad = bad_fault || bad == nodes ||
            (bad > 0 && (long)gsl_rng_uniform_int(r, (unsigned long)nodes) < bad);
        faulty_bad = (int)s->leaving_bad;
        if (m->misdiagnosis > 0 && nodes > 1 && gsl_rng_uniform(r) < m->misdiagnosis) {
            long others = bad - s->leaving_bad; /* the faulty one stays */
            s->leaving_bad = others > 0 &&
                (others == nodes - 1 ||
                 (long)gsl_rng_uniform_int(r, (unsigned long)(nodes - 1)) < others);
            s->misdiagnoses++;
            misdiagnosed = 1;
        }
    } else if (bad == 0 || bad == nodes) /* one kind held: nothing to draw */
        s->leaving_bad = bad ? k : 0;
    else /* a burst's k nodes, drawn from the job's without replacement */
        s->leaving_bad = (long)gsl_ran_hypergeometric(r, (unsigned)bad, (unsigned)(nodes - bad),
                                                      (unsigned)k);
    if (m->retire_k > 0)
        name_leaving(m, s, r, k, misdiagnosed, faulty_bad, t);
    s->bad_nodes -= s->leaving_bad;
}

/* `moved` nodes taken one by one, uniformly, from the n of a kind at `from`
 * to `to`: their records with them (retirement). */
static void move_named(tmc_failure_state *s, gsl_rng *r, tmc_node_place from,
                       tmc_node_place to, long n, long moved)
{
    for (long i = 0; i < moved; i++)
        tmc_node_history_put(&s->history, tmc_node_history_pick(&s->history, r, from, n - i),
                             to);
}

/* spare_order "fifo": the `units` nodes at the pool's front at `now`, each
 * aged since it was last seen good; how many are bad. */
static long take_front(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                       long units, double now)
{
    long taken = 0;
    for (long i = 0; i < units; i++) {
        tmc_pool_node node = tmc_pool_queue_pop(&s->pool_queue);
        s->bad_pool_nodes -= node.bad;
        if (!node.bad && m->aging_rate > 0 && aged_of(m, r, 1, now - node.seen) > 0) {
            node.bad = 1;
            s->aged++;
        }
        taken += node.bad;
        tmc_node_history_put(&s->history, node.id,
                             node.bad ? TMC_NODE_JOB_BAD : TMC_NODE_JOB_GOOD);
    }
    s->bad_nodes += taken;
    return taken;
}

/* In a fleet, of `units` whole units taken from the pool's `in_pool`
 * (bad_pool_nodes of them bad): how many are bad. Known bad nodes are
 * taken last; unknown ones are a hypergeometric draw from r (none when the
 * pool holds no bad node or only bad ones). */
static long take_cohort(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                        long in_pool, long units, double now)
{
    long bad = s->bad_pool_nodes, good = in_pool - bad, taken = 0;
    if (!m->bad_fleet)
        return 0;
    if (m->pool_fifo)
        return take_front(m, s, r, units, now);
    if (bad > 0 && (m->bad_known || good == 0))
        taken = units > good ? units - good : 0;
    else if (bad > 0)
        taken = (long)gsl_ran_hypergeometric(r, (unsigned)bad, (unsigned)good, (unsigned)units);
    s->bad_pool_nodes -= taken;
    s->bad_nodes += taken;
    if (m->retire_k > 0) { /* which of each kind: uniform among the pool's */
        move_named(s, r, TMC_NODE_POOL_BAD, TMC_NODE_JOB_BAD, bad, taken);
        move_named(s, r, TMC_NODE_POOL_GOOD, TMC_NODE_JOB_GOOD, good, units - taken);
    }
    return taken;
}

/* The fault counts of the replica's bad nodes (drawn by the caller): none
 * has failed yet. Returns -1 if memory runs out. */
static int start_bad_nodes(const tmc_failure_model *m, tmc_failure_state *s)
{
    s->bad_faults = NULL;
    if (m->bad_retire_after == 0 || s->bad_nodes == 0)
        return 0;
    if (!(s->bad_faults = calloc((size_t)m->bad_retire_after, sizeof *s->bad_faults)))
        return -1;
    s->bad_faults[0] = s->bad_nodes;
    return 0;
}

/* Retirement: a record for each of the fleet's nodes (node_history.h) and
 * room for the nodes that leave the job at once (a burst's, at most all).
 * Returns -1 if memory runs out. */
static int start_history(const tmc_failure_model *m, tmc_failure_state *s)
{
    if (m->retire_k == 0)
        return 0;
    if (!(s->leaving = malloc((size_t)m->nodes * sizeof *s->leaving)))
        return -1;
    return tmc_node_history_start(&s->history, m->retire_k, m->retire_window_s,
                                  m->nodes + pool_nodes(m) + m->reserve_nodes);
}

/* spare_order "fifo": the pool's nodes in a queue, bad_pool_nodes of them
 * bad, placed at random (sequential sampling: each of the rest bad with
 * probability bad left / nodes left, drawn from r only when both kinds
 * are left). Room for the whole fleet: a repair that ends before the job
 * takes its spare (instant, or shorter than the detection delay) joins a
 * full pool first, and a burst's K nodes can. Returns -1 if memory runs
 * out. */
static int start_queue(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r, double t0)
{
    if (!m->pool_fifo)
        return 0;
    long nodes = pool_nodes(m), bad = s->bad_pool_nodes;
    if (tmc_pool_queue_start(&s->pool_queue, m->nodes + nodes + m->reserve_nodes))
        return -1;
    for (long left = nodes; left > 0; left--) {
        int is_bad = bad == left || (bad > 0 && (long)gsl_rng_uniform_int(
                                                    r, (unsigned long)left) < bad);
        bad -= is_bad;
        tmc_pool_queue_push(&s->pool_queue,
                            (tmc_pool_node){.bad = (char)is_bad, .id = -1, .seen = t0});
    }
    return 0;
}

/* With a refill, the queue of refills; a forecast's standbys not warm at
 * t0 are replaced refill_s after it. Returns -1 if memory runs out. */
static int start_standbys(const tmc_failure_model *m, tmc_failure_state *s, double t0)
{
    if (!(m->refill_s > 0 && m->standbys > 0))
        return 0;
    if (!(s->refills = malloc((size_t)m->standbys * sizeof *s->refills)))
        return -1;
    for (long i = 0; i < m->start_refills; i++)
        s->refills[s->refill_n++] = t0 + m->refill_s;
    s->standbys_left -= m->start_refills;
    return 0;
}

double tmc_failures_start(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          gsl_rng *scale, double t0)
{
    s->rate_scale = m->mtbf_events > 0
        ? gsl_ran_gamma(scale, m->rate_shape, 1 / m->rate_rate) : 1;
    s->trace_next = 0;
    s->heap = NULL;
    s->repairs = NULL;
    s->repair_cards = NULL;
    s->repair_bad = NULL;
    s->repair_node = NULL;
    s->repair_cohort = NULL;
    s->repair_unit = s->leaving = NULL;
    s->repair_seen = NULL;
    s->n_leaving = s->leaving_next = s->retired = s->fetched = 0;
    s->reserve_left = m->reserve_nodes; /* its bad ones: drawn before (reserve_bad) */
    s->pool_start = t0;
    s->depleted = 0;
    s->history = (tmc_node_history){0};
    s->pool_queue = (tmc_pool_queue){0};
    s->leaving_bad = s->cures = s->misdiagnoses = s->aged = 0;
    s->job_aged_at = s->pool_aged_at = s->pending_at = t0;
    s->pending_bad = s->bad_nodes;
    s->n_repairs = 0;
    s->spares_left = m->spares;
    s->standbys_left = m->standbys;
    s->swaps = s->provisions = 0;
    s->refills = NULL;
    s->refill_head = s->refill_n = 0;
    s->bad_left = s->nodes_left = s->bad_nodes_left = 0;
    s->repair_log_w = s->repairs_drawn = s->repair_sum_s = 0;
    s->next_card = s->next_scoped = INFINITY;
    s->scoped_struck = 0;
    if (start_bad_nodes(m, s) || start_standbys(m, s, t0) || start_history(m, s) ||
        start_queue(m, s, r, t0))
        return -1;
    /* the pool's cards plus those that just failed (a node's) can all be in repair */
    long failed = m->node_rate > 0 && m->cards_per_node > 1 ? m->cards_per_node : 1;
    for (int i = 0; i < m->n_causes; i++) /* a cause of scope "node" */
        failed = m->cause_cards[i] > failed ? m->cause_cards[i] : failed;
    if (m->burst_rate > 0) /* a burst's nodes: at most the job's */
        failed = m->nodes * m->cards_per_node;
    failed += m->reserve_nodes * m->unit_cards; /* fetched, they join the pool */
    /* ... and so can the standbys' cards, which join the pool through repair
     * (a forecast's used ones too) */
    size_t room = (size_t)(m->pool_cards + failed);
    if (m->spares >= 0 &&
        (!(s->repairs = malloc(room * sizeof *s->repairs)) ||
         !(s->repair_cards = malloc(room * sizeof *s->repair_cards)) ||
         (m->fail_share > 0 && !(s->repair_bad = malloc(room * sizeof *s->repair_bad))) ||
         (m->unit_cards > 1 && !(s->repair_node = malloc(room * sizeof *s->repair_node))) ||
         (m->bad_fleet && !(s->repair_cohort = malloc(room * sizeof *s->repair_cohort))) ||
         (m->retire_k > 0 && !(s->repair_unit = malloc(room * sizeof *s->repair_unit))) ||
         (m->bad_fleet && m->aging_rate > 0 &&
          !(s->repair_seen = malloc(room * sizeof *s->repair_seen)))))
        return -1;
    start_repairs(m, s, r, t0);
    if (m->kind == TMC_LIFETIME_TRACE) /* from the start: a failure at day 0 counts */
        return trace_after(m, s, t0 > 0 ? t0 : -1);
    if (tmc_failures_poisson(m))
        return m->aging_rate > 0 ? aging_after(m, s, r, t0)
                                 : t0 + tmc_rng_exponential(r, poisson_mean_s(m, s));
    if (m->job_renewal) { /* a forecast refuses these lifetimes (config_progress.c) */
        if (!m->scoped)
            return tmc_failures_job_next(m, s, r, t0);
        s->next_card = tmc_failures_job_next(m, s, r, t0);
        s->next_scoped = scoped_after(m, s, r, t0);
        return tmc_time_min(s->next_card, s->next_scoped);
    }
    if (!(s->heap = malloc((size_t)m->cards * sizeof *s->heap)))
        return -1;
    for (long i = 0; i < m->cards; i++)
        s->heap[i] = lifetime(m, s, r);
    for (long i = m->cards / 2 - 1; i >= 0; i--)
        sift_down(s->heap, m->cards, i);
    if (m->scoped)
        s->next_scoped = scoped_after(m, s, r, 0);
    return tmc_time_min(s->heap[0], s->next_scoped);
}

double tmc_failures_restart(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                            double t)
{
    if (!m->scoped)
        return tmc_failures_job_next(m, s, r, t);
    s->next_card = tmc_failures_job_next(m, s, r, t);
    return tmc_time_min(s->next_card, s->next_scoped);
}

/* Not Poisson, scoped: the earlier clock's failure (at t or before) is
 * consumed; draw that clock's next and return the next failure of any part. */
static double scoped_clocks_after(const tmc_failure_model *m, tmc_failure_state *s,
                                  gsl_rng *r, double t)
{
    double card = m->job_renewal ? s->next_card : s->heap[0];
    s->scoped_struck = s->next_scoped < card;
    if (s->scoped_struck) {
        s->next_scoped = scoped_after(m, s, r, t);
    } else if (m->job_renewal) {
        s->next_card = tmc_failures_job_next(m, s, r, t);
    } else {
        s->heap[0] = t + lifetime(m, s, r);
        sift_down(s->heap, m->cards, 0);
    }
    return tmc_time_min(m->job_renewal ? s->next_card : s->heap[0], s->next_scoped);
}

double tmc_failures_after(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double t)
{
    if (m->kind == TMC_LIFETIME_TRACE)
        return trace_after(m, s, t);
    if (m->scoped && !tmc_failures_poisson(m))
        return scoped_clocks_after(m, s, r, t);
    if (m->job_renewal) /* discarded while down: the restart renews it anyway */
        return tmc_failures_job_next(m, s, r, t);
    if (!s->heap)
        return m->aging_rate > 0 ? aging_after(m, s, r, t)
                                 : t + tmc_rng_exponential(r, poisson_mean_s(m, s));
    s->heap[0] = t + lifetime(m, s, r);
    sift_down(s->heap, m->cards, 0);
    return s->heap[0];
}

double tmc_failures_cause_draw(const tmc_failure_model *m, gsl_rng *r)
{
    return m->n_causes > 1 ? gsl_rng_uniform(r) : 0;
}

int tmc_failures_cause(const tmc_failure_model *m, tmc_failure_scope scope, double u)
{
    if (m->n_causes <= 1)
        return 0;
    int part = scope == TMC_SCOPE_CARD  ? TMC_PART_CARD
             : scope == TMC_SCOPE_JOB   ? TMC_PART_JOB
             : scope == TMC_SCOPE_BURST ? TMC_PART_BURST : TMC_PART_NODE;
    const double *cum = m->cum_share[part];
    /* the first cause whose share holds u; past the last share (rounding),
     * the last cause with a share of this part */
    int i = 0, last = 0;
    for (; i < m->n_causes; i++) {
        int has = cum[i] > (i ? cum[i - 1] : 0);
        last = has ? i : last;
        if (has && u < cum[i])
            return i;
    }
    return last;
}

double tmc_failures_detection(const tmc_failure_model *m, int cause, gsl_rng *r)
{
    if (m->n_causes == 0)
        return 0;
    double d = m->detection_s[cause];
    if (d == 0)
        return d; /* nothing drawn (nor for a fixed delay): the stream is left as it was */
    return tmc_detection_laws[m->detection_law[cause]]->draw(&m->detection[cause], r);
}

tmc_failure_scope tmc_failures_scope(const tmc_failure_model *m, const tmc_failure_state *s,
                                     gsl_rng *r)
{
    if (!m->scoped)
        return TMC_SCOPE_CARD;
    double card = tmc_failures_poisson(m) ? m->card_rate : 0;
    if (!tmc_failures_poisson(m) && !s->scoped_struck)
        return TMC_SCOPE_CARD;
    double bad = (double)s->bad_nodes * m->bad_rate; /* 0 unless Poisson */
    /* bursts last, so that experiments without them draw as before */
    double u = gsl_rng_uniform(r) * (card + m->node_rate + m->job_rate + bad + m->burst_rate);
    if (u < card)
        return TMC_SCOPE_CARD;
    if (u < card + m->node_rate)
        return TMC_SCOPE_NODE;
    if (u < card + m->node_rate + m->job_rate)
        return TMC_SCOPE_JOB;
    return u < card + m->node_rate + m->job_rate + bad || m->burst_rate == 0 ? TMC_SCOPE_BAD_NODE
                                                                            : TMC_SCOPE_BURST;
}

long tmc_failures_burst_nodes(const tmc_failure_model *m, gsl_rng *r)
{
    double k = m->burst_nodes;
    if (m->burst_size == TMC_BURST_GEOMETRIC) /* sizes 2, 3, ...: 1 + Geometric(p) */
        k = 1 + (double)gsl_ran_geometric(r, 1 / (m->burst_nodes - 1));
    else if (m->burst_size == TMC_BURST_TABLE) {
        double u = gsl_rng_uniform(r) * m->burst_cum[m->n_burst_weights - 1];
        int i = 0;
        while (i < m->n_burst_weights - 1 && !(u < m->burst_cum[i]))
            i++;
        k = i + 1;
    }
    return k < (double)m->nodes ? (long)k : m->nodes;
}

static void drop_repair(tmc_failure_state *s, long i)
{
    s->n_repairs--;
    s->repairs[i] = s->repairs[s->n_repairs];
    s->repair_cards[i] = s->repair_cards[s->n_repairs];
    if (s->repair_bad)
        s->repair_bad[i] = s->repair_bad[s->n_repairs];
    if (s->repair_node)
        s->repair_node[i] = s->repair_node[s->n_repairs];
    if (s->repair_cohort)
        s->repair_cohort[i] = s->repair_cohort[s->n_repairs];
    if (s->repair_unit)
        s->repair_unit[i] = s->repair_unit[s->n_repairs];
    if (s->repair_seen)
        s->repair_seen[i] = s->repair_seen[s->n_repairs];
}

/* Aging: repair i's node, good when last seen, is looked at t: it turned
 * bad meanwhile with probability 1 - e^(-a (t - seen)). Looked at when it
 * leaves repair for the pool, or for the job, which ages it as its own from
 * then (looking at its repair's end instead aged it twice while the job
 * waited for it). */
static void age_repair(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r, long i,
                       double t)
{
    if (s->repair_seen && !s->repair_cohort[i] && aged_of(m, r, 1, t - s->repair_seen[i]) > 0) {
        s->repair_cohort[i] = 1;
        s->aged++;
    }
}

/* Repairs finished by time t return to the pool (a node's as a whole node),
 * the pool's nodes aged to t first, and a good node back since its end at
 * e aged for t - e. */
/* Repair i has ended by t: its cards join the pool (a node's as a whole
 * node; with spare_order "fifo" at the queue's back, its aging looked at
 * when it leaves), and it is dropped. */
static void return_repair(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r, long i,
                          double t)
{
    if (!m->pool_fifo)
        age_repair(m, s, r, i, t);
    int bad = s->repair_bad && s->repair_bad[i]; /* back looking repaired */
    s->spares_left += s->repair_cards[i];
    s->bad_left += bad ? s->repair_cards[i] : 0;
    if (s->repair_node && s->repair_node[i]) {
        s->nodes_left++;
        s->bad_nodes_left += bad;
    }
    s->bad_pool_nodes += s->repair_cohort && s->repair_cohort[i];
    long id = s->repair_unit ? s->repair_unit[i] : -1;
    if (m->pool_fifo)
        tmc_pool_queue_push(&s->pool_queue,
                            (tmc_pool_node){.bad = s->repair_cohort[i], .id = id,
                                            .seen = s->repair_seen ? s->repair_seen[i] : t});
    else
        tmc_node_history_put(&s->history, id,
                             s->repair_cohort && s->repair_cohort[i] ? TMC_NODE_POOL_BAD
                                                                    : TMC_NODE_POOL_GOOD);
    drop_repair(s, i);
}

/* Repairs finished by time t return to the pool (fifo: in the order they
 * ended, each time the earliest left). */
static void collect_repairs(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                            double t)
{
    age_pool(m, s, r, t);
    if (m->pool_fifo)
        for (;;) {
            long first = -1;
            for (long i = 0; i < s->n_repairs; i++)
                if (s->repairs[i] <= t && (first < 0 || s->repairs[i] < s->repairs[first]))
                    first = i;
            if (first < 0)
                return;
            return_repair(m, s, r, first, t);
        }
    for (long i = 0; i < s->n_repairs;)
        if (s->repairs[i] <= t)
            return_repair(m, s, r, i, t);
        else
            i++;
}

/* The manual stage's time (the whole repair without an automatic stage):
 * fixed, lognormal or Weibull of mean M (never tilted), or exponential drawn
 * with the tilted mean; its likelihood ratio term log f(x; m) - log f(x;
 * rho m) = ln rho - x / m + x / (rho m). */
static double manual_time(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r)
{
    const tmc_law_type *law = tmc_repair_laws[m->repair_kind];
    if (!law->tiltable) /* fixed, lognormal, Weibull */
        return law->draw(&m->repair, r);
    /* the replica's own mean; the product is left out when nothing is drawn,
     * so that runs without repair_events keep every bit */
    double mean = m->repair_events > 0 ? m->repair_mean_s * s->repair_scale : m->repair_mean_s;
    double rho = m->repair_tilt, x = tmc_rng_exponential(r, mean * rho);
    if (rho != 1)
        s->repair_log_w += log(rho) - x / mean + x / (rho * mean);
    s->repairs_drawn++;
    s->repair_sum_s += x;
    return x;
}

/* A repair time. With an automatic stage (auto_share a > 0) every repair
 * spends A in it; a share a ends there (one uniform draw), the rest go on
 * to the manual stage: mean A + (1 - a) M. Without one, the manual stage
 * alone, drawn as before the pipeline. */
static double repair_time(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r)
{
    if (!(m->auto_share > 0))
        return manual_time(m, s, r);
    if (gsl_rng_uniform(r) < m->auto_share)
        return m->auto_s;
    return m->auto_s + manual_time(m, s, r);
}

double tmc_failures_draw_repair_scale(const tmc_failure_model *m, gsl_rng *r)
{
    double n = m->repair_events;
    return n > 0 ? n / gsl_ran_gamma(r, n, 1.0) : 1;
}

/* The standbys at t (those refilled by then back), first: returns how
 * many of `need` cards they give (each ready after the swap); with a refill
 * each one taken is replaced refill_s after t. The job asks at times that
 * never decrease, so the refills queue in time order. */
static long take_standbys(const tmc_failure_model *m, tmc_failure_state *s, double t,
                          long need)
{
    long w = m->standbys;
    for (; s->refill_n > 0 && s->refills[s->refill_head] <= t; s->refill_n--) {
        s->refill_head = (s->refill_head + 1) % w;
        s->standbys_left++;
    }
    long take = s->standbys_left < need ? s->standbys_left : need;
    s->standbys_left -= take;
    s->swaps += take;
    for (long i = 0; s->refills && i < take; i++)
        s->refills[(s->refill_head + s->refill_n++) % w] = t + m->refill_s;
    return take;
}

/* The pool's loose cards hold some at `now`: takes up to `need`, ready
 * after provisioning at *ready; the bad ones among them (*bad, drawn
 * hypergeometric, only when the loose cards hold some) fail then and go
 * back to repair. Returns the good ones. */
static long take_loose(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                       double now, long need, double *ready, long *bad)
{
    long g = m->unit_cards, loose = s->spares_left - g * s->nodes_left;
    long loose_bad = s->bad_left - g * s->bad_nodes_left;
    long take = loose < need ? loose : need;
    *bad = loose_bad > 0
        ? (long)gsl_ran_hypergeometric(r, (unsigned)loose_bad, (unsigned)(loose - loose_bad),
                                       (unsigned)take) : 0;
    if (g == 1) /* a fleet of one-card nodes: the loose cards are its nodes */
        take_cohort(m, s, r, loose, take, now);
    s->spares_left -= take;
    s->bad_left -= *bad;
    s->provisions += take;
    *ready = now + m->provision_s;
    if (*bad > 0) /* they fail on first use and go back */
        add_repair(m, s, r, *ready, *bad, 0, 0, -1);
    return take - *bad;
}

/* One whole node of the pool at `now` (uniform: bad with probability
 * bad_nodes_left / nodes_left, drawn only when some are bad): all of it
 * when `need` >= g, else `need` of its cards, the rest left loose. Ready
 * at *ready; a bad node's cards taken (*bad: all of them) fail then and
 * go back to repair together, whole if all g were taken. Returns the good
 * ones. */
static long take_node(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                      double now, long need, double *ready, long *bad)
{
    long g = m->unit_cards, take = need < g ? need : g;
    int is_bad = s->bad_nodes_left > 0 &&
                 (long)gsl_rng_uniform_int(r, (unsigned long)s->nodes_left) < s->bad_nodes_left;
    take_cohort(m, s, r, s->nodes_left, 1, now);
    s->nodes_left--;
    s->bad_nodes_left -= is_bad;
    s->spares_left -= take;
    s->bad_left -= is_bad ? take : 0; /* the g - take left loose stay bad */
    s->provisions += take;
    *ready = now + m->provision_s;
    *bad = is_bad ? take : 0;
    if (is_bad)
        add_repair(m, s, r, *ready, take, take == g, 0, -1);
    return take - *bad;
}

/* The cold pool holds cards at `now`: a whole node for a need of a node
 * or more, else its loose cards first, then a node broken for the rest. */
static long take_pool(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                      double now, long need, double *ready, long *bad)
{
    long loose = s->spares_left - m->unit_cards * s->nodes_left;
    if (s->nodes_left > 0 && (need >= m->unit_cards || loose == 0))
        return take_node(m, s, r, now, need, ready, bad);
    return take_loose(m, s, r, now, need, ready, bad);
}

/* The pool is empty at `now`: takes up to `need` cards of the earliest
 * repair in progress (these cards' own included), ready when it has ended
 * and they are provisioned, at *ready; a failed repair's cards (*bad) fail
 * then and go back. Returns the good ones. */
static long take_repaired(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double now, long need, double *ready, long *bad)
{
    if (s->n_repairs == 0) { /* retirements left the fleet short of the job: never */
        s->depleted = 1;
        *ready = INFINITY;
        *bad = 0;
        return need;
    }
    long first = 0;
    for (long i = 1; i < s->n_repairs; i++)
        if (s->repairs[i] < s->repairs[first])
            first = i;
    long take = s->repair_cards[first] < need ? s->repair_cards[first] : need;
    int whole = s->repair_node && s->repair_node[first] && take == m->unit_cards;
    *bad = s->repair_bad && s->repair_bad[first] ? take : 0;
    age_repair(m, s, r, first, now);
    if (s->repair_cohort) /* a fleet's repairs are whole units, taken whole */
        s->bad_nodes += s->repair_cohort[first];
    if (s->repair_unit)
        tmc_node_history_put(&s->history, s->repair_unit[first],
                             s->repair_cohort[first] ? TMC_NODE_JOB_BAD : TMC_NODE_JOB_GOOD);
    *ready = fmax(s->repairs[first], now) + m->provision_s;
    if ((s->repair_cards[first] -= take) == 0)
        drop_repair(s, first);
    else if (s->repair_node) /* part of a node taken: the rest comes back loose */
        s->repair_node[first] = 0;
    s->provisions += take;
    if (*bad > 0)
        add_repair(m, s, r, *ready, take, whole, 0, -1);
    return take - *bad;
}

/* The pool is empty at *now: one node fetched from the reserve (bad with
 * probability reserve_bad / reserve_left, drawn only when it holds both
 * kinds; aged since the start, as it waited apart), ready reserve_fetch_s
 * later and provisioned; the next fetch starts when this one ends (*now
 * moves on). It joins the job, and the fleet for good. */
static long take_reserve(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                         double *now, long need, double *ready, long *bad)
{
    long take = need < m->unit_cards ? need : m->unit_cards;
    long left = s->reserve_left--, in = s->reserve_bad;
    int is_bad = in == left || (in > 0 && (long)gsl_rng_uniform_int(r, (unsigned long)left) < in);
    s->reserve_bad -= is_bad;
    if (!is_bad && m->aging_rate > 0 && aged_of(m, r, 1, *now - s->pool_start) > 0) {
        is_bad = 1;
        s->aged++;
    }
    s->bad_nodes += is_bad;
    *now += m->reserve_fetch_s;
    *ready = *now + m->provision_s;
    *bad = 0;
    s->provisions += take;
    s->fetched++;
    return take;
}

double tmc_failures_take_spare(const tmc_failure_model *m, tmc_failure_state *s,
                               gsl_rng *r, double failed_at, double t, long cards)
{
    long need = cards, warm = take_standbys(m, s, t, need);
    if (m->spares >= 0) {
        /* the failed cards join the pool through repair (a node's: one
         * repair), but not those whose standbys are replaced from outside */
        long back = m->refill_s > 0 ? cards - warm : cards;
        long g = m->unit_cards > 0 ? m->unit_cards : back; /* (a model built by hand: 0) */
        if (back > 0 && back == cards) /* whole units (a burst's nodes: one repair each) */
            for (long left = back; left > 0; left -= g < left ? g : left) {
                long id = s->leaving_next < s->n_leaving ? s->leaving[s->leaving_next++] : -1;
                add_repair(m, s, r, failed_at, g < left ? g : left, 1, s->leaving_bad > 0, id);
                s->leaving_bad -= s->leaving_bad > 0; /* a fleet's bad nodes first */
            }
        else if (back > 0) /* a standby taken: the rest go loose */
            add_repair(m, s, r, failed_at, back, 0, 0, -1);
        collect_repairs(m, s, r, t);
    }
    double wait = warm > 0 ? m->swap_s : 0;
    if ((need -= warm) == 0)
        return wait;
    if (m->spares < 0) { /* unlimited: never a repair to wait for */
        s->provisions += need;
        return fmax(wait, m->provision_s);
    }
    /* cold cards are provisioned side by side; a bad one is found when its
     * provisioning ends, and the job takes another from then */
    for (double now = t, ready; need > 0;) {
        age_pool(m, s, r, now);
        long bad, good = s->spares_left > 0   ? take_pool(m, s, r, now, need, &ready, &bad)
                         : s->reserve_left > 0 ? take_reserve(m, s, r, &now, need, &ready, &bad)
                                               : take_repaired(m, s, r, now, need, &ready, &bad);
        need -= good;
        if (good > 0)
            wait = fmax(wait, ready - t);
        if (bad > 0)
            now = ready;
    }
    return wait;
}

int tmc_failures_bad_node_fault(const tmc_failure_model *m, tmc_failure_state *s,
                                gsl_rng *r)
{
    long k = m->bad_retire_after;
    if (k == 0)
        return 0; /* never retired: which node it was does not matter */
    /* the node is uniform among the bad ones held, so its fault count j is
     * drawn with probability bad_faults[j] / bad_nodes */
    long u = (long)gsl_rng_uniform_int(r, (unsigned long)s->bad_nodes), j = 0;
    while (u >= s->bad_faults[j])
        u -= s->bad_faults[j++];
    s->bad_faults[j]--;
    if (j + 1 < k) {
        s->bad_faults[j + 1]++;
        return 0;
    }
    s->bad_nodes--; /* its k-th fault: retired, a good node takes its place */
    return 1;
}

void tmc_failures_end(tmc_failure_state *s)
{
    free(s->bad_faults);
    s->bad_faults = NULL;
    free(s->refills);
    s->refills = NULL;
    free(s->heap);
    free(s->repairs);
    free(s->repair_cards);
    free(s->repair_bad);
    free(s->repair_node);
    free(s->repair_cohort);
    s->repair_cohort = NULL;
    free(s->repair_unit);
    free(s->repair_seen);
    s->repair_seen = NULL;
    free(s->leaving);
    s->repair_unit = s->leaving = NULL;
    tmc_node_history_end(&s->history);
    tmc_pool_queue_end(&s->pool_queue);
    s->heap = s->repairs = NULL;
    s->repair_cards = NULL;
    s->repair_bad = s->repair_node = NULL;
}
