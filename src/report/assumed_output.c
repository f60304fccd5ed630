/* assumed_output.c - assumptions and contradictions as text and JSON
 * (assumed_output.h). */
#include "assumed_output.h"

#include <string.h>

#include "assumptions.h"
#include "experiment_rules.h"
#include "slowdown_output.h"
#include "units.h"

/* What the warning before a time limit does, when it is stated and read:
 * too short to hold the save, or long enough to end each allocation early
 * (docs/reference/simulation-semantics.md 4). */
static void limit_text(FILE *f, const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    double notice = tl->notice_s + 0.0, save = x->checkpoint.save_s; /* + 0.0: no "-0" */
    double early = tl->wall_hours * TMC_HOUR_S - tmc_limit_allocation_s(x);
    if (tmc_limit_notice_short(x))
        fprintf(f, "Time limit: the %.10g s warning (time_limit.notice_s) cannot hold the "
                   "%.10g s save: every time limit loses the work since the last commit, as "
                   "at_limit \"lose\"\n", notice, save);
    else if (early > 0)
        fprintf(f, "Time limit: the %.10g s warning (time_limit.notice_s) ends each "
                   "allocation %.10g s early: the job saves at the warning and requeues\n",
                notice, early);
}

void tmc_assumed_output_text(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    tmc_assumed a;
    tmc_assumed_list(x, cf, &a);
    for (int i = 0; i < a.n; i++)
        fprintf(f, "%s, optimistic: %s (set %s, now %s)\n",
                a.item[i].stated ? "Stated" : "Default", a.item[i].why, a.item[i].key,
                a.item[i].value);
    limit_text(f, x);
    tmc_slowdown_output_text(f, x, cf);
}

cJSON *tmc_assumed_output_limit_json(const tmc_experiment *x)
{
    const tmc_time_limit *tl = &x->time_limit;
    if (!tl->enabled)
        return cJSON_CreateNull();
    const char *notice = tl->at_limit != TMC_LIMIT_SAVE ? "not read"
                         : tl->notice_s < 0             ? "not stated"
                         : tmc_limit_notice_short(x)    ? "too short"
                                                        : "holds the save";
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "allocation_s", tmc_limit_allocation_s(x));
    cJSON_AddBoolToObject(o, "save_before_limit", tmc_limit_saves(x));
    cJSON_AddStringToObject(o, "notice", notice);
    return o;
}

cJSON *tmc_assumed_output_json(const tmc_experiment *x, const tmc_closed_form *cf)
{
    tmc_assumed a;
    tmc_assumed_list(x, cf, &a);
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; list && i < a.n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", a.item[i].key);
        cJSON_AddStringToObject(o, "value", a.item[i].value);
        cJSON_AddStringToObject(o, "why", a.item[i].why);
        cJSON_AddBoolToObject(o, "stated", a.item[i].stated);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* The closed form the report shows beside P(T <= deadline): the elastic
 * one for an elastic run (docs/model.md 3.14), the two-level one for two
 * levels of snapshots (3.23), Young's otherwise. Its T in days; *name
 * ("Young", "Elastic", "Two-level") and *noun (its T in a sentence). */
static double shown(const tmc_experiment *x, const tmc_closed_form *cf, const char **name,
                    const char **noun)
{
    tmc_elastic_form ef;
    tmc_closed_form_elastic(x, cf, &ef);
    tmc_levels_form lf;
    tmc_closed_form_levels(x, cf, &lf);
    if (lf.enabled) { /* config_levels.c refuses elastic groups beside it */
        *name = "Two-level";
        *noun = "the two-level T";
        return lf.completion_days;
    }
    *name = ef.enabled ? "Elastic" : "Young";
    *noun = ef.enabled ? "the elastic T" : "Young's T";
    return ef.enabled ? ef.completion_days : cf->completion_days;
}

/* The contradiction, if any, into buf[n]; 1 when there is one. */
static int contradiction(const tmc_experiment *x, const tmc_closed_form *cf,
                         const tmc_summary *d, char *buf, size_t n)
{
    const char *name, *noun;
    double t = shown(x, cf, &name, &noun);
    double p[3] = {d->p_met, d->ci_lo, d->ci_hi};
    return tmc_assumed_contradicts(noun, t, x->deadline.days, p, d->quantile[0],
                                   d->quantile[TMC_STATS_NQ - 1], d->se, buf, n);
}

/* The closed form's broken assumptions by key ("spares, failure_law"), or
 * that no checked assumption explains it when it breaks none, into buf[n]; the
 * number broken. */
static int culprits(const tmc_experiment *x, const tmc_closed_form *cf, char *buf, size_t n)
{
    tmc_assumptions a;
    tmc_assumptions_check(x, cf, &a);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < a.n && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s: %s", i ? "; " : "", a.key[i],
                                 a.message[i]);
    if (!a.n)
        snprintf(buf, n, "no checked assumption explains it: the run breaks none of the closed "
                 "forms' assumptions (docs/model.md 3.7); the spread of the run (restarts, "
                 "waits) is in no closed form");
    return a.n;
}

int tmc_assumed_output_contradiction(FILE *f, const tmc_experiment *x,
                                     const tmc_closed_form *cf, const tmc_summary *d)
{
    char why[192], what[1024];
    if (!contradiction(x, cf, d, why, sizeof why))
        return 0;
    if (culprits(x, cf, what, sizeof what))
        fprintf(f, "CLOSED FORM CONTRADICTED: %s; trust the simulation. The closed form leaves "
                   "out %s\n", why, what);
    else { /* "no checked assumption explains it: ..." as a sentence */
        what[0] = 'N';
        fprintf(f, "CLOSED FORM CONTRADICTED: %s; trust the simulation. %s\n", why, what);
    }
    return 1;
}

const char *tmc_assumed_output_verdict(const tmc_experiment *x, const tmc_closed_form *cf,
                                       const tmc_summary *d, char *buf, size_t n)
{
    char why[192];
    const char *name, *noun;
    double t = shown(x, cf, &name, &noun);
    snprintf(buf, n, "%s (%s)%s", t <= x->deadline.days ? "meets" : "misses", name,
             contradiction(x, cf, d, why, sizeof why) ? ", CONTRADICTED" : "");
    return buf;
}

cJSON *tmc_assumed_output_verdict_json(const tmc_experiment *x, const tmc_closed_form *cf,
                                       const tmc_summary *d)
{
    char why[192], what[1024] = "";
    const char *name, *noun;
    double t = shown(x, cf, &name, &noun);
    int c = contradiction(x, cf, d, why, sizeof why);
    if (c)
        culprits(x, cf, what, sizeof what);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "meets", t <= x->deadline.days);
    cJSON_AddStringToObject(o, "closed_form", name);
    cJSON_AddBoolToObject(o, "contradicts", c);
    cJSON_AddStringToObject(o, "why", why);
    cJSON_AddStringToObject(o, "left_out", what);
    return o;
}
