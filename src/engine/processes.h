/* processes.h - what interrupts a run: card failures, common outages and
 * loss spikes (docs/reference/simulation-semantics.md, 3 and 4). Each process answers
 * two questions: when its next arrival is (next[k]), and what happens when
 * it strikes (tmc_processes_strike: the job waits, then restores).
 *
 * Failures (rate N / MTBF_card plus per-node and per-job rates, or per-card
 * renewal; failures.h), outages
 * and spikes are processes in wall-clock time, each with its own random
 * stream; outages and spikes may be replayed from a trace instead. The
 * engine decides which arrivals count: failures and outages strike anywhere
 * but while the job is down, spikes only during compute.
 *
 * Invariants: next[k] is the absolute time of process k's next arrival
 * (INFINITY when off or past a trace's end), always drawn from its row's
 * stream (tmc_process_types[k].stream), so its arrival times do not depend on
 * what the others do; arrivals[k] counts those that struck, down_s and
 * spike_exposure_s the time none could (for the likelihood ratio). */
#ifndef TMC_PROCESSES_H
#define TMC_PROCESSES_H

#include <gsl/gsl_rng.h>

#include "accounting.h"
#include "closed_form.h"
#include "experiment.h"
#include "failures.h"
#include "rng_pcg.h"

/* The kinds of interruption: the three random processes (each with its
 * own stream and rate tilt, in this order), then the time limit and a save
 * timeout, struck like them but without a stream. The processes that strike
 * whenever the job is up come before those that strike in compute only
 * (TMC_PROCESSES_ANYTIME: test_process_types checks the rows agree). */
enum {
    TMC_FAILURE = 0,
    TMC_OUTAGE = 1,
    TMC_SPIKE = 2,
    TMC_PROCESSES = 3,
    TMC_LIMIT = TMC_PROCESSES, /* the allocation's wall-clock limit */
    TMC_TIMEOUT = 4,           /* a save that ran past checkpoint.save_timeout_s:
                                  the job fails at once and restores (docs/model.md 3.12) */
    TMC_REFRESH = 5,           /* a planned refresh restart (slowdown.refresh_hours):
                                  saved for like a time limit, then a restart */
    TMC_KINDS = 6
};
enum { TMC_PROCESSES_ANYTIME = TMC_SPIKE };
/* A process's rate tilt is its own slot: tilt[k] and ce_n[k] index both. */
_Static_assert((int)TMC_TILT_FAILURES == TMC_FAILURE && (int)TMC_TILT_OUTAGES == TMC_OUTAGE &&
                   (int)TMC_TILT_SPIKES == TMC_SPIKE && (int)TMC_TILT_REPAIRS == TMC_PROCESSES,
               "the rate tilts are the processes' slots, in their order");

/* A replayed trace of arrival times, days from the start (experiment.h). */
typedef struct {
    int n;
    const double *days;
} tmc_trace_ref;

/* Constants of the processes, derived once from an experiment. */
typedef struct {
    double rate[TMC_PROCESSES]; /* per second: failures, outages, spikes (0: off) */
    double tilt[TMC_TILTS];     /* importance sampling: rate multipliers of the
                                   three processes, mean multipliers of repair
                                   times and outage downtimes (1: none) */
    tmc_trace_ref trace[TMC_PROCESSES]; /* outages, spikes: replayed times (n = 0:
                                           Poisson); borrowed from the experiment */
    tmc_failure_model failures; /* lifetimes, causes, spares (when rate[0] > 0) */
    double restore_s;           /* the default restore, s */
    double downtime_s;          /* mean outage downtime, s */
    double downtime_sigma;      /* lognormal sigma of a downtime; 0: fixed */
    double downtime_mu;         /* log-mean of a lognormal downtime */
    double outage_events;       /* > 0: each replica's outage rate is drawn
                                   (outages.mtbf_events; tmc_processes_start) */
    double outage_shape, outage_rate; /* from Gamma(shape, 1 / rate): the prior
                                   Gamma(n, n), or a forecast's posterior */
    int outage_notice;          /* 1: outages come with notice of at least a save:
                                   the job saves at once (an emergency save) */
    double notice_lead_s;       /* outage_notice or limit_save: compute stops this long
                                   before the arrival strikes (the save time), s */
    int any_notice;             /* 1: some kind may come with notice (its row's
                                   noticed); 0 spares the event loop asking */
    double limit_s;             /* an allocation's wall-clock limit, s (INFINITY: none) */
    double requeue_s;           /* the wait for the next allocation, s */
    int limit_save;             /* 1: an emergency save just before the limit */
    double refresh_after_s;     /* a refresh restart this long after each (re)start, s
                                   (INFINITY: none) */
    double refresh_s;           /* a refresh restart's cost, s */
    int limit_renewed;          /* 1: every restart starts a new allocation */
    int renew_at_failure;       /* job renewal at the interruption's instant, not
                                   at the restore (failures.renewal_at) */
    double start_s;             /* when the replicas start: 0, or a forecast's elapsed
                                   time (progress.elapsed_days), s */
    double horizon_s;           /* the engine's horizon: a wait is accounted up to it
                                   only (INFINITY, or 0 for none: set by the engine) */
    int levels;                 /* 1: two levels of snapshots (checkpoint.persistent_every
                                   > 1): each strike says which it restores from */
    double local_restore_s;     /* levels: a restore from a local snapshot, s */
} tmc_process_model;

/* Two levels: the nodes remembered as lost since the newest snapshot; one
 * more restores from a persistent snapshot (as likely as not by then). */
#define TMC_LOST_NODES_MAX 64

/* One replica's processes. */
typedef struct {
    double next[TMC_PROCESSES];
    int trace_next[TMC_PROCESSES]; /* replayed: the next trace index */
    double arrivals[TMC_PROCESSES]; /* arrivals that struck */
    double down_s;                 /* time down (no failure or outage can strike), s */
    double spike_exposure_s;       /* time in compute (spikes can strike), s */
    double restore_s;              /* the restore the last arrival asks for, s */
    double downtime_log_w;         /* likelihood ratio terms of the downtimes drawn */
    double downtimes_drawn, downtime_log_sum;
    double limit_at;               /* when the allocation's limit strikes, s */
    double refresh_at;             /* when the next refresh restart is due, s: its save
                                      ends then (INFINITY: none) */
    double outage_scale;           /* this replica's outage rate over the model's (read
                                      only when m->outage_events > 0) */
    tmc_failure_state failures;
    /* Two levels of snapshots (m->levels): whether the newest snapshot is lost
     * (a strike since it committed needed a persistent one), and the nodes that
     * lost their memory since it committed, whose partners' copies went with
     * them (docs/reference/simulation-semantics.md 13). */
    int local_lost;
    int n_lost_nodes;
    long lost_nodes[TMC_LOST_NODES_MAX];
} tmc_processes;

/* Fill m from a validated experiment and its closed form (the rates). */
void tmc_processes_model(tmc_process_model *m, const tmc_experiment *x,
                         const tmc_closed_form *cf);

/* First arrivals of every process after m->start_s. rng: the replica's streams.
 * Returns 0, or -1 if memory runs out (free with tmc_processes_end either
 * way). */
int tmc_processes_start(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng);
void tmc_processes_end(tmc_processes *p);

/* Arrivals of process k up to time t do not count (the job is down, or a
 * spike outside compute): skip them. */
void tmc_processes_discard_until(const tmc_process_model *m, tmc_processes *p,
                                 gsl_rng *const *rng, int k, double t);

/* The process with the earliest pending arrival among the first n (inline:
 * the event loop asks it twice a segment). */
static inline int tmc_processes_earliest(const tmc_processes *p, int n)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (p->next[k] < p->next[best])
            best = k;
    return best;
}

/* The job (re)started computing at t (the run's start, a restore's end):
 * the next refresh restart is due refresh_after_s later. */
void tmc_processes_restarted(const tmc_process_model *m, tmc_processes *p, double t);

/* Two levels: a snapshot committed at the end of a save, so every node
 * holds it and its partner's copy again. */
static inline void tmc_processes_snapshot_committed(tmc_processes *p)
{
    p->local_lost = 0;
    p->n_lost_nodes = 0;
}

/* Process k (any kind) strikes at time t: count it in p and out, draw
 * its next arrival, and sit out what the job waits before its restore (its
 * row's wait), adding it to out's split. Sets p->restore_s to the restore
 * asked for, and the next allocation's limit when the restore starts one;
 * with two levels, p->local_lost when it needs a persistent snapshot (then
 * counted in out's persistent_restores). Returns the time the restore may
 * start, s. */
double tmc_processes_strike(const tmc_process_model *m, tmc_processes *p,
                            gsl_rng *const *rng, int k, double t, tmc_replica *out);

/* A kind of interruption (the shape of GSL's gsl_rng_type): what the
 * engine asks instead of comparing kinds (docs/reference/simulation-semantics.md 3
 * to 5, and 9 for elastic groups). A new process is one row and its functions; contributing.md
 * lists the rest. */
typedef struct {
    const char *name;
    tmc_stream_kind stream; /* its arrivals' stream (read only when it has arrivals) */
    /* A random process's first arrival after m->start_s into p->next[k];
     * 0, or -1 if memory runs out (NULL: no arrivals of its own). */
    int (*start)(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng, int k);
    /* Its next arrival after `from`, drawn from r (its stream) when it is
     * not replayed from a trace, s (INFINITY: off). */
    double (*arrival)(const tmc_process_model *m, tmc_processes *p, gsl_rng *r, int k,
                      double from);
    /* 1 when its arrivals remember the past (per-card renewal): they are
     * then discarded one by one (NULL: Poisson, it forgets). */
    int (*remembers)(const tmc_process_model *m);
    /* Count the arrival at t in out and sit out the job's wait before the
     * restore (detection, spares, downtime, requeue) in out's split;
     * returns when the restore may start, s. */
    double (*wait)(const tmc_process_model *m, tmc_processes *p, gsl_rng *const *rng,
                   double t, tmc_replica *out);
    /* With notice: 1 and when it strikes (*at) and how long before it
     * compute stops for an emergency save (*lead_s); 0 when it comes
     * unannounced (NULL: never announced). */
    int (*noticed)(const tmc_process_model *m, const tmc_processes *p, double *at,
                   double *lead_s);
    unsigned char compute_only;      /* strikes in compute only; skipped elsewhere (the
                                        loops go by TMC_PROCESSES_ANYTIME, checked
                                        against this flag by process-1.1) */
    unsigned char rolls_back;        /* its restore drops loss_spikes.rollback_snapshots
                                        - 1 committed snapshots more */
    unsigned char new_allocation;    /* its restore starts a new allocation (the limit's
                                        clock), whatever time_limit.restarts says */
    unsigned char redoes_restore;    /* a restore it cut is redone in full after it */
    unsigned char takes_one_group;   /* elastic groups: takes down one group, not the
                                        job (unless too few stay up) */
    unsigned char loses_local;       /* two levels: its restore needs a persistent
                                        snapshot (failures: their cause and node say) */
} tmc_process_type;

/* The rows, indexed by kind (TMC_FAILURE .. TMC_TIMEOUT). */
extern const tmc_process_type tmc_process_types[TMC_KINDS];

/* Arrivals up to t of every process that strikes in compute only
 * (compute_only 1: at the start of compute), or of every other (0: while
 * the job is down), in their order, do not count. Inline, and by the
 * kinds' order (TMC_PROCESSES_ANYTIME, which process-1.1 checks against
 * the rows' compute_only): the event loop asks it once a segment. */
static inline void tmc_processes_discard_all_until(const tmc_process_model *m,
                                                   tmc_processes *p, gsl_rng *const *rng,
                                                   int compute_only, double t)
{
    int end = compute_only ? TMC_PROCESSES : TMC_PROCESSES_ANYTIME;
    for (int k = compute_only ? TMC_PROCESSES_ANYTIME : 0; k < end; k++)
        if (p->next[k] <= t)
            tmc_processes_discard_until(m, p, rng, k, t);
}

#endif
