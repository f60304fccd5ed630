/* accounting.h - what one replica reports, written once as a table.
 *
 * Every result field of a replica is listed once, in TMC_REPLICA_FIELDS
 * below; the struct, the sum over replicas, the wall-time split's sum, the
 * rollback of committed work and the text and JSON reports (output.c) are
 * all generated from it, so a new field cannot be missed by any of them.
 *
 * Invariant (docs/reference/simulation-semantics.md, "The split"): the TIME rows add
 * up to wall_s for every replica that was neither stopped, failed nor
 * censored; tmc_accounting_split_sum computes that sum. */
#ifndef TMC_ACCOUNTING_H
#define TMC_ACCOUNTING_H

#include <stddef.h>

/* The slots of an importance-sampling tilt (weights.h): multipliers of the
 * rates of the three processes (in processes.h's order, asserted there),
 * then of the means of repair times and outage downtimes. */
enum {
    TMC_TILT_FAILURES = 0,
    TMC_TILT_OUTAGES = 1,
    TMC_TILT_SPIKES = 2,
    TMC_TILT_REPAIRS = 3,
    TMC_TILT_DOWNTIMES = 4,
    TMC_TILTS = 5
};

/* The table. Each entry is one of:
 *   TIME(field, json_key, label)   a row of the wall-time split, seconds
 *   COUNT(field, json_key, label)  events per run
 *   SUM(field)                     another per-run sum (reported specially)
 *   ARRAY(field, n)                n per-run sums
 * The order of TIME rows is the order they are printed. */
#define TMC_REPLICA_FIELDS(TIME, COUNT, SUM, ARRAY)                                         \
    SUM(wall_s)            /* run wall time, s (the deadline's reserve not included) */      \
    TIME(compute_s, "useful_compute", "useful compute")      /* mu per committed step */    \
    TIME(straggler_s, "straggler_wait", "straggler wait")    /* max_i X_i - mu, committed */ \
    TIME(pause_s, "pauses", "periodic pauses")               /* of committed steps */       \
    TIME(slowdown_s, "slowdown", "slowdown since the restart") /* committed steps' (f(h) - 1) \
        x slowest-card time (slowdown) */                                                  \
    TIME(fixed_s, "comm_input", "communication + input")     /* exposed comm + input wait */ \
    TIME(save_s, "saves", "saves (committed)")               /* saves that committed */     \
    TIME(lost_s, "lost_work", "lost work")                   /* work lost to interruptions */ \
    TIME(restore_s, "restores", "restores")                  /* including restarted ones */ \
    TIME(refresh_s, "refresh_restarts", "refresh restarts")  /* planned restarts \
        (slowdown.refresh_hours); one a failure strikes goes on in restores */             \
    TIME(downtime_s, "outage_downtime", "outage downtime")   /* before restores */          \
    TIME(detection_s, "failure_detection", "failures not yet detected")                     \
    TIME(spare_wait_s, "spare_wait", "waiting for spares")   /* a spare card or a repair */ \
    TIME(eviction_s, "evictions", "evicting slow cards")     /* restores that evict */      \
    TIME(requeue_s, "requeue_wait", "time-limit requeues")    /* waiting in the queue */   \
    TIME(shrunk_s, "smaller_batch", "steps on fewer groups") /* elastic: committed steps' \
        time beyond their progress (a step on g of G groups is worth g / G of one) */      \
    TIME(before_s, "before_forecast", "before the forecast") /* a forecast's elapsed \
        time (progress.elapsed_days): the run's past, in no other row */                   \
    COUNT(card_failures, "card_failures", "failures (all parts)") /* every failure, of cards, \
        nodes and the job (the two below count those of nodes and of the job); elastic: \
        those that forced a global restart (fewer than min_groups groups up) */                               \
    COUNT(outages, "outages", "outages")                                                    \
    COUNT(loss_spikes, "loss_spikes", "loss spikes")                                        \
    COUNT(requeues, "requeues", "time-limit requeues")                                      \
    COUNT(save_timeouts, "save_timeouts", "save timeouts")                                  \
    COUNT(saves, "saves", "committed saves")                                                \
    COUNT(steps_simulated, "steps_simulated", "steps simulated") /* committed or lost: \
        drawn one by one up to the one an interruption cuts; a segment drawn whole and  \
        cut: the steps begun by the cut at its own mean step (an estimate) */           \
    COUNT(group_failures, "group_failures", "group failures") /* elastic: those that took \
        down their group only (no restart) */                                               \
    COUNT(heals, "heals", "group heals")     /* elastic: groups that rejoined a live job */ \
    COUNT(group_down_s, "group_down_s", "group-seconds down") /* elastic: summed over    \
        groups, the time each was out of a running job (spare wait, heal, the rest of a   \
        step), s */                                                                         \
    COUNT(bad_node_faults, "bad_node_faults", "bad-node faults") /* of the card      \
        failures, those of bad nodes' extra rate (failures.bad_node_share) */              \
    COUNT(bad_node_retirements, "bad_node_retirements", "bad nodes retired")              \
    COUNT(bad_nodes_start, "bad_nodes_at_start", "bad nodes at the start")                \
    COUNT(standby_swaps, "standbys_taken", "standbys taken") /* cards          \
        (failures.standbys) */                                                             \
    COUNT(spare_provisions, "spares_taken", "cards from pool or repair") /* cards \
        taken from the pool, or waited for from repair when it is empty (always with 0  \
        spares); a bad repair is counted again when its replacement is taken */          \
    COUNT(before_restarts, "restarts_before_forecast", "restarts before the forecast")    \
        /* a forecast: the failures and outages seen (progress): the budget's past */     \
    COUNT(node_failures, "node_failures", "node failures") /* last, so that \
        the columns before keep their places (--samples); of the card failures, those  \
        that took a whole node (per-node rate, a cause of scope node, a bad node's fault) */ \
    COUNT(job_failures, "job_failures", "job failures") /* of the card failures, those of \
        the job itself (failures.per_job_mtbf_days): no card taken */                       \
    COUNT(refreshes, "refreshes", "refresh restarts") /* planned (slowdown.refresh_hours) */ \
    COUNT(persistent_restores, "persistent_restores", "restores from persistent") /* two \
        levels of snapshots: interruptions whose restore needed a persistent one */       \
    COUNT(bursts, "bursts", "bursts") /* of the card failures, those that took several \
        nodes at once (failures.burst_per_node_mtbf_days) */                                \
    COUNT(burst_nodes, "burst_nodes", "nodes taken by bursts")                              \
    COUNT(bad_node_repairs, "bad_node_repairs", "bad nodes sent to repair") /* a fleet \
        (failures.bad_node_placement): bad nodes whose failure sent them out of the job */ \
    COUNT(bad_node_cures, "bad_node_cures", "bad nodes cured") /* a fleet: of those, the \
        ones whose repair cured them (failures.bad_node_cure_share) */                      \
    COUNT(misdiagnoses, "misdiagnoses", "misdiagnoses") /* a fleet: node failures that    \
        sent another node to repair (failures.misdiagnosis_share) */                        \
    COUNT(nodes_aged, "nodes_aged", "good nodes turned bad") /* a fleet: aging, in the job, \
        the pool or repair (failures.node_aging_days) */                                     \
    COUNT(nodes_retired, "nodes_retired", "nodes retired") /* a fleet: nodes that left it \
        at k failures within w days (failures.retire_after_failures) */                     \
    COUNT(fleet_depleted, "fleet_depleted", "runs whose fleet fell short") /* a fleet: 1    \
        if retirements left fewer nodes than the job needs, which then waited to the       \
        horizon */                                                                          \
    COUNT(reserve_fetched, "reserve_fetched", "reserve nodes fetched") /* a fleet: nodes    \
        fetched from the reserve when the pool was empty (failures.reserve_nodes) */         \
    SUM(slow_cards)        /* slow cards in the run */                                      \
    SUM(slow_runs)         /* 1 if the run had any */                                       \
    SUM(slow_survival_s)   /* wall time slow cards stayed (to eviction or the end), s */    \
    SUM(evictions)                                                                          \
    SUM(censored)          /* 1 if still running at the horizon: wall_s = horizon */       \
    SUM(mark_s)            /* wall time at which the commits first reached the engine's \
                              mark_step, s (0: not asked, or never) */                     \
    SUM(window_steps)      /* a calendar window: the committed step at its end (the  \
                              newest commit at t <= W; engine.h), 0 without one */          \
    SUM(window_open_s)     /* a window: from the last segment boundary at or before W to \
                              W, s; the split's rows and this add up to W */                \
    /* Importance sampling (batch/importance.h): the likelihood ratio w (1     \
     * without tilt) and its products with the miss indicator, and the         \
     * cross-entropy sums over the elite runs: w, w N_k (arrivals of process   \
     * k that struck, or durations drawn) and w A_k (the time they could       \
     * strike in, or the sum of the durations). */                             \
    SUM(w) SUM(w2) SUM(w_miss) SUM(w2_miss) SUM(ce_w)                                       \
    ARRAY(ce_n, TMC_TILTS) ARRAY(ce_a, TMC_TILTS)

/* Why a replica has no result. */
typedef enum {
    TMC_REPLICA_NO_MEMORY = 1, /* memory ran out inside it */
    TMC_REPLICA_STALLED = 2    /* a restore struck TMC_STALL_LIMIT times in a row */
} tmc_replica_failure;

/* The rows of the split by name: TMC_ROW_compute_s, ... TMC_SPLIT_N. */
#define TMC_NONE_(...)
#define TMC_ROW_(f, key, label) TMC_ROW_##f,
enum { TMC_REPLICA_FIELDS(TMC_ROW_, TMC_NONE_, TMC_NONE_, TMC_NONE_) TMC_SPLIT_N };
#undef TMC_ROW_

/* The event counts by name: TMC_COUNT_card_failures, ... TMC_COUNT_N. */
#define TMC_COUNT_(f, key, label) TMC_COUNT_##f,
enum { TMC_REPLICA_FIELDS(TMC_NONE_, TMC_COUNT_, TMC_NONE_, TMC_NONE_) TMC_COUNT_N };
#undef TMC_COUNT_

/* The result of one replica (or the sum over many), generated from the
 * table. The split's rows are also one array, split[TMC_ROW_*], so that a
 * commit or a rollback adds them in one loop. */
#define TMC_FIELD_(f, key, label) double f;
#define TMC_SUM_(f) double f;
#define TMC_ARRAY_(f, n) double f[n];
typedef struct {
    union {
        struct {
            TMC_REPLICA_FIELDS(TMC_FIELD_, TMC_NONE_, TMC_NONE_, TMC_NONE_)
        };
        double split[TMC_SPLIT_N];
    };
    TMC_REPLICA_FIELDS(TMC_NONE_, TMC_FIELD_, TMC_SUM_, TMC_ARRAY_)
    int stopped;        /* 1 if tmc_stop_request cut it short */
    int failed;         /* tmc_replica_failure: no result (0: none) */
} tmc_replica;
#undef TMC_FIELD_
#undef TMC_SUM_
#undef TMC_ARRAY_

/* One row of the split or one event count, for reports: its place in
 * tmc_replica, JSON key and text label. */
typedef struct {
    size_t offset;
    const char *key, *label;
} tmc_accounting_row;

extern const tmc_accounting_row tmc_accounting_split[]; /* the TIME rows, in order */
extern const int tmc_accounting_split_rows;
extern const tmc_accounting_row tmc_accounting_counts[]; /* the COUNT fields */
extern const int tmc_accounting_count_rows;

/* The value of a row in r. */
double tmc_accounting_get(const tmc_replica *r, const tmc_accounting_row *row);

/* One replica's own figures, kept when each replica is wanted (trainmc run
 * --samples): its wall time (s), split (s, TMC_ROW_*), event counts
 * (TMC_COUNT_*), whether it was censored (0 or 1) and its likelihood ratio w
 * (1 without importance sampling). */
typedef struct {
    double wall_s;
    double split[TMC_SPLIT_N];
    double count[TMC_COUNT_N];
    double censored, w;
} tmc_sample;

/* The restarts of a run: every card failure, outage, loss spike and save
 * timeout sends the job back to a committed snapshot (slow-card evictions,
 * planned, do not count), and a forecast's restarts before its start. What
 * deadline.max_restarts limits. */
double tmc_accounting_restarts(const tmc_replica *r);

/* The same from a replica's figures. */
double tmc_accounting_sample_restarts(const tmc_sample *s);

/* r's own figures into *s. */
void tmc_accounting_sample(const tmc_replica *r, tmc_sample *s);

/* Add b into a, field by field (stopped and failed are left alone). */
void tmc_accounting_accumulate(tmc_replica *a, const tmc_replica *b);

/* The sum of the split's rows, s: equal to wall_s (up to rounding) for a
 * replica that ran to its end. */
double tmc_accounting_split_sum(const tmc_replica *r);

/* What one commit adds to the split (rows indexed by TMC_ROW_*; a commit
 * fills compute, straggler wait, pauses, communication + input and its
 * save), kept per committed snapshot so that a loss spike that rolls back
 * several can move them to lost work. */
typedef struct {
    long steps;
    long snapshots; /* the saves it holds: 1, or a block's segments */
    double row[TMC_SPLIT_N];
} tmc_commit;

/* The committed snapshots still restorable, oldest first. */
typedef struct {
    tmc_commit *parts;
    long n, cap;
    int keep;           /* 1: remember commits (a spike may roll back several) */
} tmc_ledger;

/* Add a commit to out's split and saves, and remember it when the ledger
 * keeps commits. Returns 0, or -1 if memory runs out (then out->failed is
 * TMC_REPLICA_NO_MEMORY). */
int tmc_accounting_commit(tmc_ledger *l, tmc_replica *out, const tmc_commit *c);

/* A loss spike that rolls back `snapshots` committed snapshots: the newest
 * snapshots - 1 commits remembered (as many as there are) move from the
 * split to lost work. Returns the steps they held. */
long tmc_accounting_roll_back(tmc_ledger *l, tmc_replica *out, long snapshots);

/* Two levels of snapshots: a restore from the newest persistent snapshot.
 * The ledger remembers the commits since it (it is forgotten at each
 * persistent commit); they all move from the split to lost work. Returns
 * the steps they held. */
long tmc_accounting_roll_back_all(tmc_ledger *l, tmc_replica *out);

/* Forget the commits remembered: none can be rolled back past any more. */
static inline void tmc_accounting_forget(tmc_ledger *l)
{
    l->n = 0;
}

/* Two levels with asynchronous saves: a persistent snapshot's write
 * committed, `steps` steps after the previous one's. The oldest commits
 * remembered that hold them are forgotten (nothing goes back past it); the
 * newer ones, captured while it was written, stay. */
void tmc_accounting_forget_oldest(tmc_ledger *l, long steps);

void tmc_accounting_free(tmc_ledger *l);

#endif
