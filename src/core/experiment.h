/* experiment.h - an experiment: the validated values of every section, plain
 * data that every layer reads (src/core includes nothing else from src/).
 *
 * Units are in the key names: _s = seconds, _days = days of 86,400 s
 * (TMC_DAY_S, units.h), _hours = hours, _flops = FLOP/s, flop_ = FLOP,
 * _gib = GiB (2^30 bytes), _gb_per_s = GB/s (1e9 bytes per second),
 * _bytes_per_param = bytes per parameter, _tokens = tokens. A key's bounds,
 * default, unit and help are its row in src/input/config_fields.c, and
 * docs/reference/keys.md, the generated keys reference (`trainmc
 * help-keys`), is printed from those rows; the comments here say what a
 * field means to the code that reads it, never its bounds or default.
 * Defaults come from the reference design (docs/model.md sections 1 and 3).
 *
 * Loading, overrides and validation: src/input/config.h.
 *
 * Ownership and copies. The struct is small plain data (at most 8 kB,
 * asserted below); what can be long lives on the heap: the path, the list
 * of files read (inputs), the overrides and the three traces (trace_days).
 * The experiment that the loader filled (tmc_config_load, tmc_config_parse)
 * owns them, and its owner frees them with tmc_experiment_release, once.
 * They are immutable once loaded: only src/input adds an input or an
 * override to the owner (tmc_observed_input_load and
 * tmc_observed_input_read_history), before any view exists.
 * Two kinds of copy:
 *   - a view, `y = *x`: the same heap parts, borrowed; valid while x is,
 *     never released; y's plain fields may be changed (a what-if), never
 *     its heap parts. Where a view is made, a comment says so.
 *   - a deep copy, tmc_experiment_copy(&y, x, err): y owns its own heap
 *     parts and is released apart; for a copy that outlives x (a result
 *     kept after its experiment is freed). */
#ifndef TMC_EXPERIMENT_H
#define TMC_EXPERIMENT_H

#include <stdint.h>

#include "error.h"

typedef enum {
    TMC_JITTER_NORMAL = 0,    /* X_i ~ Normal(mu, (cv mu)^2), docs/model.md 2 */
    TMC_JITTER_LOGNORMAL = 1, /* X_i = mu exp(m + s Z), s^2 = ln(1 + cv^2), m = -s^2/2 */
    TMC_JITTER_GAMMA = 2      /* X_i ~ mu Gamma(shape 1/cv^2, scale cv^2) */
} tmc_jitter_kind;

/* Per-card jitter as written in an experiment: the distribution of one card's
 * compute time per step, with mean mu and standard deviation cv mu. For the
 * normal, a share rho of the variance may be common to all cards of a step
 * (X_i = mu + cv mu (sqrt(rho) Z_0 + sqrt(1 - rho) Z_i)): rho = 1 makes the
 * cards equal, so the step costs mu, not mu + c_N sigma (issue 4). */
typedef struct {
    tmc_jitter_kind kind;
    double cv;  /* coefficient of variation sigma / mu */
    double rho; /* correlation between cards within a step; normal only */
} tmc_jitter;

/* The step time a forecast's steps left run at (job.pace; issue 32 item 4). */
typedef enum {
    TMC_PACE_OBSERVED = 0, /* progress.step_s, when given: the efficiency that
                              gives it (tmc_closed_form_pace_efficiency) */
    TMC_PACE_PLAN = 1      /* job.efficiency's, whatever the run has shown */
} tmc_pace;

typedef struct {
    long steps;            /* optimizer steps S (docs/model.md 1: 31,790) */
    long cards;            /* data-parallel cards N (d) */
    double flop_per_step;  /* training FLOP per step (docs/model.md 1: 1.655e17) */
    double peak_flops;     /* peak FLOP/s per card (RTX 4090 BF16: 165.2e12) */
    double efficiency;     /* model FLOP utilisation (docs/model.md 1: 0.40) */
    double exposed_comm_s; /* communication not hidden under compute, s/step */
    double input_wait_s;   /* mean input wait per step, s */
    tmc_pace pace;         /* a forecast's step time: observed (default) or plan */
} tmc_job;

#define TMC_MAX_CAUSES 16

/* The law of a burst's size, in nodes (failures.burst_size). */
typedef enum {
    TMC_BURST_FIXED = 0,     /* exactly burst_nodes */
    TMC_BURST_GEOMETRIC = 1, /* 2, 3, ... with mean burst_nodes */
    TMC_BURST_TABLE = 2      /* by burst_weights: burst_weights[i] for i + 1 nodes */
} tmc_burst_size;

#define TMC_MAX_BURST_NODES 64

/* The law of a cause's detection delay (failures.causes[].detection_distribution). */
typedef enum {
    TMC_DETECTION_FIXED = 0,       /* exactly detection_s (default) */
    TMC_DETECTION_EXPONENTIAL = 1, /* mean detection_s */
    TMC_DETECTION_LOGNORMAL = 2    /* mean detection_s, sd detection_cv x detection_s */
} tmc_detection_kind;

/* What a failure of a cause takes (failures.causes[].scope). */
typedef enum {
    TMC_CAUSE_CARD = 0, /* the failed card (default) */
    TMC_CAUSE_NODE = 1  /* the failed card's whole node: failures.cards_per_node cards */
} tmc_cause_scope;

/* Which snapshot a failure of a cause can restore from when snapshots have
 * two levels (checkpoint.persistent_every > 1; issue 34 part 1). */
typedef enum {
    TMC_LEVEL_LOCAL = 0,     /* the newest snapshot, local or persistent (default) */
    TMC_LEVEL_PERSISTENT = 1 /* the newest persistent one only */
} tmc_cause_level;

/* One cause of card failures (issue 4): its share of the failure rate, how
 * long the failure goes unnoticed (a crash: minutes; a hung collective: a
 * watchdog timeout) and its own restore time; since issue 19 also whether it
 * sends hardware to repair (a hang does not), the law of its detection delay
 * and whether it takes the card or its node (docs/reference/simulation-semantics.md 5). */
/* The parts of the failure process a cause's share is given for: card
 * failures (per_card_mtbf_days, a lifetime law, a trace), node failures
 * (per_node_mtbf_days, bad nodes' faults), the job's own
 * (per_job_mtbf_days) and bursts (burst_per_node_mtbf_days: several nodes
 * at once). */
enum { TMC_PART_CARD = 0, TMC_PART_NODE = 1, TMC_PART_JOB = 2, TMC_PART_BURST = 3,
       TMC_FAILURE_PARTS = 4 };

typedef struct {
    char name[48];
    double share;       /* its share of every part's failures not given its own;
                           < 0: not given */
    double card_share, node_share, job_share, burst_share; /* < 0: not given (share) */
    double part_share[TMC_FAILURE_PARTS]; /* resolved on load: per part, the
                           causes' shares add to 1, or to 0 (no cause strikes it) */
    double detection_s; /* from the failure to its detection, s; the
                           mean when the law is not fixed */
    double restore_s;   /* restore time, s; < 0: checkpoint.restore_s */
    int takes_spare;    /* 1: its cards go to repair and the job takes
                           spares; 0: restart only, no repair, no spare */
    tmc_detection_kind detection_law;
    double detection_cv; /* lognormal: sd / mean of the delay */
    tmc_cause_scope scope;
    tmc_cause_level level; /* the snapshot its restore needs (checkpoint.persistent_every) */
} tmc_failure_cause;

typedef enum {
    TMC_LIFETIME_EXPONENTIAL = 0, /* docs/model.md 3.1 */
    TMC_LIFETIME_WEIBULL = 1,     /* shape < 1: early-life failures, > 1: wear-out */
    TMC_LIFETIME_LOGNORMAL = 2,
    TMC_LIFETIME_TRACE = 3        /* replay of job failure times from a CSV file */
} tmc_lifetime_kind;

#define TMC_MAX_TRACE 4096 /* times a trace file may hold */
#define TMC_JOB_STEPS_MAX 1e9 /* job.steps at most */

/* The law of a repair time (failures.repair_distribution). */
typedef enum {
    TMC_REPAIR_EXPONENTIAL = 0, /* mean repair_mean_hours (default) */
    TMC_REPAIR_FIXED = 1,       /* exactly repair_mean_hours */
    TMC_REPAIR_LOGNORMAL = 2,   /* mean repair_mean_hours, sd repair_cv x that */
    TMC_REPAIR_WEIBULL = 3      /* mean repair_mean_hours, shape repair_shape */
} tmc_repair_kind;

/* Whose clock a failure renews (failures.renewal). */
typedef enum {
    TMC_RENEWAL_CARD = 0, /* the failed card's: the others keep their ages (default) */
    TMC_RENEWAL_JOB = 1   /* the job's: every restart renews every card's clock */
} tmc_renewal_kind;

/* When job renewal starts the new clocks (failures.renewal_at). */
typedef enum {
    TMC_RENEWAL_AT_RESTORE = 0, /* when the job is up again, at its restore's start (default) */
    TMC_RENEWAL_AT_FAILURE = 1  /* at the interruption's instant: the down time ages them */
} tmc_renewal_time;

/* When a failed card's (or node's) repair starts (failures.repair_from). */
typedef enum {
    TMC_REPAIR_FROM_FAILURE = 0,  /* at the failure's instant, during its detection (default) */
    TMC_REPAIR_FROM_DETECTION = 1 /* once the failure is detected, as the job takes a spare */
} tmc_repair_start;

/* Where bad nodes are (failures.bad_node_placement, issue 36). */
typedef enum {
    TMC_BAD_IN_JOB = 0,  /* drawn among the job's nodes, which they never leave (default) */
    TMC_BAD_IN_FLEET = 1 /* drawn among the job's and the pool's nodes; a bad node's fault
                            that takes a spare sends it to repair, from which it comes
                            back to the pool still bad (a cohort that moves) */
} tmc_bad_placement;

/* Which of its nodes a fleet's pool hands out (failures.spare_order, issue 36). */
typedef enum {
    TMC_SPARE_RANDOM = 0, /* any, uniformly (default) */
    TMC_SPARE_FIFO = 1    /* the one back from repair longest (AIReSim's pool order) */
} tmc_spare_order;

typedef struct {
    int enabled;
    double per_card_mtbf_days; /* mean lifetime per card, days (docs/model.md 3.1: 337) */
    tmc_lifetime_kind distribution;
    double shape;              /* Weibull shape k (1 = exponential) */
    double lifetime_cv;        /* lognormal: sd / mean of a lifetime */
    long spares;               /* spare cards in the pool; -1: unlimited */
    double repair_mean_hours;  /* mean repair time of a failed card, h */
    tmc_repair_kind repair_distribution;
    double repair_cv;          /* lognormal repairs: sd / mean */
    double repair_shape;       /* Weibull repairs: shape */
    double repair_auto_share;  /* a: the share of repairs the automatic stage
                                  (reboot, reset) ends; 0: no such stage */
    double repair_auto_hours;  /* A, h: the automatic stage's
                                  time, which every repair spends when a > 0; the
                                  rest then take the manual stage (the law above):
                                  mean repair A + (1 - a) M (docs/model.md 3.17) */
    double repair_fail_share;  /* f: a repair silently fails with
                                  this probability; the card fails at once on first
                                  use and goes back to repair
                                  (docs/reference/simulation-semantics.md 5) */
    long standbys;             /* warm standby cards: taken before
                                  the pool of spares at standby_swap_s each, never
                                  refilled (docs/model.md 3.20) */
    double standby_swap_s;     /* s: swapping a warm standby in */
    double standby_refill_hours; /* h; 0: a standby taken is never
                                  replaced (the pool depletes); else a warm one from
                                  outside the job takes its place this long after */
    double spare_provision_s;  /* s: host selection and provisioning
                                  of a cold spare (from the pool, or back from repair) */
    tmc_renewal_kind renewal;  /* card or job (docs/reference/simulation-semantics.md 4) */
    tmc_renewal_time renewal_at; /* job renewal: at the restore or at the failure */
    tmc_repair_start repair_from; /* a repair starts at the failure or at its detection */
    double mtbf_events;        /* 0: the MTBF is known; n: it was estimated from
                                  n failures, and each replica draws its own failure rate
                                  from the Gamma(n) posterior (docs/model.md 3.11) */
    double repair_events;      /* 0: the repair mean is known; n: it was
                                  estimated from n exponential repairs, and each replica
                                  draws its own from the inverse-gamma posterior
                                  (docs/model.md 3.11) */
    double per_node_mtbf_days; /* a node's own failures (host, NIC, power), days; a
                                  node failure takes its cards_per_node cards (and as
                                  many spares); 0: none (docs/model.md 3.13) */
    long cards_per_node;       /* cards g of a node; the job holds ceil(N / g) nodes;
                                  required with per_node_mtbf_days or a cause of scope
                                  "node", else 0 */
    double bad_node_share;     /* b: each of the job's ceil(N / g) nodes is a bad
                                  node (a repeat offender, or a cohort of its own) with
                                  this probability; 0: none (issue 19) */
    double bad_node_mtbf_days; /* a bad node's extra failures: rate 1 / this on top of
                                  the rates above, days; required with bad_node_share */
    long bad_node_retire_after; /* k: a bad node is retired after its k-th fault in the
                                  run and replaced by a good one; 0: never
                                  (docs/reference/simulation-semantics.md 5, docs/model.md 3.19) */
    tmc_bad_placement bad_node_placement; /* the job's nodes only, or the fleet */
    int bad_node_known;        /* fleet: 1 when the bad nodes are known, so the job and
                                  its replacements take good nodes first; 0: taken at
                                  random (the operator cannot tell them apart) */
    double bad_node_cure_share; /* fleet: a bad node's repair cures it (it comes back
                                  good) with this probability; 0: never (a cohort) */
    double node_aging_days;    /* fleet: a good node turns bad after an exponential time
                                  of this mean, wherever it is (job, pool, repair):
                                  aging; 0: never */
    double misdiagnosis_share; /* fleet: a node failure that takes a spare sends another
                                  node of the job, drawn uniformly, to repair with this
                                  probability; the faulty one stays (AIReSim's
                                  diagnosis_uncertainty); 0: never */
    long retire_after_failures; /* fleet: k: a node whose repair ends with k failures of
                                  its own in the retire_window_days before leaves the fleet
                                  (AIReSim's ThresholdRemoval); 0: never */
    double retire_window_days; /* fleet: w, that window, days; 0: the whole run */
    tmc_spare_order spare_order; /* fleet: which node the pool hands out */
    long reserve_nodes;        /* fleet: whole nodes kept apart, fetched one at a time
                                  when the pool is empty (then the fleet's); 0: none */
    double reserve_fetch_s;    /* fleet: the time to fetch one of them, s */
    double per_job_mtbf_days;  /* failures of the job whatever its size (software,
                                  infrastructure), days; need no spare; 0: none */
    long measured_cards;       /* the card count the rates were measured at; 0: not
                                  stated (an assumption warning past 8x either way) */
    /* Bursts (issue 36; docs/model.md 3.24): failures that take several of the
     * job's nodes at once (a leaf switch, a rack's power, a cooling loop), each
     * node going to repair and taking a spare node as a node failure does. The
     * job's burst rate is its nodes over burst_per_node_mtbf_days, as node
     * failures scale; a burst larger than the job takes all its nodes. */
    double burst_per_node_mtbf_days; /* per node held, days; 0: no bursts */
    tmc_burst_size burst_size;
    double burst_nodes;        /* fixed: k; geometric: the mean (> 2) */
    int n_burst_weights;       /* table: burst_weights[i] for bursts of i + 1 nodes */
    double burst_weights[TMC_MAX_BURST_NODES];
    int n_causes;              /* 0: one cause, no detection delay */
    tmc_failure_cause causes[TMC_MAX_CAUSES];
    int n_trace;               /* trace: failure times, days from the job's start, */
    double *trace_days;        /* increasing; replayed in every replica; n_trace of
                                  them on the heap, owned (top of this file) */
} tmc_failures;

typedef enum { TMC_SAVE_SYNC = 0, TMC_SAVE_ASYNC = 1 } tmc_save_mode;

/* The law of a save's or a restore's duration around its mean
 * (checkpoint.duration_law, docs/model.md 3.12): storage contention makes
 * saves vary. Each save and each restore attempt draws its own. */
typedef enum {
    TMC_DURATION_LOGNORMAL = 0, /* mean m, sd cv m (default) */
    TMC_DURATION_GAMMA = 1,     /* shape 1 / cv^2, scale m cv^2 */
    TMC_DURATION_UNIFORM = 2    /* m (1 +- sqrt(3) cv): cv <= 1 / sqrt(3) */
} tmc_duration_kind;

/* checkpoint.interval_s given by name (issue 34 part 5): the closed form's
 * optimum for the experiment's own interruptions, resolved when it loads. */
typedef enum {
    TMC_INTERVAL_GIVEN = 0, /* a number of seconds or steps */
    TMC_INTERVAL_YOUNG = 1, /* "young": sqrt(2 c M) */
    TMC_INTERVAL_DALY = 2,  /* "daly": Daly's higher-order optimum */
    TMC_INTERVAL_OPTIMAL = 3 /* "optimal": the simulated optimum, searched before a run
                                (batch/interval_search.h) from the closed form's */
} tmc_interval_rule;

typedef struct {
    double interval_s;   /* requested interval in seconds, or 0 if given in steps */
    long interval_steps; /* requested interval in steps, or 0 if given in seconds */
    tmc_interval_rule interval_rule; /* YOUNG, DALY: interval_s is that optimum;
                                        OPTIMAL: the closed form's until searched */
    int interval_searched; /* OPTIMAL: 1 once the search set interval_steps */
    double save_s;       /* synchronous save time c, s (docs/model.md 3.2: 16.38) */
    double restore_s;    /* restore time r, s (docs/model.md 3.2: 120) */
    tmc_save_mode mode;  /* "sync" or "async": save_s is then the
                            blocking copy (docs/model.md 3.3: 0.5 s) */
    double write_s;      /* async: background write of a snapshot, s (docs/model.md
                            3.3: 16 s for 112 GB at 7 GB/s) */
    tmc_duration_kind duration_law; /* of save and restore times */
    double save_cv;      /* sd / mean of a save (the async copy); 0: fixed */
    double restore_cv;   /* sd / mean of a restore attempt; 0: fixed */
    int restore_immune;  /* 1: failures and outages due in a restore are dropped
                            (Young's reading, issue 34 part 5); 0: they strike it */
    double save_timeout_s; /* a save still running after this fails the job (a
                              collective's timeout, e.g. 1,800 s); 0: none */
    long persistent_every; /* m: every m-th snapshot (and the last) is written to
                              persistent storage, the others kept local (host memory
                              and a partner node's copy; issue 34 part 1); 1: all */
    double local_save_s;   /* a local snapshot's save, s; < 0: save_s */
    double local_restore_s; /* a restore from a local snapshot, s; < 0: restore_s */
} tmc_checkpoint;

typedef struct {
    int enabled;
    double mean_interval_days; /* mean time between common outages, days */
    double downtime_s;         /* mean time the job is down before its restore, s */
    double downtime_cv;        /* 0: always downtime_s; else lognormal with
                                  this coefficient of variation (issue 4) */
    double notice_s;           /* warning before each outage (preemption notice), s;
                                  at least the save time: the job saves
                                  at once and loses no work
                                  (docs/reference/simulation-semantics.md 3) */
    double mtbf_events;        /* 0: the outage rate is known; n: it was
                                  estimated from n outages, and each replica draws its
                                  own from the Gamma(n) posterior (docs/model.md 3.11) */
    int n_trace;               /* trace: outage times, days from the job's start, */
    double *trace_days;        /* increasing; replayed in every replica; n_trace of
                                  them on the heap, owned (top of this file) */
} tmc_outages;



typedef struct {
    int enabled;
    double mean_interval_days; /* mean time between loss spikes, days (docs/model.md 3.4: 7) */
    long rollback_snapshots;   /* a spike rolls back this many committed snapshots
                                  (noticed late) */
    int n_trace;               /* trace: spike times, days from the job's start, */
    double *trace_days;        /* increasing; replayed in every replica; n_trace of
                                  them on the heap, owned (top of this file) */
} tmc_loss_spikes;

/* A scheduler's wall-clock limit per allocation (SLURM's --time), then a
 * requeue (docs/reference/simulation-semantics.md 4). */
typedef enum { TMC_LIMIT_SAVE = 0, TMC_LIMIT_LOSE = 1 } tmc_limit_action;
typedef enum { TMC_RESTART_SAME = 0, TMC_RESTART_NEW = 1 } tmc_limit_restarts;
typedef struct {
    int enabled;
    double wall_hours; /* an allocation's wall-clock limit, hours (e.g. 100) */
    double requeue_s;  /* waiting in the queue for the next allocation, s */
    int at_limit;      /* tmc_limit_action: "save": an emergency save just
                          before the limit; "lose": the work since the last commit
                          is lost */
    double notice_s;   /* the scheduler's warning before the limit (SLURM's
                          --signal=B:USR1@N), s; -1: not stated (a save is
                          assumed to fit: tmc_limit_saves) */
    int restarts;      /* tmc_limit_restarts: "same_allocation": failures,
                          outages and spikes restart inside the allocation, its
                          limit still counting; "new_allocation": every restart
                          starts a new allocation (its limit counts from the restore) */
} tmc_time_limit;

/* Elastic replica groups (issue 14 item 6; torchft): the N cards form
 * `groups` data-parallel replica groups of N / groups cards. A card failure
 * takes down its group only; the others keep training on a smaller batch
 * (a step with g of G groups up advances the run by g / G of a step); the
 * group rejoins after its spare wait and heal_s (copying the weights from a
 * live peer). Fewer than min_groups groups up: a global restart from the
 * last commit (docs/reference/simulation-semantics.md 9, docs/model.md 3.14). */
typedef struct {
    int enabled;
    long groups;     /* G replica groups; divides job.cards */
    long min_groups; /* fewer groups up is a global restart */
    double heal_s;   /* a rejoining group copies the weights for this long, s */
} tmc_elastic;

#define TMC_MAX_ROLLBACK 16

/* Periodic pauses (issue 4): every `every_steps` steps, one card or all
 * cards stop for duration_s (e.g. a host daemon, garbage collection). */
typedef enum { TMC_PAUSE_ALL = 0, TMC_PAUSE_ONE = 1 } tmc_pause_cards;

typedef struct {
    int enabled;
    long every_steps;      /* the pause falls on steps k, 2k, 3k, ... of the run */
    double duration_s;     /* pause length, s */
    tmc_pause_cards cards; /* "all" (the step is longer by duration_s) or "one" */
} tmc_pauses;

/* Persistently slow cards (issue 4; MegaScale: about 0.5 % of machines
 * markedly slow): each card is slow with probability `fraction`, its
 * compute time `factor` times a normal card's, for the whole run unless
 * detected after detect_after_steps steps and evicted at the next commit. */
typedef struct {
    int enabled;
    double fraction;          /* probability that a card is slow */
    double factor;            /* its compute time over a normal card's */
    long detect_after_steps;  /* 0: never detected */
    double eviction_restore_s; /* restore after an eviction, s; < 0: restore_s */
} tmc_slow_cards;

/* Runs that slow down (issue 34 part 3; thermal throttling, memory
 * fragmentation, leaks: kaldi-asr/kaldi #1319 saw iterations go from 7.5
 * to 15 minutes over a day): a step's slowest-card time is multiplied by
 * f(h) = 1 + per_hour h, h the hours since the job's last (re)start at the
 * step's start, or 1 + max_extra (1 - e^(-per_hour h / max_extra)) when
 * max_extra is given; every completed restore starts h again, and planned
 * refresh restarts every refresh_hours do so on purpose
 * (docs/reference/simulation-semantics.md 12). */
typedef struct {
    int enabled;
    double per_hour;      /* the factor's slope at h = 0, per hour */
    double max_extra;     /* > 0: the saturating form's ceiling above 1; 0: linear */
    double refresh_hours; /* a refresh restart when h reaches it; 0: none */
    double refresh_s;     /* a refresh restart's cost, s; < 0: checkpoint.restore_s */
} tmc_slowdown;

typedef struct {
    double days;         /* deadline from the start of the job, days (docs/model.md 1: 30) */
    double reserve_days; /* reserved for start-up, evaluation, pauses, days (docs/model.md 1: 5) */
    long max_restarts;   /* a run restarted more often (card failures, outages and loss
                            spikes; torchrun's --max-restarts) fails: a miss whatever
                            its T; -1: no limit (issue 14) */
} tmc_deadline;

/* Where a run stands now (issue 18): a forecast starts every replica from
 * this state instead of from step 0 (docs/reference/simulation-semantics.md 10,
 * docs/model.md 3.15). The observed failures update the failure rate when
 * failures.mtbf_events gives the prior's strength (Gamma-Poisson). */
typedef struct {
    int enabled;
    double elapsed_days;    /* wall time since the run started, days */
    long steps_done;        /* steps completed so far (the current step) */
    long committed_step;    /* the last step of the newest committed checkpoint */
    long failures;          /* failures that interrupted the run so far */
    long outages;           /* outages that interrupted it so far (reported) */
    double exposure_days;   /* the time over which `failures` were watched, days;
                               < 0: elapsed_days */
    long cards;             /* cards the run has held so far (the exposure's); 0:
                               job.cards, which a what-if may change */
    long cards_in_repair;   /* cards of the spare pool in repair now (failures.spares) */
    long standbys_used;     /* standbys not warm now (failures.standbys): taken, and
                               with a refill not yet replaced */
    double step_s;          /* mean step time observed so far, s; 0: the planned one */
    double step_sd_s;       /* sd of the step times step_s averages, s; 0: not given */
    long step_count;        /* steps step_s averages; 0: steps_done */
} tmc_observed;

/* A calendar window (issue 19 item 6): every replica runs from t = 0 and is
 * cut at `days`; the report is the goodput over that window, the steps
 * committed by its end times the plan's step time over its length
 * (docs/reference/simulation-semantics.md 11). 0 or absent: off. */
typedef struct {
    int enabled;
    double days;            /* W, days; 0: off */
} tmc_window;

/* How the engine draws a segment's compute time (engine.h). */
typedef enum {
    TMC_MODE_AUTO = 0,    /* segments (steps for elastic groups) */
    TMC_MODE_STEPS = 1,   /* every step drawn */
    TMC_MODE_SEGMENTS = 2 /* a segment's sum drawn at once from its exact law where
                             nothing inside it needs a step's end, else every step */
} tmc_mode;

typedef struct {
    long replicas; /* independent full runs */
    uint64_t seed; /* run seed */
    tmc_mode mode; /* "auto", "steps" or "segments" */
    double horizon_days; /* a replica still running at this wall time is censored;
                            0 = 1000 x the uninterrupted wall time, at
                            least twice the deadline's budget; else it must exceed
                            deadline.days - deadline.reserve_days */
} tmc_monte_carlo;

/* A model and its training recipe (docs/model.md 1). The per-state defaults are
 * mixed-precision Adam: BF16 weights 2 + BF16 grads 2 + FP32 master 4 +
 * Adam m 4 + Adam v 4 = 16 bytes per parameter. */
typedef struct {
    int enabled;
    long parameters;                /* trainable parameters P (Qwen3-8B: 8,190,735,360) */
    double flop_per_sequence;       /* training FLOP (fwd + bwd) per sequence (4.31e14) */
    long sequence_tokens;           /* tokens per sequence (8,192) */
    double weights_bytes_per_param; /* matmul weight copy (BF16 2; FP8 block-scaled 1.0002) */
    double grads_bytes_per_param;   /* gradients (BF16 2, FP32 4) */
    double master_bytes_per_param;  /* FP32 master weights (4) */
    double adam_m_bytes_per_param;  /* Adam first moment (4) */
    double adam_v_bytes_per_param;  /* Adam second moment (4) */
} tmc_model;

/* Memory per card (docs/model.md 1). */
typedef struct {
    int enabled;
    double usable_gib;      /* usable memory per card, GiB (RTX 4090: 22) */
    long zero_stage;        /* 0 none sharded, 1 optimizer, 2 + gradients, 3 + weights */
    double activations_gib; /* activations (and buffers not listed apart), GiB (10) */
    double buffer_gib;      /* one temporary buffer, e.g. a gathered module, GiB */
    long buffer_count;      /* how many such buffers a step uses */
    int buffers_reused;     /* 0 "together": all live at once; 1 "reused": one space */
} tmc_memory;

typedef struct {
    int enabled;
    double link_gb_per_s; /* each card's link for ZeRO traffic, GB/s (PCIe 4.0 x16: 32) */
} tmc_interconnect;

typedef struct {
    int enabled;
    double write_gb_per_s; /* sustained checkpoint write bandwidth, GB/s (docs/model.md 3.2: 7) */
} tmc_storage;

/* CPU-bound input preparation (docs/model.md 4). */
typedef struct {
    int enabled;
    long processes;                 /* preparation processes (4) */
    double process_sequences_per_s; /* sequences each prepares per second (2) */
    long paused_processes;          /* processes a pause stops (1) */
    double pause_s;                 /* length of the pause, s (60) */
} tmc_input_pipeline;

typedef struct {
    int enabled;
    long sequences;      /* global batch, sequences per step (384) */
    double train_tokens; /* effective tokens to train on (1e11) */
} tmc_batch;

/* Critical batch size (docs/model.md 1; McCandlish et al. 2018). */
typedef struct {
    int enabled;
    double noise_scale_tokens; /* gradient noise scale B_noise, tokens (2e6) */
    long scale_to_cards;       /* card count for weak and strong scaling (1,536) */
} tmc_critical_batch;

/* A dense model sized by F = 6ND (docs/model.md 1, scale-up). */
typedef struct {
    int enabled;
    double parameters;    /* N (1e12) */
    double tokens;        /* D (2e13) */
    long cards;           /* (16,384) */
    double efficiency;    /* MFU (0.40) */
    double deadline_days; /* days (90) */
} tmc_scale_up;

/* Prices (issue 20): what a run's card-hours cost. Card-hours themselves
 * are reported for every run (cost.h); this section adds the money. */
typedef enum { TMC_RESERVE_EXCLUDED = 0, TMC_RESERVE_HELD = 1 } tmc_reserve_billing;
typedef struct {
    int enabled;
    double card_hour_price;          /* price of one card held for an hour (any currency) */
    double energy_kwh_per_card_hour; /* energy one card draws in an hour, kWh */
    double energy_price_per_kwh;     /* price of a kWh, same currency */
    double fixed;                    /* preparation and other fixed cost */
    tmc_reserve_billing reserve;     /* "excluded": the deadline's reserve is
                                        not billed; "held": the cards are held through it */
} tmc_cost;

#define TMC_KEY_LEN 128   /* a dotted key ("failures.causes[0].share"), NUL included */
#define TMC_PATH_MAX 4096 /* a longer path is refused, never truncated */
#define TMC_OVERRIDES_BYTES 16384 /* all overrides of one experiment, NULs included */

/* The keys of the assumed list (src/model/assumed.h) the experiment file, a
 * section file or an override gave, whatever the value (null and the default
 * included): the report calls the others "Default". Bits of
 * tmc_experiment.stated. */
enum {
    TMC_STATED_SPARES = 1 << 0,     /* failures.spares */
    TMC_STATED_CAUSES = 1 << 1,     /* failures.causes */
    TMC_STATED_DETECTION = 1 << 2,  /* failures.causes[i].detection_s, any i */
    TMC_STATED_OUTAGES = 1 << 3,    /* outages */
    TMC_STATED_JITTER_CV = 1 << 4,  /* jitter.cv */
    TMC_STATED_SPIKES = 1 << 5,     /* loss_spikes */
    TMC_STATED_RESTORE_CV = 1 << 6, /* checkpoint.restore_cv */
    TMC_STATED_PROVISION = 1 << 7,  /* failures.spare_provision_s */
    TMC_STATED_RENEWAL_AT = 1 << 8, /* failures.renewal_at */
    TMC_STATED_LEVEL = 1 << 9,      /* failures.causes[i].level, any i */
    TMC_STATED_REPAIR_FROM = 1 << 10, /* failures.repair_from */
};

/* Named so that trainmc.h can declare it opaque. */
typedef struct tmc_experiment {
    char name[128];
    char source[256];
    char *path;              /* the experiment file it was read from (heap) */
    int n_inputs;            /* every file read: no output may name one of them */
    char **inputs;           /* n_inputs paths (heap) */
    int n_overrides;         /* the overrides applied, in order: what a result */
    char **overrides;        /* records; n_overrides "KEY=VALUE" strings (heap) */
    int n_bases;             /* the files "base" named, the nearest first: */
    char **bases;            /* n_bases paths as resolved (heap); 0: no base */
    unsigned stated;         /* TMC_STATED_* bits: keys given, not left to defaults */
    tmc_job job;
    tmc_jitter jitter;
    tmc_failures failures;
    tmc_checkpoint checkpoint;
    tmc_outages outages;
    tmc_loss_spikes loss_spikes;
    tmc_time_limit time_limit;
    tmc_elastic elastic;
    tmc_pauses pauses;
    tmc_slow_cards slow_cards;
    tmc_slowdown slowdown;
    tmc_deadline deadline;
    tmc_observed observed;
    tmc_window window;
    tmc_monte_carlo monte_carlo;
    tmc_model model;
    tmc_memory memory;
    tmc_interconnect interconnect;
    tmc_storage storage;
    tmc_input_pipeline input_pipeline;
    tmc_batch batch;
    tmc_critical_batch critical_batch;
    tmc_scale_up scale_up;
    tmc_cost cost;
} tmc_experiment;

/* The heap parts keep the struct small enough for a stack frame and a copy
 * by value (issue 31): it was 171 kB with them inline. */
_Static_assert(sizeof(tmc_experiment) <= 8192, "tmc_experiment fits in 8 kB");

/* Frees what x owns (path, inputs, overrides, bases, traces) and empties those
 * fields, so releasing twice is harmless; x itself is the caller's. Only the
 * owner releases: never a view (top of this file). */
void tmc_experiment_release(tmc_experiment *x);

/* dst = a deep copy of src, with heap parts of its own that dst's owner
 * releases. 0, or -1 with err "out of memory" and dst owning nothing. */
int tmc_experiment_copy(tmc_experiment *dst, const tmc_experiment *src, tmc_error *err);

/* Append a copy of `text` to x's inputs (tmc_experiment_add_input) or
 * overrides (tmc_experiment_add_override): for the loader (src/input), on
 * the owner, before any view is made. 0, or -1 with err "out of memory". */
int tmc_experiment_add_input(tmc_experiment *x, const char *text, tmc_error *err);
int tmc_experiment_add_override(tmc_experiment *x, const char *text, tmc_error *err);
int tmc_experiment_add_base(tmc_experiment *x, const char *text, tmc_error *err);

/* 1 when x asks for a calendar window (window.days > 0). */
static inline int tmc_window_on(const tmc_experiment *x)
{
    return x->window.enabled && x->window.days > 0;
}

#endif
