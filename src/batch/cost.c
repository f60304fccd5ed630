/* cost.c - card-hours and money of a run (cost.h). */
#include "cost.h"

#include <string.h>

double tmc_cost_card_hours(const tmc_cost_summary *c, double t_days)
{
    return c->card_hours_per_day * (t_days - c->offset_days) - c->past_credit;
}

void tmc_cost_summarize(const tmc_experiment *x, const tmc_closed_form *cf,
                        const tmc_summary *days, tmc_cost_summary *out)
{
    memset(out, 0, sizeof *out);
    /* the pool's cards and the warm standbys are held (and billed) the whole
     * run: a standby's failed card comes back from repair into the pool */
    long spares = x->failures.enabled && x->failures.spares > 0 ? x->failures.spares : 0;
    if (x->failures.enabled)
        spares += x->failures.standbys;
    out->cards_held = x->job.cards + spares;
    out->card_hours_per_day = 24.0 * (double)out->cards_held;
    int held = x->cost.enabled && x->cost.reserve == TMC_RESERVE_HELD;
    out->offset_days = held ? 0 : x->deadline.reserve_days;
    out->past_cards_held = out->cards_held;
    if (x->observed.enabled && x->observed.cards > 0) { /* a what-if on job.cards */
        out->past_cards_held = x->observed.cards + spares;
        out->past_days = x->observed.elapsed_days;
        out->past_credit = 24.0 * (double)(out->cards_held - out->past_cards_held) *
                           out->past_days;
    }
    out->mean = tmc_cost_card_hours(out, days->mean);
    out->sd = out->card_hours_per_day * days->sd;
    for (int i = 0; i < TMC_STATS_NQ; i++)
        out->quantile[i] = tmc_cost_card_hours(out, days->quantile[i]);
    out->closed_form = tmc_cost_card_hours(out, cf->completion_days);
    out->priced = x->cost.enabled;
    if (!out->priced)
        return;
    const tmc_cost *p = &x->cost;
    out->price_per_card_hour = p->card_hour_price +
                               p->energy_kwh_per_card_hour * p->energy_price_per_kwh;
    out->fixed = p->fixed;
    out->money_mean = out->fixed + out->price_per_card_hour * out->mean;
    for (int i = 0; i < TMC_STATS_NQ; i++)
        out->money_quantile[i] = out->fixed + out->price_per_card_hour * out->quantile[i];
    out->money_closed_form = out->fixed + out->price_per_card_hour * out->closed_form;
}
