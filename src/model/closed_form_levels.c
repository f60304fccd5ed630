/* closed_form_levels.c - the first-order closed form of two levels of
 * snapshots (closed_form.h, tmc_levels_form; docs/model.md 3.23). Sources:
 * Di, Robert, Vivien and Cappello, IPDPS 2014 (the waste of a two-level
 * pattern and its optimal intervals); J. W. Young, CACM 17(9), 1974 (the
 * first-order reading: each interruption loses half of what is not yet
 * saved at its level). */
#include "closed_form.h"

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

/* The share of failures whose cause needs a persistent snapshot. */
static double persistent_share(const tmc_failures *fl)
{
    double q = 0;
    for (int i = 0; fl->enabled && i < fl->n_causes; i++)
        if (fl->causes[i].level == TMC_LEVEL_PERSISTENT)
            q += fl->causes[i].share;
    return q;
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
    double q = persistent_share(&x->failures);
    int noticed = x->outages.enabled && x->outages.notice_s >= cp->save_s;
    out->lambda1 = cf->rate_failures * (1 - q);
    out->lambda2 = cf->rate_failures * q + cf->rate_spikes + (noticed ? 0 : cf->rate_outages);
    /* an outage with notice saves first: it costs its restore only */
    double extra = (noticed ? cf->rate_outages * out->r2 : 0) +
                   (isfinite(cf->mtbf_s) ? cf->delay_mean_s / cf->mtbf_s : 0);
    out->overhead = tmc_closed_form_levels_waste(out, cf->interval_s, out->m) + extra;
    out->completion_days =
        x->deadline.reserve_days + cf->remaining_free_s * (1 + out->overhead) / TMC_DAY_S;
    out->best_overhead = INFINITY;
    for (long m = 1; m <= TMC_LEVELS_M_MAX; m++) {
        double tau = tmc_closed_form_levels_interval(out, m), w = tmc_closed_form_levels_waste(out, tau, m) + extra;
        if (m == 1)
            out->one_level_overhead = w;
        if (w < out->best_overhead)
            out->best_overhead = w, out->best_m = m, out->best_interval_s = tau;
    }
}
