/* output.c - a run's text and JSON reports. */
#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>

#include "assumed_output.h"
#include "assumptions.h"
#include "brief.h"
#include "cost.h"
#include "forecast_output.h"
#include "slowdown_output.h"
#include "laws.h"

/* overhead = wall / (S t_s) - 1, per replica; its mean and standard error. */
static void overhead(const tmc_report *r, double *mean, double *se)
{
    double wall = (r->days->mean - r->x->deadline.reserve_days) * TMC_DAY_S;
    *mean = tmc_closed_form_overhead(r->cf, wall);
    *se = r->days->se * TMC_DAY_S / r->cf->remaining_free_s;
}

/* Random save and restore times and the save timeout (docs/model.md 3.12). */
static void text_durations(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    if (cp->save_cv == 0 && cp->restore_cv == 0 && cp->save_timeout_s == 0)
        return;
    fprintf(f, "            saves and restores %s, cv %.3g and %.3g",
            tmc_duration_laws[cp->duration_law]->name, cp->save_cv, cp->restore_cv);
    if (cp->save_timeout_s > 0)
        fprintf(f, "; a save past %.1f s times out (P %.4g a save, %.3f per run without "
                   "other interruptions)", cp->save_timeout_s, cf->save_timeout_p,
                cf->save_timeouts_mean);
    fputc('\n', f);
}

static void text_closed_form(FILE *f, const tmc_report *r)
{
    const tmc_experiment *x = r->x;
    const tmc_closed_form *cf = r->cf;
    fprintf(f, "Job         %ld steps on %ld cards: compute %.3f s/step", x->job.steps,
            x->job.cards, cf->compute_s);
    if (x->jitter.cv > 0)
        fprintf(f, ", jitter cv %.3g, c_N = %.4f", x->jitter.cv, cf->emax_coeff);
    if (r->window) /* no deadline to budget in a window */
        fprintf(f, ", step %.3f s\n", cf->step_s);
    else
        fprintf(f, ", step %.3f s (budget %.3f s)\n", cf->step_s, cf->budget_step_s);
    char optimum[64];
    if (isinf(cf->mtbf_s)) /* sqrt(2 c M) is infinite, or NaN for c = 0 */
        snprintf(optimum, sizeof optimum, "one save at the end (nothing interrupts)");
    else if (isinf(cf->rework_mtbf_s))
        snprintf(optimum, sizeof optimum, "one save at the end (nothing loses work)");
    else if (x->checkpoint.save_s == 0)
        snprintf(optimum, sizeof optimum, "a save every step (saves are free)");
    else
        snprintf(optimum, sizeof optimum, "Young %.0f s, Daly %.0f s", cf->young_interval_s,
                 cf->daly_interval_s);
    const char *rule = tmc_config_interval_rule_name(x->checkpoint.interval_rule);
    fprintf(f, "Checkpoint  every %ld steps (%.1f s of work%s%s%s), save %.2f s, restore %.1f s"
               "%s; optimum: %s\n", cf->interval_steps, cf->interval_s,
            rule ? ": interval_s \"" : "", rule ? rule : "", rule ? "\", its optimum" : "",
            x->checkpoint.save_s, x->checkpoint.restore_s,
            x->checkpoint.restore_immune ? " (immune: failures and outages due in it are "
                                           "dropped)" : "", optimum);
    tmc_levels_form lf;
    tmc_closed_form_levels(x, cf, &lf);
    if (lf.enabled) /* docs/model.md 3.23 */
        fprintf(f, "            two levels: one snapshot in %ld persistent (the save and "
                   "restore above), the others local, save %.2f s, restore %.1f s; optimum "
                   "for this m: %.0f s\n", lf.m, lf.c1, lf.r1,
                tmc_closed_form_levels_interval(&lf, lf.m));
    text_durations(f, x, cf);
    fprintf(f, "Interrupts  M = %.4g s (%.3f days) between interruptions of any kind",
            cf->mtbf_s, cf->mtbf_s / TMC_DAY_S);
    if (isinf(cf->rework_mtbf_s) && !isinf(cf->mtbf_s))
        fprintf(f, "; none loses work (outages come with notice)");
    else if (cf->rework_mtbf_s != cf->mtbf_s) /* docs/model.md 3.8, 3.9 */
        fprintf(f, "; %.4g s (%.3f days) between those that lose work, the M of the optimum "
                   "(outages with notice left out, time limits without a save counted)",
                cf->rework_mtbf_s, cf->rework_mtbf_s / TMC_DAY_S);
    fputc('\n', f);
    if (x->observed.enabled && !isinf(cf->left_mtbf_s)) /* docs/model.md 3.15 */
        fprintf(f, "            from the forecast on, at the posterior mean rates: M = %.4g s "
                   "(%.3f days); optimum: Young %.0f s, Daly %.0f s\n", cf->left_mtbf_s,
                cf->left_mtbf_s / TMC_DAY_S, cf->left_young_interval_s,
                cf->left_daly_interval_s);
}

/* A closed form of its own (`name`) beside the simulation: its T and its
 * overhead on the two lines Young's and Daly's take, each with a note. */
static void form_rows(FILE *f, const tmc_report *r, const char *name, double days,
                      double overhead, const char *t_note, const char *ov_note, double ov,
                      double ov_se)
{
    int w = 23 - (int)strlen(name); /* the figures start where Young's do */
    fprintf(f, "%-22s %s %-*.3f %.4f +- %.4f  (%s)\n", "completion T (days)", name, w, days,
            r->days->mean, r->days->se, t_note);
    char closed[32];
    snprintf(closed, sizeof closed, "%.3f %%", 100 * overhead);
    fprintf(f, "%-22s %s %-*s %.3f %% +- %.3f %%%s\n", "overhead", name, w, closed, 100 * ov,
            100 * ov_se, ov_note);
}

/* Elastic groups' own closed form beside Young's and Daly's, which are
 * the same cluster's checkpoint-restart (docs/model.md 3.14). */
static void text_elastic(FILE *f, const tmc_report *r, double ov, double ov_se)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(r->x, r->cf, &ef);
    if (!ef.enabled)
        return;
    char note[128];
    snprintf(note, sizeof note, "groups up a fraction A = %.6f; Young and Daly: the same "
                                "cluster restarting from checkpoints", ef.availability);
    form_rows(f, r, "Elastic", ef.completion_days, ef.overhead, note,
              ef.p_global > 0.01 ? "  (rough: fewer than min_groups groups up is not rare)"
                                 : "", ov, ov_se);
}

/* Two levels of snapshots: their first-order closed form, and the best
 * pair of intervals it finds (docs/model.md 3.23). */
static void text_levels(FILE *f, const tmc_report *r, double ov, double ov_se)
{
    tmc_levels_form lf;
    tmc_closed_form_levels(r->x, r->cf, &lf);
    if (!lf.enabled)
        return;
    form_rows(f, r, "Two-level", lf.completion_days, lf.overhead,
              "first order; Young and Daly: every snapshot persistent", "", ov, ov_se);
    fprintf(f, "%-22s interval %.4g s, one snapshot in %ld persistent%s: overhead %.3f %% "
               "(one level at its best: %.3f %%)\n", "two-level optimum",
            lf.best_interval_s, lf.best_m,
            lf.best_m == TMC_LEVELS_M_MAX ? " (the most tried)" : "", 100 * lf.best_overhead,
            100 * lf.one_level_overhead);
}

/* A closed-form figure: 3 decimals, or 4 significant digits past a
 * million (Daly's wall time of a run that could never restart its way
 * through, e.g. an elastic cluster's as checkpoint-restart, is 1e54 days). */
static void closed_figure(char *buf, size_t n, double v, const char *unit)
{
    snprintf(buf, n, fabs(v) < 1e6 ? "%.3f%s" : "%.4g%s", v, unit);
}

static void text_comparison(FILE *f, const tmc_report *r)
{
    const tmc_closed_form *cf = r->cf;
    const tmc_summary *d = r->days;
    double ov, ov_se;
    overhead(r, &ov, &ov_se);
    char young[32], daly[32], young_t[32], daly_t[32];
    closed_figure(young_t, sizeof young_t, cf->completion_days, "");
    closed_figure(daly_t, sizeof daly_t, cf->completion_days_daly, "");
    fprintf(f, "\n%-22s %-24s %s\n", "", "closed form", "simulated (+- 1 se)");
    fprintf(f, "%-22s Young %-18s %.4f +- %.4f\n", "completion T (days)", young_t, d->mean,
            d->se);
    fprintf(f, "%-22s Daly  %s%s\n", "", daly_t,
            cf->daly_exact ? "" : "             (approximate: the run goes beyond Daly's "
                                  "assumptions)");
    closed_figure(young, sizeof young, 100 * cf->overhead_young, " %");
    closed_figure(daly, sizeof daly, 100 * cf->overhead_daly, " %");
    if (r->cf->remaining_free_s > 0)
        fprintf(f, "%-22s Young %-18s %.3f %% +- %.3f %%\n", "overhead", young, 100 * ov,
                100 * ov_se);
    else /* a forecast with only the final save left */
        fprintf(f, "%-22s Young %-18s n/a (no compute left)\n", "overhead", young);
    fprintf(f, "%-22s Daly  %s\n", "", daly);
    text_elastic(f, r, ov, ov_se);
    text_levels(f, r, ov, ov_se);
    char label[48], closed[48];
    int meets = cf->completion_days <= r->x->deadline.days;
    long budget = r->x->deadline.max_restarts;
    snprintf(label, sizeof label, "P(T <= %g days)", r->x->deadline.days);
    if (budget >= 0) /* met by Young's T, times P(Poisson <= budget): restarts.h */
        snprintf(closed, sizeof closed, "%.4f (Young, Poisson)",
                 meets ? 1 - r->restarts->poisson_p_over : 0.0);
    else
        tmc_assumed_output_verdict(r->x, cf, d, closed, sizeof closed);
    fprintf(f, "%-22s %-24s %.4f  [%.4f, %.4f] Wilson 95 %%\n", label, closed, d->p_met,
            d->ci_lo, d->ci_hi);
    if (budget >= 0)
        fprintf(f, "%-22s a run with more than %ld restart%s misses (deadline.max_restarts)\n",
                "", budget, budget == 1 ? "" : "s");
    tmc_assumptions a;
    tmc_assumptions_check(r->x, cf, &a);
    if (a.n)
        fprintf(f, "Closed forms: assumptions this run breaks (docs/model.md 3.7):\n");
    for (int i = 0; i < a.n; i++)
        fprintf(f, "  %s: %s\n", a.key[i], a.message[i]);
    tmc_assumed_output_contradiction(f, r->x, cf, d);
    tmc_assumed_output_text(f, r->x, cf);
}

static void text_distribution(FILE *f, const tmc_summary *d)
{
    fprintf(f, "\nCompletion time T (days): mean %.4f, sd %.4f, min %.4f, max %.4f\n",
            d->mean, d->sd, d->min, d->max);
    fprintf(f, " ");
    for (int i = 0; i < TMC_STATS_NQ; i++)
        fprintf(f, "  p%02.0f %.4f", 100 * tmc_stats_levels[i], d->quantile[i]);
    fprintf(f, "\n");
    long top = 1;
    for (int b = 0; b < TMC_STATS_BINS; b++)
        top = d->bin_count[b] > top ? d->bin_count[b] : top;
    for (int b = 0; b < TMC_STATS_BINS; b++) {
        int bar = (int)lround(40.0 * d->bin_count[b] / top);
        fprintf(f, "  %9.4f - %9.4f |%-40.*s %ld\n", d->bin_lo[b], d->bin_lo[b + 1], bar,
                "########################################", d->bin_count[b]);
    }
}

/* Card-hours (and money) per run beside the closed form (cost.h). */
static void text_cost(FILE *f, const tmc_report *r)
{
    const tmc_cost_summary c = *r->cost;
    char past[80] = "";
    if (c.past_cards_held != c.cards_held)
        snprintf(past, sizeof past, ", the first %.2f days at %ld", c.past_days,
                 c.past_cards_held);
    fprintf(f, "Card-hours (%ld cards held%s%s): mean %.0f (Young %.0f), p50 %.0f, p95 %.0f, "
               "p99 %.0f\n", c.cards_held, past, c.offset_days > 0 ? ", reserve not billed" : "",
            c.mean, c.closed_form, c.quantile[2], c.quantile[3], c.quantile[4]);
    if (c.priced)
        fprintf(f, "Cost (%.4g a card-hour + %.4g fixed): mean %.6g (Young %.6g), p50 %.6g, "
                   "p95 %.6g, p99 %.6g\n", c.price_per_card_hour, c.fixed, c.money_mean,
                c.money_closed_form, c.money_quantile[2], c.money_quantile[3],
                c.money_quantile[4]);
}

/* Restarts per run beside the Poisson closed form (restarts.h). */
static void text_restarts(FILE *f, const tmc_report *r)
{
    const tmc_restarts *s = r->restarts;
    const tmc_summary *c = &s->count;
    int timeouts = r->x->checkpoint.save_timeout_s > 0;
    fprintf(f, "Restarts per run (failures, outages, spikes%s): mean %.3f (Poisson W/M%s %.3f), "
               "p50 %.0f, p95 %.0f, p99 %.0f, max %.0f\n", timeouts ? ", save timeouts" : "",
            c->mean, timeouts ? " + timeouts" : "", s->poisson_mean,
            c->quantile[2], c->quantile[3], c->quantile[4], c->max);
    if (s->budget >= 0)
        fprintf(f, "  more than %ld (deadline.max_restarts): %.4f [%.4f, %.4f] Wilson 95 %% "
                   "(Poisson %.4f); those runs fail: misses whatever T\n", s->budget, s->p_over,
                s->ci_lo, s->ci_hi, s->poisson_p_over);
}

static void text_events(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas;
    fprintf(f, "\nEvents per run (mean):");
    for (int i = 0; i < tmc_accounting_count_rows; i++)
        fprintf(f, "%s %s %.3f", i ? "," : "", tmc_accounting_counts[i].label,
                tmc_accounting_get(t, &tmc_accounting_counts[i]) / n);
    fprintf(f, "\n");
    text_restarts(f, r);
    if (t->slow_runs > 0)
        fprintf(f, "Slow cards: %.3f per run (%.1f %% of runs have any); they stayed %.3f days "
                   "on average (to eviction or the run's end); %.3f evictions per run\n",
                t->slow_cards / n, 100 * t->slow_runs / n,
                t->slow_survival_s / t->slow_runs / TMC_DAY_S, t->evictions / n);
    if (t->censored > 0 && !r->window)
        fprintf(f, "Censored: %.0f replicas still running at the horizon, %.1f days, "
                   "counted there (as misses of any earlier deadline)\n",
                t->censored, r->horizon_s / TMC_DAY_S);
    tmc_brief_fleet_short(f, r);
    double wall = t->wall_s / n;
    fprintf(f, "Wall-time split (mean per run, %.4f days):\n", wall / TMC_DAY_S);
    for (int i = 0; i < tmc_accounting_split_rows; i++) {
        double mean_s = tmc_accounting_get(t, &tmc_accounting_split[i]) / n;
        /* + 0.0: a mean of exactly zero prints as 0, not -0 */
        fprintf(f, "  %-25s %10.4f days  %7.3f %%\n", tmc_accounting_split[i].label,
                mean_s / TMC_DAY_S + 0.0, wall > 0 ? 100 * mean_s / wall + 0.0 : 0);
    }
    if (r->window) /* the rest of the window (engine.h) */
        fprintf(f, "  %-25s %10.4f days  %7.3f %%\n", "under way at window end",
                t->window_open_s / n / TMC_DAY_S + 0.0,
                wall > 0 ? 100 * t->window_open_s / n / wall + 0.0 : 0);
}

/* A calendar window's goodput beside the closed form's long run
 * (docs/reference/simulation-semantics.md 11, docs/model.md 3.18). */
static void text_window(FILE *f, const tmc_report *r)
{
    const tmc_window_summary *w = r->window;
    const tmc_closed_form *cf = r->cf;
    fprintf(f, "\nCalendar window: %.6g days from step 0, every replica cut at its end "
               "(deadline and completion time do not apply)\n", w->days);
    fprintf(f, "%-22s %-24s %s\n", "", "closed form (long run)",
            "simulated over the window (+- 1 se)");
    char young[32], daly[32];
    snprintf(young, sizeof young, "%.5f", w->closed_young);
    snprintf(daly, sizeof daly, "%.5f", w->closed_daly);
    fprintf(f, "%-22s Young %-18s %.5f +- %.5f  [%.5f, %.5f] 95 %%\n", "goodput", young,
            w->goodput_mean, w->goodput_se, w->ci_lo, w->ci_hi);
    fprintf(f, "%-22s Daly  %s\n", "", daly);
    fprintf(f, "  goodput = committed steps at the window's end x the plan's step time "
               "%.3f s / %.6g days; across replicas P10 %.5f  P50 %.5f  P90 %.5f\n",
            cf->step_s, w->days, w->p10, w->p50, w->p90);
    fprintf(f, "  committed steps at the end: mean %.1f +- %.1f; at the compute time %.3f s "
               "alone (no stragglers, communication or input wait): %.5f +- %.5f\n",
            w->steps_mean, w->steps_se, cf->compute_s, w->compute_mean, w->compute_se);
    fprintf(f, "  edge: work not committed at the end does not count; it costs at most one "
               "interval (%.1f s), %.4f of the window (the long run has no end)\n",
            cf->interval_s, w->edge);
    if (w->edge >= 0.5) /* nothing or little can commit: the long run is far */
        fprintf(f, "  WARNING: one checkpoint interval is %.4g of the window: work commits "
                   "only at a save, so a window this short holds %.0f whole interval%s and "
                   "the goodput says little; give a window of many intervals\n", w->edge,
                floor(1 / w->edge), floor(1 / w->edge) == 1 ? "" : "s");
    if (w->finished > 0)
        fprintf(f, "  WARNING: %ld replicas finished job.steps inside the window (faster "
                   "than the plan); their committed steps stop at job.steps: give more "
                   "steps\n", w->finished);
}

/* The tail diagnostic of the importance estimate (issue 35): k-hat, and
 * when it is above 0.5 (or not computed), why the interval is plain Monte
 * Carlo's, or what plain Monte Carlo would need. */
void tmc_output_pareto_k(FILE *f, const tmc_importance *is)
{
    if (isnan(is->pareto_k))
        fprintf(f, "  Pareto k-hat: not computed (%ld tilted misses, fewer than 5)", is->misses);
    else
        fprintf(f, "  Pareto k-hat %.2f (tail of the %ld misses' weights; all weights %.2f)",
                is->pareto_k, is->misses, is->pareto_k_weights);
    if (tmc_importance_trusted(is)) {
        fprintf(f, "\n");
        return;
    }
    fprintf(f, ": %s, so the standard error has no basis%s\n",
            isnan(is->pareto_k) ? "too few misses to judge the weights' tail"
            : "above 0.5 the weights' variance is infinite in effect",
            is->pareto_k > TMC_PARETO_K_UNRELIABLE ? " and the estimate is likely low" : "");
    if (!(is->p_miss > 0))
        fprintf(f, "  no tilted replica missed: nothing to size plain Monte Carlo from; give a "
                   "stronger tilt (auto chooses one), more replicas, or run plain Monte Carlo "
                   "with more replicas\n");
    else if (is->plain_replicas)
        fprintf(f, "  so the interval is plain Monte Carlo's: %ld misses in %ld replicas (the "
                   "replicas of a plain run of that many), sized for a 10 %% relative error "
                   "from the estimate (100 / P)\n", is->plain_misses, is->plain_replicas);
    else
        fprintf(f, "  plain Monte Carlo needs %ld replicas for a 10 %% relative error (100 / "
                   "P), more than the limit of %ld: --importance-plain-max %ld (the library's "
                   "importance_plain_max) runs them\n", is->plain_needed, is->plain_max,
                is->plain_needed);
}

void tmc_output_importance_plain_json(cJSON *o, const tmc_importance *is)
{
    cJSON_AddBoolToObject(o, "trusted", tmc_importance_trusted(is));
    cJSON_AddNumberToObject(o, "plain_needed", (double)is->plain_needed);
    if (!is->plain_replicas) {
        cJSON_AddNullToObject(o, "plain");
        return;
    }
    cJSON *p = cJSON_AddObjectToObject(o, "plain");
    cJSON_AddNumberToObject(p, "replicas", (double)is->plain_replicas);
    cJSON_AddNumberToObject(p, "misses", (double)is->plain_misses);
    cJSON_AddNumberToObject(p, "p_miss", is->plain_p);
    double ci[2] = {is->plain_lo, is->plain_hi};
    cJSON_AddItemToObject(p, "ci95", cJSON_CreateDoubleArray(ci, 2));
}

/* The first line of the rare miss's answer: P with its 95 % interval, plain
 * Monte Carlo's when the estimate is not trusted, or no interval when plain
 * Monte Carlo would need more replicas than allowed. label: "P(T > D days)". */
void tmc_output_importance_answer(FILE *f, const char *label, const tmc_importance *is)
{
    double lo = is->p_miss - 1.96 * is->se, hi = is->p_miss + 1.96 * is->se;
    if (tmc_importance_trusted(is))
        fprintf(f, "%-20s %.4g [%.4g, %.4g] 95 %%, importance sampling (relative error %.2g "
                   "%%, effective sample size %.0f)\n", label, is->p_miss, lo > 0 ? lo : 0, hi,
                is->p_miss > 0 ? 100 * is->se / is->p_miss : 0, is->ess);
    else if (is->plain_replicas)
        fprintf(f, "%-20s %.4g [%.4g, %.4g] 95 %%, plain Monte Carlo over %ld replicas; "
                   "importance sampling's %.4g +- %.2g not used (its weights' tail)\n", label,
                is->plain_p, is->plain_lo, is->plain_hi, is->plain_replicas, is->p_miss,
                is->se);
    else if (!(is->p_miss > 0))
        fprintf(f, "%-20s NO ESTIMATE: none of the %ld tilted replicas missed (below)\n",
                label, is->replicas);
    else
        fprintf(f, "%-20s about %.4g by importance sampling, NO INTERVAL: %s (below)\n", label,
                is->p_miss, isnan(is->pareto_k) ? "too few tilted misses to judge its weights"
                                                : "its weights' tail is too heavy for one");
}

/* P(miss) by importance sampling beside the plain estimate (issue 8). */
static void text_importance(FILE *f, const tmc_report *r)
{
    const tmc_importance *is = r->importance;
    const tmc_summary *d = r->days;
    fprintf(f, "\nRare misses, importance sampling: rates x %.4g (failures), x %.4g (outages), "
               "x %.4g (spikes); means x %.4g (repairs), x %.4g (downtimes)", is->theta[TMC_TILT_FAILURES],
            is->theta[TMC_TILT_OUTAGES], is->theta[TMC_TILT_SPIKES], is->theta[TMC_TILT_REPAIRS],
            is->theta[TMC_TILT_DOWNTIMES]);
    if (is->levels)
        fprintf(f, ", chosen by cross-entropy in %d levels of %ld replicas", is->levels,
                is->pilot_replicas);
    fprintf(f, "\n  P(T > %g days) = %.4g +- %.2g (relative error %.2g %%), %ld replicas, "
               "effective sample size %.0f\n", r->x->deadline.days, is->p_miss, is->se,
            is->p_miss > 0 ? 100 * is->se / is->p_miss : 0, is->replicas, is->ess);
    tmc_output_pareto_k(f, is);
    if (is->plain_replicas)
        fprintf(f, "  in its place, plain Monte Carlo: %.4g [%.4g, %.4g] 95 %% (Wilson)\n",
                is->plain_p, is->plain_lo, is->plain_hi);
    fprintf(f, "  plain Monte Carlo: %ld of %ld replicas missed (%.4g, Wilson 95 %% upper "
               "bound %.3g)\n", d->n - d->met, d->n, 1 - d->p_met, 1 - d->ci_lo);
}

/* The keys that draw rates per replica, "failures.mtbf_events 5, ..." into
 * buf[n]. */
void tmc_output_drawn_keys(const tmc_experiment *x, char *buf, size_t n)
{
    const tmc_failures *fl = &x->failures;
    double v[3] = {fl->enabled ? fl->mtbf_events : 0,
                   x->outages.enabled ? x->outages.mtbf_events : 0,
                   fl->enabled ? fl->repair_events : 0};
    static const char *const key[3] = {"failures.mtbf_events", "outages.mtbf_events",
                                       "failures.repair_events"};
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < 3 && used < n; i++)
        if (v[i] > 0)
            used += (size_t)snprintf(buf + used, n - used, "%s%s %.10g", used ? ", " : "",
                                     key[i], v[i]);
}

/* Rates drawn per replica (docs/model.md 3.11): the predictive figures (the
 * run's) beside the plug-in ones (the same replicas, rates as given). */
static void text_plug_in(FILE *f, const tmc_report *r)
{
    if (!r->plug_in)
        return;
    const tmc_summary *p = r->days, *q = r->plug_in;
    char keys[160], label[48], pred[48], plug[48];
    tmc_output_drawn_keys(r->x, keys, sizeof keys);
    fprintf(f, "\nRates drawn per replica (%s): predictive beside plug-in (the same replicas, "
               "every rate as given%s)\n", keys, r->x->observed.enabled
                   ? "; a forecast's failure rate at its posterior mean" : "");
    fprintf(f, "%-22s %-24s %s\n", "", "predictive", "plug-in");
    snprintf(pred, sizeof pred, "%.4f +- %.4f", p->mean, p->se);
    snprintf(plug, sizeof plug, "%.4f +- %.4f", q->mean, q->se);
    fprintf(f, "%-22s %-24s %s\n", "completion T (days)", pred, plug);
    snprintf(label, sizeof label, "P(T <= %g days)", r->x->deadline.days);
    snprintf(pred, sizeof pred, "%.4f [%.4f, %.4f]", p->p_met, p->ci_lo, p->ci_hi);
    snprintf(plug, sizeof plug, "%.4f [%.4f, %.4f]", q->p_met, q->ci_lo, q->ci_hi);
    fprintf(f, "%-22s %-24s %s\n", label, pred, plug);
}

void tmc_output_text(FILE *f, const tmc_report *r)
{
    if (!r->detail) {
        tmc_brief_text(f, r);
        return;
    }
    const tmc_experiment *x = r->x;
    fprintf(f, "trainmc run: %s (%s%s%s)\n", x->name, x->path, x->source[0] ? "; source: " : "",
            x->source);
    fprintf(f, "  %ld replicas, seed %llu, %d thread%s, %s, %.2f s\n", r->replicas,
            (unsigned long long)r->seed, r->threads, r->threads == 1 ? "" : "s",
            r->mode == TMC_MODE_SEGMENTS ? "segment draws (exact)" : "every step drawn",
            r->elapsed_s);
    if (r->segment_bytes > 0)
        fprintf(f, "  segment laws: quantile error bound %.2g sd of a segment's sum (measured at "
                   "build), tables %.0f KiB\n", r->segment_error, r->segment_bytes / 1024.0);
    if (r->precision)
        fprintf(f, "  precision target %s: %s after %ld replicas (95 %% half-width %.3g)\n",
                r->precision->target->text,
                r->precision->reached ? "reached" : "NOT reached: the replica budget ran out",
                r->replicas, r->precision->half_width);
    for (int i = 0; i < r->n_overrides; i++)
        fprintf(f, "%s%s%s", i ? ", " : "  overrides: ", r->overrides[i],
                i == r->n_overrides - 1 ? "\n" : "");
    fprintf(f, "\n");
    text_closed_form(f, r);
    if (r->interval_search)
        tmc_output_interval_search_text(f, r->interval_search);
    if (r->window) {
        text_window(f, r);
    } else {
        text_comparison(f, r);
        text_plug_in(f, r);
        tmc_forecast_output_text(f, r);
        text_distribution(f, r->days);
        text_cost(f, r);
    }
    text_events(f, r);
    if (r->importance)
        text_importance(f, r);
}

void tmc_output_interval_search_text(FILE *f, const tmc_interval_search *s)
{
    fprintf(f, "%-20s \"optimal\": %ld steps (%.0f s of work), the lowest simulated mean T of "
               "%d tried (%ld to %ld steps, %ld replicas each, apart from this run's); the "
               "closed form's %ld steps: %+.4f +- %.4f days\n", "interval", s->steps,
            s->interval_s, s->evaluations, s->lo, s->hi, s->replicas, s->form_steps,
            s->form_minus_days, s->form_minus_se_days);
}

static cJSON *json_interval_search(const tmc_interval_search *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "steps", (double)s->steps);
    cJSON_AddNumberToObject(o, "interval_s", s->interval_s);
    cJSON_AddNumberToObject(o, "closed_form_steps", (double)s->form_steps);
    double bracket[2] = {(double)s->lo, (double)s->hi};
    cJSON_AddItemToObject(o, "last_bracket_steps", cJSON_CreateDoubleArray(bracket, 2));
    cJSON_AddNumberToObject(o, "intervals_tried", s->evaluations);
    cJSON_AddNumberToObject(o, "replicas_each", (double)s->replicas);
    cJSON_AddNumberToObject(o, "mean_days", s->mean_days);
    cJSON_AddNumberToObject(o, "closed_form_minus_days", s->form_minus_days);
    cJSON_AddNumberToObject(o, "closed_form_minus_se_days", s->form_minus_se_days);
    return o;
}

/* ---------- JSON ---------- */

cJSON *tmc_output_closed_form_json(const tmc_closed_form *cf)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "compute_s", cf->compute_s);
    cJSON_AddNumberToObject(o, "emax_coefficient", cf->emax_coeff);
    cJSON_AddNumberToObject(o, "step_s", cf->step_s);
    cJSON_AddNumberToObject(o, "interval_steps", (double)cf->interval_steps);
    cJSON_AddNumberToObject(o, "interval_s", cf->interval_s);
    cJSON_AddNumberToObject(o, "mtbf_s", isinf(cf->mtbf_s) ? -1 : cf->mtbf_s);
    cJSON_AddNumberToObject(o, "rework_mtbf_s",
                            isinf(cf->rework_mtbf_s) ? -1 : cf->rework_mtbf_s);
    cJSON_AddNumberToObject(o, "overhead_young", cf->overhead_young);
    cJSON_AddNumberToObject(o, "overhead_daly", cf->overhead_daly);
    cJSON_AddBoolToObject(o, "daly_exact", cf->daly_exact);
    cJSON_AddNumberToObject(o, "save_timeout_p", cf->save_timeout_p);
    cJSON_AddNumberToObject(o, "save_timeouts_mean", cf->save_timeouts_mean);
    cJSON_AddNumberToObject(o, "young_interval_s", cf->young_interval_s);
    cJSON_AddNumberToObject(o, "daly_interval_s", cf->daly_interval_s);
    cJSON_AddNumberToObject(o, "completion_days", cf->completion_days);
    cJSON_AddNumberToObject(o, "completion_days_daly", cf->completion_days_daly);
    cJSON_AddNumberToObject(o, "budget_step_s", cf->budget_step_s);
    if (cf->spare_finite) { /* finite spares, 0 included (docs/model.md 3.21) */
        cJSON_AddNumberToObject(o, "spare_wait_p", cf->spare_wait_p);
        cJSON_AddNumberToObject(o, "spare_wait_per_failure_s", cf->spare_wait_per_failure_s);
        cJSON_AddNumberToObject(o, "spare_wait_days", cf->spare_wait_s / TMC_DAY_S);
    }
    if (cf->left_mtbf_s != 0) { /* a forecast: the rest of the run at the posterior rates */
        cJSON_AddNumberToObject(o, "left_mtbf_s", isinf(cf->left_mtbf_s) ? -1 : cf->left_mtbf_s);
        cJSON_AddNumberToObject(o, "left_young_interval_s", cf->left_young_interval_s);
        cJSON_AddNumberToObject(o, "left_daly_interval_s", cf->left_daly_interval_s);
    }
    return o;
}

/* The cost object (docs/reference/json-output.md): card-hours, and money
 * when priced. */
/* Two levels of snapshots: their closed form's figures (docs/model.md 3.23),
 * NULL with one level. */
static cJSON *json_levels(const tmc_experiment *x, const tmc_closed_form *cf)
{
    tmc_levels_form lf;
    tmc_closed_form_levels(x, cf, &lf);
    if (!lf.enabled)
        return NULL;
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "persistent_every", (double)lf.m);
    cJSON_AddNumberToObject(t, "local_rate_per_day", lf.lambda1 * TMC_DAY_S);
    cJSON_AddNumberToObject(t, "persistent_rate_per_day", lf.lambda2 * TMC_DAY_S);
    cJSON_AddNumberToObject(t, "overhead", lf.overhead);
    cJSON_AddNumberToObject(t, "completion_days", lf.completion_days);
    cJSON_AddNumberToObject(t, "best_interval_s", lf.best_interval_s);
    cJSON_AddNumberToObject(t, "best_persistent_every", (double)lf.best_m);
    cJSON_AddNumberToObject(t, "best_overhead", lf.best_overhead);
    cJSON_AddNumberToObject(t, "one_level_overhead", lf.one_level_overhead);
    return t;
}

static cJSON *json_cost(const tmc_report *r)
{
    const tmc_cost_summary c = *r->cost;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "cards_held", (double)c.cards_held);
    cJSON_AddNumberToObject(o, "cards_held_before_forecast", (double)c.past_cards_held);
    cJSON *h = cJSON_AddObjectToObject(o, "card_hours");
    cJSON_AddNumberToObject(h, "mean", c.mean);
    cJSON_AddNumberToObject(h, "sd", c.sd);
    cJSON *q = cJSON_AddObjectToObject(h, "quantiles");
    for (int i = 0; i < TMC_STATS_NQ; i++) {
        char key[8];
        snprintf(key, sizeof key, "p%02.0f", 100 * tmc_stats_levels[i]);
        cJSON_AddNumberToObject(q, key, c.quantile[i]);
    }
    cJSON_AddNumberToObject(h, "closed_form", c.closed_form);
    if (!c.priced) {
        cJSON_AddNullToObject(o, "money");
        return o;
    }
    cJSON *m = cJSON_AddObjectToObject(o, "money");
    cJSON_AddNumberToObject(m, "per_card_hour", c.price_per_card_hour);
    cJSON_AddNumberToObject(m, "fixed", c.fixed);
    cJSON_AddNumberToObject(m, "mean", c.money_mean);
    q = cJSON_AddObjectToObject(m, "quantiles");
    for (int i = 0; i < TMC_STATS_NQ; i++) {
        char key[8];
        snprintf(key, sizeof key, "p%02.0f", 100 * tmc_stats_levels[i]);
        cJSON_AddNumberToObject(q, key, c.money_quantile[i]);
    }
    cJSON_AddNumberToObject(m, "closed_form", c.money_closed_form);
    return o;
}

/* The restarts object (docs/reference/json-output.md). */
static cJSON *json_restarts(const tmc_restarts *s)
{
    cJSON *o = cJSON_CreateObject();
    const tmc_summary *c = &s->count;
    cJSON_AddNumberToObject(o, "mean", c->mean);
    cJSON_AddNumberToObject(o, "sd", c->sd);
    cJSON *q = cJSON_AddObjectToObject(o, "quantiles");
    for (int i = 0; i < TMC_STATS_NQ; i++) {
        char key[8];
        snprintf(key, sizeof key, "p%02.0f", 100 * tmc_stats_levels[i]);
        cJSON_AddNumberToObject(q, key, c->quantile[i]);
    }
    cJSON_AddNumberToObject(o, "max", c->max);
    cJSON_AddNumberToObject(o, "poisson_mean", s->poisson_mean);
    if (s->budget < 0) {
        cJSON_AddNullToObject(o, "max_restarts");
        return o;
    }
    cJSON_AddNumberToObject(o, "max_restarts", (double)s->budget);
    cJSON_AddNumberToObject(o, "p_over_budget", s->p_over);
    double ci[2] = {s->ci_lo, s->ci_hi};
    cJSON_AddItemToObject(o, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddNumberToObject(o, "poisson_p_over_budget", s->poisson_p_over);
    return o;
}

/* The closed forms' broken assumptions, as {"assumption", "message"}. */
static cJSON *json_assumptions(const tmc_report *r)
{
    tmc_assumptions a;
    tmc_assumptions_check(r->x, r->cf, &a);
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < a.n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "assumption", a.key[i]);
        cJSON_AddStringToObject(o, "message", a.message[i]);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

static cJSON *json_days(const tmc_summary *d)
{
    static const char *const names[TMC_STATS_NQ] = {"p01", "p05", "p50", "p95", "p99"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mean", d->mean);
    cJSON_AddNumberToObject(o, "sd", d->sd);
    cJSON_AddNumberToObject(o, "se", d->se);
    cJSON_AddNumberToObject(o, "min", d->min);
    cJSON_AddNumberToObject(o, "max", d->max);
    cJSON *q = cJSON_AddObjectToObject(o, "quantiles");
    for (int i = 0; i < TMC_STATS_NQ; i++)
        cJSON_AddNumberToObject(q, names[i], d->quantile[i]);
    cJSON *h = cJSON_AddObjectToObject(o, "histogram");
    cJSON_AddItemToObject(h, "edges", cJSON_CreateDoubleArray(d->bin_lo, TMC_STATS_BINS + 1));
    cJSON *counts = cJSON_AddArrayToObject(h, "counts");
    for (int b = 0; b < TMC_STATS_BINS; b++)
        cJSON_AddItemToArray(counts, cJSON_CreateNumber((double)d->bin_count[b]));
    return o;
}

/* "plug_in": the run's figures with every rate taken as exact, beside
 * the predictive ones at the top level; the same shapes as "completion_days"
 * and "deadline". */
static void json_plug_in(cJSON *root, const tmc_report *r)
{
    if (!r->plug_in)
        return;
    char keys[160];
    tmc_output_drawn_keys(r->x, keys, sizeof keys);
    cJSON *o = cJSON_AddObjectToObject(root, "plug_in");
    cJSON_AddStringToObject(o, "drawn", keys);
    cJSON_AddItemToObject(o, "completion_days", json_days(r->plug_in));
    cJSON *dl = cJSON_AddObjectToObject(o, "deadline");
    cJSON_AddNumberToObject(dl, "days", r->x->deadline.days);
    cJSON_AddNumberToObject(dl, "probability", r->plug_in->p_met);
    double ci[2] = {r->plug_in->ci_lo, r->plug_in->ci_hi};
    cJSON_AddItemToObject(dl, "ci95", cJSON_CreateDoubleArray(ci, 2));
}

static cJSON *json_split(const tmc_report *r)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < tmc_accounting_split_rows; i++)
        cJSON_AddNumberToObject(o, tmc_accounting_split[i].key,
                                tmc_accounting_get(r->totals, &tmc_accounting_split[i]) /
                                    r->replicas / TMC_DAY_S);
    cJSON_AddNumberToObject(o, "wall", r->totals->wall_s / r->replicas / TMC_DAY_S);
    return o;
}

/* A calendar window's goodput (docs/guides/spares-and-repairs.md, "Goodput over a calendar window"). */
static cJSON *json_window(const tmc_report *r)
{
    const tmc_window_summary *w = r->window;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "days", w->days);
    cJSON *g = cJSON_AddObjectToObject(o, "goodput");
    cJSON_AddNumberToObject(g, "mean", w->goodput_mean);
    cJSON_AddNumberToObject(g, "se", w->goodput_se);
    double ci[2] = {w->ci_lo, w->ci_hi}, q[3] = {w->p10, w->p50, w->p90};
    cJSON_AddItemToObject(g, "ci95", cJSON_CreateDoubleArray(ci, 2));
    cJSON_AddItemToObject(g, "p10_p50_p90", cJSON_CreateDoubleArray(q, 3));
    cJSON *c = cJSON_AddObjectToObject(o, "compute_goodput");
    cJSON_AddNumberToObject(c, "mean", w->compute_mean);
    cJSON_AddNumberToObject(c, "se", w->compute_se);
    cJSON *s = cJSON_AddObjectToObject(o, "committed_steps");
    cJSON_AddNumberToObject(s, "mean", w->steps_mean);
    cJSON_AddNumberToObject(s, "se", w->steps_se);
    cJSON *cf = cJSON_AddObjectToObject(o, "closed_form");
    cJSON_AddNumberToObject(cf, "young", w->closed_young);
    cJSON_AddNumberToObject(cf, "daly", w->closed_daly);
    cJSON_AddNumberToObject(o, "edge", w->edge);
    cJSON_AddNumberToObject(o, "finished_inside", (double)w->finished);
    cJSON_AddNumberToObject(o, "under_way_days", w->open_days);
    return o;
}

/* goodput = S t_s / mean wall = 1 / (1 + overhead): the effective training
 * time of many runs (sweep.h, TMC_SWEEP_GOODPUT); its se by the delta
 * method, its interval the overhead's mapped through 1 / (1 + x). */
static void json_goodput(cJSON *root, double ov, double ov_se)
{
    double z = gsl_cdf_ugaussian_Pinv(0.975);
    cJSON *g = cJSON_AddObjectToObject(root, "goodput");
    cJSON_AddNumberToObject(g, "mean", 1 / (1 + ov));
    cJSON_AddNumberToObject(g, "se", ov_se / ((1 + ov) * (1 + ov)));
    double ci[2] = {1 / (1 + ov + z * ov_se), 1 / (1 + ov - z * ov_se)};
    cJSON_AddItemToObject(g, "ci95", cJSON_CreateDoubleArray(ci, 2));
}

cJSON *tmc_output_json(const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas, ov, ov_se;
    overhead(r, &ov, &ov_se);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "experiment", r->x->name);
    cJSON_AddStringToObject(root, "source", r->x->source);
    /* the mode the run took: auto resolves to one of the other two */
    cJSON_AddStringToObject(root, "mode",
                            tmc_config_choice_name("monte_carlo.mode",
                                                   r->mode == TMC_MODE_SEGMENTS
                                                       ? TMC_MODE_SEGMENTS : TMC_MODE_STEPS));
    cJSON_AddNumberToObject(root, "max_table_error_sigma", r->table_error);
    cJSON_AddNumberToObject(root, "max_segment_error_sigma", r->segment_error);
    cJSON_AddNumberToObject(root, "segment_table_bytes", (double)r->segment_bytes);
    cJSON_AddNumberToObject(root, "replicas", n);
    char seed[24]; /* raw: cJSON rounds integers near 2^53 */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    cJSON_AddRawToObject(root, "seed", seed);
    cJSON_AddStringToObject(root, "experiment_path", r->x->path);
    /* the file, then each base it builds on (config_base.c), nearest first */
    cJSON *chain = cJSON_AddArrayToObject(root, "base_chain");
    cJSON_AddItemToArray(chain, cJSON_CreateString(r->x->path));
    for (int i = 0; i < r->x->n_bases; i++)
        cJSON_AddItemToArray(chain, cJSON_CreateString(r->x->bases[i]));
    cJSON_AddItemToObject(root, "overrides",
                          cJSON_CreateStringArray(r->overrides, r->n_overrides));
    cJSON_AddItemToObject(root, "inputs", tmc_config_to_json(r->x));
    if (r->interval_search)
        cJSON_AddItemToObject(root, "interval_search", json_interval_search(r->interval_search));
    if (r->window) { /* no T, deadline, cost or overhead: every replica is cut at W */
        cJSON_AddItemToObject(root, "window", json_window(r));
    } else {
        cJSON_AddItemToObject(root, "completion_days", json_days(r->days));
        cJSON_AddItemToObject(root, "cost", json_cost(r));
        cJSON *dl = cJSON_AddObjectToObject(root, "deadline");
        cJSON_AddNumberToObject(dl, "days", r->x->deadline.days);
        cJSON_AddNumberToObject(dl, "probability", r->days->p_met);
        double ci[2] = {r->days->ci_lo, r->days->ci_hi};
        cJSON_AddItemToObject(dl, "ci95", cJSON_CreateDoubleArray(ci, 2));
        tmc_forecast_output_json(root, r);
        json_plug_in(root, r);
        cJSON *oh = cJSON_AddObjectToObject(root, "overhead");
        cJSON_AddNumberToObject(oh, "mean", ov);
        cJSON_AddNumberToObject(oh, "se", ov_se);
        json_goodput(root, ov, ov_se);
    }
    cJSON *ev = cJSON_AddObjectToObject(root, "events");
    for (int i = 0; i < tmc_accounting_count_rows; i++)
        cJSON_AddNumberToObject(ev, tmc_accounting_counts[i].key,
                                tmc_accounting_get(t, &tmc_accounting_counts[i]) / n);
    cJSON_AddItemToObject(root, "restarts", json_restarts(r->restarts));
    cJSON *slow = cJSON_AddObjectToObject(root, "slow_cards");
    cJSON_AddNumberToObject(slow, "per_run", t->slow_cards / n);
    cJSON_AddNumberToObject(slow, "runs_with_any", t->slow_runs / n);
    cJSON_AddNumberToObject(slow, "survival_days",
                            t->slow_runs > 0 ? t->slow_survival_s / t->slow_runs / TMC_DAY_S : 0);
    cJSON_AddNumberToObject(slow, "evictions", t->evictions / n);
    cJSON *cens = cJSON_AddObjectToObject(root, "censored");
    cJSON_AddNumberToObject(cens, "replicas", t->censored);
    cJSON_AddNumberToObject(cens, "horizon_days", r->horizon_s / TMC_DAY_S);
    cJSON_AddItemToObject(root, "split_days", json_split(r));
    cJSON *closed = tmc_output_closed_form_json(r->cf), *levels = json_levels(r->x, r->cf);
    if (levels)
        cJSON_AddItemToObject(closed, "two_level", levels);
    cJSON_AddItemToObject(root, "closed_form", closed);
    cJSON_AddItemToObject(root, "closed_form_warnings", json_assumptions(r));
    cJSON_AddItemToObject(root, "assumed", tmc_assumed_output_json(r->x, r->cf));
    cJSON_AddItemToObject(root, "time_limit", tmc_assumed_output_limit_json(r->x));
    cJSON_AddItemToObject(root, "slowdown", tmc_slowdown_output_json(r->x, r->cf));
    if (!r->window)
        cJSON_AddItemToObject(root, "closed_form_verdict",
                              tmc_assumed_output_verdict_json(r->x, r->cf, r->days));
    tmc_elastic_form ef;
    tmc_closed_form_elastic(r->x, r->cf, &ef);
    if (ef.enabled) { /* docs/model.md 3.14 */
        cJSON *el = cJSON_AddObjectToObject(root, "elastic_closed_form");
        cJSON_AddNumberToObject(el, "group_up_s", ef.up_s);
        cJSON_AddNumberToObject(el, "group_down_s", ef.down_s);
        cJSON_AddNumberToObject(el, "availability", ef.availability);
        cJSON_AddNumberToObject(el, "p_fewer_than_min_groups", ef.p_global);
        cJSON_AddNumberToObject(el, "completion_days", ef.completion_days);
        cJSON_AddNumberToObject(el, "overhead", ef.overhead);
    }
    if (r->precision) {
        cJSON *p = cJSON_AddObjectToObject(root, "precision");
        cJSON_AddStringToObject(p, "target", r->precision->target->text);
        cJSON_AddBoolToObject(p, "reached", r->precision->reached);
        cJSON_AddNumberToObject(p, "half_width", r->precision->half_width);
        cJSON_AddNumberToObject(p, "value", r->precision->value);
    }
    if (r->importance) {
        const tmc_importance *is = r->importance;
        cJSON *o = cJSON_AddObjectToObject(root, "importance");
        cJSON_AddNumberToObject(o, "p_miss", is->p_miss);
        cJSON_AddNumberToObject(o, "se", is->se);
        cJSON_AddNumberToObject(o, "replicas", (double)is->replicas);
        cJSON_AddNumberToObject(o, "effective_sample_size", is->ess);
        cJSON_AddNumberToObject(o, "misses", (double)is->misses);
        cJSON_AddNumberToObject(o, "pareto_k", is->pareto_k); /* NaN: null */
        cJSON_AddNumberToObject(o, "pareto_k_weights", is->pareto_k_weights);
        tmc_output_importance_plain_json(o, is);
        cJSON_AddItemToObject(o, "tilt", cJSON_CreateDoubleArray(is->theta, TMC_TILTS));
        cJSON_AddNumberToObject(o, "levels", is->levels);
        cJSON_AddNumberToObject(o, "pilot_replicas", (double)is->pilot_replicas);
    }
    return root;
}
