/* closed_form_levels.c - the first-order closed form of two levels of
 * snapshots (closed_form.h, tmc_levels_form; docs/model.md 3.23). Sources:
 * Di, Robert, Vivien and Cappello, IPDPS 2014 (the waste of a two-level
 * pattern and its optimal intervals); J. W. Young, CACM 17(9), 1974 (the
 * first-order reading: each interruption loses half of what is not yet
 * saved at its level). */
#include "closed_form.h"
#include "experiment_rules.h"

#include <math.h>
#include <string.h>

double tmc_closed_form_levels_waste(const tmc_levels_form *f, double tau_s, long m)
{
    if (!(tau_s > 0))
        return INFINITY;
    if (isinf(tau_s)) /* no interruption loses work: saves cost nothing per second */
        return f->lambda1 > 0 || f->lambda2 > 0 ? INFINITY : 0;
    double mm = (double)m;
    double r1 = m > 1 ? f->r1 : f->r2; /* one level: every restore from storage */
    double saves = ((mm - 1) * f->c1 + f->c2) / (mm * tau_s);
    return saves + f->lambda1 * (tau_s / 2 + r1) + f->lambda2 * (mm * tau_s / 2 + f->r2);
}

double tmc_closed_form_levels_interval(const tmc_levels_form *f, long m)
{
    double mm = (double)m, lost = f->lambda1 + mm * f->lambda2;
    return lost > 0 ? sqrt(2 * ((mm - 1) * f->c1 + f->c2) / (mm * lost)) : INFINITY;
}

/* The share of failures that need a persistent snapshot: their cause's
 * level, or with one node (no partner) every failure that takes hardware
 * (a cause that takes spares, of the card and node parts; not the job's
 * own, which take none); each part's causes by their share of it. */
static double persistent_share(const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_failures *fl = &x->failures;
    double r[TMC_FAILURE_PARTS], rate = tmc_closed_form_part_rates(x, cf, r);
    if (!fl->enabled || !(rate > 0))
        return 0;
    int one_node = tmc_job_nodes(x->job.cards, fl->cards_per_node) <= 1;
    double q = 0, hardware = fl->n_causes ? 0 : r[TMC_PART_CARD] + r[TMC_PART_NODE];
    for (int i = 0; i < fl->n_causes; i++) {
        const tmc_failure_cause *c = &fl->causes[i];
        int persistent = c->level == TMC_LEVEL_PERSISTENT;
        for (int p = 0; p < TMC_FAILURE_PARTS; p++) {
            double part = r[p] * c->part_share[p];
            q += persistent ? part : 0;
            hardware += !persistent && c->takes_spare && p != TMC_PART_JOB ? part : 0;
        }
    }
    return (one_node ? q + hardware : q) / rate;
}

void tmc_closed_form_levels(const tmc_experiment *x, const tmc_closed_form *cf,
                            tmc_levels_form *out)
{
    memset(out, 0, sizeof *out);
    const tmc_checkpoint *cp = &x->checkpoint;
    if (cp->persistent_every <= 1)
        return;
    out->enabled = 1;
    out->m = cp->persistent_every;
    out->c2 = cp->save_s;
    out->c1 = cp->local_save_s >= 0 ? cp->local_save_s : cp->save_s;
    out->r2 = cf->restore_mean_s;
    out->r1 = cp->local_restore_s >= 0 ? cp->local_restore_s : cp->restore_s;
    double q = persistent_share(x, cf);
    int noticed = x->outages.enabled && x->outages.notice_s >= cp->save_s;
    out->lambda1 = cf->rate_failures * (1 - q);
    out->lambda2 = cf->rate_failures * q + cf->rate_spikes + (noticed ? 0 : cf->rate_outages);
    /* an outage with notice saves first: it costs its restore only; with
     * asynchronous saves the form's delay holds the newest write, which
     * only a restore from storage loses (every one with one level) */
    double write = cp->mode == TMC_SAVE_ASYNC ? cp->write_s : 0;
    double extra = (noticed ? cf->rate_outages * out->r2 : 0) +
                   (isfinite(cf->mtbf_s) ? (cf->delay_mean_s - write) / cf->mtbf_s : 0);
    double lost_write1 = write * (out->lambda1 + out->lambda2), lost_write2 = write * out->lambda2;
    /* past the snapshots the run holds, only the last is persistent */
    double held = ceil(cf->remaining_free_s / cf->interval_s);
    long m = (double)out->m < held ? out->m : (long)fmax(1, held);
    out->overhead = tmc_closed_form_levels_waste(out, cf->interval_s, m) + extra +
                    (m > 1 ? lost_write2 : lost_write1);
    /* the run ends when the last write commits */
    double wall = cf->remaining_free_s * (1 + out->overhead) + cf->slowdown.added_s + write;
    double period = (double)m * cf->interval_s + (double)(m - 1) * out->c1 + out->c2;
    wall += tmc_closed_form_limits_added_s(x, cf, wall, period);
    out->overhead = wall / cf->remaining_free_s - 1;
    out->completion_days = x->deadline.reserve_days + (cf->before_s + wall) / TMC_DAY_S;
    out->best_overhead = INFINITY;
    for (long k = 1; k <= TMC_LEVELS_M_MAX; k++) {
        double tau = tmc_closed_form_levels_interval(out, k);
        if (k > 1 && (double)k * tau > cf->remaining_free_s)
            break; /* a period longer than the run: k - 1 was as far as it goes */
        double w = tmc_closed_form_levels_waste(out, tau, k) + extra +
                   (k > 1 ? lost_write2 : lost_write1);
        if (k == 1)
            out->one_level_overhead = w;
        if (w < out->best_overhead)
            out->best_overhead = w, out->best_m = k, out->best_interval_s = tau;
    }
}

double tmc_closed_form_beside_days(const tmc_experiment *x, const tmc_closed_form *cf,
                                   const char **name)
{
    tmc_levels_form lf;
    tmc_closed_form_levels(x, cf, &lf);
    *name = lf.enabled ? "two-level" : "Daly";
    return lf.enabled ? lf.completion_days : cf->completion_days_daly;
}
