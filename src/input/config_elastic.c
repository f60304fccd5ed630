/* config_elastic.c - what the elastic section (config.h, tmc_elastic) asks
 * of the rest of an experiment: G divides the cards, min_groups <= G, and
 * no feature whose interplay with groups that fail alone is not modelled
 * exactly (docs/reference/simulation-semantics.md 9 gives each reason). */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"

/* "FILE: KEY: VALUE ... is not modelled with elastic groups: WHY". */
static int refuse(tmc_error *err, const char *label, const char *key, const char *what,
                  const char *why)
{
    return tmc_error_set(err, "%s: %s: %s is not modelled with elastic replica groups "
                              "(elastic.groups): %s", label, key, what, why);
}

/* Failure models whose arrivals are not one Poisson process of rate
 * N / MTBF_card, thinned to the cards of the groups up, or a replayed trace
 * (each of its failures strikes a group that is up). */
static int check_failures(const tmc_failures *f, const char *label, tmc_error *err)
{
    if (!f->enabled)
        return 0;
    if (!tmc_failures_replayed(f) && !tmc_laws_lifetime_memoryless(f->distribution))
        return refuse(err, label, "failures.distribution", "a non-exponential law",
                      "the idle cards of a group that is down would have to age apart "
                      "from the live ones; use exponential lifetimes or a trace");
    if (f->renewal == TMC_RENEWAL_JOB)
        return refuse(err, label, "failures.renewal", "\"job\"",
                      "a group's failure restarts no job clock; use \"card\"");
    if (f->n_causes > 0)
        return refuse(err, label, "failures.causes", "a mix of causes",
                      "detection delays and per-cause restores of a group are not "
                      "modelled; give one cause");
    if (f->per_node_mtbf_days > 0 || f->per_job_mtbf_days > 0)
        return refuse(err, label, f->per_node_mtbf_days > 0 ? "failures.per_node_mtbf_days"
                                                            : "failures.per_job_mtbf_days",
                      "a per-node or per-job rate",
                      "a node may span groups and a job failure takes every group; give "
                      "per-card failures only");
    return 0;
}

/* Features whose events are counted in steps of the run or stop compute at
 * a time of their own, which progress in fractions of a step does not
 * keep. */
static int check_features(const tmc_experiment *x, const char *label, tmc_error *err)
{
    if (x->checkpoint.mode == TMC_SAVE_ASYNC)
        return refuse(err, label, "checkpoint.mode", "\"async\"",
                      "a snapshot's background write beside groups that leave and rejoin "
                      "is not modelled; use \"sync\"");
    if (x->checkpoint.restore_immune)
        return refuse(err, label, "checkpoint.restore_immune", "true",
                      "a group's failure during a restore takes the group down, which "
                      "the immune reading does not define; give false");
    if (x->time_limit.enabled)
        return refuse(err, label, "time_limit", "a scheduler time limit",
                      "its emergency save and requeue are not modelled for groups");
    if (x->outages.enabled && x->outages.notice_s > 0)
        return refuse(err, label, "outages.notice_s", "notice before an outage",
                      "an emergency save needs steps of the whole batch; give 0");
    if (x->slow_cards.enabled)
        return refuse(err, label, "slow_cards", "slow cards",
                      "which group holds them, and their eviction, are not modelled");
    if (x->pauses.enabled)
        return refuse(err, label, "pauses", "periodic pauses",
                      "they fall on step numbers, which shrunk steps do not keep");
    if (x->slowdown.enabled)
        return refuse(err, label, "slowdown", "a run that slows down",
                      "a group's rejoin is not a restart of the job, so when its drift "
                      "starts again is not defined");
    if (x->loss_spikes.enabled && x->loss_spikes.rollback_snapshots > 1)
        return refuse(err, label, "loss_spikes.rollback_snapshots", "a rollback past the "
                      "newest commit", "give 1");
    if (x->monte_carlo.mode == TMC_MODE_SEGMENTS)
        return refuse(err, label, "monte_carlo.mode", "\"segments\"",
                      "a group's failure cuts a step, so steps are drawn one by one; use "
                      "\"auto\" or \"steps\"");
    return 0;
}

int tmc_cfg_check_elastic(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_elastic *el = &x->elastic;
    if (!el->enabled)
        return 0;
    if (x->job.cards % el->groups != 0)
        return tmc_error_set(err, "%s: elastic.groups: %ld does not divide job.cards (%ld); "
                                  "expected a divisor of job.cards in [2, %ld], each group "
                                  "holding job.cards / groups cards",
                             label, el->groups, x->job.cards, x->job.cards);
    if (el->min_groups > el->groups)
        return tmc_error_set(err, "%s: elastic.min_groups: %ld is out of range; expected an "
                                  "integer in [1, %ld] (elastic.groups)",
                             label, el->min_groups, el->groups);
    if (check_failures(&x->failures, label, err))
        return -1;
    return check_features(x, label, err);
}
