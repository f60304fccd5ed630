/* config_progress.c - what the progress section (config.h, tmc_observed)
 * asks of itself and of the rest of an experiment: a state a run can be in
 * (the last commit not after the current step, a run not yet finished, the
 * elapsed time long enough for the steps done), and no feature whose state
 * at that moment the section cannot give (docs/reference/simulation-semantics.md 10
 * gives each reason). */
#include "config_internal.h"

#include <math.h>

#include "closed_form.h"
#include "experiment_rules.h"
#include "laws.h"
#include "units.h"

/* "FILE: KEY: WHAT cannot be forecast from a progress state: WHY". */
static int refuse(tmc_error *err, const char *label, const char *key, const char *what,
                  const char *why)
{
    return tmc_error_set(err, "%s: %s: %s cannot be forecast from a progress state "
                              "(progress): %s", label, key, what, why);
}

/* The state itself: counts that fit the job and the processes it has. */
static int check_state(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_observed *p = &x->observed;
    if (p->steps_done > x->job.steps)
        return tmc_error_set(err, "%s: progress.steps_done: %ld is out of range; expected an "
                                  "integer in [0, %ld] (job.steps)",
                             label, p->steps_done, x->job.steps);
    if (p->committed_step > p->steps_done)
        return tmc_error_set(err, "%s: progress.committed_step: %ld is after "
                                  "progress.steps_done (%ld); expected an integer in [0, %ld]: "
                                  "a checkpoint holds only steps already done",
                             label, p->committed_step, p->steps_done, p->steps_done);
    if (p->committed_step == x->job.steps)
        return tmc_error_set(err, "%s: progress.committed_step: %ld is job.steps: the run "
                                  "has finished, there is nothing to forecast; expected an "
                                  "integer in [0, %ld]",
                             label, p->committed_step, x->job.steps - 1);
    if (p->failures > 0 && !x->failures.enabled)
        return tmc_error_set(err, "%s: progress.failures: %ld failures observed, but the "
                                  "experiment has no failures section; give one, or 0",
                             label, p->failures);
    if (p->steps_done > 0 && p->elapsed_days == 0)
        return tmc_error_set(err, "%s: progress.elapsed_days: 0 with %ld steps done; expected "
                                  "the wall time those steps took, days (> 0)",
                             label, p->steps_done);
    double exposure = p->exposure_days;
    const field *f = tmc_cfg_find_field("progress", "exposure_days"); /* its bound */
    if (exposure < 0 && exposure != -1)
        return tmc_error_set(err, "%s: progress.exposure_days: %.10g is out of range; expected "
                                  "-1 (the default: progress.elapsed_days) or a number in "
                                  "[0, %s], days", label, exposure,
                             tmc_cfg_number_text(f, f->hi).s);
    /* the rates' exposure: exposure_days, or elapsed_days by default
     * (forecast.c); counts seen over none would move the posterior by
     * an infinite rate, so either key at 0 is refused (issue 33 item 4) */
    int by_default = exposure == -1;
    if ((by_default ? p->elapsed_days : exposure) == 0 && p->failures + p->outages > 0)
        return tmc_error_set(err, "%s: progress.%s: 0 with %ld failures and %ld "
                                  "outages seen; expected the time they were seen over, days "
                                  "(> 0)%s", label, by_default ? "elapsed_days" : "exposure_days",
                             p->failures, p->outages,
                             by_default ? " (progress.exposure_days is not given, so the "
                                          "elapsed time is their exposure)" : "");
    if (p->outages > 0 && !x->outages.enabled)
        return tmc_error_set(err, "%s: progress.outages: %ld outages observed, but the "
                                  "experiment has no outages section; give one, or 0",
                             label, p->outages);
    return 0;
}

void tmc_config_pace_step_range(const tmc_experiment *x, double *lo_s, double *hi_s)
{
    double e_lo, e_hi, s_lo, s_hi;
    int open;
    tmc_config_key_bounds("job.efficiency", &e_lo, &e_hi, &open);
    tmc_config_key_bounds("progress.step_s", &s_lo, &s_hi, &open);
    *lo_s = tmc_closed_form_step_at_efficiency(x, e_hi);
    *hi_s = fmin(s_hi, tmc_closed_form_step_at_efficiency(x, e_lo));
}

/* At the observed pace, a step some efficiency of job.efficiency's range
 * gives (tmc_config_pace_step_range): the forecast runs at that efficiency
 * (closed_form.h), so a step faster than efficiency 1 gives, or one no
 * efficiency gives (at or below the step's fixed part), is refused. */
static int check_pace(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_observed *p = &x->observed;
    if (!tmc_closed_form_paced(x))
        return 0;
    double lo, hi;
    tmc_config_pace_step_range(x, &lo, &hi);
    if (p->step_s >= lo && p->step_s <= hi)
        return 0;
    double floor = tmc_closed_form_step_floor_s(x);
    double e = tmc_closed_form_efficiency_for_step(x, p->step_s);
    char why[200];
    if (isnan(e))
        snprintf(why, sizeof why, "no efficiency gives it: it is not above the step's part "
                                  "that no efficiency shortens (job.exposed_comm_s + "
                                  "job.input_wait_s + pauses' share = %.10g s)", floor);
    else
        snprintf(why, sizeof why, "it needs job.efficiency %.4g", e);
    long seen = p->cards > 0 ? p->cards : x->job.cards;
    return tmc_error_set(err, "%s: progress.step_s: %.10g s is out of range at the observed "
                              "pace (job.pace = observed): %s; expected a step in [%.10g, "
                              "%.10g] s, what job.efficiency, %s, gives on %ld cards; or "
                              "job.pace = \"plan\"", label, p->step_s, why, lo, hi,
                         tmc_cfg_range_of("job", "efficiency").s, seen);
}

/* The steps the observed mean averages: progress.step_count in [2,
 * steps_done] (a mean over more steps than were done is not a state, and a
 * spread needs two), or 0 (steps_done), which then needs 2 steps done
 * beside a spread (progress.step_sd_s). */
static int check_step_count(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_observed *p = &x->observed;
    if (p->step_count > 0 && p->steps_done < 2)
        return tmc_error_set(err, "%s: progress.step_count: %ld with progress.steps_done %ld: "
                                  "a mean of the step times over fewer than 2 steps has no "
                                  "spread; expected 0 (progress.steps_done)", label,
                             p->step_count, p->steps_done);
    if (p->step_count > 0 && (p->step_count < 2 || p->step_count > p->steps_done))
        return tmc_error_set(err, "%s: progress.step_count: %ld is out of range; expected an "
                                  "integer in [2, %ld] (progress.steps_done), or 0 "
                                  "(progress.steps_done itself)", label, p->step_count,
                             p->steps_done);
    if (p->step_count == 0 && p->step_sd_s > 0 && p->steps_done < 2)
        return tmc_error_set(err, "%s: progress.step_sd_s: %.10g s over progress.steps_done "
                                  "= %ld step (progress.step_count 0): a spread needs at "
                                  "least 2 steps; expected 0 (not given)", label,
                             p->step_sd_s, p->steps_done);
    return 0;
}

/* The spare pool and the clock: cards in repair fit the pool; the elapsed
 * time holds the steps done at the observed step time and lies before a
 * given horizon. */
static int check_pool_and_clock(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_observed *p = &x->observed;
    long spares = x->failures.enabled ? x->failures.spares : -1;
    if (p->cards_in_repair > 0 && spares < 0)
        return tmc_error_set(err, "%s: progress.cards_in_repair: %ld, but the experiment "
                                  "has no spare pool (failures.spares); give "
                                  "one, or 0", label, p->cards_in_repair);
    long standbys = x->failures.enabled ? x->failures.standbys : 0;
    if (p->standbys_used > standbys)
        return tmc_error_set(err, "%s: progress.standbys_used: %ld is out of range; expected "
                                  "an integer in [0, %ld] (failures.standbys)", label,
                             p->standbys_used, standbys);
    /* a standby's card, once failed, joins the cold pool through repair,
     * unless a refill replaces it (then it is repaired outside the job) */
    int refill = x->failures.enabled && x->failures.standby_refill_hours > 0;
    long pool = spares + (refill ? 0 : p->standbys_used);
    if (p->cards_in_repair > pool && spares >= 0)
        return tmc_error_set(err, "%s: progress.cards_in_repair: %ld is out of range; "
                                  "expected an integer in [0, %ld] (failures.spares%s): a "
                                  "job down waiting for a repair is not a state a forecast "
                                  "starts from", label, p->cards_in_repair, pool,
                             refill ? "; refilled standbys' cards are repaired outside the job"
                                    : " plus progress.standbys_used");
    double elapsed_s = p->elapsed_days * TMC_DAY_S;
    if (p->step_s > 0 && elapsed_s < p->steps_done * p->step_s)
        return tmc_error_set(err, "%s: progress.elapsed_days: %.10g days cannot hold %ld "
                                  "steps of progress.step_s = %.10g s (%.10g days); expected "
                                  "at least that", label, p->elapsed_days, p->steps_done,
                             p->step_s, p->steps_done * p->step_s / TMC_DAY_S);
    if ((p->step_sd_s > 0 || p->step_count > 0) && !(p->step_s > 0))
        return tmc_error_set(err, "%s: progress.%s: given without progress.step_s, the mean "
                                  "it describes; give step_s too, or drop it", label,
                             p->step_sd_s > 0 ? "step_sd_s" : "step_count");
    if (check_step_count(x, label, err) || check_pace(x, label, err))
        return -1;
    double h = x->monte_carlo.horizon_days;
    if (h > 0 && h <= p->elapsed_days)
        return tmc_error_set(err, "%s: monte_carlo.horizon_days: %.10g is not after "
                                  "progress.elapsed_days (%.10g); expected a later horizon",
                             label, h, p->elapsed_days);
    return 0;
}

/* Features whose state now (a card's age, an allocation's clock, a group
 * down, a slow card found) the section does not give. */
static int check_features(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_failures *f = &x->failures;
    if (f->enabled && !tmc_failures_replayed(f) &&
        !tmc_laws_lifetime_memoryless(f->distribution))
        return refuse(err, label, "failures.distribution", "a lifetime law with memory",
                      "each card's age would be needed; use exponential lifetimes or a "
                      "trace");
    if (x->time_limit.enabled)
        return refuse(err, label, "time_limit", "a scheduler time limit",
                      "the current allocation's start is not part of the state");
    if (x->elastic.enabled)
        return refuse(err, label, "elastic", "elastic replica groups",
                      "which groups are down now is not part of the state");
    if (x->slow_cards.enabled)
        return refuse(err, label, "slow_cards", "slow cards",
                      "which slow cards are held or already evicted is not part of the "
                      "state");
    if (x->loss_spikes.enabled && x->loss_spikes.rollback_snapshots > 1)
        return refuse(err, label, "loss_spikes.rollback_snapshots", "a rollback past the "
                      "newest commit", "the commits before the state are not part of it; "
                      "give 1");
    if (x->slowdown.enabled)
        return refuse(err, label, "slowdown", "a run that slows down",
                      "the time since the job's last restart is not part of the state");
    if (tmc_window_on(x)) /* here, so that --progress FILE meets it too */
        return refuse(err, label, "window", "a calendar window", "a window starts every "
                      "replica at step 0; give one or the other");
    return 0;
}

int tmc_cfg_check_progress(const tmc_experiment *x, const char *label, tmc_error *err)
{
    if (!x->observed.enabled)
        return 0;
    if (check_state(x, label, err) || check_pool_and_clock(x, label, err))
        return -1;
    return check_features(x, label, err);
}
