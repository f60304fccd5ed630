/* config_levels.c - what two levels of snapshots (checkpoint.persistent_every
 * above 1; docs/reference/simulation-semantics.md 13) need and cannot be
 * combined with. With persistent_every 1 their keys are left unused, not
 * refused, so that a sweep can set one level beside two. Each refusal says why; the engine relies on them (a
 * persistent rollback is drawn through the ledger of committed snapshots,
 * segment by segment). */
#include "config_internal.h"


/* "FILE: KEY: WHAT beside two levels of snapshots (...): WHY". */
static int refuse(tmc_error *err, const char *label, const char *key, const char *what,
                  const char *why)
{
    return tmc_error_set(err, "%s: %s: %s beside two levels of snapshots "
                              "(checkpoint.persistent_every above 1): %s",
                         label, key, what, why);
}

/* A local snapshot costs no more than a persistent one: it is the fast
 * level (a copy into memory, not a write to storage). */
static int costs(const tmc_checkpoint *cp, const char *label, tmc_error *err)
{
    if (cp->local_save_s > cp->save_s)
        return tmc_error_set(err, "%s: checkpoint.local_save_s: %.10g s is more than "
                                  "checkpoint.save_s (%.10g s); a local snapshot is the "
                                  "fast level: give at most save_s",
                             label, cp->local_save_s, cp->save_s);
    if (cp->local_restore_s > cp->restore_s)
        return tmc_error_set(err, "%s: checkpoint.local_restore_s: %.10g s is more than "
                                  "checkpoint.restore_s (%.10g s); a local restore is the "
                                  "fast level: give at most restore_s",
                             label, cp->local_restore_s, cp->restore_s);
    return 0;
}

int tmc_cfg_check_levels(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    if (cp->persistent_every <= 1) /* the local keys unused: a sweep may set 1 */
        return 0;
    if (x->elastic.enabled)
        return refuse(err, label, "elastic", "elastic replica groups",
                      "a group that heals from its peers has no snapshot level; run "
                      "without elastic or with persistent_every 1");
    if (x->loss_spikes.enabled && x->loss_spikes.rollback_snapshots > 1)
        return refuse(err, label, "loss_spikes.rollback_snapshots", "a rollback of several "
                      "snapshots", "a spike already goes back to the newest persistent "
                      "snapshot; give 1");
    if (tmc_window_on(x))
        return refuse(err, label, "window", "a calendar window",
                      "a persistent restore moves the committed step back past local "
                      "snapshots, so the step at the window's end is not its progress");
    if (x->failures.enabled && x->failures.cards_per_node < 1)
        return tmc_error_set(err, "%s: failures.cards_per_node: not given; with two levels "
                                  "of snapshots a failed node's snapshot survives on its "
                                  "partner node, so the job's nodes must be known: give "
                                  "the cards of a node (%s)", label,
                             tmc_cfg_range_of("failures", "cards_per_node").s);
    return costs(cp, label, err);
}
