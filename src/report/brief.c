/* brief.c - `trainmc run`'s default report (brief.h). */
#include "brief.h"

#include <math.h>

#include "assumed_output.h"
#include "assumptions.h"

int tmc_brief_covers(const tmc_report *r)
{
    return !r->window && !r->x->observed.enabled && !r->plug_in && !r->prior &&
           !r->importance && !r->x->elastic.enabled;
}

/* A closed-form figure as the full report prints it (output.c): 3
 * decimals, or 4 significant digits past a million. */
static const char *closed(char *buf, size_t n, double v)
{
    snprintf(buf, n, fabs(v) < 1e6 ? "%.3f" : "%.4g", v);
    return buf;
}

static void header(FILE *f, const tmc_report *r)
{
    const tmc_experiment *x = r->x;
    fprintf(f, "trainmc run: %s (%s)\n", x->name, x->path);
    fprintf(f, "  %ld replicas, seed %llu, %s, %.2f s", r->replicas,
            (unsigned long long)r->seed,
            r->mode == TMC_MODE_AGGREGATED ? "aggregated mode" : "exact mode", r->elapsed_s);
    for (int i = 0; i < r->n_overrides; i++)
        fprintf(f, "%s%s", i ? ", " : "; overrides: ", r->overrides[i]);
    fprintf(f, "\n");
    if (r->precision)
        fprintf(f, "  precision target %s: %s (95 %% half-width %.3g)\n",
                r->precision->target->text,
                r->precision->reached ? "reached" : "NOT reached: the replica budget ran out",
                r->precision->half_width);
}

/* P(deadline), T and the overhead, each beside the closed forms. */
static void answer(FILE *f, const tmc_report *r)
{
    const tmc_closed_form *cf = r->cf;
    const tmc_summary *d = r->days;
    char label[48];
    snprintf(label, sizeof label, "P(T <= %g days)", r->x->deadline.days);
    char verdict[48];
    fprintf(f, "\n%-20s %.4f [%.4f, %.4f] Wilson 95 %%   closed form: %s\n", label, d->p_met,
            d->ci_lo, d->ci_hi,
            tmc_assumed_output_verdict(r->x, cf, d, verdict, sizeof verdict));
    if (r->x->deadline.max_restarts >= 0)
        fprintf(f, "%-20s a run with more than %ld restarts misses (deadline.max_restarts)\n",
                "", r->x->deadline.max_restarts);
    char young[32], daly[32];
    fprintf(f, "%-20s mean %.4f +- %.4f, p05 %.4f, p50 %.4f, p95 %.4f   closed form: Young "
               "%s, Daly %s\n", "completion T (days)", d->mean, d->se, d->quantile[1],
            d->quantile[2], d->quantile[3], closed(young, sizeof young, cf->completion_days),
            closed(daly, sizeof daly, cf->completion_days_daly));
    double wall = (d->mean - r->x->deadline.reserve_days) * TMC_DAY_S;
    if (cf->remaining_free_s > 0)
        fprintf(f, "%-20s %.3f %% +- %.3f %%   closed form: Young %.3f %%, Daly %.3f %%\n",
                "overhead", 100 * tmc_closed_form_overhead(cf, wall),
                100 * d->se * TMC_DAY_S / cf->remaining_free_s, 100 * cf->overhead_young,
                100 * cf->overhead_daly);
    if (tmc_assumed_output_contradiction(f, r->x, cf, d))
        return; /* the line names the broken assumptions */
    tmc_assumptions a;
    tmc_assumptions_check(r->x, cf, &a);
    for (int i = 0; i < a.n; i++)
        fprintf(f, "Closed forms break (docs/model.md 3.7): %s: %s\n", a.key[i], a.message[i]);
}

static void cost(FILE *f, const tmc_report *r)
{
    const tmc_cost_summary *c = r->cost;
    fprintf(f, "Card-hours (%ld cards held): mean %.0f (Young %.0f), p95 %.0f", c->cards_held,
            c->mean, c->closed_form, c->quantile[3]);
    if (c->priced)
        fprintf(f, "; cost mean %.6g (Young %.6g), p95 %.6g", c->money_mean,
                c->money_closed_form, c->money_quantile[3]);
    fprintf(f, "\n");
}

/* "LABEL 1.23" when the mean per run is not zero, after ", " unless it is
 * the line's first (*first, then cleared); 1 when printed. */
static int count(FILE *f, int *first, const char *label, double mean)
{
    if (mean == 0)
        return 0;
    fprintf(f, "%s%s %.3g", *first ? "" : ", ", label, mean);
    *first = 0;
    return 1;
}

/* The failures by part, in their units (cards, nodes, the job), with the
 * spares they took. */
static void failures(FILE *f, int *first, const tmc_report *r, double n)
{
    const tmc_replica *t = r->totals;
    double node = t->node_failures / n, job = t->job_failures / n;
    double card = t->card_failures / n - node - job, taken = t->spare_provisions / n;
    int any = count(f, first, "card failures", card);
    any += count(f, first, "node failures", node);
    any += count(f, first, "job failures", job);
    /* what the engine counts (failures.c): cards taken from the pool, or
     * when it is empty (always with 0 spares) from the earliest repair in
     * progress; a bad repair (repair_fail_share) fails on first use and is
     * counted again when its replacement is taken */
    const char *bad = r->x->failures.repair_fail_share > 0 ? ", bad repairs counted each time"
                                                           : "";
    if (any && taken > 0 && r->x->failures.spares < 0)
        fprintf(f, " (%.3g cards replaced at once: spares assumed unlimited)", taken);
    else if (any && taken > 0 && r->x->failures.spares == 0)
        fprintf(f, " (%.3g cards waited for from repair: no spare pool%s)", taken, bad);
    else if (any && taken > 0)
        fprintf(f, " (%.3g cards taken from the pool of %ld or, when empty, waited for from "
                   "repair%s)", taken, r->x->failures.spares, bad);
    count(f, first, "standbys taken", t->standby_swaps / n);
}

static void events(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas;
    int on = 1, *first = &on;
    fprintf(f, "Events per run (mean): ");
    failures(f, first, r, n);
    count(f, first, "outages", t->outages / n);
    count(f, first, "loss spikes", t->loss_spikes / n);
    count(f, first, "time-limit requeues", t->requeues / n);
    count(f, first, "save timeouts", t->save_timeouts / n);
    count(f, first, "bad nodes retired", t->bad_node_retirements / n);
    const tmc_summary *c = &r->restarts->count;
    fprintf(f, "%srestarts %.3g (Poisson %.3g), p95 %.0f, max %.0f\n", on ? "" : "; ", c->mean,
            r->restarts->poisson_mean, c->quantile[3], c->max);
    if (t->censored > 0)
        fprintf(f, "Censored: %.0f replicas still running at %.1f days (counted as misses)\n",
                t->censored, r->horizon_s / TMC_DAY_S);
}

/* The wall-time rows of TMC_BRIEF_MIN_SHARE or more. */
static void split(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas, wall = t->wall_s / n;
    fprintf(f, "Wall-time split (mean per run, %.4f days; rows of %.1f %% or more, --detail "
               "for all):\n", wall / TMC_DAY_S, 100 * TMC_BRIEF_MIN_SHARE);
    for (int i = 0; i < tmc_accounting_split_rows; i++) {
        double mean_s = tmc_accounting_get(t, &tmc_accounting_split[i]) / n;
        if (wall > 0 && mean_s / wall >= TMC_BRIEF_MIN_SHARE)
            fprintf(f, "  %-25s %10.4f days  %7.3f %%\n", tmc_accounting_split[i].label,
                    mean_s / TMC_DAY_S, 100 * mean_s / wall);
    }
}

void tmc_brief_text(FILE *f, const tmc_report *r)
{
    header(f, r);
    answer(f, r);
    tmc_assumed_output_text(f, r->x, r->cf);
    cost(f, r);
    events(f, r);
    split(f, r);
}
