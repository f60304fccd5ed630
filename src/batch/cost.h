/* cost.h - what a run costs in card-hours and, with prices, in money
 * (issue 20).
 *
 * The cards held are the job's cards plus its spare pool (failures.spares
 * when positive): a spare is rented whether or not it is used. A replica
 * holds them for its wall time W, and through the deadline's reserve too
 * when cost.reserve is "held": card-hours = held x (W [+ reserve]) / 3600 s.
 * That is an increasing affine function of the completion time T = reserve
 * + W, so its mean and quantiles are those of T mapped through it (stats.h:
 * the same replicas). With a cost section the money is card-hours x
 * (card_hour_price + energy_kwh_per_card_hour x energy_price_per_kwh) +
 * fixed. The closed form maps Young's T the same way (closed_form.h).
 *
 * A forecast (progress) bills its past at the cards held so far: the
 * elapsed days at progress.cards (+ spares), the rest at job.cards (+
 * spares), so a what-if on job.cards changes only the future's bill. */
#ifndef TMC_COST_H
#define TMC_COST_H

#include "closed_form.h"
#include "config.h"
#include "stats.h"

typedef struct {
    long cards_held;           /* job.cards + spares */
    double card_hours_per_day; /* held x 24: card-hours per day of T */
    double offset_days;        /* card-hours = per_day x (T - offset_days) - past_credit */
    long past_cards_held;      /* a forecast: held before it (progress.cards + spares) */
    double past_days;          /* a forecast: its elapsed days (0: none) */
    double past_credit;        /* (held - past held) x 24 x past_days, card-hours */
    double mean, sd;           /* card-hours per run */
    double quantile[TMC_STATS_NQ]; /* at tmc_stats_levels */
    double closed_form;        /* at Young's completion time */
    int priced;                /* 1 with a cost section: */
    double price_per_card_hour; /* card_hour_price + energy x its price */
    double fixed;
    double money_mean, money_quantile[TMC_STATS_NQ], money_closed_form;
} tmc_cost_summary;

/* The card-hours (and money) of the run summarised by days (completion
 * days T), with x's cards, spares, reserve and prices, beside cf's. */
void tmc_cost_summarize(const tmc_experiment *x, const tmc_closed_form *cf,
                        const tmc_summary *days, tmc_cost_summary *out);

/* Card-hours for a completion time of t days. */
double tmc_cost_card_hours(const tmc_cost_summary *c, double t_days);

#endif
