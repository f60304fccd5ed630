/* fit_output.c - `trainmc fit`'s text and JSON reports and its failures
 * distribution file (fit.h). */
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "laws.h"

static int bad_nodes_found(const tmc_fit_result *r);

/* ---------- text ---------- */

/* v as %.<prec>g in b, or "-" when it is not defined (NaN, inf: the JSON's null). */
static const char *num(char b[32], double v, int prec)
{
    if (isfinite(v))
        snprintf(b, 32, "%.*g", prec, v);
    else
        snprintf(b, 32, "-");
    return b;
}

static void interval_text(FILE *f, tmc_fit_interval v)
{
    if (isinf(v.hi))
        fprintf(f, "%.4g [%.4g, inf]", v.value, v.lo);
    else
        fprintf(f, "%.4g [%.4g, %.4g]", v.value, v.lo, v.hi);
}

static const char *node_meaning(const tmc_fit_result *r, double alpha)
{
    if (r->per_node.p >= alpha)
        return "consistent with one Poisson rate for every node: a per-card exponential "
               "law with one MTBF fits";
    return "faults concentrate on a few nodes: one MTBF for every card understates repeat "
           "faults of a bad node (replace or drain it); the cluster rate is still right";
}

/* The counts per node as good and bad nodes (node_mixture.h), and the
 * failures keys that say so (docs/model.md 3.19). */
static void text_bad_nodes(FILE *f, const tmc_fit_result *r, double alpha)
{
    const tmc_node_mixture *b = &r->bad_nodes;
    double extra = 1 / (b->bad_per_day - b->good_per_day);
    fprintf(f, "  bad nodes (two Poisson rates, EM): a share %.3g of nodes fails every %.4g "
               "days, the rest every %.4g days; LR against one rate %.3g, bootstrap p = %.3g "
               "(%d sets)\n", b->share, 1 / b->bad_per_day, 1 / b->good_per_day, b->lr, b->p,
            b->bootstrap);
    if (b->p < alpha)
        fprintf(f, "    -> as an experiment: failures.per_node_mtbf_days %.4g, bad_node_share "
                   "%.3g, bad_node_mtbf_days %.4g (the MTBF of a bad node's extra faults), "
                   "cards_per_node "
                   "%ld\n", 1 / b->good_per_day, b->share, extra, r->opt.cards_per_node);
    else
        fprintf(f, "    -> two rates fit no better than one\n");
}

static const char *window_meaning(const tmc_fit_result *r, double alpha)
{
    if (r->per_window.p >= alpha)
        return "the rate is steady over time: a constant rate fits";
    return "the rate changes over time (bursts, campaigns, ageing): a job in a bad period sees "
           "more faults than the mean rate predicts";
}

static const char *simultaneous_meaning(const tmc_fit_result *r, double alpha)
{
    if (r->simultaneous.p >= alpha)
        return "no more coincident faults than chance: nodes fail independently";
    return "nodes fail together far more often than chance (shared switch, power, rollout): "
           "model the groups as bursts that take several nodes and their spares "
           "(failures.burst_*; --bursts writes them), not as independent faults";
}

/* The groups as bursts (burst_fit.h): their rate per node and sizes, and
 * the single-node rate without their faults. */
static void text_bursts(FILE *f, const tmc_fit_result *r)
{
    const tmc_burst_fit *b = &r->bursts;
    if (!r->bursts_ok || b->groups == 0)
        return;
    fprintf(f, "  bursts: %d groups of 2 or more nodes (%ld faults): per node one every %.4g "
               "days [%.4g, %.4g]; sizes", b->groups, b->grouped_faults, 1 / b->rate,
            1 / b->hi, 1 / b->lo);
    for (int k = 2; k <= b->n_sizes; k++)
        if (b->sizes[k - 1] > 0)
            fprintf(f, " %d%s: %.0f", k, k == TMC_MAX_BURST_NODES ? "+" : "", b->sizes[k - 1]);
    if (b->singles == 0) {
        fprintf(f, "\n    without them: no single-node fault\n");
        return;
    }
    fprintf(f, "\n    without them: %ld single-node faults, a node MTBF of %.4g days [%.4g, "
               "%.4g]%s\n", b->singles, 1 / b->single_rate, 1 / b->single_hi,
            1 / b->single_lo, r->opt.bursts ? " (what --write writes)" : "");
}

static const char *life_meaning(const tmc_fit_result *r, double alpha)
{
    if (r->life.lr_p >= alpha)
        return "shape 1 is not rejected: exponential up times (a constant hazard)";
    if (r->life.weibull.shape < 1)
        return "shape < 1: a node that was just repaired fails again sooner than the mean "
               "(repeat faults, or a mix of good and bad nodes); not a constant hazard";
    return "shape > 1: the hazard rises with the time since repair (wear-out)";
}

/* The answer first (issue 32): the per-card and per-node MTBF with their
 * intervals, then the keys the exponential failures file (--write) gives. */
static void text_answer(FILE *f, const tmc_fit_result *r)
{
    fprintf(f, "Answer: per-card MTBF ");
    interval_text(f, r->mtbf_card);
    fprintf(f, " days, per-node ");
    interval_text(f, r->mtbf_node);
    fprintf(f, " days up (%g %%; %d faults over %.0f card-days up; calendar, down time "
               "included: %.4g and %.4g days)\n", 100 * r->opt.confidence, r->n_faults,
            r->up_card_days, r->calendar_card, r->calendar_node);
    cJSON *doc = tmc_fit_output_distribution(r, tmc_law_exponential->name);
    if (!doc)
        return;
    fprintf(f, "  keys (--write's failures file):");
    int n = 0;
    for (const cJSON *k = doc->child; k; k = k->next)
        if (cJSON_IsNumber(k))
            fprintf(f, "%s %s %.4g", n++ ? "," : "", k->string, k->valuedouble);
    fprintf(f, "%s\n\n", bad_nodes_found(r) ? " (good and bad nodes: the faults per node "
                                                "reject one rate)" : "");
    cJSON_Delete(doc);
}

void tmc_fit_output_text(FILE *f, const tmc_fit_result *r)
{
    const tmc_fit_options *o = &r->opt;
    double cl = 100 * o->confidence, alpha = 1 - o->confidence;
    fprintf(f, "trainmc fit: %s\n", o->log_path);
    fprintf(f, "faults     %d read", r->n_read);
    if (o->n_exclude) {
        fprintf(f, ", %d left out (", r->n_excluded);
        for (int i = 0; i < o->n_exclude; i++)
            fprintf(f, "%s%s %d", i ? ", " : "", o->exclude[i], r->excluded[i]);
        fprintf(f, ")");
    }
    fprintf(f, ", %d fitted; %d of %ld nodes had one\n", r->n_faults, r->nodes_seen, o->nodes);
    if (r->unmatched_ends)
        fprintf(f, "           %d fault_end events without an open fault on their node "
                   "(ignored)\n", r->unmatched_ends);
    if (r->duplicates_dropped)
        fprintf(f, "           %d exact duplicate faults dropped (--dedupe)\n",
                r->duplicates_dropped);
    fprintf(f, "exposure   %ld nodes x %ld cards over %.6g days%s = %.0f node-days, %.0f "
               "card-days\n", o->nodes, o->cards_per_node, r->span_days,
            o->span_days > 0 ? "" : " (the last event)", r->node_days, r->card_days);
    fprintf(f, "           up (repairs left out): %.0f node-days, %.0f card-days (%.2f %% of "
               "the calendar)\n\n", r->up_node_days, r->up_card_days,
            100 * r->up_node_days / r->node_days);
    text_answer(f, r);

    fprintf(f, "Failure rate per day up (exact Poisson %g %% intervals, Garwood 1936; the "
               "cluster's with every node up)\n", cl);
    const char *who[] = {"cluster", "node", "card"};
    const tmc_fit_interval *rates[] = {&r->rate_cluster, &r->rate_node, &r->rate_card};
    const tmc_fit_interval *mtbf[] = {&r->mtbf_cluster, &r->mtbf_node, &r->mtbf_card};
    const double calendar[] = {r->calendar_cluster, r->calendar_node, r->calendar_card};
    for (int i = 0; i < 3; i++) {
        fprintf(f, "  %-8s faults/day ", who[i]);
        interval_text(f, *rates[i]);
        fprintf(f, "   %s days ", i ? "MTBF" : "between faults,");
        interval_text(f, *mtbf[i]);
        fprintf(f, "   calendar %.4g\n", calendar[i]);
    }

    fprintf(f, "\nLifetime of a node (up time from the start or the last repair to the next "
               "fault; ML, right-censored)\n");
    const tmc_lifetime_sample *s = &r->sample;
    fprintf(f, "  %d up times observed, %d censored (to the span's end; %ld nodes never "
               "failed)", s->n_obs, s->n_cens, o->nodes - r->nodes_seen);
    if (s->n_overlapping)
        fprintf(f, "; %d fault(s) began while their node was down (no up time: left out)",
                s->n_overlapping);
    fprintf(f, "\n");
    if (!r->life_ok)
        fprintf(f, "  %s\n", r->life_note);
    else {
        const tmc_lifetime_fit *l = &r->life;
        fprintf(f, "  exponential  rate/day ");
        interval_text(f, (tmc_fit_interval){l->rate, l->rate_lo, l->rate_hi});
        fprintf(f, "  mean %.4g days  log-lik %.2f\n", 1 / l->rate, l->exp_loglik);
        fprintf(f, "  weibull      shape %.4g +- %.2g (se)  scale %.4g days  mean %.4g days  "
                   "log-lik %.2f\n", l->weibull.shape, l->weibull.shape_se, l->weibull.scale,
                l->weibull.mean, l->weibull.loglik);
        fprintf(f, "  LR test of shape = 1: 2 dlogL = %.3f, p = %.3g (chi-square, 1 dof)\n",
                l->lr, l->lr_p);
        fprintf(f, "  -> %s\n", life_meaning(r, alpha));
    }

    fprintf(f, "\nRepair time (fault_end - fault_start; ML)\n");
    const tmc_repair_fit *p = &r->repair;
    fprintf(f, "  %d repaired, %d zero-length (counted in the rates, left out of the laws), %d "
               "not repaired in the log\n", r->n_faults - p->n_open, p->n_zero, p->n_open);
    if (!r->repair_ok)
        fprintf(f, "  %s\n", r->repair_note);
    else {
        char ci[96]; /* the JSON's nulls: no interval from too few or equal times */
        if (isfinite(r->repair_mean_days.lo) && isfinite(r->repair_mean_days.hi))
            snprintf(ci, sizeof ci, "[%.4g, %.4g]", r->repair_mean_days.lo,
                     r->repair_mean_days.hi);
        else
            snprintf(ci, sizeof ci, "[-, -] (no interval: too few or identical times)");
        fprintf(f, "  %d fitted: mean %.4g days %s (%.4g h), median %.4g days, max "
                   "%.4g days\n", p->n, p->mean_days, ci, 24 * p->mean_days, p->median_days,
                p->max_days);
        fprintf(f, "  %-13s %-34s %10s %10s %10s %7s %9s\n", "law", "parameters", "mean d",
                "log-lik", "AIC", "KS D", "KS p");
        for (int i = 0; i < TMC_REPAIR_LAWS; i++) {
            const tmc_repair_law *l = &p->law[i];
            char par[64];
            if (!l->ok) {
                fprintf(f, "  %-13s (not fitted)\n", l->name);
                continue;
            }
            if (i == TMC_REPAIR_LAW_LOGNORMAL)
                snprintf(par, sizeof par, "mu %.4g sigma %.4g (ln days)", l->p1, l->p2);
            else if (i == TMC_REPAIR_LAW_WEIBULL)
                snprintf(par, sizeof par, "shape %.4g scale %.4g days", l->p1, l->p2);
            else
                snprintf(par, sizeof par, "mean %.4g days", l->p1);
            fprintf(f, "  %-11s%s %-34s %10.4g %10.2f %10.2f %7.4f %9.3g\n", l->name,
                    i == p->best ? " *" : "  ", par, l->mean_days, l->loglik, l->aic, l->ks_d,
                    l->ks_p);
        }
        fprintf(f, "  * lowest AIC. KS p-values are conservative (parameters fitted to the "
                   "same times).\n");
    }

    fprintf(f, "\nCause mix (Class; %d faults)\n", r->n_faults);
    for (int i = 0; i < r->n_causes; i++)
        fprintf(f, "  %5d  %5.1f %%  %s\n", r->causes[i].count,
                100.0 * r->causes[i].count / r->n_faults, r->causes[i].name);

    fprintf(f, "\nAgainst the Poisson assumption\n");
    const tmc_dispersion *d = &r->per_node;
    if (d->total) {
        fprintf(f, "  per node: dispersion index %.3g (chi-square %.1f on %d dof, p = %.3g); "
                   "most faults: %ld on node %s (P(any of %d Poisson(%.3g) nodes >= %ld) = "
                   "%.3g)\n", d->index, d->chi2, d->n - 1, d->p, d->max, r->worst_node, d->n,
                d->mean, d->max, d->p_max);
        fprintf(f, "    -> %s\n", node_meaning(r, alpha));
    }
    if (r->bad_nodes_ok)
        text_bad_nodes(f, r, alpha);
    d = &r->per_window;
    if (r->windows_ok) {
        fprintf(f, "  per %g days: dispersion index %.3g (chi-square %.1f on %d dof, p = %.3g; "
                   "%d whole windows, most %ld faults)\n", o->window_days, d->index, d->chi2,
                d->n - 1, d->p, d->n, d->max);
        fprintf(f, "    -> %s\n", window_meaning(r, alpha));
    } else
        fprintf(f, "  per %g days: fewer than 2 whole windows in the span\n", o->window_days);
    const tmc_simultaneous *m = &r->simultaneous;
    char ratio[64], pv[32];
    if (isfinite(m->ratio))
        snprintf(ratio, sizeof ratio, "ratio %.3g", m->ratio);
    else
        snprintf(ratio, sizeof ratio, "ratio not defined: none expected");
    if (isfinite(m->p))
        snprintf(pv, sizeof pv, "%.3g", m->p);
    else
        snprintf(pv, sizeof pv, "-");
    fprintf(f, "  simultaneous: %ld pairs of faults on different nodes starting within %g s, "
               "%.3g expected if independent (%s, p = %s); %d groups, the largest "
               "%d nodes (day %.4g)\n", m->pairs, o->simultaneous_s, m->expected, ratio,
            pv, r->bursts.groups, r->bursts.largest, r->bursts.largest_at_days);
    fprintf(f, "    -> %s\n", simultaneous_meaning(r, alpha));
    text_bursts(f, r);
}

/* ---------- JSON ---------- */

static cJSON *interval_json(tmc_fit_interval v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", v.value);
    cJSON_AddNumberToObject(o, "lo", v.lo);
    if (isinf(v.hi))
        cJSON_AddNullToObject(o, "hi"); /* unbounded */
    else
        cJSON_AddNumberToObject(o, "hi", v.hi);
    return o;
}

static cJSON *dispersion_json(const tmc_dispersion *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "counts", d->n);
    cJSON_AddNumberToObject(o, "mean", d->mean);
    cJSON_AddNumberToObject(o, "variance", d->var);
    cJSON_AddNumberToObject(o, "index", d->index);
    cJSON_AddNumberToObject(o, "chi2", d->chi2);
    cJSON_AddNumberToObject(o, "dof", d->n - 1);
    cJSON_AddNumberToObject(o, "p", d->p);
    cJSON_AddNumberToObject(o, "max", (double)d->max);
    cJSON_AddNumberToObject(o, "p_max", d->p_max);
    return o;
}

cJSON *tmc_fit_output_json(const tmc_fit_result *r)
{
    const tmc_fit_options *o = &r->opt;
    cJSON *root = cJSON_CreateObject(), *x, *y;
    cJSON_AddStringToObject(root, "log", o->log_path);
    cJSON_AddNumberToObject(root, "confidence", o->confidence);
    x = cJSON_AddObjectToObject(root, "exposure");
    cJSON_AddNumberToObject(x, "nodes", (double)o->nodes);
    cJSON_AddNumberToObject(x, "cards_per_node", (double)o->cards_per_node);
    cJSON_AddNumberToObject(x, "span_days", r->span_days);
    cJSON_AddNumberToObject(x, "node_days", r->node_days);
    cJSON_AddNumberToObject(x, "card_days", r->card_days);
    cJSON_AddNumberToObject(x, "up_node_days", r->up_node_days);
    cJSON_AddNumberToObject(x, "up_card_days", r->up_card_days);
    x = cJSON_AddObjectToObject(root, "faults");
    cJSON_AddNumberToObject(x, "read", r->n_read);
    y = cJSON_AddArrayToObject(x, "excluded");
    for (int i = 0; i < o->n_exclude; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "cause", o->exclude[i]);
        cJSON_AddNumberToObject(e, "count", r->excluded[i]);
        cJSON_AddItemToArray(y, e);
    }
    cJSON_AddNumberToObject(x, "fitted", r->n_faults);
    cJSON_AddNumberToObject(x, "nodes_with_faults", r->nodes_seen);
    cJSON_AddNumberToObject(x, "unmatched_ends", r->unmatched_ends);
    cJSON_AddNumberToObject(x, "duplicates_dropped", r->duplicates_dropped);
    x = cJSON_AddObjectToObject(root, "rate_per_day");
    cJSON_AddItemToObject(x, "cluster", interval_json(r->rate_cluster));
    cJSON_AddItemToObject(x, "node", interval_json(r->rate_node));
    cJSON_AddItemToObject(x, "card", interval_json(r->rate_card));
    x = cJSON_AddObjectToObject(root, "mtbf_days");
    cJSON_AddItemToObject(x, "cluster", interval_json(r->mtbf_cluster));
    cJSON_AddItemToObject(x, "node", interval_json(r->mtbf_node));
    cJSON_AddItemToObject(x, "card", interval_json(r->mtbf_card));
    x = cJSON_AddObjectToObject(root, "calendar_mtbf_days"); /* down time included */
    cJSON_AddNumberToObject(x, "cluster", r->calendar_cluster);
    cJSON_AddNumberToObject(x, "node", r->calendar_node);
    cJSON_AddNumberToObject(x, "card", r->calendar_card);

    x = cJSON_AddObjectToObject(root, "lifetime");
    cJSON_AddNumberToObject(x, "observed", r->sample.n_obs);
    cJSON_AddNumberToObject(x, "censored", r->sample.n_cens);
    cJSON_AddNumberToObject(x, "overlapping", r->sample.n_overlapping);
    cJSON_AddNumberToObject(x, "up_days", r->sample.exposure_days);
    if (r->life_ok) {
        const tmc_lifetime_fit *l = &r->life;
        y = cJSON_AddObjectToObject(x, "exponential");
        cJSON_AddItemToObject(y, "rate_per_day",
                              interval_json((tmc_fit_interval){l->rate, l->rate_lo, l->rate_hi}));
        cJSON_AddNumberToObject(y, "mean_days", 1 / l->rate);
        cJSON_AddNumberToObject(y, "loglik", l->exp_loglik);
        y = cJSON_AddObjectToObject(x, "weibull");
        cJSON_AddNumberToObject(y, "shape", l->weibull.shape);
        cJSON_AddNumberToObject(y, "shape_se", l->weibull.shape_se);
        cJSON_AddNumberToObject(y, "scale_days", l->weibull.scale);
        cJSON_AddNumberToObject(y, "mean_days", l->weibull.mean);
        cJSON_AddNumberToObject(y, "loglik", l->weibull.loglik);
        cJSON_AddNumberToObject(x, "lr", l->lr);
        cJSON_AddNumberToObject(x, "lr_p", l->lr_p);
    } else
        cJSON_AddStringToObject(x, "note", r->life_note);

    x = cJSON_AddObjectToObject(root, "repair");
    const tmc_repair_fit *p = &r->repair;
    cJSON_AddNumberToObject(x, "repaired", r->n_faults - p->n_open);
    cJSON_AddNumberToObject(x, "zero_length", p->n_zero);
    cJSON_AddNumberToObject(x, "not_repaired", p->n_open);
    if (r->repair_ok) {
        cJSON_AddNumberToObject(x, "fitted", p->n);
        cJSON_AddItemToObject(x, "mean_days", interval_json(r->repair_mean_days));
        cJSON_AddNumberToObject(x, "median_days", p->median_days);
        cJSON_AddNumberToObject(x, "max_days", p->max_days);
        cJSON_AddStringToObject(x, "best", p->law[p->best].name);
        y = cJSON_AddObjectToObject(x, "laws");
        for (int i = 0; i < TMC_REPAIR_LAWS; i++) {
            const tmc_repair_law *l = &p->law[i];
            if (!l->ok)
                continue;
            cJSON *z = cJSON_AddObjectToObject(y, l->name);
            if (i == TMC_REPAIR_LAW_LOGNORMAL) {
                cJSON_AddNumberToObject(z, "mu", l->p1);
                cJSON_AddNumberToObject(z, "sigma", l->p2);
            } else if (i == TMC_REPAIR_LAW_WEIBULL) {
                cJSON_AddNumberToObject(z, "shape", l->p1);
                cJSON_AddNumberToObject(z, "scale_days", l->p2);
            }
            cJSON_AddNumberToObject(z, "mean_days", l->mean_days);
            cJSON_AddNumberToObject(z, "loglik", l->loglik);
            cJSON_AddNumberToObject(z, "aic", l->aic);
            cJSON_AddNumberToObject(z, "ks_d", l->ks_d);
            cJSON_AddNumberToObject(z, "ks_p", l->ks_p);
        }
    } else
        cJSON_AddStringToObject(x, "note", r->repair_note);

    x = cJSON_AddArrayToObject(root, "causes");
    for (int i = 0; i < r->n_causes; i++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", r->causes[i].name);
        cJSON_AddNumberToObject(c, "count", r->causes[i].count);
        cJSON_AddItemToArray(x, c);
    }

    x = cJSON_AddObjectToObject(root, "dispersion");
    y = dispersion_json(&r->per_node);
    cJSON_AddStringToObject(y, "max_node", r->worst_node ? r->worst_node : "");
    cJSON_AddItemToObject(x, "per_node", y);
    if (r->bad_nodes_ok) {
        const tmc_node_mixture *b = &r->bad_nodes;
        y = cJSON_AddObjectToObject(x, "bad_nodes");
        cJSON_AddNumberToObject(y, "share", b->share);
        /* the experiment's keys' meanings: a bad node's extra MTBF, a good one's */
        cJSON_AddNumberToObject(y, "bad_node_mtbf_days", 1 / (b->bad_per_day - b->good_per_day));
        cJSON_AddNumberToObject(y, "per_node_mtbf_days", 1 / b->good_per_day);
        cJSON_AddNumberToObject(y, "bad_node_total_mtbf_days", 1 / b->bad_per_day);
        cJSON_AddNumberToObject(y, "lr", b->lr);
        cJSON_AddNumberToObject(y, "p", b->p);
        cJSON_AddNumberToObject(y, "bootstrap_sets", b->bootstrap);
    }
    if (r->windows_ok) {
        y = dispersion_json(&r->per_window);
        cJSON_AddNumberToObject(y, "window_days", o->window_days);
        cJSON_AddItemToObject(x, "per_window", y);
    }
    const tmc_simultaneous *m = &r->simultaneous;
    y = cJSON_AddObjectToObject(x, "simultaneous");
    cJSON_AddNumberToObject(y, "window_s", o->simultaneous_s);
    cJSON_AddNumberToObject(y, "pairs", (double)m->pairs);
    cJSON_AddNumberToObject(y, "expected", m->expected);
    cJSON_AddNumberToObject(y, "p", m->p);
    cJSON_AddNumberToObject(y, "groups", r->bursts.groups);
    cJSON_AddNumberToObject(y, "largest_group_nodes", r->bursts.largest);
    if (r->bursts_ok) {
        const tmc_burst_fit *b = &r->bursts;
        y = cJSON_AddObjectToObject(x, "bursts");
        cJSON_AddNumberToObject(y, "groups", b->groups);
        cJSON_AddNumberToObject(y, "grouped_faults", (double)b->grouped_faults);
        cJSON_AddItemToObject(y, "per_node_rate_per_day", interval_json(
            (tmc_fit_interval){b->rate, b->lo, b->hi}));
        cJSON_AddItemToObject(y, "sizes", cJSON_CreateDoubleArray(b->sizes, b->n_sizes));
        cJSON_AddNumberToObject(y, "single_faults", (double)b->singles);
        cJSON_AddItemToObject(y, "single_rate_per_node_day", interval_json(
            (tmc_fit_interval){b->single_rate, b->single_lo, b->single_hi}));
    }
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "dispersion")) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* ---------- the distribution file ---------- */

/* 1 when the counts per node reject one rate for every node at the run's
 * confidence: the written file then holds good and bad nodes. */
static int bad_nodes_found(const tmc_fit_result *r)
{
    return r->bad_nodes_ok && r->bad_nodes.p < 1 - r->opt.confidence;
}

/* The exponential law as good and bad nodes (docs/model.md 3.19): every
 * node's rate is the good one, per node (per_node_mtbf_days, in place of a
 * per-card MTBF), and a bad node's extra rate on top; the total rate's
 * uncertainty (mtbf_events) stays the faults'. */
static void add_bad_nodes(cJSON *root, const tmc_fit_result *r)
{
    const tmc_node_mixture *b = &r->bad_nodes;
    cJSON_DeleteItemFromObject(root, "per_card_mtbf_days");
    cJSON_AddNumberToObject(root, "per_node_mtbf_days", 1 / b->good_per_day);
    if (!cJSON_GetObjectItem(root, "cards_per_node")) /* bursts wrote it */
        cJSON_AddNumberToObject(root, "cards_per_node", (double)r->opt.cards_per_node);
    cJSON_AddNumberToObject(root, "bad_node_share", b->share);
    cJSON_AddNumberToObject(root, "bad_node_mtbf_days", 1 / (b->bad_per_day - b->good_per_day));
}

/* 1 when the written file holds bursts (--bursts and groups found). */
static int bursts_written(const tmc_fit_result *r)
{
    return r->opt.bursts && r->bursts_ok && r->bursts.groups > 0;
}

/* Bursts (docs/model.md 3.24): the single-node faults' per-card MTBF in
 * place of every fault's, the groups' rate per node and their size table;
 * the rates' uncertainty (mtbf_events) counts the events of both. */
static void add_bursts(cJSON *root, const tmc_fit_result *r)
{
    const tmc_burst_fit *b = &r->bursts;
    if (b->singles > 0)
        cJSON_ReplaceItemInObject(root, "per_card_mtbf_days",
                                  cJSON_CreateNumber(r->up_card_days / (double)b->singles));
    else /* every fault in a burst: no single-node part */
        cJSON_DeleteItemFromObject(root, "per_card_mtbf_days");
    cJSON_ReplaceItemInObject(root, "mtbf_events",
                              cJSON_CreateNumber((double)(b->singles + b->groups)));
    cJSON_AddNumberToObject(root, "cards_per_node", (double)r->opt.cards_per_node);
    cJSON_AddNumberToObject(root, "burst_per_node_mtbf_days", 1 / b->rate);
    cJSON_AddStringToObject(root, "burst_size", "table");
    cJSON_AddItemToObject(root, "burst_weights", cJSON_CreateDoubleArray(b->sizes, b->n_sizes));
}

cJSON *tmc_fit_output_distribution(const tmc_fit_result *r, const char *law)
{
    const tmc_fit_options *o = &r->opt;
    int weibull = !strcmp(law, tmc_law_weibull->name);
    if ((!weibull && strcmp(law, tmc_law_exponential->name)) || (weibull && !r->life_ok) ||
        !r->repair_ok || r->n_faults < 1)
        return NULL;
    char excl[512] = "", source[2048], desc[3072];
    for (int i = 0; i < o->n_exclude; i++) {
        size_t len = strlen(excl);
        snprintf(excl + len, sizeof excl - len, "%s%s (%d)", i ? ", " : " (left out: ",
                 o->exclude[i], r->excluded[i]);
    }
    double cl = 100 * o->confidence, mtbf;
    char mixture[1024] = "";
    if (!weibull && bad_nodes_found(r))
        snprintf(mixture, sizeof mixture, " Good and bad nodes: two Poisson rates fit the "
                 "faults per node better than one (LR %.3g, bootstrap p = %.3g < %.3g), so "
                 "this file writes them (docs/model.md 3.19): a share %.3g of nodes is bad, "
                 "every node fails every %.4g days and a bad node also every %.4g days, in "
                 "place of one per-card MTBF.", r->bad_nodes.lr, r->bad_nodes.p,
                 1 - o->confidence, r->bad_nodes.share, 1 / r->bad_nodes.good_per_day,
                 1 / (r->bad_nodes.bad_per_day - r->bad_nodes.good_per_day));
    if (!weibull && bursts_written(r)) {
        size_t len = strlen(mixture);
        snprintf(mixture + len, sizeof mixture - len, " Bursts: %d groups of faults on 2 or "
                 "more nodes starting within %g s are bursts (docs/model.md 3.24), per node "
                 "one every %.4g days, sizes by burst_weights; the single-node rate leaves "
                 "their %ld faults out (%ld faults over %.0f card-days up).",
                 r->bursts.groups, o->simultaneous_s, 1 / r->bursts.rate,
                 r->bursts.grouped_faults, r->bursts.singles, r->up_card_days);
    }
    char lawtext[512], b[9][32];
    if (weibull) {
        mtbf = (double)o->cards_per_node * r->life.weibull.mean;
        snprintf(lawtext, sizeof lawtext, "Weibull shape %.4g (se %.2g) fitted to %d node up "
                 "times with right-censoring (LR test of shape 1: p = %.3g); per_card_mtbf_days "
                 "= %ld cards x the node's Weibull mean %.4g days", r->life.weibull.shape,
                 r->life.weibull.shape_se, r->life.n_events, r->life.lr_p, o->cards_per_node,
                 r->life.weibull.mean);
    } else {
        mtbf = r->mtbf_card.value;
        snprintf(lawtext, sizeof lawtext, "exponential; per_card_mtbf_days = card-days up / "
                 "faults = %.0f / %d, %g %% Garwood interval [%.4g, %s] days (calendar, "
                 "repairs included: %.4g); the node lifetime's Weibull shape was %s (LR test "
                 "of shape 1: p = %s)", r->up_card_days, r->n_faults, cl, r->mtbf_card.lo, num(b[0], r->mtbf_card.hi, 4),
                 r->calendar_card, num(b[1], r->life_ok ? r->life.weibull.shape : NAN, 3),
                 num(b[2], r->life_ok ? r->life.lr_p : NAN, 3));
    }
    snprintf(source, sizeof source, "trainmc fit of %s: %d faults%s%s on %ld nodes x %ld cards "
             "over %.6g days (%.0f card-days, %.0f of them up)", o->log_path, r->n_faults,
             excl, o->n_exclude ? ")," : ",", o->nodes, o->cards_per_node, r->span_days,
             r->card_days, r->up_card_days);
    const tmc_repair_fit *p = &r->repair;
    const tmc_repair_law *best = &p->law[p->best];
    snprintf(desc, sizeof desc, "lifetime: %s. Node MTBF %.4g days [%.4g, %s] (%g %%). "
             "Repair: mean of %d positive repair times %.4g h [%s, %s] (%d zero-length "
             "left out); the best law by AIC was %s (KS p = %s); this file writes an "
             "exponential repair of this mean (a repair pipeline, docs/model.md 3.17, is set "
             "by hand). Counts per node: dispersion index "
             "%s (p = %s); simultaneous faults within %g s: %ld pairs, %.3g expected. "
             "mtbf_events: the failure rate's uncertainty, drawn per replica.%s",
             lawtext, r->mtbf_node.value, r->mtbf_node.lo, num(b[3], r->mtbf_node.hi, 4), cl,
             p->n, 24 * p->mean_days, num(b[4], 24 * r->repair_mean_days.lo, 4),
             num(b[5], 24 * r->repair_mean_days.hi, 4), p->n_zero, best->name,
             num(b[6], best->ks_p, 3), num(b[7], r->per_node.index, 3),
             num(b[8], r->per_node.p, 3), o->simultaneous_s, r->simultaneous.pairs,
             r->simultaneous.expected, mixture);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "source", source);
    cJSON_AddStringToObject(root, "description", desc);
    cJSON_AddStringToObject(root, "distribution",
                            (weibull ? tmc_law_weibull : tmc_law_exponential)->name);
    cJSON_AddNumberToObject(root, "per_card_mtbf_days", mtbf);
    /* the rate's uncertainty travels with it: each replica draws the rate
     * from its Gamma posterior (docs/model.md 3.11) */
    cJSON_AddNumberToObject(root, "mtbf_events", weibull ? r->life.n_events : r->n_faults);
    if (weibull)
        cJSON_AddNumberToObject(root, "shape", r->life.weibull.shape);
    if (!weibull && bursts_written(r))
        add_bursts(root, r);
    if (!weibull && bad_nodes_found(r))
        add_bad_nodes(root, r);
    cJSON_AddNumberToObject(root, "repair_mean_hours", 24 * p->mean_days);
    cJSON_AddStringToObject(root, "repair_distribution", tmc_law_exponential->name);
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "repair_distribution")) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
