/* config_window.c - what a calendar window (config.h, tmc_window) cannot be
 * combined with (docs/reference/simulation-semantics.md 11 gives each reason). Whether
 * job.steps could finish inside the window needs the plan's step time: the
 * run layer judges it (finishable.c); a progress section beside it is
 * refused by tmc_cfg_check_progress (config_progress.c), which --progress
 * FILE runs too. */
#include "config_internal.h"

/* "FILE: KEY: WHAT cannot be measured over a calendar window (window): WHY". */
static int refuse(tmc_error *err, const char *label, const char *key, const char *what,
                  const char *why)
{
    return tmc_error_set(err, "%s: %s: %s cannot be measured over a calendar window "
                              "(window): %s", label, key, what, why);
}

int tmc_cfg_check_window(const tmc_experiment *x, const char *label, tmc_error *err)
{
    if (!tmc_window_on(x))
        return 0;
    if (x->elastic.enabled)
        return refuse(err, label, "elastic", "elastic replica groups",
                      "their steps on fewer groups are worth less than a step; run without "
                      "elastic");
    if (x->checkpoint.mode == TMC_SAVE_ASYNC)
        return refuse(err, label, "checkpoint.mode", "asynchronous saves",
                      "the split of the window's time is not cut for snapshots still "
                      "being written at its end; use synchronous saves");
    if (x->loss_spikes.enabled && x->loss_spikes.rollback_snapshots > 1)
        return refuse(err, label, "loss_spikes.rollback_snapshots", "a rollback past the "
                      "newest commit", "the steps committed at the window's end would "
                      "move back; give 1");
    if (x->monte_carlo.horizon_days > 0)
        return refuse(err, label, "monte_carlo.horizon_days", "a censoring horizon",
                      "the window's end is the horizon; leave it 0");
    if (x->checkpoint.interval_rule == TMC_INTERVAL_OPTIMAL)
        return refuse(err, label, "checkpoint.interval_s", "\"optimal\" (the interval of "
                      "the lowest simulated mean T)", "every run is cut at the window's end, "
                      "so T is the same at every interval; give \"daly\" or a number");
    return 0;
}
