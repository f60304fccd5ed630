/* assumptions.c - which closed-form assumptions an experiment breaks
 * (assumptions.h). */
#include "assumptions.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static void add(tmc_assumptions *out, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(tmc_assumptions *out, const char *key, const char *fmt, ...)
{
    if (out->n == TMC_ASSUMPTIONS_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message[out->n], sizeof out->message[out->n], fmt, ap);
    va_end(ap);
    out->key[out->n++] = key;
}

/* The ratios of the interval, the save and the recovery to M. */
static void check_ratios(const tmc_experiment *x, const tmc_closed_form *cf,
                         tmc_assumptions *out)
{
    double c = x->checkpoint.save_s, m = cf->mtbf_s, m_rw = cf->rework_mtbf_s;
    if (isfinite(m_rw) && (cf->interval_s + c) / m_rw > TMC_ASSUMPTIONS_RATIO)
        add(out, "interval_vs_mtbf", "(tau + c) / M = %.3g > %.1f: Young's first-order "
            "overhead assumes an interval far shorter than the mean time between "
            "interruptions (Daly's higher order holds further)",
            (cf->interval_s + c) / m_rw, TMC_ASSUMPTIONS_RATIO);
    /* immune restores: nothing strikes a recovery, but Young still leaves out
     * its product with the interval's terms, (r + D) / M (c / tau + w / 2M) */
    double recovery = cf->restore_mean_s + cf->delay_mean_s;
    if (isfinite(m) && recovery / m > TMC_ASSUMPTIONS_RATIO)
        add(out, "restore_vs_mtbf", "(r + D) / M = %.3g > %.1f: %s", recovery / m,
            TMC_ASSUMPTIONS_RATIO, x->checkpoint.restore_immune
                ? "recoveries are long against M (immune: none is struck), and Young leaves "
                  "out their product with the interval's terms"
                : "interruptions often strike restores, which Young leaves out");
    if (c / cf->interval_s > TMC_ASSUMPTIONS_SAVE_RATIO) {
        double best = isfinite(m_rw) ? cf->daly_interval_s : INFINITY;
        if (isfinite(best))
            add(out, "save_vs_interval", "c / tau = %.3g > %.1f: saves take %.0f %% of the "
                "time; Daly's optimum interval is %.0f s, %.3g times this one", c /
                cf->interval_s, TMC_ASSUMPTIONS_SAVE_RATIO,
                100 * c / (c + cf->interval_s), best, best / cf->interval_s);
        else
            add(out, "save_vs_interval", "c / tau = %.3g > %.1f: saves take %.0f %% of the "
                "time, and nothing fails: one save at the end would do", c / cf->interval_s,
                TMC_ASSUMPTIONS_SAVE_RATIO, 100 * c / (c + cf->interval_s));
    }
}

static void check_failures(const tmc_experiment *x, tmc_assumptions *out)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        return;
    if (f->distribution == TMC_LIFETIME_WEIBULL && f->shape != 1)
        add(out, "failure_law", "Weibull lifetimes (shape %.3g): Young and Daly assume "
            "exponential, memoryless failures at a constant rate", f->shape);
    else if (f->distribution == TMC_LIFETIME_LOGNORMAL)
        add(out, "failure_law", "lognormal lifetimes (cv %.3g): Young and Daly assume "
            "exponential, memoryless failures at a constant rate", f->lifetime_cv);
    else if (f->distribution == TMC_LIFETIME_TRACE)
        add(out, "failure_law", "failures replayed from a trace (%d times): Young and Daly "
            "assume exponential failures at a constant rate", f->n_trace);
    if (f->spares > 0) /* none: each failure waits its repair, which D holds */
        add(out, "spares", "a pool of %ld spare card%s with repairs of %.3g h: Young and "
            "Daly hold its waits as %s, exact only for exponential repairs without a "
            "detection delay", f->spares, f->spares == 1 ? "" : "s",
            f->repair_auto_share > 0 /* a pipeline's mean, A + (1 - a) M */
                ? f->repair_auto_hours + (1 - f->repair_auto_share) * f->repair_mean_hours
                : f->repair_mean_hours,
            f->burst_per_node_mtbf_days > 0
                ? "a chain fed by bursts of nodes, in the long run (docs/model.md 3.24)"
                : "a loss system (docs/model.md 3.21)");
    if ((f->bad_node_share > 0 &&
         (f->bad_node_retire_after > 0 || f->bad_node_placement == TMC_BAD_IN_FLEET)) ||
        (f->node_aging_days > 0 && f->bad_node_placement == TMC_BAD_IN_FLEET))
        add(out, "bad_nodes", "the bad nodes the job holds change as it runs (%s): Young and "
            "Daly take the rate with the %.3g it holds at the start (docs/model.md 3.19)",
            f->bad_node_retire_after > 0 ? "retired at their faults"
            : f->node_aging_days > 0     ? "good nodes turning bad with age, bad ones sent "
                                           "to repair and back"
            : f->bad_node_cure_share > 0 ? "sent to repair and back, some cured"
                                          : "sent to repair and back",
            tmc_closed_form_bad_nodes_held(f, x->job.cards));
    if (f->retire_after_failures > 0 && f->bad_node_placement == TMC_BAD_IN_FLEET) {
        char window[64] = "the run";
        if (f->retire_window_days > 0)
            snprintf(window, sizeof window, "%.3g days", f->retire_window_days);
        add(out, "retirement", "nodes leave the fleet at %ld failures within %s: Young and "
            "Daly keep every node, so the pool never shrinks and the job never runs short",
            f->retire_after_failures, window);
    }
    if (f->reserve_nodes > 0 && f->bad_node_placement == TMC_BAD_IN_FLEET)
        add(out, "reserve", "a reserve of %ld nodes fetched at %.3g s each when the pool is "
            "empty: the closed form counts them in the pool from the start, without the "
            "fetches (and card-hours do not bill them)", f->reserve_nodes, f->reserve_fetch_s);
    if (f->standbys > 0)
        add(out, "standbys", "%ld warm standby card%s (a %.3g s swap) before cold spares "
            "(%.3g s to provision): the closed form takes the share of failures past the "
            "standbys as Poisson over the failure-free time (docs/model.md 3.20)",
            f->standbys, f->standbys == 1 ? "" : "s", f->standby_swap_s, f->spare_provision_s);
}

/* Rates measured at one card count, used at another far from it. */
static void check_scale(const tmc_experiment *x, tmc_assumptions *out)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled || f->measured_cards <= 0)
        return;
    double n = (double)x->job.cards, at = (double)f->measured_cards;
    if (n > TMC_ASSUMPTIONS_SCALE_RATIO * at || at > TMC_ASSUMPTIONS_SCALE_RATIO * n)
        add(out, "scale", "failure rates measured at %ld cards, used at %ld (%.3gx, beyond "
            "%.0fx either way): per-card, per-node and per-job failures grow differently "
            "with the card count, so the rate is extrapolated (docs/model.md 3.13)",
            f->measured_cards, x->job.cards, n / at, TMC_ASSUMPTIONS_SCALE_RATIO);
}

void tmc_assumptions_check(const tmc_experiment *x, const tmc_closed_form *cf,
                           tmc_assumptions *out)
{
    out->n = 0;
    check_ratios(x, cf, out);
    check_failures(x, out);
    double per_limit = x->time_limit.wall_hours * TMC_HOUR_S / cf->mtbf_s; /* arrivals in one */
    if (x->time_limit.enabled && per_limit > TMC_ASSUMPTIONS_LIMIT_ARRIVALS)
        add(out, "time_limit", "a time limit every %.4g h with %.3g other interruptions in "
            "an allocation on average (> %.1f): the closed forms add the limits at their fixed "
            "times to first order in the others (docs/model.md 3.9), a rough guide here",
            x->time_limit.wall_hours, per_limit, TMC_ASSUMPTIONS_LIMIT_ARRIVALS);
    if (x->slow_cards.enabled && x->slow_cards.fraction > 0)
        add(out, "slow_cards", "slow cards (%.3g %% at %.3gx): in no closed form",
            100 * x->slow_cards.fraction, x->slow_cards.factor);
    if (x->slowdown.enabled && x->slowdown.per_hour > 0)
        add(out, "slowdown", "steps slow down since the last restart (%.3g per hour%s): the "
            "closed forms treat steps and saves as a continuous flow and restarts as "
            "renewal cycles at the mean rate, first order (docs/model.md 3.22)",
            x->slowdown.per_hour, x->slowdown.max_extra > 0 ? ", saturating" : "");
    check_scale(x, out);
    const tmc_checkpoint *cp = &x->checkpoint;
    if (cp->save_cv > 0 || cf->save_timeout_p > 0)
        add(out, "save_times", "saves vary (cv %.3g) or time out (P %.3g a save past %.4g s): "
            "the Daly line includes them (docs/model.md 3.12), the optimum interval assumes a "
            "fixed save that always succeeds; sweep checkpoint.interval_s for the best one",
            cp->save_cv, cf->save_timeout_p, cp->save_timeout_s);
}
