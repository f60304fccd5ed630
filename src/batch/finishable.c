/* finishable.c - whether a run can finish in practice (finishable.h). */
#include "finishable.h"

#include <math.h>
#include <stdio.h>

#include "closed_form.h"
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
        y->failures.per_card_mtbf_days /= f.mean;
        y->failures.per_node_mtbf_days /= f.mean;
        y->failures.per_job_mtbf_days /= f.mean;
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
    double limit = tl->wall_hours * TMC_HOUR_S, c = x->checkpoint.save_s, r = longest_restore(x);
    int save = tmc_limit_saves(x); /* at_limit "save" (synchronous saves) */
    double slow = x->slow_cards.enabled ? x->slow_cards.factor : 1;
    double pause = x->pauses.enabled ? x->pauses.duration_s : 0;
    double pauses = x->pauses.enabled
        ? ceil((double)cf->interval_steps / x->pauses.every_steps) * pause : 0;
    double work = save ? cf->step_s * slow + pause
                       : cf->interval_s * slow + pauses +
                             (x->checkpoint.mode == TMC_SAVE_ASYNC ? x->checkpoint.write_s : 0);
    if (limit > r + work + c)
        return 0;
    snprintf(why, n, "time_limit.wall_hours: %.10g h (%.6g s) cannot hold the longest restore "
             "(%.6g s), %s (%.6g s, at the slowest, pauses%s included) and its save (%.6g s): "
             "an allocation may commit nothing; lengthen the limit%s", tl->wall_hours, limit,
             r, save ? "a step" : "a segment", work,
             save ? "" : " and the asynchronous write", c,
             save ? "" : ", shorten the checkpoint interval or save before the limit "
                         "(at_limit \"save\")");
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
    if (factor <= TMC_FINISHABLE_MAX_DALY_FACTOR)
        return 0;
    snprintf(why, n, "the run cannot finish in practice: each of the %ld elastic groups is up "
             "a fraction %.4g of the time (up %.4g s, down %.4g s), so the expected wall time "
             "is %.3g times the uninterrupted one (docs/model.md 3.14; the limit is %.0f); "
             "shorten elastic.heal_s or the repairs, or use fewer groups",
             x->elastic.groups, ef.availability, ef.up_s, ef.down_s, factor,
             TMC_FINISHABLE_MAX_DALY_FACTOR);
    return 1;
}

/* The reason of a run that cannot finish, given its closed form without
 * traces. 0 when it can. */
static int judge(const tmc_experiment *x, const tmc_closed_form *cf, tmc_experiment *y,
                 char *why, size_t n)
{
    char advice[160];
    if (saves_time_out(x, cf, why, n))
        return 1;
    if (!isfinite(cf->uninterrupted_s)) {
        snprintf(why, n, "the step time is not a finite number of seconds "
                         "(job.flop_per_step / (job.cards x job.peak_flops x "
                         "job.efficiency) overflows)");
        return 1;
    }
    if (tmc_window_on(x) && cf->uninterrupted_s <= x->window.days * 86400.0) {
        /* a calendar window measures a job still running at its end
         * (docs/reference/simulation-semantics.md 11) */
        snprintf(why, n, "job.steps: %ld steps take %.6g days at the plan's pace with nothing "
                         "striking, not more than window.days = %.10g: the job could end inside "
                         "the window; give job.steps above %.0f (e.g. 1e9: the window cuts "
                         "every replica)", x->job.steps, cf->uninterrupted_s / 86400.0,
                 x->window.days,
                 ceil(x->job.steps * x->window.days * 86400.0 / cf->uninterrupted_s));
        return 1;
    }
    if (limit_too_short(x, cf, why, n))
        return 1;
    if (cf->write_backlog) {
        snprintf(why, n, "asynchronous saves cannot keep up: a snapshot takes "
                         "%.4g s to write but one is taken every %.4g s (interval + copy), so "
                         "the write queue grows without bound (docs/model.md 3.3); lengthen the "
                         "checkpoint interval or shorten checkpoint.write_s",
                 x->checkpoint.write_s, cf->interval_s + x->checkpoint.save_s);
        return 1;
    }
    if (x->elastic.enabled && x->elastic.min_groups < x->elastic.groups)
        return elastic_too_slow(x, cf, why, n); /* min_groups = G: Daly's model below */
    double factor = cf->daly_wall_s / cf->uninterrupted_s;
    if (factor <= TMC_FINISHABLE_MAX_DALY_FACTOR)
        return 0;
    double segment_s = cf->interval_s + x->checkpoint.save_s;
    if (finishable_at_optimum(x, cf, y))
        snprintf(advice, sizeof advice, "try a checkpoint interval near Daly's optimum, "
                 "%.4g s, or fewer interruptions", cf->daly_interval_s);
    else
        snprintf(advice, sizeof advice, "try fewer interruptions (cards, outages, spikes) "
                 "or faster saves: no checkpoint interval fixes it");
    /* a segment of w seconds needs e^(w/M) attempts on average (Daly 2006);
     * as a power of ten where e^(w/M) and the factor overflow a double */
    double decades = segment_s / cf->rework_mtbf_s / log(10);
    char attempts[48], times[48];
    if (decades > 300)
        snprintf(attempts, sizeof attempts, "10^%.0f", decades);
    else
        snprintf(attempts, sizeof attempts, "%.3g", exp(segment_s / cf->rework_mtbf_s));
    if (isfinite(factor))
        snprintf(times, sizeof times, "%.3g times", factor);
    else
        snprintf(times, sizeof times, "more than 1e300 times");
    snprintf(why, n,
             "the run cannot finish in practice: an interruption every %.4g s "
             "against segments of %.4g s (interval + save) means about %s attempts per "
             "segment and an expected wall time %s the uninterrupted one (Daly, "
             "docs/model.md 3.5; the limit is %.0f); %s",
             cf->rework_mtbf_s, segment_s, attempts, times, TMC_FINISHABLE_MAX_DALY_FACTOR,
             advice);
    return 1;
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
