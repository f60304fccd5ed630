/* assumed.c - the defaults a run assumes that flatter its answer (assumed.h). */
#include "assumed.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "experiment_rules.h"
#include "units.h"

static void add(tmc_assumed *out, const char *key, int stated, const char *value,
                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* stated: the experiment's TMC_STATED_* bits that name this key. */
static void add(tmc_assumed *out, const char *key, int stated, const char *value,
                const char *fmt, ...)
{
    if (out->n == TMC_ASSUMED_MAX)
        return;
    tmc_assumed_item *it = &out->item[out->n++];
    it->key = key;
    it->stated = stated != 0;
    snprintf(it->value, sizeof it->value, "%s", value);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->why, sizeof it->why, fmt, ap);
    va_end(ap);
}

/* 1 when some failures send cards (or a node) to repair: they take spares. */
static int takes_hardware(const tmc_failures *f)
{
    if (f->per_card_mtbf_days <= 0 && f->per_node_mtbf_days <= 0 &&
        f->burst_per_node_mtbf_days <= 0 && f->distribution != TMC_LIFETIME_TRACE)
        return 0;
    if (f->n_causes == 0)
        return 1;
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].takes_spare)
            return 1;
    return 0;
}

/* 1 when no cause has a detection delay. */
static int detected_at_once(const tmc_failures *f)
{
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].detection_s > 0)
            return 0;
    return 1;
}

/* 1 when some cause needs a persistent snapshot (two levels). */
static int needs_persistent(const tmc_failures *f)
{
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].level == TMC_LEVEL_PERSISTENT)
            return 1;
    return 0;
}

static void check_failures(const tmc_experiment *x, tmc_assumed *out)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled)
        return;
    if (f->spares < 0 && takes_hardware(f))
        add(out, "failures.spares", x->stated & TMC_STATED_SPARES, "-1", "spares assumed "
            "unlimited: every failed %s is replaced at once, no run waits for a repair",
            f->per_node_mtbf_days > 0 ? "card or node" : "card");
    if (f->spares > 0 && takes_hardware(f) && f->spare_provision_s == 0)
        add(out, "failures.spare_provision_s", x->stated & TMC_STATED_PROVISION, "0",
            "spares ready at once: a spare taken from the pool joins the job with no time "
            "to select and provision it");
    /* a pool of nodes sized against one node at a time: bursts empty it
     * faster (the OPT-175B logbook lost 5 hosts at once with 4 spare) */
    if (f->spares >= 0 && f->cards_per_node > 0 && takes_hardware(f) &&
        f->burst_per_node_mtbf_days == 0 && !tmc_failures_replayed(f))
        add(out, "failures.burst_per_node_mtbf_days", 0, "not given", "no bursts: failures "
            "never take several nodes at once (a switch, a rack's power), which empty a "
            "spare pool faster than single nodes do");
    if (detected_at_once(f) && f->n_causes == 0)
        add(out, "failures.causes", x->stated & TMC_STATED_CAUSES, "none", "no detection "
            "delay: every failure is noticed the moment it strikes (a hung collective waits "
            "for a watchdog)");
    else if (detected_at_once(f))
        add(out, "failures.causes[i].detection_s", x->stated & TMC_STATED_DETECTION, "0",
            "no cause has a detection delay: every failure is noticed the moment it strikes "
            "(a hung collective waits for a watchdog)");
    if (x->checkpoint.persistent_every > 1 && !needs_persistent(f))
        add(out, "failures.causes[i].level", x->stated & TMC_STATED_LEVEL, "local",
            "every failure restores from a local snapshot unless a partner node failed "
            "since it: no cause needs persistent storage (a storage or network fault "
            "would)");
}

/* 1 when the experiment y (another reading of the run's) gives Daly's form
 * a longer wall time than cf: the run's reading flatters it. *alt: y's forms. */
static int daly_longer(const tmc_experiment *y, const tmc_closed_form *cf,
                       tmc_closed_form *alt)
{
    tmc_closed_form_compute(y, alt);
    /* by what the line prints (4 decimals of a day): "511.0742, not 511.0742"
     * named an assumption that changed nothing */
    return alt->daly_wall_s > cf->daly_wall_s + 0.5e-4 * TMC_DAY_S;
}

/* 1 when immune restores shorten Daly's wall time: not always, since a
 * struck restore of widely spread length is drawn again, often shorter. */
static int immune_flatters(const tmc_experiment *x, const tmc_closed_form *cf)
{
    tmc_experiment y = *x; /* a view: a plain field changed, never released */
    y.checkpoint.restore_immune = 0;
    tmc_closed_form struck;
    return daly_longer(&y, cf, &struck);
}

/* Job renewal timed at the restore (failures.renewal_at "restore"): the
 * time the job is down after an interruption ages none of its clocks.
 * Listed when timing them at the failure instead gives Daly a longer run
 * (never for exponential lifetimes, which forget, nor without time down). */
static void check_renewal_at(const tmc_experiment *x, const tmc_closed_form *cf,
                             tmc_assumed *out)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled || f->renewal != TMC_RENEWAL_JOB ||
        f->renewal_at != TMC_RENEWAL_AT_RESTORE || !isfinite(cf->mtbf_s))
        return;
    tmc_experiment y = *x; /* a view: a plain field changed, never released */
    y.failures.renewal_at = TMC_RENEWAL_AT_FAILURE;
    tmc_closed_form aged;
    if (!daly_longer(&y, cf, &aged))
        return;
    add(out, "failures.renewal_at", x->stated & TMC_STATED_RENEWAL_AT, "restore",
        "job renewal at the restart: the time the job is down after each interruption "
        "(detection, waits, downtime, requeues) ages none of its clocks (timed at the "
        "failure: M %.0f s, not %.0f s)", aged.mtbf_s, cf->mtbf_s);
}

/* Repairs timed from the failure (failures.repair_from "failure"): a
 * detection delay is a head start on the repair the job may wait for.
 * Listed when starting them at the detection gives Daly a longer run (a
 * spare pool or none, and a delay). */
static void check_repair_from(const tmc_experiment *x, const tmc_closed_form *cf,
                              tmc_assumed *out)
{
    const tmc_failures *f = &x->failures;
    if (!f->enabled || f->repair_from != TMC_REPAIR_FROM_FAILURE || f->spares < 0 ||
        detected_at_once(f) || !isfinite(cf->mtbf_s))
        return;
    tmc_experiment y = *x; /* a view: a plain field changed, never released */
    y.failures.repair_from = TMC_REPAIR_FROM_DETECTION;
    tmc_closed_form later;
    if (!daly_longer(&y, cf, &later))
        return;
    add(out, "failures.repair_from", x->stated & TMC_STATED_REPAIR_FROM, "failure",
        "repairs start at the failure's instant, while it is being detected: the delay is "
        "a head start on the repair the job may wait for (from the detection: Daly's wall "
        "%.4f days, not %.4f)", later.daly_wall_s / TMC_DAY_S, cf->daly_wall_s / TMC_DAY_S);
}

void tmc_assumed_list(const tmc_experiment *x, const tmc_closed_form *cf, tmc_assumed *out)
{
    out->n = 0;
    check_failures(x, out);
    check_renewal_at(x, cf, out);
    check_repair_from(x, cf, out);
    /* a calendar window runs for its days, whatever job.steps (window.h) */
    double run_s = tmc_window_on(x) ? fmin(cf->failure_free_s, x->window.days * TMC_DAY_S)
                                    : cf->failure_free_s;
    double run_days = run_s / TMC_DAY_S;
    if (!x->outages.enabled && run_days >= 1)
        add(out, "outages", x->stated & TMC_STATED_OUTAGES, "null", "no outages: nothing "
            "stops the whole cluster (power, network, maintenance) in %.3g days", run_days);
    if (x->jitter.cv == 0 && x->job.cards >= TMC_ASSUMED_JITTER_CARDS)
        add(out, "jitter.cv", x->stated & TMC_STATED_JITTER_CV, "0", "no jitter: all %ld "
            "cards take the same step time; each step waits for the slowest", x->job.cards);
    if (!x->loss_spikes.enabled && run_days >= TMC_ASSUMED_SPIKE_DAYS)
        add(out, "loss_spikes", x->stated & TMC_STATED_SPIKES, "null", "no loss spikes: no "
            "rollback to an older snapshot in %.3g days", run_days);
    double restores = isfinite(cf->mtbf_s) ? run_s / cf->mtbf_s : 0;
    if (x->checkpoint.restore_cv == 0 &&
        restores * cf->restore_mean_s >= TMC_ASSUMED_SHARE * run_s)
        add(out, "checkpoint.restore_cv", x->stated & TMC_STATED_RESTORE_CV, "0", "restores "
            "of a fixed time: each of about %.3g restores takes exactly %.4g s%s", restores,
            cf->restore_mean_s, x->checkpoint.persistent_every > 1
                                    ? " (from storage; from a local snapshot its own)" : "");
    if (x->checkpoint.restore_immune && restores > 0 && immune_flatters(x, cf)) {
        /* Daly's count of restores: one per interruption, (M + D + r) apart,
         * over the run's wall time (a window's days at most) */
        double wall = tmc_window_on(x) ? fmin(cf->daly_wall_s, x->window.days * TMC_DAY_S)
                                       : cf->daly_wall_s;
        double n = wall / (cf->mtbf_s + tmc_closed_form_down_s(x, cf));
        add(out, "checkpoint.restore_immune", 1, "true", "restores immune: the failures and "
            "outages due during the restores (about %.3g of them, %.4g s each) are dropped, "
            "about %.3g a run", n, cf->restore_mean_s, n * cf->restore_mean_s / cf->mtbf_s);
    }
    if (tmc_limit_saves(x) && x->time_limit.notice_s < 0)
        add(out, "time_limit.notice_s", 0, "none", "the warning before each time limit is "
            "assumed to hold the %.4g s save; a shorter one (SLURM's --signal) loses the "
            "work since the last commit", x->checkpoint.save_s);
}

/* "in [only ]0.4900 of runs", "in every run", "in no run" into buf[n]. */
static const char *share_of_runs(double p, const char *only, char *buf, size_t n)
{
    if (p >= 1)
        snprintf(buf, n, "in every run");
    else if (p <= 0)
        snprintf(buf, n, "in no run");
    else
        snprintf(buf, n, "in %s%.4f of runs", only, p);
    return buf;
}

int tmc_assumed_contradicts(const char *form, double t_days, double deadline_days,
                            const double p[3], double p01, double p99, double se_days, char *buf,
                            size_t n)
{
    int meets = t_days <= deadline_days;
    double tol = TMC_ASSUMED_SE * se_days + TMC_ASSUMED_REL * fabs(t_days);
    char share[48];
    buf[0] = '\0';
    if (meets && p[2] < 0.5)
        snprintf(buf, n, "the closed form meets the deadline, the simulation meets it %s",
                 share_of_runs(p[0], "only ", share, sizeof share));
    else if (!meets && p[1] > 0.5)
        snprintf(buf, n, "the closed form misses the deadline, the simulation meets it %s",
                 share_of_runs(p[0], "", share, sizeof share));
    else if (t_days < p01 - tol || t_days > p99 + tol)
        snprintf(buf, n, "%s %.4f days lies outside the simulated p01..p99 [%.4f, %.4f] "
                 "(give or take %.2g days)", form, t_days, p01, p99, tol);
    return buf[0] != '\0';
}
