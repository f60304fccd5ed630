/* oracle.c - a deliberately naive second engine: one replica of a training
 * run, simulated the slow and obvious way, straight from the contract
 * docs/reference/simulation-semantics.md.
 *
 * It exists to catch bugs in the real engine (src/engine/engine.c), so it was
 * written without reading it and shares no code with it, nor with
 * failures.c, snapshots.c or dist.c: only the experiment struct (config.h)
 * and GSL's generator and samplers. Where a fast engine would be clever
 * (aggregated segments, one Poisson process for N cards, a ring of
 * snapshots), this file is not:
 *   - every step, every card's compute time is drawn;
 *   - every card has its own next-failure time, and so has every node (per-node
 *     failures) and the job (per-job failures); the earliest is found by a
 *     linear scan;
 *   - outages and spikes are explicit arrival times;
 *   - snapshots are records (step, capture time, commit time, committed
 *     flag, the split rows of the work they hold) in plain lists;
 *   - the spare pool is a counter plus a list of repair completion times;
 *   - the clock advances phase by phase (compute step by step, save or copy,
 *     wait, down, restore, eviction), and each phase looks for the earliest
 *     arrival that can strike it (the table of section 4), discarding those
 *     that cannot.
 * Every second of the clock is put into exactly one row of the split
 * (section 8), so the rows add up to the wall time by construction.
 *
 * Conventions the doc leaves open are marked "READING:" below. */
#include "oracle.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#define DAY_S 86400.0
#define HOUR_S 3600.0
#define ASYNC_QUEUE_MAX 64 /* section 3: at most 64 snapshots wait or are written */

/* What a phase can be struck by (section 4's table). */
enum { HIT_FAILURE = 1, HIT_OUTAGE = 2, HIT_SPIKE = 4, HIT_LIMIT = 8 };
/* Not an arrival: a save that ran past checkpoint.save_timeout_s (section 3);
 * a planned refresh restart (section 12). */
enum { HIT_TIMEOUT = 16, HIT_REFRESH = 32 };
#define STRIKES_COMPUTE (HIT_FAILURE | HIT_OUTAGE | HIT_SPIKE | HIT_LIMIT)
#define STRIKES_SAVE (HIT_FAILURE | HIT_OUTAGE | HIT_LIMIT)    /* save, copy, write waits */
#define STRIKES_RESTORE (HIT_FAILURE | HIT_OUTAGE | HIT_LIMIT) /* restore, eviction restore */
#define STRIKES_DOWN 0                             /* detection, spare wait, downtime */

/* What strikes a restore: with checkpoint.restore_immune only the limit
 * (section 5, step 3: failures and outages due meanwhile are discarded). */
static int restore_strikes(const tmc_experiment *x)
{
    return x->checkpoint.restore_immune ? HIT_LIMIT : STRIKES_RESTORE;
}

/* Section 13: nodes remembered as lost since the newest snapshot; past
 * that many, a failure restores from persistent storage. */
#define ORACLE_LOST_NODES 64

/* How a phase ended. PH_NOTICE: compute stopped for an emergency save. */
enum { PH_NOMEM = -1, PH_RAN = 0, PH_STRUCK = 1, PH_CENSORED = 2, PH_NOTICE = 3 };

/* The time a piece of work holds, by row of the split. */
typedef struct {
    double compute, straggler, pause, fixed, save, slowdown;
} work_rows;

typedef struct {
    long step;        /* steps of the run it holds */
    double capture_s; /* end of its save (sync) or copy (async) */
    double commit_s;  /* when it is on storage: sync = capture, async = end of its write */
    int committed;
    int persistent;   /* section 13: on persistent storage (always with one level) */
    work_rows work;
} snapshot;

/* A stream of arrivals of one kind that is either a Poisson process or a
 * replayed trace. */
typedef struct {
    int on;
    const double *trace_days; /* NULL: Poisson */
    int n_trace, next_trace;
    double mean_gap_s;
    double next_s; /* time of the next arrival, INFINITY if none */
} arrivals;

typedef struct {
    const tmc_experiment *x;
    gsl_rng *rng;
    long steps, k, cards;
    double mu, fixed, horizon;

    double t; /* the clock */

    /* card failures: one clock per card, or the trace */
    double *card_clock; /* NULL with a trace, without failures or without a per-card MTBF */
    double *node_clock; /* per-node failures: one clock per node; NULL without */
    long nodes;         /* ceil(cards / cards_per_node), 0 without per-node failures */
    double job_clock;   /* per-job failures' next time, INFINITY without */
    double burst_clock; /* bursts' next time (one clock at the job's rate: ceil(N / g)
                           / burst_per_node_mtbf_days), INFINITY without */
    long hit_card;      /* the failure that struck: as next_failure's *card */
    arrivals fail_trace;
    arrivals outages, spikes;
    double limit_at;  /* section 4: the time limit of the allocation (INFINITY: none) */
    double fresh_at;  /* section 12: when the job last began computing */
    double refresh_at; /* section 12: when the next refresh's save must end (INFINITY: none) */
    int hit;          /* kind of the arrival that struck */
    int notice_of;    /* PH_NOTICE: the arrival the emergency save is for */

    /* spare pool */
    long pool;        /* spares on the shelf; unused when spares = -1 */
    double *repairs;  /* completion times of repairs in progress */
    long n_repairs, cap_repairs;
    long warm;        /* warm standbys at hand (issue 19) */
    double *refills;  /* when each standby taken is warm again (refill > 0), unsorted */
    long n_refills;

    /* slow cards: indices cards - n_slow .. cards - 1 */
    long n_slow;
    int evicted;
    long completed_steps; /* completed while slow cards were in the job */

    double *card_time; /* this step's time of each card */

    /* snapshots */
    work_rows seg;                           /* work since the last capture */
    snapshot pending[ASYNC_QUEUE_MAX + 1];   /* captured, not yet committed */
    int n_pending;
    snapshot *committed;                     /* committed, oldest first */
    long n_committed, cap_committed;

    /* section 13, two levels of snapshots: the newest snapshot lost (until
     * the next commit), and the nodes whose memory went since it */
    int levels, lost_local;
    long lost_nodes[ORACLE_LOST_NODES], n_lost_nodes;

    oracle_result res; /* rows other than the committed work, and counts */
} sim;

/* ---------- small helpers ---------- */

static double work_sum(const work_rows *w)
{
    return w->compute + w->straggler + w->pause + w->fixed + w->save + w->slowdown;
}

static void work_add(work_rows *to, const work_rows *w)
{
    to->compute += w->compute;
    to->straggler += w->straggler;
    to->pause += w->pause;
    to->fixed += w->fixed;
    to->save += w->save;
    to->slowdown += w->slowdown;
}

/* A seed for MT19937 from (seed, replica) only: splitmix64 finalisers so
 * that neighbouring (seed, replica) pairs do not give related streams. */
static unsigned long mix_seed(uint64_t seed, uint64_t replica)
{
    uint64_t z = seed * 0x9E3779B97F4A7C15ULL + replica + 0x632BE59BD9B4E019ULL;
    for (int i = 0; i < 2; i++) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
    }
    return (unsigned long)(z & 0xFFFFFFFFUL);
}

/* ---------- lifetimes, repairs, downtimes (sections 4 and 5) ---------- */

static double draw_lifetime(sim *m)
{
    const tmc_failures *f = &m->x->failures;
    double mean = f->per_card_mtbf_days * DAY_S;
    switch (f->distribution) {
    case TMC_LIFETIME_WEIBULL:
        return gsl_ran_weibull(m->rng, mean / gsl_sf_gamma(1 + 1 / f->shape), f->shape);
    case TMC_LIFETIME_LOGNORMAL: {
        double s2 = log(1 + f->lifetime_cv * f->lifetime_cv);
        return gsl_ran_lognormal(m->rng, log(mean) - s2 / 2, sqrt(s2));
    }
    default:
        return gsl_ran_exponential(m->rng, mean);
    }
}

static double draw_repair(sim *m)
{
    const tmc_failures *f = &m->x->failures;
    double mean = f->repair_mean_hours * HOUR_S;
    if (f->repair_distribution == TMC_REPAIR_FIXED || mean <= 0)
        return mean;
    return gsl_ran_exponential(m->rng, mean);
}

static double draw_downtime(sim *m)
{
    const tmc_outages *o = &m->x->outages;
    if (o->downtime_cv <= 0 || o->downtime_s <= 0)
        return o->downtime_s;
    double s2 = log(1 + o->downtime_cv * o->downtime_cv);
    return gsl_ran_lognormal(m->rng, log(o->downtime_s) - s2 / 2, sqrt(s2));
}

/* ---------- arrival streams ---------- */

static void arrivals_advance(sim *m, arrivals *a)
{
    if (a->trace_days) {
        a->next_s = a->next_trace < a->n_trace ? a->trace_days[a->next_trace++] * DAY_S
                                               : INFINITY;
    } else {
        a->next_s += gsl_ran_exponential(m->rng, a->mean_gap_s);
    }
}

/* A stream that is off never arrives; a trace replays its times; else a
 * Poisson process of mean gap mean_interval_days, its first arrival one
 * exponential gap after t = 0. */
static void arrivals_init(sim *m, arrivals *a, int on, int is_trace, int n_trace,
                          const double *trace_days, double mean_interval_days)
{
    memset(a, 0, sizeof *a);
    a->on = on;
    a->next_s = INFINITY;
    if (!on || (is_trace && n_trace <= 0) || (!is_trace && !(mean_interval_days > 0)))
        return;
    if (is_trace) {
        a->trace_days = trace_days;
        a->n_trace = n_trace;
    }
    a->mean_gap_s = mean_interval_days * DAY_S;
    a->next_s = 0;
    arrivals_advance(m, a);
}

/* The earliest failure: its time, and what fails (-1 for a trace; a card
 * 0 .. cards - 1; node i as cards + i; the job as cards + nodes). */
static double next_failure(const sim *m, long *card)
{
    *card = -1;
    if (m->fail_trace.on)
        return m->fail_trace.next_s;
    double best = INFINITY;
    for (long i = 0; m->card_clock && i < m->cards; i++)
        if (m->card_clock[i] < best) {
            best = m->card_clock[i];
            *card = i;
        }
    for (long i = 0; i < m->nodes; i++)
        if (m->node_clock[i] < best) {
            best = m->node_clock[i];
            *card = m->cards + i;
        }
    if (m->job_clock < best) {
        best = m->job_clock;
        *card = m->cards + m->nodes;
    }
    if (m->burst_clock < best) { /* a burst: one past the job */
        best = m->burst_clock;
        *card = m->cards + m->nodes + 1;
    }
    return best;
}

/* The card fails at its clock time and is replaced at once by a new card:
 * a fresh lifetime from that moment (the other cards keep their ages). A
 * node or the job fails at exponential times (section 4). */
/* Section 4: renewal "job" timed at "failure": every card new from `from`. */
static int renews_at_failure(const sim *m)
{
    return m->card_clock && m->x->failures.renewal == TMC_RENEWAL_JOB &&
           m->x->failures.renewal_at == TMC_RENEWAL_AT_FAILURE;
}

static void renew_cards(sim *m, double from)
{
    for (long i = 0; i < m->cards; i++)
        m->card_clock[i] = from + draw_lifetime(m);
}

/* Bursts (section 5): the job's nodes for them, ceil(N / g). */
static long burst_job_nodes(const sim *m)
{
    long g = m->x->failures.cards_per_node;
    return (m->cards + g - 1) / g;
}

/* The mean gap between bursts, s. */
static double burst_mean_s(const sim *m)
{
    return m->x->failures.burst_per_node_mtbf_days * DAY_S / (double)burst_job_nodes(m);
}

/* A burst's nodes (section 5): fixed; geometric on 2, 3, ... by counting
 * failed Bernoulli trials of success 1 / (mean - 1) after the first two;
 * or by the table's weights, by inversion; at most the job's nodes. */
static long burst_size(sim *m)
{
    const tmc_failures *f = &m->x->failures;
    long k = (long)f->burst_nodes;
    if (f->burst_size == TMC_BURST_GEOMETRIC)
        for (k = 2; gsl_rng_uniform(m->rng) >= 1 / (f->burst_nodes - 1); k++)
            ;
    else if (f->burst_size == TMC_BURST_TABLE) {
        double total = 0, u;
        for (int i = 0; i < f->n_burst_weights; i++)
            total += f->burst_weights[i];
        u = gsl_rng_uniform(m->rng) * total;
        for (k = 1; k < f->n_burst_weights && u >= f->burst_weights[k - 1]; k++)
            u -= f->burst_weights[k - 1];
    }
    return k < burst_job_nodes(m) ? k : burst_job_nodes(m);
}

static void consume_failure(sim *m, long card)
{
    const tmc_failures *f = &m->x->failures;
    if (card < 0)
        arrivals_advance(m, &m->fail_trace);
    else if (card < m->cards && renews_at_failure(m)) /* dropped or struck: all new */
        renew_cards(m, m->card_clock[card]);
    else if (card < m->cards)
        m->card_clock[card] += draw_lifetime(m);
    else if (card < m->cards + m->nodes)
        m->node_clock[card - m->cards] += gsl_ran_exponential(m->rng,
                                                               f->per_node_mtbf_days * DAY_S);
    else if (card == m->cards + m->nodes)
        m->job_clock += gsl_ran_exponential(m->rng, f->per_job_mtbf_days * DAY_S);
    else
        m->burst_clock += gsl_ran_exponential(m->rng, burst_mean_s(m));
}

/* The earliest arrival of any kind; ties go failure, outage, spike, then
 * the time limit. The limit is no arrival to discard: a phase it cannot
 * strike (the job down) does not see it, and it strikes when the job is up
 * again, at once if it has passed. */
static int next_arrival(const sim *m, int strikes, double *when, long *card)
{
    double tf = next_failure(m, card);
    int kind = HIT_FAILURE;
    *when = tf;
    if (m->outages.next_s < *when) {
        *when = m->outages.next_s;
        kind = HIT_OUTAGE;
    }
    if (m->spikes.next_s < *when) {
        *when = m->spikes.next_s;
        kind = HIT_SPIKE;
    }
    double limit = m->limit_at > m->t ? m->limit_at : m->t;
    if ((strikes & HIT_LIMIT) && limit < *when) {
        *when = limit;
        kind = HIT_LIMIT;
    }
    return kind;
}

static void consume_arrival(sim *m, int kind, long card)
{
    if (kind == HIT_FAILURE)
        consume_failure(m, card);
    else if (kind == HIT_OUTAGE)
        arrivals_advance(m, &m->outages);
    else if (kind == HIT_SPIKE)
        arrivals_advance(m, &m->spikes);
}

/* ---------- one phase of the clock ---------- */

/* Run a phase from m->t until time `end` that arrivals of the kinds in
 * `strikes` can strike; the others are discarded as they come. Phases are
 * half-open [start, end): an arrival exactly at the end belongs to what
 * follows. *elapsed is how long the phase ran. PH_RAN: m->t is `end`
 * exactly (so a wait until a commit time lands on it, not an ulp short);
 * PH_STRUCK: m->t is the arrival, m->hit its kind; PH_CENSORED: the phase
 * would pass the horizon, m->t = horizon. */
static int phase_until(sim *m, double end, int strikes, double *elapsed)
{
    double start = m->t;
    for (;;) {
        double when;
        long card;
        int kind = next_arrival(m, strikes, &when, &card);
        if (!(when < end))
            break;
        if (!(strikes & kind)) {
            /* discarded: a failed card is still replaced (fresh lifetime).
             * READING: it does not go to repair nor take a spare, since
             * the job never needs a card for it. */
            consume_arrival(m, kind, card);
            continue;
        }
        if (when > m->horizon)
            break;
        consume_arrival(m, kind, card);
        m->t = when;
        m->hit = kind;
        m->hit_card = card;
        *elapsed = when - start;
        return PH_STRUCK;
    }
    if (end > m->horizon) {
        m->t = m->horizon;
        *elapsed = m->horizon - start;
        return PH_CENSORED;
    }
    m->t = end;
    *elapsed = end - start;
    return PH_RAN;
}

/* The same for a phase of `len` seconds. */
static int phase(sim *m, double len, int strikes, double *elapsed)
{
    return phase_until(m, m->t + len, strikes, elapsed);
}

/* ---------- snapshots ---------- */

static int push_committed(sim *m, const snapshot *s)
{
    if (m->n_committed == m->cap_committed) {
        long cap = m->cap_committed ? 2 * m->cap_committed : 16;
        snapshot *p = realloc(m->committed, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        m->committed = p;
        m->cap_committed = cap;
    }
    m->committed[m->n_committed] = *s;
    m->committed[m->n_committed].committed = 1;
    m->n_committed++;
    return 0;
}

/* Section 13 with async saves: a persistent write ended; the local
 * snapshot its copy made (the newest one of its step) is now on storage,
 * and what the write waited for goes with it. */
static void written(sim *m, const snapshot *w)
{
    for (long i = m->n_committed - 1; i >= 0; i--)
        if (m->committed[i].step == w->step) {
            m->committed[i].persistent = 1;
            work_add(&m->committed[i].work, &w->work);
            return;
        }
    assert(!"a write without its local snapshot");
}

/* Async: writes that have ended by time `t` commit, oldest first (they end
 * in capture order since they run one at a time). */
static int commit_ended_writes(sim *m, double t)
{
    int done = 0;
    while (done < m->n_pending && m->pending[done].commit_s <= t) {
        if (m->levels)
            written(m, &m->pending[done]);
        else if (push_committed(m, &m->pending[done]) < 0)
            return -1;
        done++;
    }
    memmove(m->pending, m->pending + done, (size_t)(m->n_pending - done) * sizeof *m->pending);
    m->n_pending -= done;
    return 0;
}

/* Section 5.1: everything after the newest snapshot committed by m->t is
 * lost: the current segment's work and every snapshot not yet committed
 * (their writes are abandoned). The caller has already put the partial
 * phase where it belongs. */
static int lose_uncommitted(sim *m)
{
    if (commit_ended_writes(m, m->t) < 0)
        return -1;
    m->res.lost_s += work_sum(&m->seg);
    memset(&m->seg, 0, sizeof m->seg);
    for (int i = 0; i < m->n_pending; i++)
        m->res.lost_s += work_sum(&m->pending[i].work);
    m->n_pending = 0;
    return 0;
}

/* A spike rolling back n snapshots also discards the n - 1 newest committed
 * ones (all of them if fewer exist): their work becomes lost work.
 * READING: with n - 1 >= the committed count the job goes back to step 0. */
static void roll_back(sim *m, long n)
{
    for (long i = 0; i < n - 1 && m->n_committed > 0; i++) {
        m->n_committed--;
        m->res.lost_s += work_sum(&m->committed[m->n_committed].work);
    }
}

/* Section 13: a snapshot committed; every node holds it and the copy of
 * the node before it on the ring again. */
static void snapshot_on_all_nodes(sim *m)
{
    m->lost_local = 0;
    m->n_lost_nodes = 0;
}

/* Section 13: a recovery that needed a persistent snapshot loses the
 * local ones committed after it (their work becomes lost work). */
static void back_to_persistent(sim *m)
{
    while (m->n_committed > 0 && !m->committed[m->n_committed - 1].persistent) {
        m->n_committed--;
        m->res.lost_s += work_sum(&m->committed[m->n_committed].work);
    }
}

/* Section 13: node `node` of `nodes` lost its memory; the newest snapshot
 * is lost if the node before or after it on the ring (which holds its copy,
 * or whose copy it holds) lost its memory since that snapshot, or if the
 * job has one node. */
static void node_lost(sim *m, long node, long nodes)
{
    int partner = nodes == 1 || m->n_lost_nodes == ORACLE_LOST_NODES, again = 0;
    for (long i = 0; i < m->n_lost_nodes; i++) {
        again |= m->lost_nodes[i] == node;
        partner |= m->lost_nodes[i] == (node + 1) % nodes ||
                   m->lost_nodes[i] == (node + nodes - 1) % nodes;
    }
    if (!again && m->n_lost_nodes < ORACLE_LOST_NODES)
        m->lost_nodes[m->n_lost_nodes++] = node;
    m->lost_local |= partner;
}

/* The step the job resumes after: the newest committed snapshot's, or 0. */
static long resume_step(const sim *m)
{
    return m->n_committed ? m->committed[m->n_committed - 1].step : 0;
}

/* ---------- spare pool (section 5.2) ---------- */

static int send_to_repair(sim *m, double now, double repair)
{
    if (m->n_repairs == m->cap_repairs) {
        long cap = m->cap_repairs ? 2 * m->cap_repairs : 16;
        double *p = realloc(m->repairs, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        m->repairs = p;
        m->cap_repairs = cap;
    }
    m->repairs[m->n_repairs++] = now + repair;
    return 0;
}

static void remove_repair(sim *m, long i)
{
    m->repairs[i] = m->repairs[--m->n_repairs];
}

/* When the job needs a card at m->t: repairs that have ended go back to the
 * pool; take a card from the pool, or else the earliest repair in progress
 * (how long to wait for it is returned). */
static double take_spare(sim *m)
{
    for (long i = 0; i < m->n_repairs;)
        if (m->repairs[i] <= m->t) {
            m->pool++;
            remove_repair(m, i);
        } else {
            i++;
        }
    if (m->pool > 0) {
        m->pool--;
        return 0;
    }
    long first = 0;
    for (long i = 1; i < m->n_repairs; i++)
        if (m->repairs[i] < m->repairs[first])
            first = i;
    double wait = m->repairs[first] - m->t;
    remove_repair(m, first);
    return wait;
}

/* Warm standbys (section 5, issue 19): those refilled by m->t are back;
 * takes up to `need` of them and returns how many. With a refill each one
 * taken is warm again standby_refill_hours after now. */
static long take_standbys(sim *m, long need)
{
    double refill = m->x->failures.standby_refill_hours * HOUR_S;
    for (long i = 0; i < m->n_refills;)
        if (m->refills[i] <= m->t) {
            m->warm++;
            m->refills[i] = m->refills[--m->n_refills];
        } else {
            i++;
        }
    long took = 0;
    for (; took < need && m->warm > 0; took++) {
        m->warm--;
        if (refill > 0)
            m->refills[m->n_refills++] = m->t + refill;
    }
    return took;
}

/* A failure that takes `need` cards (pool: a spare pool, else unlimited
 * spares) at failed_at, the job asking for them at m->t: standbys first
 * (the swap), then cold cards, each from the pool or a repair in progress,
 * provisioned side by side. The cards a refilled standby replaced leave the
 * job; the others go to repair from failed_at, one repair a `unit` of
 * cards (a burst's node; else all of them), or one for all when standbys
 * took some. Returns the wait, or -1 when memory runs out. `sent`: the
 * caller sent the repairs already. */
static double replacements(sim *m, long need, long unit, int pool, double failed_at, int sent)
{
    const tmc_failures *f = &m->x->failures;
    long warm = take_standbys(m, need);
    if (pool && !sent) {
        long back = f->standby_refill_hours > 0 ? need - warm : need;
        if (back < need) /* some replaced from outside: the rest one repair */
            unit = back;
        double repair = 0;
        for (long i = 0; i < back; i++)
            if ((i % unit == 0 && (repair = draw_repair(m), 0)) ||
                send_to_repair(m, failed_at, repair) < 0)
                return -1;
    }
    double wait = warm > 0 ? f->standby_swap_s : 0;
    for (long i = warm; i < need; i++)
        wait = fmax(wait, (pool ? take_spare(m) : 0) + f->spare_provision_s);
    return wait;
}

/* ---------- interruptions and recovery (section 5) ---------- */

/* A save's or a restore's length over its mean (section 3): 1 when cv = 0
 * (nothing drawn), else from checkpoint.duration_law with mean 1, sd cv. */
static double draw_factor(sim *m, double cv)
{
    if (cv <= 0)
        return 1;
    switch (m->x->checkpoint.duration_law) {
    case TMC_DURATION_GAMMA:
        return gsl_ran_gamma(m->rng, 1 / (cv * cv), cv * cv);
    case TMC_DURATION_UNIFORM:
        return gsl_ran_flat(m->rng, 1 - sqrt(3) * cv, 1 + sqrt(3) * cv);
    default: {
        double s2 = log(1 + cv * cv);
        return gsl_ran_lognormal(m->rng, -s2 / 2, sqrt(s2));
    }
    }
}

/* Draw the cause of a failure of part `part` (card, node, job) by its share
 * of that part: its detection delay and restore, and (section 5, issue 19)
 * whether it takes spares and how many cards a card's failure of it takes
 * (1, or cards_per_node for scope "node"). */
static void failure_cause(sim *m, int part, double *detection, double *restore, int *spare,
                          long *cards, int *persistent)
{
    const tmc_failures *f = &m->x->failures;
    *detection = 0;
    *restore = m->x->checkpoint.restore_s;
    *spare = 1;
    *cards = 1;
    *persistent = 0;
    if (f->n_causes <= 0)
        return;
    double u = gsl_rng_uniform(m->rng), acc = 0;
    int c = -1;
    for (int i = 0; i < f->n_causes; i++) {
        acc += f->causes[i].part_share[part];
        if (f->causes[i].part_share[part] > 0)
            c = i; /* the last one of the part if rounding leaves u above the sum */
        if (u < acc && f->causes[i].part_share[part] > 0) {
            c = i;
            break;
        }
    }
    const tmc_failure_cause *k = &f->causes[c];
    *detection = k->detection_s;
    if (k->restore_s >= 0)
        *restore = k->restore_s;
    *spare = k->takes_spare;
    *cards = k->scope == TMC_CAUSE_NODE ? f->cards_per_node : 1;
    *persistent = k->level == TMC_LEVEL_PERSISTENT;
    /* section 5: an exponential delay of mean detection_s, or a lognormal of
     * that mean and sd detection_cv x detection_s (READING: drawn after the
     * cause, from the one generator) */
    if (*detection > 0 && k->detection_law == TMC_DETECTION_EXPONENTIAL)
        *detection = gsl_ran_exponential(m->rng, k->detection_s);
    else if (*detection > 0 && k->detection_law == TMC_DETECTION_LOGNORMAL) {
        double s2 = log(1 + k->detection_cv * k->detection_cv);
        *detection = gsl_ran_lognormal(m->rng, log(k->detection_s) - s2 / 2, sqrt(s2));
    }
}

/* Section 4, the warning before a limit (time_limit.notice_s): 1 when the
 * job saves before its limit: at_limit "save" and a warning that is not
 * stated or holds the save. */
static int limit_saves(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    return tl->enabled && tl->at_limit == TMC_LIMIT_SAVE &&
           (tl->notice_s < 0 || tl->notice_s >= x->checkpoint.save_s);
}

/* Section 4: an allocation lasts wall_hours, or ends with the save the job
 * starts at a warning longer than the save: notice - save sooner. */
static double allocation_s(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    double c = x->checkpoint.save_s, hours = tl->wall_hours * 3600;
    return limit_saves(x) && tl->notice_s > c ? hours - (tl->notice_s - c) : hours;
}

/* Section 12: the job computes again from m->t. */
static void restarted(sim *m)
{
    const tmc_slowdown *d = &m->x->slowdown;
    m->fresh_at = m->t;
    m->refresh_at = d->enabled && d->refresh_hours > 0 ? m->t + d->refresh_hours * HOUR_S
                                                       : INFINITY;
}

/* Section 12: what the drift adds to a slowest-card time y, h s after the
 * job began computing: y a h, or y s (1 - e^(-a h / s)). */
static double drift(const sim *m, double y, double h)
{
    const tmc_slowdown *d = &m->x->slowdown;
    if (!d->enabled)
        return 0;
    double a = d->per_hour / HOUR_S;
    return d->max_extra > 0 ? y * d->max_extra * (1 - exp(-a * h / d->max_extra)) : y * a * h;
}

/* A down phase (nothing strikes): its whole length goes to `row`. */
static int down(sim *m, double len, double *row)
{
    double el;
    int rc = phase(m, len, STRIKES_DOWN, &el);
    *row += el;
    return rc;
}

/* Section 13: what a failure restores from. Its cause may need a
 * persistent snapshot; one that takes hardware takes its node's memory
 * (the node of the card that failed, or the node that failed; a replayed
 * failure's card drawn uniformly); a hang or the job's own failure restart
 * in place. A local restore takes local_restore_s. */
static void failure_level(sim *m, int persistent, int takes, double *restore)
{
    const tmc_failures *f = &m->x->failures;
    long g = f->cards_per_node, nodes = (m->cards + g - 1) / g;
    if (persistent)
        m->lost_local = 1;
    else if (takes && m->hit_card == m->cards + m->nodes + 1) /* a burst of 1: a node */
        node_lost(m, (long)gsl_rng_uniform_int(m->rng, (unsigned long)nodes), nodes);
    else if (takes) {
        long card = m->hit_card >= 0 ? m->hit_card
                                     : (long)gsl_rng_uniform_int(m->rng, (unsigned long)m->cards);
        node_lost(m, card < m->cards ? card / g : card - m->cards, nodes);
    }
    if (!m->lost_local)
        *restore = m->x->checkpoint.local_restore_s >= 0 ? m->x->checkpoint.local_restore_s
                                                         : m->x->checkpoint.restore_s;
}

/* Steps 1-3 of section 5 for the arrival m->hit that struck at m->t, and
 * again for every arrival that strikes the restore. PH_RAN when the restore
 * has ended, or PH_CENSORED / PH_NOMEM. */
static int interruption(sim *m)
{
    double restore = m->x->checkpoint.restore_s, cut = -1; /* cut: a restore struck */
    int cut_local = 0; /* section 13: it was a local one (a new allocation restores from
                          storage instead) */
    for (;;) {
        int kind = m->hit;
        if (lose_uncommitted(m) < 0)
            return PH_NOMEM;
        /* section 4: renewal "job" at "failure": new clocks from the
         * interruption's instant, aged by the time down */
        if (renews_at_failure(m))
            renew_cards(m, m->t);
        /* section 4: a limit that cuts a restore requeues the job and then
         * redoes that restore in full */
        restore = kind == HIT_LIMIT && cut >= 0 && !cut_local ? cut
                                                              : m->x->checkpoint.restore_s;
        cut_local = 0;
        int rc = PH_RAN;
        if (kind == HIT_FAILURE) {
            m->res.card_failures++;
            double detection;
            int spare;
            long card_need;
            int persistent;
            int burst = m->hit_card == m->cards + m->nodes + 1;
            int part = m->hit_card < 0 || m->hit_card < m->cards ? TMC_PART_CARD
                     : m->hit_card < m->cards + m->nodes ? TMC_PART_NODE
                     : burst ? TMC_PART_BURST : TMC_PART_JOB;
            failure_cause(m, part, &detection, &restore, &spare, &card_need, &persistent);
            long burst_k = burst ? burst_size(m) : 0; /* READING: after the cause */
            /* section 5: a card takes one spare (its node's cards_per_node
             * for a cause of scope "node"), a node its cards_per_node
             * (repaired together: one repair time), the job none, and a
             * cause that takes no spare none */
            long need = m->hit_card < 0 || m->hit_card < m->cards ? card_need
                      : m->hit_card < m->cards + m->nodes ? m->x->failures.cards_per_node
                      : burst ? burst_k * m->x->failures.cards_per_node : 0;
            const tmc_failures *f = &m->x->failures;
            int takes = need > 0 && spare, pool = f->spares >= 0 && takes;
            if (burst) {
                m->res.bursts++;
                m->res.burst_nodes += (double)burst_k;
            }
            /* section 13: a burst of 2 or more nodes that takes spares loses
             * the partners' copies with its neighbours; of 1, a node's */
            if (m->levels && burst && takes && burst_k > 1)
                m->lost_local = 1;
            if (m->levels)
                failure_level(m, persistent, takes, &restore);
            /* without standbys or a refill, what is sent to repair does not
             * depend on the standbys: drawn and sent before the detection,
             * unless repairs start at the detection (section 5) */
            int from_detection = f->repair_from == TMC_REPAIR_FROM_DETECTION;
            int send_now = pool && !(f->standbys > 0 && f->standby_refill_hours > 0) &&
                           !from_detection;
            /* one repair for the failure's cards; a burst's nodes one each */
            long unit = burst ? f->cards_per_node : need;
            double repair = 0, failed_at = m->t;
            for (long i = 0; send_now && i < need; i++)
                if ((i % unit == 0 && (repair = draw_repair(m), 0)) ||
                    send_to_repair(m, m->t, repair) < 0)
                    return PH_NOMEM;
            rc = down(m, detection, &m->res.detection_s);
            if (from_detection)
                failed_at = m->t;
            double wait = rc == PH_RAN && takes
                ? replacements(m, need, burst ? f->cards_per_node : need, pool, failed_at,
                               send_now)
                : 0;
            if (wait < 0)
                return PH_NOMEM;
            if (rc == PH_RAN && (pool || wait > 0)) /* unlimited spares: a wait only */
                rc = down(m, wait, &m->res.spare_wait_s);     /* with standbys or H */
        } else if (kind == HIT_OUTAGE) {
            m->res.outages++;
            m->lost_local = 1;
            rc = down(m, draw_downtime(m), &m->res.downtime_s);
        } else if (kind == HIT_TIMEOUT) {
            m->res.save_timeouts++; /* relaunched at once: straight to the restore */
            m->lost_local = 1;
        } else if (kind == HIT_REFRESH) { /* section 12: a restart of its own cost */
            m->res.refreshes++;
            const tmc_slowdown *d = &m->x->slowdown;
            restore = d->refresh_s >= 0 ? d->refresh_s : m->x->checkpoint.restore_s;
        } else if (kind == HIT_SPIKE) {
            m->res.loss_spikes++;
            m->lost_local = 1;
            roll_back(m, m->x->loss_spikes.rollback_snapshots);
        } else {
            m->res.requeues++;
            m->lost_local = 1;
            rc = down(m, m->x->time_limit.requeue_s, &m->res.requeue_s);
        }
        if (m->levels) /* section 13: counted as it strikes */
            m->res.persistent_restores += m->lost_local;
        if (rc != PH_RAN)
            return rc;
        /* section 4: a requeue starts a new allocation at the restore, and
         * so does every restart with restarts "new_allocation" */
        const tmc_time_limit *tl = &m->x->time_limit;
        if (tl->enabled && (kind == HIT_LIMIT || tl->restarts == TMC_RESTART_NEW))
            m->limit_at = m->t + allocation_s(m->x);
        /* section 4: with renewal "job" the restarted job's cards are all
         * new: every card gets a fresh lifetime from now */
        if (m->card_clock && m->x->failures.renewal == TMC_RENEWAL_JOB && !renews_at_failure(m))
            renew_cards(m, m->t);
        /* READING: every arrival is followed by a restore, even one
         * before the first commit (the job reloads its initial state),
         * as in Daly's model */
        double el;
        rc = phase(m, restore * draw_factor(m, m->x->checkpoint.restore_cv),
                   restore_strikes(m->x), &el);
        /* READING: a cut restore is still restore time (a refresh's, its own row) */
        *(kind == HIT_REFRESH ? &m->res.refresh_s : &m->res.restore_s) += el;
        if (rc == PH_RAN)
            restarted(m);
        if (rc != PH_STRUCK)
            return rc;
        cut = restore;
        cut_local = m->levels && !m->lost_local;
    }
}

/* ---------- slow cards (section 6) ---------- */

static int eviction_due(const sim *m)
{
    long w = m->x->slow_cards.detect_after_steps;
    return m->n_slow > 0 && !m->evicted && w > 0 && m->completed_steps >= w;
}

/* The eviction restore: from its start every card is normal. READING: if it
 * is struck, the time it ran stays in the eviction row (no work is at risk
 * in it) and it is not done again. */
static int evict(sim *m)
{
    const tmc_slow_cards *sc = &m->x->slow_cards;
    double len = sc->eviction_restore_s >= 0 ? sc->eviction_restore_s
                                             : m->x->checkpoint.restore_s;
    m->evicted = 1;
    m->res.evictions++;
    double el;
    int rc = phase(m, len * draw_factor(m, m->x->checkpoint.restore_cv), restore_strikes(m->x),
                   &el);
    m->res.eviction_s += el;
    if (rc == PH_RAN)
        restarted(m);
    return rc;
}

/* A full recovery from the arrival that struck; async also evicts right
 * after it if detection is due (nothing is queued after a recovery).
 * An eviction that is struck leads to another recovery. */
static int recover(sim *m)
{
    for (;;) {
        int rc = interruption(m);
        if (rc != PH_RAN)
            return rc;
        if (m->x->checkpoint.mode != TMC_SAVE_ASYNC || !eviction_due(m))
            return PH_RAN;
        rc = evict(m);
        if (rc != PH_STRUCK)
            return rc;
    }
}

/* ---------- one step (section 2) ---------- */

/* READING: slowness belongs to the card's place in the job: a slow card
 * that fails is replaced by a slow one (section 2: slow cards "stay until
 * they are evicted"). */
static int is_slow(const sim *m, long card)
{
    return !m->evicted && card >= m->cards - m->n_slow;
}

static double draw_jitter(sim *m, double z0)
{
    const tmc_jitter *j = &m->x->jitter;
    double cv = j->cv;
    if (cv <= 0)
        return m->mu;
    switch (j->kind) {
    case TMC_JITTER_LOGNORMAL: {
        double s2 = log(1 + cv * cv);
        return m->mu * gsl_ran_lognormal(m->rng, -s2 / 2, sqrt(s2));
    }
    case TMC_JITTER_GAMMA:
        return m->mu * gsl_ran_gamma(m->rng, 1 / (cv * cv), cv * cv);
    default: {
        double zi = gsl_ran_gaussian(m->rng, 1.0);
        return m->mu * (1 + cv * (sqrt(j->rho) * z0 + sqrt(1 - j->rho) * zi));
    }
    }
}

/* The slowest card's time in step j (1-based index in the run), and the
 * pause it contains (*pause, 0 if the step is not paused). */
static double draw_step(sim *m, long j, double *pause)
{
    const tmc_pauses *p = &m->x->pauses;
    int paused = p->enabled && p->every_steps > 0 && j % p->every_steps == 0;
    double z0 = 0;
    if (m->x->jitter.kind == TMC_JITTER_NORMAL && m->x->jitter.cv > 0 && m->x->jitter.rho > 0)
        z0 = gsl_ran_gaussian(m->rng, 1.0); /* the part shared by the step's cards */
    for (long i = 0; i < m->cards; i++) {
        double xi = draw_jitter(m, z0);
        m->card_time[i] = is_slow(m, i) ? m->x->slow_cards.factor * xi : xi;
    }
    *pause = paused ? p->duration_s : 0;
    if (paused) {
        if (p->cards == TMC_PAUSE_ONE && m->cards > 1) {
            /* one card pauses: a normal one while any remains (normal cards
             * are the low indices), else a slow one */
            m->card_time[0] += p->duration_s;
        } else {
            /* READING: "all" adds the pause to every card before the max */
            for (long i = 0; i < m->cards; i++)
                m->card_time[i] += p->duration_s;
        }
    }
    double slowest = 0;
    for (long i = 0; i < m->cards; i++)
        if (m->card_time[i] > slowest)
            slowest = m->card_time[i];
    return slowest;
}

/* Section 3, emergency saves (sync saves only): the moment one must start,
 * one save before the next outage with notice of at least a save or before
 * the time limit with at_limit "save", or INFINITY (none, or that moment
 * has passed: the notice came during a save or a restore and the arrival
 * strikes like any other). *kind: HIT_OUTAGE or HIT_LIMIT. */
static double notice_point(const sim *m, int *kind)
{
    const tmc_outages *o = &m->x->outages;
    double c = m->x->checkpoint.save_s, best = INFINITY;
    if (m->x->checkpoint.mode != TMC_SAVE_SYNC)
        return INFINITY;
    if (o->enabled && o->notice_s > 0 && o->notice_s >= c && m->outages.next_s - c >= m->t) {
        best = m->outages.next_s - c;
        *kind = HIT_OUTAGE;
    }
    /* READING: an outage's and the limit's save points at the same moment:
     * the outage's (it comes first in the ties of next_arrival) */
    if (limit_saves(m->x) && m->limit_at - c >= m->t &&
        m->limit_at - c < best) {
        best = m->limit_at - c;
        *kind = HIT_LIMIT;
    }
    if (m->refresh_at - c >= m->t && m->refresh_at - c < best) { /* section 12 */
        best = m->refresh_at - c;
        *kind = HIT_REFRESH;
    }
    return best;
}

/* Steps from .. to - 1 of the run (0-based), one phase each; *done: the
 * steps of the run completed when it returns. A step that the notice point
 * falls in is cut there (lost work) and PH_NOTICE returned. */
static int compute_steps(sim *m, long from, long to, long *done)
{
    double save_at = notice_point(m, &m->notice_of); /* fixed for the segment */
    for (long s = from; s < to; s++) {
        double pause, el;
        double slowest = draw_step(m, s + 1, &pause);
        double extra = drift(m, slowest, m->t - m->fresh_at); /* at the step's start */
        slowest += extra;
        *done = s;
        if (m->t + slowest + m->fixed > save_at) {
            int rc = phase_until(m, save_at, STRIKES_COMPUTE, &el);
            m->res.lost_s += el;
            return rc == PH_RAN ? PH_NOTICE : rc;
        }
        int rc = phase(m, slowest + m->fixed, STRIKES_COMPUTE, &el);
        if (rc != PH_RAN) {
            m->res.lost_s += el; /* a cut step is lost work */
            return rc;
        }
        m->seg.compute += m->mu;
        m->seg.pause += pause;
        m->seg.straggler += slowest - m->mu - pause - extra;
        m->seg.slowdown += extra;
        m->seg.fixed += m->fixed;
        if (m->n_slow > 0 && !m->evicted)
            m->completed_steps++;
    }
    *done = to;
    return PH_RAN;
}

/* After PH_NOTICE at step `done`: the emergency save runs until the outage
 * or the limit (m->notice_of) strikes (other arrivals may strike it: its
 * time is then lost); it commits the steps done since the last commit, if
 * any (else its time is lost work, no snapshot). Then that arrival strikes:
 * PH_STRUCK. */
static int emergency_save(sim *m, long done)
{
    int empty = work_sum(&m->seg) == 0, kind = m->notice_of;
    if (kind == HIT_REFRESH && empty) { /* section 12: nothing to save, restart now */
        m->hit = kind;
        return PH_STRUCK;
    }
    double el, strike = kind == HIT_OUTAGE ? m->outages.next_s
                      : kind == HIT_LIMIT  ? m->limit_at
                                           : m->refresh_at;
    int rc = phase_until(m, strike, STRIKES_SAVE, &el);
    if (rc != PH_RAN || empty) {
        m->res.lost_s += el;
        if (rc != PH_RAN)
            return rc;
    } else {
        m->seg.save += el;
        snapshot s = {.step = done, .capture_s = m->t, .commit_s = m->t, .persistent = 1,
                      .work = m->seg}; /* section 13: saved for an outside event */
        if (push_committed(m, &s) < 0)
            return PH_NOMEM;
        memset(&m->seg, 0, sizeof m->seg);
        snapshot_on_all_nodes(m);
    }
    if (kind == HIT_OUTAGE)
        arrivals_advance(m, &m->outages);
    m->hit = kind;
    return PH_STRUCK;
}

/* ---------- checkpoints (section 3) ---------- */

/* A phase of saving work (save, copy, wait for writes) until time `end`:
 * done, its time goes to *row; cut, to lost work. */
static int save_until(sim *m, double end, double *row)
{
    double el;
    int rc = phase_until(m, end, STRIKES_SAVE, &el);
    if (rc == PH_RAN)
        *row += el;
    else
        m->res.lost_s += el;
    return rc;
}

/* A save or a copy of drawn length around save_s (section 3; section 13: a
 * local save's own): PH_RAN when it ended in
 * time; a save still running at checkpoint.save_timeout_s is cut there (its
 * time lost) and strikes as HIT_TIMEOUT. */
static int timed_save(sim *m, double save_s)
{
    const tmc_checkpoint *cp = &m->x->checkpoint;
    double len = save_s * draw_factor(m, cp->save_cv);
    if (cp->save_timeout_s <= 0 || len <= cp->save_timeout_s)
        return save_until(m, m->t + len, &m->seg.save);
    double el;
    int rc = phase_until(m, m->t + cp->save_timeout_s, STRIKES_SAVE, &el);
    m->res.lost_s += el;
    if (rc != PH_RAN)
        return rc;
    m->hit = HIT_TIMEOUT;
    return PH_STRUCK;
}

/* Section 13: with two levels every m-th interval's snapshot and the last
 * are persistent, the others local and cheaper. */
static int persistent_at(const sim *m, long end)
{
    long every = m->x->checkpoint.persistent_every * m->k;
    return !m->levels || end % every == 0 || end == m->steps;
}

/* The blocking save (sync) or copy (async) of a snapshot, s. */
static double save_cost(const sim *m, int persistent)
{
    const tmc_checkpoint *cp = &m->x->checkpoint;
    return persistent || cp->local_save_s < 0 ? cp->save_s : cp->local_save_s;
}

/* Sync: the save after the segment ending at step `end`; it commits when
 * it ends. Then the eviction, if due and this is not the final save. */
static int save_sync(sim *m, long end)
{
    int persistent = persistent_at(m, end);
    int rc = timed_save(m, save_cost(m, persistent));
    if (rc != PH_RAN)
        return rc;
    snapshot s = {.step = end, .capture_s = m->t, .commit_s = m->t, .persistent = persistent,
                  .work = m->seg};
    if (push_committed(m, &s) < 0)
        return PH_NOMEM;
    snapshot_on_all_nodes(m);
    memset(&m->seg, 0, sizeof m->seg);
    if (end < m->steps && eviction_due(m)) {
        int rc = evict(m);
        if (rc != PH_RAN)
            return rc;
    }
    /* section 12: the moment to stop for a refresh passed in the save */
    if (end < m->steps && m->t >= m->refresh_at - m->x->checkpoint.save_s) {
        m->hit = HIT_REFRESH;
        return PH_STRUCK;
    }
    return PH_RAN;
}

/* Async: wait (its time in the newest snapshot's save row) until every
 * queued write has ended. */
static int wait_all_writes(sim *m)
{
    if (m->n_pending == 0)
        return PH_RAN;
    snapshot *newest = &m->pending[m->n_pending - 1];
    int rc = save_until(m, fmax(m->t, newest->commit_s), &newest->work.save);
    if (rc != PH_RAN)
        return rc;
    return commit_ended_writes(m, m->t) < 0 ? PH_NOMEM : PH_RAN;
}

/* Async: the blocking copy after the segment ending at step `end`, a wait
 * if 64 snapshots are queued, the capture and its write; after the last
 * segment, the wait for the last writes; else the eviction if due.
 * READING: "64 queued" counts the snapshots captured earlier and not yet
 * committed when the copy ends (a write ending at that instant has
 * committed); the new one is captured once fewer than 64 remain. The
 * eviction's "segment boundary" is after this segment's copy and capture,
 * once every write (this one included) has committed, so that the state
 * the eviction reloads holds all the work done (no work is lost). */
static int save_async(sim *m, long end)
{
    const tmc_checkpoint *cp = &m->x->checkpoint;
    int persistent = persistent_at(m, end);
    int rc = timed_save(m, save_cost(m, persistent));
    if (rc != PH_RAN)
        return rc;
    if (commit_ended_writes(m, m->t) < 0)
        return PH_NOMEM;
    if (persistent && m->n_pending >= ASYNC_QUEUE_MAX) {
        /* training waits in the copy until the oldest snapshot commits */
        rc = save_until(m, m->pending[0].commit_s, &m->seg.save);
        if (rc != PH_RAN)
            return rc;
        if (commit_ended_writes(m, m->t) < 0)
            return PH_NOMEM;
    }
    if (m->levels) {
        /* section 13: the copy is a local snapshot at once, with the work
         * since the last one; a persistent one is written after */
        snapshot local = {.step = end, .capture_s = m->t, .commit_s = m->t, .work = m->seg};
        if (push_committed(m, &local) < 0)
            return PH_NOMEM;
        snapshot_on_all_nodes(m);
        memset(&m->seg, 0, sizeof m->seg);
    }
    if (persistent) {
        double write_start = m->t;
        if (m->n_pending > 0 && m->pending[m->n_pending - 1].commit_s > write_start)
            write_start = m->pending[m->n_pending - 1].commit_s;
        snapshot s = {.step = end, .capture_s = m->t, .commit_s = write_start + cp->write_s,
                      .work = m->seg};
        assert(m->n_pending < ASYNC_QUEUE_MAX);
        m->pending[m->n_pending++] = s;
        memset(&m->seg, 0, sizeof m->seg);
        if (commit_ended_writes(m, m->t) < 0) /* a zero-time write commits at once */
            return PH_NOMEM;
    }
    if (end == m->steps)
        return wait_all_writes(m); /* READING: no eviction at the last boundary */
    if (!eviction_due(m))
        return PH_RAN;
    /* READING: the wait before an eviction is a wait for the write queue
     * (save row, lost if struck), in the newest snapshot */
    rc = wait_all_writes(m);
    return rc == PH_RAN ? evict(m) : rc;
}

/* ---------- the run ---------- */

/* Censored at the horizon: writes that ended by then commit, and all the
 * rest is lost work (the partial phase is already in its row).
 * READING: the doc does not split a censored replica; this keeps the rows
 * adding to the horizon, uncommitted work counting as lost. */
static int censor(sim *m)
{
    m->t = m->horizon;
    m->res.censored = 1;
    return lose_uncommitted(m) < 0 ? PH_NOMEM : PH_RAN;
}

static int run(sim *m)
{
    long next = 0; /* steps of the run done and held by the restored state */
    for (;;) {
        long end = (next / m->k + 1) * m->k;
        if (end > m->steps)
            end = m->steps;
        long done;
        int rc = compute_steps(m, next, end, &done);
        if (rc == PH_NOTICE)
            rc = emergency_save(m, done);
        else if (rc == PH_RAN)
            rc = m->x->checkpoint.mode == TMC_SAVE_ASYNC ? save_async(m, end) : save_sync(m, end);
        if (rc == PH_RAN && end == m->steps)
            return 0; /* the last snapshot has committed */
        next = end;
        if (rc == PH_STRUCK) {
            rc = recover(m);
            if (m->levels && m->lost_local) /* section 13 */
                back_to_persistent(m);
            next = resume_step(m); /* after the restored snapshot */
        }
        if (rc == PH_NOMEM)
            return -1;
        if (rc == PH_CENSORED)
            return censor(m) == PH_NOMEM ? -1 : 0;
    }
}

static int setup(sim *m, const tmc_experiment *x, long k, double mu, double horizon,
                 uint64_t seed, uint64_t replica)
{
    memset(m, 0, sizeof *m);
    m->x = x;
    m->steps = x->job.steps;
    m->cards = x->job.cards;
    m->k = k < 1 ? 1 : (k > m->steps ? m->steps : k);
    m->mu = mu;
    m->fixed = x->job.exposed_comm_s + x->job.input_wait_s;
    m->horizon = horizon;
    m->limit_at = x->time_limit.enabled ? allocation_s(x) : INFINITY;
    m->levels = x->checkpoint.persistent_every > 1;
    restarted(m); /* t = 0 */
    m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    m->card_time = malloc((size_t)m->cards * sizeof *m->card_time);
    if (!m->rng || !m->card_time)
        return -1;
    gsl_rng_set(m->rng, mix_seed(seed, replica));

    /* slow cards are chosen first, at the replica's start */
    if (x->slow_cards.enabled && x->slow_cards.fraction > 0)
        m->n_slow = (long)gsl_ran_binomial(m->rng, x->slow_cards.fraction,
                                           (unsigned int)m->cards);

    const tmc_failures *f = &x->failures;
    arrivals_init(m, &m->fail_trace, f->enabled && f->distribution == TMC_LIFETIME_TRACE, 1,
                  f->n_trace, f->trace_days, 0);
    if (f->enabled && f->distribution != TMC_LIFETIME_TRACE && f->per_card_mtbf_days > 0) {
        m->card_clock = malloc((size_t)m->cards * sizeof *m->card_clock);
        if (!m->card_clock)
            return -1;
        for (long i = 0; i < m->cards; i++) /* all cards start new at t = 0 */
            m->card_clock[i] = draw_lifetime(m);
    }
    m->job_clock = INFINITY;
    if (f->enabled && f->per_node_mtbf_days > 0) {
        m->nodes = (m->cards + f->cards_per_node - 1) / f->cards_per_node;
        m->node_clock = malloc((size_t)m->nodes * sizeof *m->node_clock);
        if (!m->node_clock)
            return -1;
        for (long i = 0; i < m->nodes; i++)
            m->node_clock[i] = gsl_ran_exponential(m->rng, f->per_node_mtbf_days * DAY_S);
    }
    if (f->enabled && f->per_job_mtbf_days > 0)
        m->job_clock = gsl_ran_exponential(m->rng, f->per_job_mtbf_days * DAY_S);
    m->burst_clock = f->enabled && f->burst_per_node_mtbf_days > 0
        ? gsl_ran_exponential(m->rng, burst_mean_s(m)) : INFINITY;
    m->pool = f->spares;
    m->warm = f->enabled ? f->standbys : 0;
    m->n_refills = 0;
    if (m->warm > 0 && !(m->refills = malloc((size_t)m->warm * sizeof *m->refills)))
        return -1;
    /* n_trace > 0: replay the trace instead of the Poisson process */
    arrivals_init(m, &m->outages, x->outages.enabled, x->outages.n_trace > 0,
                  x->outages.n_trace, x->outages.trace_days, x->outages.mean_interval_days);
    arrivals_init(m, &m->spikes, x->loss_spikes.enabled, x->loss_spikes.n_trace > 0,
                  x->loss_spikes.n_trace, x->loss_spikes.trace_days,
                  x->loss_spikes.mean_interval_days);
    return 0;
}

static void teardown(sim *m)
{
    gsl_rng_free(m->rng);
    free(m->card_time);
    free(m->card_clock);
    free(m->node_clock);
    free(m->repairs);
    free(m->refills);
    free(m->committed);
}

/* The rows of the committed snapshots, the counts, and the self-check. */
static void fill_result(sim *m, oracle_result *out)
{
    work_rows w = {0};
    for (long i = 0; i < m->n_committed; i++)
        work_add(&w, &m->committed[i].work);
    oracle_result r = m->res;
    r.compute_s = w.compute;
    r.straggler_s = w.straggler;
    r.pause_s = w.pause;
    r.fixed_s = w.fixed;
    r.save_s = w.save;
    r.slowdown_s = w.slowdown;
    r.saves = (double)m->n_committed;
    r.slow_cards = (double)m->n_slow;
    r.wall_s = m->t;
    double sum = r.compute_s + r.straggler_s + r.pause_s + r.fixed_s + r.save_s + r.lost_s +
                 r.restore_s + r.downtime_s + r.detection_s + r.spare_wait_s + r.eviction_s +
                 r.requeue_s + r.slowdown_s + r.refresh_s;
    (void)sum;
    assert(fabs(sum - r.wall_s) <= 1e-9 * fmax(1.0, r.wall_s));
    *out = r;
}

int oracle_run(const tmc_experiment *x, long interval_steps, double compute_s,
               double horizon_s, uint64_t seed, uint64_t replica, oracle_result *out)
{
    sim m;
    int rc = setup(&m, x, interval_steps, compute_s, horizon_s, seed, replica);
    if (rc == 0)
        rc = run(&m);
    if (rc == 0)
        fill_result(&m, out);
    teardown(&m);
    return rc;
}
