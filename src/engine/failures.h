/* failures.h - card failures beyond the exponential (issue 4): per-card
 * lifetimes (exponential, Weibull, lognormal) as N renewal processes, a mix
 * of causes with detection delays and restore times, and a pool of spares
 * with repairs.
 *
 * Lifetimes. Every card starts new at t = 0; a failed card is replaced by a
 * new one at its failure time (a fresh lifetime). With exponential lifetimes
 * the superposition is a Poisson process of rate N / MTBF, drawn as such; any
 * other law keeps the N next-failure times in a binary heap (O(N) memory per
 * replica while it runs, O(log N) per failure, nothing per step).
 *
 * Spares. With a pool of P spares, the card of a failure that interrupts the
 * job goes to repair when it fails (exponential time of mean
 * repair_mean_hours, or exactly that with repair_distribution "fixed", or
 * lognormal or Weibull of that mean; with repair_auto_share a > 0 after an
 * automatic stage of repair_auto_hours A, which ends a share a of repairs:
 * mean A + (1 - a) M; with repair_fail_share f a repair fails silently with
 * probability f, and its card fails again the moment the job takes it and
 * goes back to repair; docs/reference/simulation-semantics.md 5). When
 * the job needs its replacement (after the detection delay), repairs that
 * have ended return to the pool; it takes a spare if one is left, else it
 * waits for the earliest repair in progress to end, the failed card's own
 * included, and takes that card (docs/reference/simulation-semantics.md, 5). With
 * P = 0 that is the failed card's own repair. A failure striking while the
 * job is already down is swapped within the same recovery and takes no
 * spare. Unlimited spares (the default) never wait for a repair.
 * Units (issue 33). When some failure takes a whole node (unit_cards g >
 * 1), the pool holds whole nodes and loose cards: it starts as floor(P /
 * g) nodes and P mod g cards; a node's repair comes back as one node, all
 * good or all bad; a node failure takes a whole node if the pool holds one,
 * else the loose cards at hand, then the earliest repairs in progress; a
 * card failure takes a loose card, else one card of a whole node (the
 * rest stay, loose, with that node's outcome).
 *
 * Standbys (docs/model.md 3.20). W warm standby cards are taken first, each
 * ready standby_swap_s after the job asks; they are never refilled (a
 * standby's failed card is repaired into the cold pool) unless
 * standby_refill_hours d > 0, when a warm one from outside the job takes a
 * taken standby's place d after it was taken (and the card it replaced
 * leaves the job for repair outside). A card from the
 * cold pool, or back from repair, is ready spare_provision_s H after the
 * job takes it (host selection and provisioning); with unlimited spares
 * every failure past the standbys costs H. A bad card from the pool fails
 * when its provisioning ends, and the next is taken from then.
 *
 * Job renewal (failures.renewal "job"). Every restart of the job renews
 * every card's clock (a hang of the whole process, whose age is the job's):
 * the next failure is the restart time plus the minimum of N fresh
 * lifetimes, drawn in O(1) by inversion, P(min > t) = S(t)^N (Weibull:
 * again Weibull, scale lambda N^(-1/k)). Exponential lifetimes forget, so
 * they stay one Poisson process.
 *
 * Trace. The job's failure times from a CSV file are replayed in every
 * replica (wall-clock days from the start); none follow the last one.
 *
 * Scale (docs/model.md 3.13). Beside the per-card part, per-node failures
 * (rate ceil(N / g) / MTBF_node; each takes the node's g cards, and g
 * spares), per-job failures (rate 1 / MTBF_job, whatever N; no spare) and
 * bursts (rate ceil(N / g) / the burst MTBF per node; each takes k nodes,
 * k drawn by tmc_failures_burst_nodes, each node a repair of its own and a
 * spare node; docs/model.md 3.24) are Poisson processes. With exponential (or no) per-card lifetimes the
 * three together are one Poisson process of the summed rate, and the part
 * an arrival belongs to is drawn by rate when it strikes; otherwise the
 * per-card part keeps its heap or job renewal and the other two are one
 * more exponential clock beside it. O(1) per failure either way. A node or
 * job failure leaves the cards' clocks alone. */
#ifndef TMC_FAILURES_H
#define TMC_FAILURES_H

#include <gsl/gsl_rng.h>

#include "experiment.h"
#include "laws.h"
#include "node_history.h"
#include "pool_queue.h"

/* Constants of the failure model, derived once from an experiment. */
typedef struct {
    long cards;
    double tilt;             /* importance sampling: Poisson rate multiplier (1) */
    double repair_tilt;      /* importance sampling: repair mean multiplier (1) */
    tmc_lifetime_kind kind;  /* its law: tmc_lifetime_laws[kind] (laws.h), but a trace */
    double mean_s;           /* mean lifetime of a card, s */
    tmc_law life;            /* a card's lifetime, s (not a trace) */
    long spares;             /* -1: unlimited */
    long standbys;           /* W: warm standby cards (a forecast: those left) */
    long pool_cards;         /* the cards the pool and its repairs can hold: P + W,
                                those W taken before a forecast included */
    double swap_s;           /* a standby's swap, s */
    double refill_s;         /* a standby taken is replaced this long after, s (0: never) */
    long start_refills;      /* a forecast: standbys not warm at its start, refilled
                                refill_s after it */
    double provision_s;      /* H: a cold spare's host selection and provisioning, s */
    double repair_mean_s;
    int repair_from_detection; /* 1: a repair starts when its failure is detected */
    tmc_repair_kind repair_kind; /* its law: tmc_repair_laws[repair_kind] */
    tmc_law repair;          /* the manual stage's time, s, of mean repair_mean_s */
    double auto_share;       /* a: repairs the automatic stage ends (0: no stage) */
    double auto_s;           /* A: the automatic stage's time, s */
    double fail_share;       /* f: a repair fails silently (0: never) */
    double repair_events;    /* > 0: each replica's repair mean is drawn
                                (tmc_failures_draw_repair_scale) */
    int n_causes;            /* 0: one cause, default restore, no delay */
    double cum_share[TMC_FAILURE_PARTS][TMC_MAX_CAUSES]; /* per part (card, node, job) */
    double detection_s[TMC_MAX_CAUSES];
    double restore_s[TMC_MAX_CAUSES]; /* resolved: checkpoint.restore_s if unset */
    int takes_spare[TMC_MAX_CAUSES];  /* 0: no repair, no spare (a hang) */
    int level[TMC_MAX_CAUSES];        /* tmc_cause_level: the snapshot its restore needs */
    long cause_cards[TMC_MAX_CAUSES]; /* cards a card-part failure of the cause takes:
                                         1, or g for scope "node" */
    tmc_detection_kind detection_law[TMC_MAX_CAUSES]; /* tmc_detection_laws[] */
    tmc_law detection[TMC_MAX_CAUSES]; /* the delay, s, of mean detection_s */
    const double *trace_days; /* trace: the experiment's failure times (borrowed) */
    int n_trace;
    int job_renewal;         /* 1: every restart renews every card (not exponential) */
    double mtbf_events;      /* > 0: each replica's rate is drawn (tmc_failures_start) */
    double rate_shape, rate_rate; /* its Gamma law: the prior Gamma(n, n), or after a
                                     run's progress the posterior (forecast.h) */
    long start_in_repair;    /* a forecast: cards of the pool in repair at its start */
    int scoped;              /* 1: per-node or per-job rates (docs/model.md 3.13) */
    double card_rate;        /* the per-card part's job rate N / mean, 1/s (0: none) */
    double node_rate;        /* ceil(N / g) / MTBF_node, 1/s (0: none) */
    double job_rate;         /* 1 / MTBF_job, 1/s (0: none) */
    long cards_per_node;     /* g: the cards (and spares) a node failure takes */
    long unit_cards;         /* g when some failure takes a whole node (per-node part or
                                a cause of scope "node"), so the pool keeps whole nodes
                                as units; else 1: every card loose */
    long nodes;              /* ceil(N / g): the nodes the job holds (bad nodes) */
    double bad_share;        /* b: a node is bad with this probability (0: none) */
    double bad_rate;         /* a bad node's extra failure rate, 1/s */
    long bad_retire_after;   /* k: retired after its k-th fault; 0: never */
    int bad_fleet;           /* 1: bad nodes move between the job, the pool and repair
                                (failures.bad_node_placement "fleet", b > 0) */
    int bad_known;           /* fleet: the job takes good nodes first */
    int pool_fifo;           /* fleet: the pool hands out the node back longest
                                (failures.spare_order "fifo"), else any uniformly */
    double bad_cure;         /* fleet: a bad node's repair cures it with this chance */
    double misdiagnosis;     /* fleet: a node failure sends another node to repair */
    double aging_rate;       /* fleet: a good node turns bad at this rate, 1/s (0: never) */
    long retire_k;           /* fleet: a node retires when its repair ends with this many
                                failures of its own within retire_window_s (0: never) */
    double retire_window_s;  /* that window, s (INFINITY: the whole run) */
    long reserve_nodes;      /* fleet: whole nodes kept apart, fetched when the pool is
                                empty (failures.reserve_nodes) */
    double reserve_fetch_s;  /* the time to fetch one, s, one after another */
    double burst_rate;       /* ceil(N / g) / burst MTBF per node, 1/s (0: none) */
    tmc_burst_size burst_size; /* the law of a burst's nodes (experiment.h) */
    double burst_nodes;      /* fixed: k; geometric: the mean (> 2) */
    int n_burst_weights;     /* table: the sizes 1 .. n_burst_weights */
    double burst_cum[TMC_MAX_BURST_NODES]; /* table: cumulative weights */
} tmc_failure_model;

/* Which part of the failure model a failure came from (docs/model.md 3.13). */
typedef enum {
    TMC_SCOPE_CARD = 0,
    TMC_SCOPE_NODE = 1,
    TMC_SCOPE_JOB = 2,
    TMC_SCOPE_BAD_NODE = 3, /* a bad node's extra failure (tmc_failures_bad_node_fault) */
    TMC_SCOPE_BURST = 4     /* a burst: several nodes at once (tmc_failures_burst_nodes) */
} tmc_failure_scope;

/* One replica's failure state. The heap and the repair list are allocated
 * by tmc_failures_start and freed by tmc_failures_end. */
typedef struct {
    int trace_next;  /* trace: index of the next failure time */
    double *heap;    /* next failure time of every card (non-exponential) */
    double *repairs; /* completion times of repairs in progress (room: spares + g) */
    long *repair_cards; /* the cards each of them holds (g for a node's) */
    char *repair_bad;   /* fail_share > 0: 1 if that repair failed silently (its
                           cards come back bad), else NULL */
    char *repair_node;  /* unit_cards > 1: 1 if that repair holds a whole node (it
                           comes back as one), else NULL */
    char *repair_cohort; /* bad_fleet: 1 if that repair holds a bad node (it comes
                            back bad), else NULL */
    double *repair_seen; /* bad_fleet with aging: when that repair's node was last seen
                            good (its start, or its cure), s, else NULL */
    long *repair_unit;  /* retire_k > 0: the record of the node that repair holds
                           (node_history.h; -1: a node never failed), else NULL */
    long n_repairs;
    long spares_left;
    long standbys_left;
    long swaps, provisions; /* cards taken from the standbys, and provisioned cold */
    double *refills;        /* refill_s > 0: when the standbys taken are replaced, a
                               queue in time order (room: W) */
    long refill_head, refill_n;
    long bad_left;      /* of spares_left, the cards whose repair failed silently */
    long nodes_left;    /* of spares_left, whole nodes (unit_cards cards each) */
    long bad_nodes_left; /* of nodes_left, those whose repair failed silently */
    double rate_scale;       /* this replica's failure rate over the model's (1, or a
                                Gamma(n, 1/n) draw with mtbf_events = n) */
    double repair_scale;     /* this replica's repair mean over the model's; read only
                                when m->repair_events > 0, and then set by the caller
                                before tmc_failures_start (tmc_processes_start) */
    double repair_log_w;     /* log likelihood ratio of the repair times drawn */
    double repairs_drawn, repair_sum_s; /* their count and sum, s */
    double next_card;        /* scoped, not Poisson: the per-card part's next failure
                                under job renewal, s */
    double next_scoped;      /* scoped, not Poisson: the next node or job failure, s */
    long bad_nodes;          /* bad nodes held now: set by the caller before
                                tmc_failures_start (tmc_failures_draw_bad_nodes) */
    long *bad_faults;        /* k > 0: bad_faults[j] bad nodes held have had j faults */
    long bad_pool_nodes;     /* bad_fleet: bad nodes among the pool's whole nodes (set
                                with bad_nodes) */
    long reserve_left, reserve_bad; /* the reserve's nodes not fetched yet, and of them
                                the bad ones (reserve_bad set with bad_nodes, by the
                                caller before tmc_failures_start, which sets the
                                first) */
    long fetched;            /* reserve nodes fetched */
    double pool_start;       /* the replica's start, s: a reserve node ages from it */
    long cures;              /* bad_fleet: bad nodes a repair cured */
    long misdiagnoses;       /* bad_fleet: failures that sent another node to repair */
    long aged;               /* aging: good nodes that turned bad */
    double job_aged_at, pool_aged_at; /* aging: the job's and the pool's nodes have aged
                                to these times, s */
    long pending_bad;        /* aging: the job's bad nodes at pending_at, the failure drawn
                                last, which become its state when it strikes
                                (tmc_failures_commit_aging) */
    double pending_at;
    long leaving_bad;        /* bad_fleet: how many of the nodes the next
                                tmc_failures_take_spare sends to repair are bad, its
                                first repairs (tmc_failures_node_leaves) */
    long *leaving;           /* retire_k > 0: the records of those nodes, the bad ones
                                first (room: the job's nodes) */
    long n_leaving, leaving_next;
    tmc_node_history history; /* retire_k > 0: the nodes that have failed */
    tmc_pool_queue pool_queue; /* pool_fifo: the pool's nodes in the order they came */
    long retired;            /* retire_k > 0: nodes that left the fleet */
    int depleted;            /* retire_k > 0: 1 once the job waited for a node the
                                fleet no longer had */
    int scoped_struck;       /* scoped, not Poisson: 1 if the last failure consumed was
                                a node or job failure */
} tmc_failure_state;

/* Fill *m from a validated experiment whose failures are enabled; a trace is
 * borrowed from x, which must outlive m. */
void tmc_failures_model(tmc_failure_model *m, const tmc_experiment *x);

/* 1 when the failures are a Poisson process of rate cards / mean (exponential
 * lifetimes), plus the per-node and per-job rates, so the engine draws them
 * as such. */
int tmc_failures_poisson(const tmc_failure_model *m);

/* Start a replica at time t0 (s; 0, or a forecast's elapsed time): draw
 * every card's first lifetime (non-exponential) and return the first failure
 * time after t0, s. Returns -1 if memory runs out. With mtbf_events = n > 0,
 * first draws the replica's rate scale u ~ Gamma(rate_shape, 1 / rate_rate)
 * from `scale` (without progress Gamma(n, 1/n), mean 1: the posterior of a
 * rate estimated from n events, over its point estimate; docs/model.md
 * 3.11; with it, forecast.h's posterior): rates are multiplied, lifetimes
 * divided, by u. A forecast's cards in repair (start_in_repair) leave the
 * pool, each back after a repair time drawn from t0 (exact for exponential
 * repairs, which forget how long they have run); with unit_cards g > 1 a
 * repair for each whole node of g (a remainder: one a card). */
double tmc_failures_start(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          gsl_rng *scale, double t0);

/* A replica's repair-mean multiplier when the mean was estimated from
 * n = m->repair_events exponential repairs (docs/model.md 3.11): n / G,
 * G ~ Gamma(n, 1) drawn from r. Under the scale-invariant prior 1 / mu of
 * the repair rate mu (Jeffreys' for the exponential) n repairs summing to S
 * give mu ~ Gamma(n, rate S), so the mean 1 / mu is inverse-gamma (n, S)
 * and its ratio to the estimate S / n is n / G (Gelman et al., Bayesian
 * Data Analysis, 3rd ed., 2013, 2.6-2.8; the failure rate's Gamma(n, 1/n)
 * is the same posterior seen from the rate). The multiplier's mean is
 * n / (n - 1), its variance n^2 / ((n - 1)^2 (n - 2)) (n > 2, which the
 * experiment's check asks): the posterior mean repair S / (n - 1) lies above
 * the estimate. Returns 1 without drawing when repair_events is 0. */
double tmc_failures_draw_repair_scale(const tmc_failure_model *m, gsl_rng *r);

/* The failure at time t (the current earliest) happened: replace that card
 * with a new one and return the next failure time of any card, s. */
double tmc_failures_after(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                          double t);

/* The uniform that draws a failure's cause, from r; 0 without a draw when
 * there is one cause or none. Drawn before the failure's part (the scope)
 * is known, so that one mix for every part draws as it always did. */
double tmc_failures_cause_draw(const tmc_failure_model *m, gsl_rng *r);

/* The cause of a failure of scope `scope` for the uniform u, by its share of
 * that scope's part (a bad node's fault: the node part); its index (0 when
 * there is one). */
int tmc_failures_cause(const tmc_failure_model *m, tmc_failure_scope scope, double u);

/* The detection delay of a failure of cause `cause`, s: its detection_s
 * without a draw when the law is fixed (or there are no causes), else drawn
 * from r: exponential of mean detection_s, or lognormal of that mean and
 * coefficient of variation detection_cv (issue 19). */
double tmc_failures_detection(const tmc_failure_model *m, int cause, gsl_rng *r);

/* The part a failure that strikes came from: TMC_SCOPE_CARD without
 * per-node or per-job rates (no draw); else drawn from r by rate (Poisson),
 * or node against job by rate when the failure consumed last was not the
 * per-card part's. */
tmc_failure_scope tmc_failures_scope(const tmc_failure_model *m, const tmc_failure_state *s,
                                     gsl_rng *r);

/* The nodes a burst takes (scope TMC_SCOPE_BURST), drawn from r: exactly
 * burst_nodes (no draw), 1 + a geometric on 1, 2, ... of mean burst_nodes -
 * 1 (sizes 2, 3, ... of mean burst_nodes), or by the table's weights; at
 * most the job's nodes. */
long tmc_failures_burst_nodes(const tmc_failure_model *m, gsl_rng *r);

/* An interrupting failure at time failed_at that took `cards` >= 1 cards
 * (1, a node's g, or a burst's k g), whose replacements the job needs at
 * time t >= failed_at: sends them to repair (one repair time drawn from r,
 * starting at failed_at, for each of its units: a burst's k nodes are k
 * repairs) and returns how long after t the job waits until
 * it has them all ready, s: it takes the standbys left (ready after the
 * swap), then what the pool holds, then the earliest repairs in progress
 * (each ready after provisioning; 0 with enough spares at hand and no
 * provisioning time, or unlimited spares).
 * Silently failed repairs (fail_share > 0): a whole node taken is bad
 * with probability bad nodes / nodes in the pool (drawn only when some are
 * bad), and all its cards with it; the bad ones among loose cards taken
 * are drawn hypergeometric (only when the loose cards hold some); they
 * fail when provisioned and go back to repair together (one new repair,
 * a whole node's if one was taken whole); cards of a failed repair in
 * progress fail when it ends and go back the same way; the job takes more
 * until it has good ones. */
double tmc_failures_take_spare(const tmc_failure_model *m, tmc_failure_state *s,
                               gsl_rng *r, double failed_at, double t, long cards);

/* Job renewal: the job (re)starts at t, every card new: the next failure
 * time, t + the minimum of N fresh lifetimes, s. */
double tmc_failures_job_next(const tmc_failure_model *m, const tmc_failure_state *s,
                             gsl_rng *r, double t);

/* Job renewal: the job restarts at t; the next failure of any part, s (the
 * per-card part's renewed, the node and job failures' kept). */
double tmc_failures_restart(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                            double t);

/* How many of the job's nodes are bad in a replica (s->bad_nodes) and, in
 * a fleet, of the pool's whole nodes (s->bad_pool_nodes), drawn from r (its
 * own stream, TMC_STREAM_BAD_NODES) before tmc_failures_start
 * (tmc_processes_start); none without drawing when there are no bad nodes.
 * The job's: Binomial(nodes, b); in a fleet whose bad nodes are not known
 * the pool's another Binomial(pool nodes, b) after it (the two are the
 * hypergeometric split of the fleet's); when they are known the fleet's
 * Binomial(nodes + pool nodes, b) and the job holds the bad ones the good
 * cannot fill. */
void tmc_failures_draw_bad_nodes(const tmc_failure_model *m, tmc_failure_state *s,
                                 gsl_rng *r);

/* A fleet's node failure that takes a spare (bad_fleet, before
 * tmc_failures_take_spare): how many of the k nodes that leave the job are
 * bad (s->leaving_bad). One node: the faulty one, bad for certain after a
 * bad node's fault (bad_fault 1), else with probability bad nodes held /
 * nodes held; with probability misdiagnosis another of the job's nodes,
 * uniformly, leaves instead (bad with probability the other bad nodes /
 * (nodes - 1)) and the faulty one stays. A burst's k: hypergeometric from
 * the nodes held. Each kind's draw is skipped when the job holds one kind.
 * The job holds that many bad nodes fewer, and their repairs come back bad
 * (docs/reference/simulation-semantics.md 5). With retirement (retire_k >
 * 0) the nodes that failed at t, s (the faulty one, even when another
 * leaves; a burst's k) record it, and the records of those that leave are
 * picked (node_history.h), drawn from r. */
void tmc_failures_node_leaves(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                              int bad_fault, long k, double t);

/* A bad node's fault (scope TMC_SCOPE_BAD_NODE): which of the bad nodes
 * held it was, uniformly (its count of faults drawn from r by the counts
 * held); with k > 0 a node at its k-th fault is retired: the job holds one
 * bad node fewer, so its failure rate falls by bad_rate. Returns 1 when
 * the node was retired, else 0 (docs/reference/simulation-semantics.md 5). */
int tmc_failures_bad_node_fault(const tmc_failure_model *m, tmc_failure_state *s,
                                gsl_rng *r);

/* Aging: the job's nodes aged to the failure drawn last, at pending_at,
 * become its state when t >= pending_at (the failure strikes, or the next
 * is drawn from after it); before, nothing (docs/reference/simulation-semantics.md 5).
 * The named nodes among those aged (retirement) are drawn from r. */
void tmc_failures_commit_aging(const tmc_failure_model *m, tmc_failure_state *s, gsl_rng *r,
                               double t);

void tmc_failures_end(tmc_failure_state *s);

#endif
