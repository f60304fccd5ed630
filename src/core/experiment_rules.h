/* experiment_rules.h - small rules on an experiment that the closed forms
 * (src/model) and the engine (src/engine) must apply alike: written once
 * here so that the two cannot disagree (docs/reference/simulation-semantics.md 3). */
#ifndef TMC_EXPERIMENT_RULES_H
#define TMC_EXPERIMENT_RULES_H

#include "experiment.h"

/* 1 when an outage's notice leaves time to save (notice_s >= the save time,
 * synchronous saves): the job saves at once and loses no work. The
 * loader refuses notice with asynchronous saves (config_checks.c). */
static inline int tmc_outages_noticed(const tmc_experiment *x)
{
    const tmc_outages *o = &x->outages;
    return o->enabled && o->notice_s > 0 && o->notice_s >= x->checkpoint.save_s &&
           x->checkpoint.mode == TMC_SAVE_SYNC;
}

/* 1 when the job saves just before its time limit (at_limit "save",
 * synchronous saves, a warning not stated or at least a save long), so that
 * a limit loses no work. */
static inline int tmc_limit_saves(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    return tl->enabled && tl->at_limit == TMC_LIMIT_SAVE && x->checkpoint.mode == TMC_SAVE_SYNC &&
           (tl->notice_s < 0 || tl->notice_s >= x->checkpoint.save_s);
}

/* 1 when at_limit "save" cannot save: the warning (time_limit.notice_s) is
 * shorter than a save, so every limit loses the work since the last commit,
 * as at_limit "lose" does. */
static inline int tmc_limit_notice_short(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    return tl->enabled && tl->at_limit == TMC_LIMIT_SAVE && x->checkpoint.mode == TMC_SAVE_SYNC &&
           tl->notice_s >= 0 && tl->notice_s < x->checkpoint.save_s;
}

/* An allocation's length in seconds: time_limit.wall_hours, less what a
 * warning longer than the save leaves unused (the job saves at the warning
 * and ends its allocation, as SLURM handlers that requeue at once do:
 * notice_s - save_s). */
static inline double tmc_limit_allocation_s(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    double early = tmc_limit_saves(x) && tl->notice_s > x->checkpoint.save_s
                       ? tl->notice_s - x->checkpoint.save_s : 0;
    return tl->wall_hours * 3600 - early;
}

/* 1 when the failures replay a trace of failure times (failures.trace)
 * rather than draw lifetimes from a law: a trace has no law to tilt, fit or
 * update, and renews no clock. */
static inline int tmc_failures_replayed(const tmc_failures *f)
{
    return f->distribution == TMC_LIFETIME_TRACE;
}

/* The nodes a job of `cards` cards holds, g cards a node: ceil(cards / g),
 * in integers (exact for any long); 0 when g < 1 (no nodes stated). */
/* 1 when x speaks of two levels of snapshots: persistent_every above 1,
 * or a key that only they read (a local save or restore, a cause of level
 * persistent), which persistent_every 1 leaves unused so that a sweep can
 * set one level beside two (docs/reference/simulation-semantics.md 13). */
static inline int tmc_levels_stated(const tmc_experiment *x)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    int level = 0;
    for (int i = 0; x->failures.enabled && i < x->failures.n_causes; i++)
        level |= x->failures.causes[i].level == TMC_LEVEL_PERSISTENT;
    return cp->persistent_every > 1 || cp->local_save_s >= 0 || cp->local_restore_s >= 0 ||
           level;
}

static inline long tmc_job_nodes(long cards, long g)
{
    return g > 0 ? (cards + g - 1) / g : 0;
}

/* The cards a spare pool or a set of standbys is counted in: a node's g
 * (failures.cards_per_node > 1) when every failure that takes hardware
 * takes a whole node (the per-node part, a card failure of a cause of
 * scope "node", bursts); 1 when some take a single card (the per-card part
 * without causes, or a cause of scope "card" that takes a spare), or
 * none takes hardware. A pool of g-card units has a remainder of
 * spares % g cards that shortens no wait (a failure still waits for a
 * whole unit back from repair), though its card-hours are billed: the
 * loader refuses it without standbys (config_checks.c), and `cheapest`'s
 * spares and standbys levers ask for multiples of this. */
static inline long tmc_pool_unit_cards(const tmc_failures *f)
{
    long g = f->cards_per_node;
    if (!f->enabled || g <= 1)
        return 1;
    int card_part = f->per_card_mtbf_days > 0 || tmc_failures_replayed(f);
    int spare = f->n_causes == 0, node_cause = 0, card = card_part && f->n_causes == 0;
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].takes_spare) {
            spare = 1;
            node_cause |= f->causes[i].scope == TMC_CAUSE_NODE && card_part;
            card |= f->causes[i].scope != TMC_CAUSE_NODE && card_part;
        }
    int burst = f->burst_per_node_mtbf_days > 0 && f->n_causes == 0;
    for (int i = 0; i < f->n_causes; i++)
        burst |= f->burst_per_node_mtbf_days > 0 && f->causes[i].takes_spare &&
                 f->causes[i].part_share[TMC_PART_BURST] > 0;
    int node = (f->per_node_mtbf_days > 0 && spare) || node_cause || burst;
    return node && !card ? g : 1;
}

#endif
