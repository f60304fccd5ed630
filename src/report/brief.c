/* brief.c - `trainmc run`'s default report (brief.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "brief.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "assumed_output.h"
#include "assumptions.h"
#include "forecast_output.h"

/* A closed-form figure as the full report prints it (output.c): 3
 * decimals, or 4 significant digits past a million. */
static const char *closed(char *buf, size_t n, double v)
{
    snprintf(buf, n, fabs(v) < 1e6 ? "%.3f" : "%.4g", v);
    return buf;
}

/* The experiment's source in one line of at most TMC_BRIEF_SOURCE_CHARS
 * characters, cut at a space with "..." when longer. */
static void source(FILE *f, const char *text)
{
    size_t n = strlen(text), keep = n;
    if (n > TMC_BRIEF_SOURCE_CHARS) {
        keep = TMC_BRIEF_SOURCE_CHARS - 3;
        while (keep > 0 && text[keep] != ' ')
            keep--;
        if (keep == 0)
            keep = TMC_BRIEF_SOURCE_CHARS - 3;
    }
    fprintf(f, "  source: %.*s%s\n", (int)keep, text, keep < n ? "..." : "");
}

/* The header; with_source: the experiment's source line too. */
static void header(FILE *f, const tmc_report *r, int with_source)
{
    const tmc_experiment *x = r->x;
    fprintf(f, "trainmc run: %s (%s)\n", x->name, x->path);
    if (with_source)
        source(f, x->source);
    fprintf(f, "  %ld replicas, seed %llu, %s, %.2f s", r->replicas,
            (unsigned long long)r->seed,
            r->mode == TMC_MODE_SEGMENTS ? "segment draws (exact)" : "every step drawn",
            r->elapsed_s);
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
/* The P(deadline) line; suffix after the interval ("" or the forecast's
 * day). */
static void p_line(FILE *f, const tmc_report *r, const char *suffix, const char *verdict)
{
    const tmc_summary *d = r->days;
    char label[48];
    snprintf(label, sizeof label, "P(T <= %g days)", r->x->deadline.days);
    fprintf(f, "%-20s %.4f [%.4f, %.4f] Wilson 95 %%%s   closed form: %s\n", label, d->p_met,
            d->ci_lo, d->ci_hi, suffix, verdict);
    if (r->x->deadline.max_restarts >= 0)
        fprintf(f, "%-20s a run with more than %ld restarts misses (deadline.max_restarts)\n",
                "", r->x->deadline.max_restarts);
}

/* The closed forms contradicted or their assumptions broken, as warnings. */
static void breaks(FILE *f, const tmc_report *r)
{
    if (tmc_assumed_output_contradiction(f, r->x, r->cf, r->days))
        return; /* the line names the broken assumptions */
    tmc_assumptions a;
    tmc_assumptions_check(r->x, r->cf, &a);
    for (int i = 0; i < a.n; i++)
        fprintf(f, "Closed forms break (docs/model.md 3.7): %s: %s\n", a.key[i], a.message[i]);
}

/* T's mean over the runs that finished, days: those counted at the horizon
 * (unfinished, each exactly the horizon) taken out of the mean. */
static double finished_mean_days(const tmc_report *r)
{
    double n = (double)r->replicas, c = r->totals->censored;
    return (r->days->mean * n - c * r->horizon_s / TMC_DAY_S) / (n - c);
}

/* The overhead beside the closed forms' (none with no compute left). */
static void overhead_line(FILE *f, const tmc_report *r, const char *closed_text)
{
    const tmc_closed_form *cf = r->cf;
    const tmc_summary *d = r->days;
    double wall = (d->mean - r->x->deadline.reserve_days) * TMC_DAY_S;
    double censored = r->totals->censored;
    if (!(cf->remaining_free_s > 0))
        return;
    if (censored >= (double)r->replicas) /* the horizon's, not a run's */
        fprintf(f, "%-20s unbounded (no run finished)   closed form: %s\n", "overhead",
                closed_text);
    else if (censored > 0)
        fprintf(f, "%-20s %.3f %% over the runs that finished (%.0f never did)   closed form: "
                   "%s\n", "overhead",
                100 * tmc_closed_form_overhead(
                          cf, (finished_mean_days(r) - r->x->deadline.reserve_days) * TMC_DAY_S),
                censored, closed_text);
    else
        fprintf(f, "%-20s %.3f %% +- %.3f %%   closed form: %s\n", "overhead",
                100 * tmc_closed_form_overhead(cf, wall),
                100 * d->se * TMC_DAY_S / cf->remaining_free_s, closed_text);
}

/* A quantile of T, days: "never" for a run counted at the horizon (it had
 * not finished there), so that the horizon does not read as a time. */
static const char *t_value(char *buf, size_t n, const tmc_report *r, double days)
{
    if (r->totals->censored > 0 && days >= r->horizon_s / TMC_DAY_S * (1 - 1e-12))
        snprintf(buf, n, "never");
    else
        snprintf(buf, n, "%.4f", days);
    return buf;
}


/* T's mean and quantiles; with runs that never finished the mean is that
 * of those that did, or "never" when none did. */
static void t_line(FILE *f, const tmc_report *r, const char *closed_text)
{
    const tmc_summary *d = r->days;
    char p05[32], p50[32], p95[32], mean[96];
    double censored = r->totals->censored;
    if (censored >= (double)r->replicas)
        snprintf(mean, sizeof mean, "never (no run finished by the horizon, %.1f days)",
                 r->horizon_s / TMC_DAY_S);
    else if (censored > 0) /* those counted at the horizon taken out */
        snprintf(mean, sizeof mean, "%.4f over the %.0f runs that finished (%.0f never did)",
                 finished_mean_days(r), (double)r->replicas - censored, censored);
    else
        snprintf(mean, sizeof mean, "%.4f +- %.4f", d->mean, d->se);
    fprintf(f, "%-20s mean %s, p05 %s, p50 %s, p95 %s   closed form: %s\n",
            "completion T (days)", mean, t_value(p05, sizeof p05, r, d->quantile[1]),
            t_value(p50, sizeof p50, r, d->quantile[2]),
            t_value(p95, sizeof p95, r, d->quantile[3]), closed_text);
}

/* P(deadline), T and the overhead, each beside the closed forms. */
static void answer(FILE *f, const tmc_report *r)
{
    const tmc_closed_form *cf = r->cf;
    const tmc_summary *d = r->days;
    char verdict[48];
    p_line(f, r, "", tmc_assumed_output_verdict(r->x, cf, d, verdict, sizeof verdict));
    char young[32], daly[32], two[48] = "", text[128];
    tmc_levels_form lf;
    tmc_closed_form_levels(r->x, cf, &lf);
    if (lf.enabled) /* Young and Daly: every snapshot persistent */
        snprintf(two, sizeof two, "two-level %.3f, one level: ", lf.completion_days);
    snprintf(text, sizeof text, "%sYoung %s, Daly %s", two,
             closed(young, sizeof young, cf->completion_days),
             closed(daly, sizeof daly, cf->completion_days_daly));
    t_line(f, r, text);
    tmc_brief_fleet_short(f, r); /* why runs never finished, before the rest */
    if (lf.enabled)
        snprintf(two, sizeof two, "two-level %.3f %%, one level: ", 100 * lf.overhead);
    snprintf(text, sizeof text, "%sYoung %.3f %%, Daly %.3f %%", two, 100 * cf->overhead_young,
             100 * cf->overhead_daly);
    overhead_line(f, r, text);
    breaks(f, r);
}

/* A forecast: P(deadline) from the forecast's day, then the time left, the
 * pace and the rates' posteriors (forecast_output.h). */
static void forecast_answer(FILE *f, const tmc_report *r)
{
    const tmc_closed_form *cf = r->cf;
    char verdict[48], suffix[64], young[32], daly[32], closed_t[96];
    snprintf(suffix, sizeof suffix, ", from day %.3f", r->x->observed.elapsed_days);
    p_line(f, r, suffix, tmc_assumed_output_verdict(r->x, cf, r->days, verdict, sizeof verdict));
    snprintf(closed_t, sizeof closed_t, "closed form: Young %s, Daly %s",
             closed(young, sizeof young, cf->completion_days),
             closed(daly, sizeof daly, cf->completion_days_daly));
    tmc_forecast_output_brief(f, r, closed_t);
    breaks(f, r);
}

/* Elastic groups: P, T and the overhead beside the elastic closed form
 * (docs/model.md 3.14); Young's and Daly's, the same cluster restarting
 * from checkpoints, in one line (--detail: the assumptions they break). */
static void elastic_answer(FILE *f, const tmc_report *r, const tmc_elastic_form *ef)
{
    const tmc_closed_form *cf = r->cf;
    const tmc_summary *d = r->days;
    p_line(f, r, "", ef->completion_days <= r->x->deadline.days ? "meets (Elastic)"
                                                                : "misses (Elastic)");
    char young[32], daly[32], text[96];
    fprintf(f, "%-20s mean %.4f +- %.4f, p05 %.4f, p50 %.4f, p95 %.4f   closed form: Elastic "
               "%s (groups up A = %.6f)\n", "completion T (days)", d->mean, d->se,
            d->quantile[1], d->quantile[2], d->quantile[3],
            closed(young, sizeof young, ef->completion_days), ef->availability);
    snprintf(text, sizeof text, "Elastic %.3f %%%s", 100 * ef->overhead,
             ef->p_global > 0.01 ? " (rough: fewer than min_groups groups up is not rare)" : "");
    overhead_line(f, r, text);
    fprintf(f, "%-20s Young %s, Daly %s days: the same cluster restarting from checkpoints "
               "(--detail for the assumptions they break)\n", "", 
            closed(young, sizeof young, cf->completion_days),
            closed(daly, sizeof daly, cf->completion_days_daly));
}

/* A calendar window: the goodput beside the closed form's long run, and
 * the warnings that fire (docs/model.md 3.18). */
static void window_answer(FILE *f, const tmc_report *r)
{
    const tmc_window_summary *w = r->window;
    char label[48];
    snprintf(label, sizeof label, "goodput, %.6g days", w->days);
    fprintf(f, "%-20s %.5f [%.5f, %.5f] 95 %%, P10 %.5f, P90 %.5f   closed form (long run): "
               "Young %.5f, Daly %.5f\n", label, w->goodput_mean, w->ci_lo, w->ci_hi, w->p10,
            w->p90, w->closed_young, w->closed_daly);
    if (w->edge >= 0.5)
        fprintf(f, "WARNING: one checkpoint interval is %.4g of the window: work commits only "
                   "at a save; give a window of many intervals\n", w->edge);
    if (w->finished > 0)
        fprintf(f, "WARNING: %ld replicas finished job.steps inside the window (faster than "
                   "the plan); their committed steps stop at job.steps: give more steps\n",
                w->finished);
}

/* Importance sampling: the rare miss's P with its normal 95 % interval
 * (issue 8), before the plain answer. */
static void importance_answer(FILE *f, const tmc_report *r)
{
    const tmc_importance *is = r->importance;
    char label[48];
    snprintf(label, sizeof label, "P(T > %g days)", r->x->deadline.days);
    tmc_output_importance_answer(f, label, is);
    tmc_output_pareto_k(f, is);
}

/* Rates drawn per replica: the plug-in figures beside the predictive ones
 * above, in one line (docs/model.md 3.11). */
static void plug_in(FILE *f, const tmc_report *r)
{
    const tmc_summary *q = r->plug_in;
    char keys[160];
    tmc_output_drawn_keys(r->x, keys, sizeof keys);
    fprintf(f, "%-20s P %.4f [%.4f, %.4f], T %.4f +- %.4f: every rate as given; the figures "
               "above draw them per replica (%s)\n", "plug-in", q->p_met, q->ci_lo, q->ci_hi,
            q->mean, q->se, keys);
}

static void cost(FILE *f, const tmc_report *r)
{
    const tmc_cost_summary *c = r->cost;
    fprintf(f, "Card-hours (%ld cards held): mean %.0f (Young %.0f), p95 %.0f", c->cards_held,
            c->mean, c->closed_form, c->quantile[3]);
    if (r->totals->reserve_fetched > 0) /* cost.c bills the pool, not what joins it */
        fprintf(f, "; not billed: the %.3g reserve nodes fetched a run, from their fetch",
                r->totals->reserve_fetched / (double)r->replicas);
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

/* The failures by part, in their units (cards, nodes, the job, bursts of
 * nodes), with the spares they took. */
static void failures(FILE *f, int *first, const tmc_report *r, double n)
{
    const tmc_replica *t = r->totals;
    double node = t->node_failures / n, job = t->job_failures / n, burst = t->bursts / n;
    /* the difference of the totals, exact in integers, before the division */
    double card = (t->card_failures - t->node_failures - t->job_failures - t->bursts) / n;
    double taken = t->spare_provisions / n;
    int any = count(f, first, "card failures", card);
    any += count(f, first, "node failures", node);
    any += count(f, first, "job failures", job);
    if (count(f, first, "bursts", burst)) /* and their size, which the spares answer to */
        fprintf(f, " of %.3g nodes on average", t->burst_nodes / t->bursts), any++;
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
    else if (any && taken > 0 && r->x->failures.reserve_nodes > 0)
        fprintf(f, " (%.3g cards taken from the pool of %ld or, when empty, the reserve of %ld "
                   "nodes, then from repair)", taken, r->x->failures.spares,
                r->x->failures.reserve_nodes);
    else if (any && taken > 0)
        fprintf(f, " (%.3g cards taken from the pool of %ld or, when empty, waited for from "
                   "repair%s)", taken, r->x->failures.spares, bad);
    count(f, first, "standbys taken", t->standby_swaps / n);
}

/* The counts that are not zero, then the restarts beside Poisson. */
static void events_row(FILE *f, const tmc_report *r, double n, int elastic)
{
    const tmc_replica *t = r->totals;
    int on = 1, *first = &on;
    fprintf(f, "Events per run (mean): ");
    failures(f, first, r, n);
    count(f, first, "group failures", t->group_failures / n);
    count(f, first, "outages", t->outages / n);
    count(f, first, "loss spikes", t->loss_spikes / n);
    count(f, first, "time-limit requeues", t->requeues / n);
    count(f, first, "save timeouts", t->save_timeouts / n);
    count(f, first, "refresh restarts", t->refreshes / n);
    count(f, first, "bad nodes retired", t->bad_node_retirements / n);
    count(f, first, "bad nodes sent to repair", t->bad_node_repairs / n);
    count(f, first, "of them cured", t->bad_node_cures / n);
    count(f, first, "misdiagnoses", t->misdiagnoses / n);
    count(f, first, "good nodes turned bad", t->nodes_aged / n);
    count(f, first, "nodes retired", t->nodes_retired / n);
    count(f, first, "reserve nodes fetched", t->reserve_fetched / n);
    const tmc_summary *c = &r->restarts->count;
    if (elastic) /* groups heal; the Poisson count is checkpoint-restart's */
        fprintf(f, "%srestarts %.3g, max %.0f", on ? "" : "; ", c->mean, c->max);
    else
        fprintf(f, "%srestarts %.3g (Poisson %.3g), p95 %.0f, max %.0f", on ? "" : "; ",
                c->mean, r->restarts->poisson_mean, c->quantile[3], c->max);
    if (r->x->observed.enabled && t->before_restarts > 0)
        fprintf(f, ", %.3g of them before the forecast", t->before_restarts / n);
    fprintf(f, "\n");
}

static void events(FILE *f, const tmc_report *r, int elastic)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas;
    /* no event of any kind, none expected: one line, not a row of zeros */
    if (t->card_failures + t->standby_swaps + t->group_failures + t->outages +
                t->loss_spikes + t->requeues + t->save_timeouts + t->bad_node_retirements +
                t->refreshes ==
            0 &&
        r->restarts->count.max == 0 && r->restarts->poisson_mean == 0)
        fprintf(f, "Events per run: none (no failure, outage or restart in any run)\n");
    else
        events_row(f, r, n, elastic);
    if (t->censored > 0 && !r->window)
        fprintf(f, "Censored: %.0f replicas not finished at %.1f days (counted as misses%s)\n",
                t->censored, r->horizon_s / TMC_DAY_S,
                t->fleet_depleted > 0 ? "; some wait for nodes the fleet no longer has" : "");
}

/* Retirements that left the fleet fewer nodes than the job needs: the job
 * waits to the horizon (an answer, not a detail). */
void tmc_brief_fleet_short(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    const tmc_failures *x = &r->x->failures;
    if (!(t->fleet_depleted > 0))
        return;
    fprintf(f, "Fleet short: in %.0f of %ld runs (%.1f %%) retirements left fewer nodes than "
               "the job needs, ", t->fleet_depleted, r->replicas,
            100 * t->fleet_depleted / (double)r->replicas);
    if (r->window)
        fprintf(f, "and it waited from then to the window's end");
    else
        fprintf(f, "so it never finished (counted at the horizon, %.1f days, as misses)",
                r->horizon_s / TMC_DAY_S);
    fprintf(f, "; retire later (failures.retire_after_failures %ld", x->retire_after_failures);
    if (x->retire_window_days > 0)
        fprintf(f, " within retire_window_days %.3g", x->retire_window_days);
    fprintf(f, ") or hold more spares (failures.spares %ld cards, %ld nodes%s)\n", x->spares,
            x->cards_per_node > 0 ? x->spares / x->cards_per_node : x->spares,
            x->reserve_nodes > 0 ? ", or reserve_nodes" : "");
}

/* A wall-time row when its share is TMC_BRIEF_MIN_SHARE or more. */
static void row(FILE *f, const char *label, double mean_s, double wall)
{
    if (wall > 0 && mean_s / wall >= TMC_BRIEF_MIN_SHARE)
        fprintf(f, "  %-25s %10.4f days  %7.3f %%\n", label, mean_s / TMC_DAY_S,
                100 * mean_s / wall);
}

/* The wall-time rows of TMC_BRIEF_MIN_SHARE or more. */
static void split(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas, wall = t->wall_s / n;
    fprintf(f, "Wall-time split (mean per run, %.4f days; rows of %.1f %% or more, --detail "
               "for all):\n", wall / TMC_DAY_S, 100 * TMC_BRIEF_MIN_SHARE);
    for (int i = 0; i < tmc_accounting_split_rows; i++)
        row(f, tmc_accounting_split[i].label,
            tmc_accounting_get(t, &tmc_accounting_split[i]) / n, wall);
    if (r->window) /* the rest of the window (engine.h) */
        row(f, "under way at window end", t->window_open_s / n, wall);
}

void tmc_brief_answer(FILE *f, const tmc_report *r)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(r->x, r->cf, &ef);
    if (r->importance)
        importance_answer(f, r);
    if (r->window)
        window_answer(f, r);
    else if (r->x->observed.enabled)
        forecast_answer(f, r);
    else if (ef.enabled)
        elastic_answer(f, r, &ef);
    else
        answer(f, r);
    if (r->window || r->x->observed.enabled || ef.enabled) /* answer() says it itself */
        tmc_brief_fleet_short(f, r);
    if (r->interval_search)
        tmc_output_interval_search_text(f, r->interval_search);
    if (r->plug_in)
        plug_in(f, r);
}

void tmc_brief_events(FILE *f, const tmc_report *r)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(r->x, r->cf, &ef);
    events(f, r, ef.enabled);
}

/* Everything below the header. */
static void body(FILE *f, const tmc_report *r)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(r->x, r->cf, &ef);
    int plain = !r->window && !r->x->observed.enabled && !ef.enabled;
    fputc('\n', f);
    tmc_brief_answer(f, r);
    tmc_assumed_output_text(f, r->x, r->cf);
    if (plain)
        cost(f, r);
    events(f, r, ef.enabled);
    split(f, r);
}

static int lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

void tmc_brief_text(FILE *f, const tmc_report *r)
{
    char *text = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&text, &size);
    if (!m) { /* no memory for the count: no source line */
        header(f, r, 0);
        body(f, r);
        return;
    }
    body(m, r);
    header(m, r, 0);
    fclose(m);
    /* the memory line before, the header, the source line and the body */
    int with_source = r->x->source[0] && 1 + lines(text) + 1 <= TMC_BRIEF_LINES;
    free(text);
    header(f, r, with_source);
    body(f, r);
}
