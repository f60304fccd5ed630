/* finishable.c - whether a run can finish in practice (finishable.h). */
#include "finishable.h"

#include <math.h>
#include <stdio.h>

#include "closed_form.h"
#include "error.h"
#include "experiment_rules.h"
#include "forecast.h"

/* 1 when the run would finish at Daly's optimum interval (cf's): then the
 * interval is what to change. y is scratch room for a view of x (its
 * plain fields changed, never released: experiment.h). */
static int finishable_at_optimum(const tmc_experiment *x, const tmc_closed_form *cf,
                                 tmc_experiment *y)
{
    *y = *x;
    y->observed.enabled = 0; /* whether the rates let a whole run finish */
    y->checkpoint.interval_s = cf->daly_interval_s;
    y->checkpoint.interval_steps = 0;
    tmc_closed_form at;
    tmc_closed_form_compute(y, &at);
    return at.daly_wall_s / at.uninterrupted_s <= TMC_FINISHABLE_MAX_DALY_FACTOR;
}

/* x without its replayed traces, into y: a trace is finite (nothing strikes
 * after its last time), so it delays the run by at most its length of
 * interruptions and cannot stop it from finishing; only the Poisson and
 * lifetime processes can. *cf_out is the closed form of that. y is a view
 * (experiment.h): its n_trace are zeroed, its heap parts x's. */
static void without_traces(const tmc_experiment *x, tmc_experiment *y, tmc_closed_form *cf_out)
{
    *y = *x;
    if (y->observed.enabled) { /* its past is no interruption: whether a whole */
        tmc_forecast_rate f, o; /* run finishes at the posterior mean rates */
        tmc_forecast_failure_rate(x, &f);
        tmc_forecast_outage_rate(x, &o);
        tmc_forecast_scale_failure_rates(&y->failures, f.mean);
        y->outages.mean_interval_days /= o.mean;
        y->observed.enabled = 0;
    }
    if (y->failures.enabled && tmc_failures_replayed(&y->failures))
        y->failures.enabled = 0;
    if (y->outages.enabled && y->outages.n_trace > 0)
        y->outages.enabled = 0;
    if (y->loss_spikes.enabled && y->loss_spikes.n_trace > 0)
        y->loss_spikes.enabled = 0;
    tmc_closed_form_compute(y, cf_out);
}

/* The longest restore a recovery may ask for, s. */
static double longest_restore(const tmc_experiment *x)
{
    double r = x->checkpoint.restore_s;
    for (int i = 0; x->failures.enabled && i < x->failures.n_causes; i++)
        r = fmax(r, x->failures.causes[i].restore_s);
    return r;
}

/* An allocation must hold the longest restore and then, at the slowest,
 * a step (a paused one, on slow cards) and its save, with a save before the
 * limit, or a whole segment, its pauses, its save and (async) its write,
 * without: else an allocation may commit nothing new, for ever. */
static int limit_too_short(const tmc_experiment *x, const tmc_closed_form *cf, char *why,
                           size_t n)
{
    const tmc_time_limit *tl = &x->time_limit;
    if (!tl->enabled)
        return 0;
    double limit = tmc_limit_allocation_s(x), c = x->checkpoint.save_s, r = longest_restore(x);
    int save = tmc_limit_saves(x); /* at_limit "save" (synchronous saves) */
    double slow = x->slow_cards.enabled ? x->slow_cards.factor : 1;
    double pause = x->pauses.enabled ? x->pauses.duration_s : 0;
    double pauses = x->pauses.enabled
        ? ceil((double)cf->interval_steps / x->pauses.every_steps) * pause : 0;
    /* two levels: a new allocation restores from storage, so each must
     * reach a persistent snapshot, m segments and m - 1 local copies on */
    const tmc_checkpoint *cp = &x->checkpoint;
    double m = cp->persistent_every > 1 ? fmin((double)cp->persistent_every,
                                               (double)cf->segments) : 1;
    double local = cp->local_save_s >= 0 ? cp->local_save_s : c;
    double work = save ? cf->step_s * slow + pause
                       : m * (cf->interval_s * slow + pauses) + (m - 1) * local +
                             (cp->mode == TMC_SAVE_ASYNC ? cp->write_s : 0);
    if (limit > r + work + c)
        return 0;
    char early[160] = ""; /* a warning longer than the save shortens the allocation */
    if (limit < tl->wall_hours * TMC_HOUR_S)
        snprintf(early, sizeof early, " less the %.6g s its warning leaves after the save "
                 "(time_limit.notice_s %.6g s - save_s %.6g s: the job saves at the warning)",
                 tl->wall_hours * TMC_HOUR_S - limit, tl->notice_s, c);
    snprintf(why, n, "time_limit.wall_hours: %.10g h%s (%.6g s) cannot hold the longest restore "
             "(%.6g s), %s (%.6g s, at the slowest, pauses%s included) and its save (%.6g s): "
             "an allocation may commit nothing; lengthen the limit%s%s", tl->wall_hours, early,
             limit, r, save ? "a step" : m > 1 ? "a persistent period (persistent_every "
                                                 "segments and their local copies)"
                                               : "a segment", work,
             save ? "" : " and the asynchronous write", c,
             save ? (early[0] ? " or shorten the warning" : "") : tmc_limit_notice_short(x)
                             ? ", shorten the checkpoint interval or get a warning that holds "
                               "the save (time_limit.notice_s)"
                             : ", shorten the checkpoint interval or save before the limit "
                               "(at_limit \"save\")",
             m > 1 ? ", or lower checkpoint.persistent_every" : "");
    return 1;
}

/* A refresh restart (slowdown.refresh_hours) stops compute a save before
 * it: what is left must hold a step at the slowest, drift included, or
 * no stretch between refreshes commits anything, for ever. */
static int refresh_too_short(const tmc_experiment *x, const tmc_closed_form *cf, char *why,
                             size_t n)
{
    const tmc_slowdown *d = &x->slowdown;
    if (!d->enabled || d->refresh_hours <= 0)
        return 0;
    double r = d->refresh_hours * TMC_HOUR_S, c = x->checkpoint.save_s;
    double fixed = x->job.exposed_comm_s + x->job.input_wait_s;
    double slow = x->slow_cards.enabled ? x->slow_cards.factor : 1;
    double pause = x->pauses.enabled ? x->pauses.duration_s : 0;
    double step = ((cf->step_s - fixed) * slow + pause) * (1 + tmc_slowdown_extra(d, r)) + fixed;
    if (r > step + c)
        return 0;
    snprintf(why, n, "slowdown.refresh_hours: %.10g h (%.6g s) cannot hold a step (%.6g s, at "
             "the slowest, drift and pauses included) and its save (%.6g s): no stretch "
             "between refreshes may commit anything; lengthen the refresh period",
             d->refresh_hours, r, step, c);
    return 1;
}

/* Saves that nearly all time out: a segment needs 1 / (1 - q) attempts
 * even with nothing else striking (docs/model.md 3.12). */
static int saves_time_out(const tmc_experiment *x, const tmc_closed_form *cf, char *why,
                          size_t n)
{
    double q = cf->save_timeout_p;
    if (x->checkpoint.save_timeout_s <= 0 || !(q > 1 - 1 / TMC_FINISHABLE_MAX_DALY_FACTOR))
        return 0;
    char attempts[64];
    if (q < 1)
        snprintf(attempts, sizeof attempts, "about %.3g attempts", 1 / (1 - q));
    else
        snprintf(attempts, sizeof attempts, "more attempts than a double holds");
    snprintf(why, n, "checkpoint.save_timeout_s: %.10g s: a save of mean %.6g s (cv %.3g) "
             "runs past it with probability %.6g (at most %.6g is run), so a segment needs "
             "%s; lengthen the timeout or make saves faster", x->checkpoint.save_timeout_s,
             x->checkpoint.save_s, x->checkpoint.save_cv, q,
             1 - 1 / TMC_FINISHABLE_MAX_DALY_FACTOR, attempts);
    return 1;
}

/* Elastic groups (docs/model.md 3.14): judged by their own closed form,
 * since a failure restarts the job only when too few groups are left:
 * 1 when the progress it predicts is too slow (or none). */
static int elastic_too_slow(const tmc_experiment *x, const tmc_closed_form *cf, char *why,
                            size_t n)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(x, cf, &ef);
    double factor = ef.wall_s / cf->uninterrupted_s;
    double segment_s = cf->interval_s + x->checkpoint.save_s;
    /* per second the job computes (at least min_groups up, a share 1 -
     * p_global of the time) */
    double up = 1 - ef.p_global, hazard = up > 0 ? ef.global_rate / up : INFINITY;
    double attempts = exp(hazard * segment_s); /* Daly's, global restarts only */
    if (attempts > TMC_FINISHABLE_MAX_DALY_FACTOR) {
        snprintf(why, n, "the run cannot finish in practice: at least elastic.min_groups = "
                 "%ld of the %ld groups are up a share %.3g of the time (each group up a "
                 "fraction %.4g), and while they are the job falls below them every %.4g s "
                 "of computing, a global restart from the last checkpoint each time, so a "
                 "checkpoint segment of %.4g s needs about %.3g attempts (docs/model.md "
                 "3.14; the limit is %.0f); lower elastic.min_groups, shorten the interval, "
                 "elastic.heal_s or the repairs", x->elastic.min_groups, x->elastic.groups,
                 up, ef.availability, 1 / hazard, segment_s, attempts,
                 TMC_FINISHABLE_MAX_DALY_FACTOR);
        return 1;
    }
    if (!(factor > TMC_FINISHABLE_MAX_DALY_FACTOR)) /* NaN: no judgement, no refusal */
        return 0;
    snprintf(why, n, "the run cannot finish in practice: each of the %ld elastic groups is up "
             "a fraction %.4g of the time (up %.4g s, down %.4g s), so the expected wall time "
             "is %.3g times the uninterrupted one (docs/model.md 3.14; the limit is %.0f); "
             "shorten elastic.heal_s or the repairs, or use fewer groups",
             x->elastic.groups, ef.availability, ef.up_s, ef.down_s, factor,
             TMC_FINISHABLE_MAX_DALY_FACTOR);
    return 1;
}

/* Daly's factor: x's expected wall time over the uninterrupted one. */
static double daly_factor(const tmc_experiment *x)
{
    tmc_closed_form c;
    tmc_closed_form_compute(x, &c);
    return c.daly_wall_s / c.uninterrupted_s;
}

/* "more than 1e300 times" or "2.78e+03 times": Daly's factor in a message. */
static void format_times(char *buf, size_t n, double factor)
{
    if (isfinite(factor))
        snprintf(buf, n, "%.3g times", factor);
    else
        snprintf(buf, n, "more than 1e300 times");
}

/* Time limits the run would finish without: their requeue waits and
 * restores (docs/model.md 3.9) are the cause, not the interruptions.
 * base: x without traces (the judged experiment). */
static int limits_too_costly(const tmc_experiment *base, double factor, char *why, size_t n)
{
    if (!base->time_limit.enabled)
        return 0;
    tmc_experiment z = *base; /* a view: plain fields changed, never released */
    z.time_limit.enabled = 0;
    double without = daly_factor(&z);
    if (!(without <= TMC_FINISHABLE_MAX_DALY_FACTOR))
        return 0;
    char times[48];
    format_times(times, sizeof times, factor);
    snprintf(why, n, "the run cannot finish in practice: time limits: each allocation of "
             "%.6g h (time_limit.wall_hours) ends in a requeue wait of %.6g s "
             "(time_limit.requeue_s) and a restore of %.6g s, so the expected wall time is "
             "%s the uninterrupted one, %.3g times without the limits (docs/model.md "
             "3.9; the limit is %.0f); shorten time_limit.requeue_s or lengthen "
             "time_limit.wall_hours", base->time_limit.wall_hours, base->time_limit.requeue_s,
             base->checkpoint.restore_s, times, without, TMC_FINISHABLE_MAX_DALY_FACTOR);
    return 1;
}

/* "failures (48 cards, failures.per_card_mtbf_days = 337)": the failure
 * keys given (0: not given), into buf. */
static void failures_named(const tmc_experiment *x, char *buf, size_t n)
{
    const tmc_failures *f = &x->failures;
    int k = snprintf(buf, n, "failures (%ld cards", x->job.cards);
    if (f->per_card_mtbf_days > 0 && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ", failures.per_card_mtbf_days = %.6g",
                      f->per_card_mtbf_days);
    if (f->per_node_mtbf_days > 0 && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ", failures.per_node_mtbf_days = %.6g",
                      f->per_node_mtbf_days);
    if (f->per_job_mtbf_days > 0 && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ", failures.per_job_mtbf_days = %.6g",
                      f->per_job_mtbf_days);
    if (k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ")");
}

/* The process that interrupts the run most often (of those that lose
 * work), named with the keys that set it, into buf. */
static void most_frequent(const tmc_experiment *x, const tmc_closed_form *cf, char *buf,
                          size_t n)
{
    double limits = x->time_limit.enabled && !tmc_limit_saves(x) ? cf->rate_limits : 0;
    double f = cf->rate_failures, o = cf->rate_outages, s = cf->rate_spikes;
    if (o >= f && o >= s && o >= limits)
        snprintf(buf, n, "outages (outages.mean_interval_days = %.6g)",
                 x->outages.mean_interval_days);
    else if (s >= f && s >= limits)
        snprintf(buf, n, "loss spikes (loss_spikes.mean_interval_days = %.6g)",
                 x->loss_spikes.mean_interval_days);
    else if (limits >= f)
        snprintf(buf, n, "time limits (time_limit.wall_hours = %.6g)",
                 x->time_limit.wall_hours);
    else
        failures_named(x, buf, n);
}

/* The wait before restores that dominates Daly's (M + D) / M: the spare
 * pool's (failures.spares and the repairs), outages' downtime, or the rest
 * (detection delays, spikes' redo). */
static void longest_waits(const tmc_experiment *x, const tmc_closed_form *cf, char *buf,
                          size_t n, char *advice, size_t na)
{
    double total = cf->delay_mean_s / cf->mtbf_s; /* sum of rate x wait */
    double spare = cf->rate_failures * cf->spare_wait_per_failure_s;
    double outage = x->outages.enabled ? cf->rate_outages * x->outages.downtime_s : 0;
    if (spare >= outage && spare >= total - spare - outage) {
        snprintf(buf, n, "failures wait for cards: with failures.spares = %ld and repairs "
                 "of mean %.6g h (failures.repair_mean_hours) a failure waits %.4g s on "
                 "average for a card (docs/model.md 3.21), one every %.4g s",
                 x->failures.spares, x->failures.repair_mean_hours,
                 cf->spare_wait_per_failure_s, 1 / cf->rate_failures);
        snprintf(advice, na, "add spares (failures.spares) or shorten the repairs");
    } else if (outage >= total - spare - outage) {
        snprintf(buf, n, "outages (one every %.4g s, outages.mean_interval_days = %.6g) "
                 "each stop the job for %.6g s (outages.downtime_s)", 1 / cf->rate_outages,
                 x->outages.mean_interval_days, x->outages.downtime_s);
        snprintf(advice, na, "shorten outages.downtime_s or make outages rarer");
    } else {
        snprintf(buf, n, "each interruption (one every %.4g s) waits %.4g s on average "
                 "before its restore (detection delays, loss spikes' redo)", cf->mtbf_s,
                 cf->delay_mean_s);
        snprintf(advice, na, "shorten the detection delays (failures.causes) or the "
                 "snapshots a loss spike rolls back");
    }
}

/* Daly's expected wall time over the uninterrupted one above the limit:
 * the reason names the process behind it (issue 33 item 12). Daly's
 * factor is about e^(w/M) (attempts per segment) x (1 + D/M) (the waits
 * before restores) x e^(r/M) (restores struck again; immune restores:
 * 1 + r/M, a restore per interruption), M the mean time
 * between interruptions that lose work: the largest of the three, in
 * logarithms, is the mechanism; time limits are judged by their absence.
 * y: x without traces on entry, then scratch room. */
/* Daly's T of x with refresh restarts every `hours`, days. */
static double refreshed_days(const tmc_experiment *x, double hours)
{
    tmc_experiment y = *x; /* a shallow copy: only read */
    y.slowdown.refresh_hours = hours;
    tmc_closed_form cf;
    tmc_closed_form_compute(&y, &cf);
    return cf.completion_days_daly;
}

/* A slowdown that makes the run too long where it would finish without
 * one: named, with the refresh period that the closed form finds best. */
static int slowdown_too_costly(const tmc_experiment *x, const tmc_closed_form *cf, double factor,
                               char *why, size_t n)
{
    if (!x->slowdown.enabled)
        return 0;
    tmc_experiment flat = *x; /* a shallow copy: only read */
    flat.slowdown.enabled = 0;
    tmc_closed_form cf_flat;
    tmc_closed_form_compute(&flat, &cf_flat);
    if (cf_flat.daly_wall_s / cf_flat.uninterrupted_s > TMC_FINISHABLE_MAX_DALY_FACTOR)
        return 0;
    char times[48], advice[160] = "restart it on purpose (slowdown.refresh_hours)";
    format_times(times, sizeof times, factor);
    double best = cf->slowdown.best_refresh_s;
    if (isfinite(best))
        snprintf(advice, sizeof advice, "refresh restarts every %.3g h (slowdown.refresh_hours, "
                 "the closed form's best period) would bring it to %.4g days",
                 best / TMC_HOUR_S, refreshed_days(x, best / TMC_HOUR_S));
    snprintf(why, n, "the run cannot finish in practice: its steps slow down since the last "
             "restart (slowdown.per_hour %.10g%s), and the restarts are too rare: the "
             "expected wall time is %s the uninterrupted one (docs/model.md 3.22; the limit "
             "is %.0f); %s", x->slowdown.per_hour,
             x->slowdown.refresh_hours > 0 ? ", with its refresh restarts" : "", times,
             TMC_FINISHABLE_MAX_DALY_FACTOR, advice);
    return 1;
}

static int daly_too_slow(const tmc_experiment *x, const tmc_closed_form *cf, tmc_experiment *y,
                         char *why, size_t n)
{
    double factor = cf->daly_wall_s / cf->uninterrupted_s;
    if (!(factor > TMC_FINISHABLE_MAX_DALY_FACTOR)) /* NaN: no judgement, no refusal */
        return 0;
    if (limits_too_costly(y, factor, why, n) || slowdown_too_costly(x, cf, factor, why, n))
        return 1;
    double segment_s = cf->interval_s + x->checkpoint.save_s, m = cf->rework_mtbf_s;
    int immune = x->checkpoint.restore_immune;
    double ln_attempts = segment_s / m,
           ln_restore = immune ? log1p(cf->restore_mean_s / m) : cf->restore_mean_s / m;
    double ln_wait = log1p(cf->delay_mean_s / cf->mtbf_s);
    char times[48], what[256], advice[160], big[TMC_ERROR_NUMBER_CHARS];
    format_times(times, sizeof times, factor);
    if (ln_wait > ln_attempts && ln_wait > ln_restore) {
        longest_waits(x, cf, what, sizeof what, advice, sizeof advice);
        snprintf(why, n, "the run cannot finish in practice: %s, so the expected wall time "
                 "is %s the uninterrupted one (Daly, docs/model.md 3.5; the limit is %.0f); "
                 "%s", what, times, TMC_FINISHABLE_MAX_DALY_FACTOR, advice);
        return 1;
    }
    most_frequent(x, cf, what, sizeof what);
    if (ln_restore > ln_attempts && immune) {
        snprintf(why, n, "the run cannot finish in practice: restores of %.4g s on average "
                 "(immune: none is struck) against an interruption that loses work every "
                 "%.4g s, most often %s, make each interruption cost %.4g times that, so the "
                 "expected wall time is %s the uninterrupted one (Daly, docs/model.md 3.5; the "
                 "limit is %.0f); shorten the restores (checkpoint.restore_s) or make "
                 "interruptions rarer", cf->restore_mean_s, m, what,
                 1 + cf->restore_mean_s / m, times, TMC_FINISHABLE_MAX_DALY_FACTOR);
        return 1;
    }
    if (ln_restore > ln_attempts) {
        snprintf(why, n, "the run cannot finish in practice: restores of %.4g s on average "
                 "against an interruption that loses work every %.4g s, most often %s, are "
                 "struck again about %s times each, so the expected wall time is %s the "
                 "uninterrupted one (Daly, docs/model.md 3.5; the limit is %.0f); shorten "
                 "the restores (checkpoint.restore_s) or make interruptions rarer",
                 cf->restore_mean_s, m, what, tmc_error_format_exp(big, ln_restore), times,
                 TMC_FINISHABLE_MAX_DALY_FACTOR);
        return 1;
    }
    if (finishable_at_optimum(x, cf, y))
        snprintf(advice, sizeof advice, "try a checkpoint interval near Daly's optimum, "
                 "%.4g s, or fewer interruptions", cf->daly_interval_s);
    else
        snprintf(advice, sizeof advice, "try fewer interruptions (cards, outages, spikes) "
                 "or faster saves: no checkpoint interval fixes it");
    /* a segment of w seconds needs e^(w/M) attempts on average (Daly 2006) */
    snprintf(why, n,
             "the run cannot finish in practice: an interruption every %.4g s, most often "
             "%s, against segments of %.4g s (interval + save) means about %s attempts per "
             "segment and an expected wall time %s the uninterrupted one (Daly, "
             "docs/model.md 3.5; the limit is %.0f); %s",
             m, what, segment_s, tmc_error_format_exp(big, ln_attempts), times,
             TMC_FINISHABLE_MAX_DALY_FACTOR, advice);
    return 1;
}

/* The reason of a run that cannot finish, given its closed form without
 * traces. 0 when it can. */
static int judge(const tmc_experiment *x, const tmc_closed_form *cf, tmc_experiment *y,
                 char *why, size_t n)
{
    if (saves_time_out(x, cf, why, n))
        return 1;
    if (!isfinite(cf->uninterrupted_s)) {
        snprintf(why, n, "the step time is not a finite number of seconds "
                         "(job.flop_per_step / (job.cards x job.peak_flops x "
                         "job.efficiency) overflows)");
        return 1;
    }
    char steps[TMC_ERROR_NUMBER_CHARS];
    if (tmc_window_on(x) && cf->uninterrupted_s <= x->window.days * 86400.0) {
        /* a calendar window measures a job still running at its end
         * (docs/reference/simulation-semantics.md 11) */
        double need = ceil(x->job.steps * x->window.days * 86400.0 / cf->uninterrupted_s);
        int most = need >= TMC_JOB_STEPS_MAX;
        char advice[160];
        if (most)
            snprintf(advice, sizeof advice, "even job.steps' most, 1e9, ends inside it at this "
                                            "pace: shorten window.days");
        else
            snprintf(advice, sizeof advice, "give job.steps above %s (e.g. 1e9: the window "
                     "cuts every replica)", tmc_error_format_whole(steps, need));
        snprintf(why, n, "job.steps: %ld steps take %.6g days at the plan's pace with nothing "
                         "striking, not more than window.days = %.10g: the job could end inside "
                         "the window; %s", x->job.steps, cf->uninterrupted_s / 86400.0,
                 x->window.days, advice);
        return 1;
    }
    if (limit_too_short(x, cf, why, n) || refresh_too_short(x, cf, why, n))
        return 1;
    if (cf->write_backlog) {
        int levels = x->checkpoint.persistent_every > 1;
        snprintf(why, n, "asynchronous saves cannot keep up: a snapshot takes "
                         "%.4g s to write but one is written every %.4g s (%s), so "
                         "the write queue grows without bound (docs/model.md 3.3); lengthen the "
                         "checkpoint interval%s or shorten checkpoint.write_s",
                 x->checkpoint.write_s, cf->write_period_s,
                 levels ? "persistent_every intervals and their copies" : "interval + copy",
                 levels ? ", raise checkpoint.persistent_every" : "");
        return 1;
    }
    if (x->elastic.enabled && x->elastic.min_groups < x->elastic.groups)
        return elastic_too_slow(x, cf, why, n); /* min_groups = G: Daly's model below */
    return daly_too_slow(x, cf, y, why, n);
}

int tmc_finishable_check(const tmc_experiment *x, char *why, size_t n)
{
    tmc_experiment y; /* a view of x with other rates, never released */
    tmc_closed_form cf;
    if (n)
        why[0] = '\0';
    without_traces(x, &y, &cf);
    return judge(x, &cf, &y, why, n);
}
