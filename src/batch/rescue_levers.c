/* rescue_levers.c - rescue's levers (rescue_levers.h): the table that
 * names each and its direction, --levers parsing, the default list, and
 * the recovery levers (issue 34 part 4): when each can act, and where the
 * closed form meets the target. */
#include "rescue_levers.h"

#include "closed_form.h"

#include <math.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The levers, in tmc_rescue_kind's order: the key ("%d" where a cause's
 * index goes; NULL: the interval, x's own key) and the direction. */
typedef struct {
    const char *key;
    const char *direction;
} lever_row;

static const lever_row levers[TMC_RESCUE_N_KINDS] = {
    {"job.steps", "fewer steps (and tokens, at the same batch)"},
    {"deadline.days", "a later deadline"},
    {"job.efficiency", "a higher efficiency"},
    {"job.cards", "more cards"},
    {NULL, "the checkpoint interval toward Daly's optimum"},
    {"checkpoint.restore_s", "a shorter restore (every restore that no cause gives its own)"},
    {"failures.causes[%d].detection_s", "a shorter detection delay of this cause"},
    {"failures.causes[%d].restore_s", "a shorter restore after this cause"},
    {"elastic.heal_s", "a shorter heal of a rejoining group"},
    {"failures.spare_provision_s", "a shorter provisioning of a cold spare"},
    {"failures.repair_mean_hours", "a shorter mean repair (its manual stage, when two)"},
};

#define FIRST_RECOVERY TMC_RESCUE_RESTORE

static int per_cause(tmc_rescue_kind k)
{
    return k == TMC_RESCUE_DETECTION || k == TMC_RESCUE_CAUSE_RESTORE;
}

/* The interval key x gives (config_checks.c: exactly one). */
static const char *interval_key(const tmc_experiment *x)
{
    return x->checkpoint.interval_steps > 0 ? "checkpoint.interval_steps"
                                            : "checkpoint.interval_s";
}

/* l's key (kind and cause set) into l->bracket.key. */
static void name_lever(tmc_rescue_lever *l, const tmc_experiment *x)
{
    const char *key = levers[l->kind].key;
    if (!key)
        key = interval_key(x);
    snprintf(l->bracket.key, sizeof l->bracket.key, key, l->cause);
}

const char *tmc_rescue_describe_lever(const tmc_rescue_lever *l)
{
    if (l->kind == TMC_RESCUE_INTERVAL && l->two_level)
        return l->larger ? "a longer checkpoint interval, toward the two-level optimum"
                         : "a shorter checkpoint interval, toward the two-level optimum";
    if (l->kind == TMC_RESCUE_INTERVAL)
        return l->larger ? "a longer checkpoint interval, toward Daly's optimum"
                         : "a shorter checkpoint interval, toward Daly's optimum";
    return levers[l->kind].direction;
}

/* "failures.causes[I].KEY" for one of the per-cause kinds: its kind and I
 * (0, or -1 with err when I is not a cause of x). 1: not such a key. */
static int parse_cause_lever(const char *key, const tmc_experiment *x, tmc_rescue_lever *l,
                             tmc_error *err)
{
    long i;
    const char *name;
    if (!tmc_config_split_cause_key(key, &i, &name))
        return 1;
    for (int k = 0; k < TMC_RESCUE_N_KINDS; k++) {
        const char *field = per_cause((tmc_rescue_kind)k) ? strrchr(levers[k].key, '.') : NULL;
        if (!field || strcmp(name, field + 1))
            continue;
        if (x->failures.n_causes == 0)
            return tmc_error_set(err, "--levers %s: the experiment has no failure causes "
                                      "(failures.causes): no per-cause lever applies", key);
        if (i >= x->failures.n_causes)
            return tmc_error_set(err, "--levers %s: the experiment has %d failure cause%s; "
                                      "expected an index in [0, %d]", key, x->failures.n_causes,
                                 x->failures.n_causes == 1 ? "" : "s",
                                 x->failures.n_causes - 1);
        l->kind = (tmc_rescue_kind)k;
        l->cause = (int)i;
        name_lever(l, x);
        return 0;
    }
    return 1;
}

int tmc_rescue_parse_lever(const char *key, const tmc_experiment *x, tmc_rescue_lever *l,
                           tmc_error *err)
{
    for (int k = 0; k < TMC_RESCUE_N_KINDS; k++) {
        tmc_rescue_lever try = {.kind = (tmc_rescue_kind)k, .cause = -1};
        if (per_cause(try.kind))
            continue;
        name_lever(&try, x);
        if (!strcmp(key, try.bracket.key)) {
            *l = try;
            return 0;
        }
    }
    int rc = parse_cause_lever(key, x, l, err);
    if (rc <= 0)
        return rc;
    if (!strncmp(key, "checkpoint.interval_", 20))
        return tmc_error_set(err, "--levers %s: the experiment gives its interval as %s; "
                                  "name that key", key, interval_key(x));
    char names[1024] = "";
    for (int k = 0; k < TMC_RESCUE_N_KINDS; k++) { /* "a, b, ... or z", from the table */
        const char *name = levers[k].key ? levers[k].key : interval_key(x);
        const char *cause = strstr(name, "%d");
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%.*s%s%s",
                 k == 0 ? "" : k + 1 < TMC_RESCUE_N_KINDS ? ", " : " or ",
                 cause ? (int)(cause - name) : (int)strlen(name), name, cause ? "I" : "",
                 cause ? cause + 2 : "");
    }
    return tmc_error_set(err, "--levers %s: not a lever; expected %s", key, names);
}

/* Whether a failure of fl can take a spare (none when every cause is a
 * restart only, takes_spare false). */
static int takes_spares(const tmc_failures *fl)
{
    int any = fl->n_causes == 0;
    for (int i = 0; i < fl->n_causes; i++)
        any |= fl->causes[i].takes_spare;
    return any;
}

/* Why recovery lever l cannot help x (a static text), or NULL when it can;
 * *current its value. */
static const char *recovery_value(const tmc_rescue_lever *l, const tmc_experiment *x,
                                  double *current)
{
    const tmc_failures *fl = &x->failures;
    const tmc_failure_cause *c = l->cause >= 0 ? &fl->causes[l->cause] : NULL;
    switch (l->kind) {
    case TMC_RESCUE_RESTORE: {
        *current = x->checkpoint.restore_s;
        int failure_restores = fl->enabled && (fl->n_causes == 0 || x->elastic.enabled);
        for (int i = 0; i < fl->n_causes; i++)
            failure_restores |= fl->enabled && fl->causes[i].restore_s < 0;
        if (!failure_restores && !x->outages.enabled && !x->loss_spikes.enabled &&
            !x->time_limit.enabled && !x->checkpoint.save_timeout_s &&
            !(x->slow_cards.enabled && x->slow_cards.eviction_restore_s < 0))
            return fl->enabled ? "every failure cause gives its own restore_s and nothing "
                                 "else interrupts the run: no restore takes "
                                 "checkpoint.restore_s"
                               : "nothing interrupts the run: no restore happens";
        break;
    }
    case TMC_RESCUE_DETECTION:
        *current = c->detection_s;
        break;
    case TMC_RESCUE_CAUSE_RESTORE:
        *current = c->restore_s;
        if (c->restore_s < 0)
            return "the cause gives no restore_s of its own: checkpoint.restore_s is its "
                   "restore";
        if (x->elastic.enabled) /* elastic.c: a whole-job restart restores in restore_s */
            return "elastic groups: a restart of the whole job restores in "
                   "checkpoint.restore_s, not in the cause's own";
        break;
    case TMC_RESCUE_HEAL:
        *current = x->elastic.heal_s;
        if (!x->elastic.enabled)
            return "no elastic groups: nothing heals";
        break;
    case TMC_RESCUE_PROVISION:
        *current = fl->spare_provision_s;
        if (!fl->enabled)
            return "no card failures: no spare is provisioned";
        if (!takes_spares(fl))
            return "no failure cause takes a spare (takes_spare false): no spare is "
                   "provisioned";
        break;
    case TMC_RESCUE_REPAIR:
        *current = fl->repair_mean_hours;
        if (!fl->enabled)
            return "no card failures: nothing is repaired";
        if (!takes_spares(fl))
            return "no failure cause takes a spare (takes_spare false): nothing is repaired";
        if (fl->spares < 0)
            return "the spare pool is unlimited (failures.spares): no failure waits for a "
                   "repair";
        break;
    default:
        return "not a recovery lever";
    }
    return *current > 0 ? NULL : "it is already 0";
}

/* Append lever (kind, cause) to r. */
static void add_lever(tmc_rescue *r, tmc_rescue_kind kind, int cause)
{
    tmc_rescue_lever *l = &r->levers[r->n_levers++];
    l->kind = kind;
    l->cause = cause;
    name_lever(l, &r->base.x);
}

/* The default levers: the five plan levers, then every recovery lever that
 * applies (one per cause for the per-cause ones). */
static void default_levers(tmc_rescue *r)
{
    const tmc_experiment *x = &r->base.x;
    for (int k = 0; k < FIRST_RECOVERY; k++)
        add_lever(r, (tmc_rescue_kind)k, -1);
    for (int k = FIRST_RECOVERY; k < TMC_RESCUE_N_KINDS; k++)
        for (int i = 0; i < (per_cause((tmc_rescue_kind)k) ? x->failures.n_causes : 1); i++) {
            tmc_rescue_lever l = {.kind = (tmc_rescue_kind)k,
                                  .cause = per_cause((tmc_rescue_kind)k) ? i : -1};
            double v;
            if (!recovery_value(&l, x, &v))
                add_lever(r, l.kind, l.cause);
        }
}

int tmc_rescue_parse_levers(tmc_rescue *r, const char *list, tmc_error *err)
{
    const tmc_experiment *x = &r->base.x;
    if (!list) {
        default_levers(r);
        return 0;
    }
    for (const char *p = list;; p += strcspn(p, ",") + 1) {
        char key[TMC_SWEEP_KEY_LEN] = "";
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof key)
            return tmc_error_set(err, "--levers %s: expected KEY,KEY,... (no empty or "
                                      "overlong item)", list);
        memcpy(key, p, len);
        tmc_rescue_lever l;
        if (tmc_rescue_parse_lever(key, x, &l, err))
            return -1;
        for (int i = 0; i < r->n_levers; i++)
            if (!strcmp(r->levers[i].bracket.key, l.bracket.key))
                return tmc_error_set(err, "--levers %s: %s is named twice", list, key);
        if (r->n_levers == TMC_RESCUE_MAX_LEVERS)
            return tmc_error_set(err, "--levers %s: more than %d levers", list,
                                 TMC_RESCUE_MAX_LEVERS);
        add_lever(r, l.kind, l.cause);
        if (p[len] == '\0')
            return 0;
    }
}

/* The closed form's figure for target t at lever l's value v, signed so
 * that <= 0 meets: the metric minus the target (its negative for a lower
 * bound); P(deadline): the closed form's T minus the deadline. NAN when the
 * setting is refused. */
static double closed_gap(double v, void *params)
{
    const tmc_rescue_lever *l = ((const void *const *)params)[0];
    const tmc_sweep_target *t = ((const void *const *)params)[1];
    tmc_sweep_setting s;
    tmc_error err = {""};
    if (tmc_sweep_load_setting(&l->base, &v, &s, &err))
        return NAN;
    const tmc_experiment *x = &s.x;
    double overhead = s.cf.overhead_daly, days = s.cf.completion_days_daly;
    if (x->elastic.enabled) {
        tmc_elastic_form ef;
        tmc_closed_form_elastic(x, &s.cf, &ef);
        overhead = ef.overhead;
        days = ef.completion_days;
    }
    double deadline = x->deadline.days;
    tmc_experiment_release(&s.x);
    double m = t->metric == TMC_SWEEP_GOODPUT    ? 1 / (1 + overhead)
             : t->metric == TMC_SWEEP_OVERHEAD   ? overhead
             : t->metric == TMC_SWEEP_COMPLETION ? days
                                                 : days - deadline;
    if (t->metric == TMC_SWEEP_PROBABILITY)
        return m;
    return t->at_least ? t->value - m : m - t->value;
}

/* Recovery lever l: where the closed form meets the target in [0, current]
 * (its figures grow with every recovery time), by Brent's method. */
static void closed_threshold(tmc_rescue_lever *l, const tmc_sweep_target *t)
{
    const void *params[2] = {l, t};
    double g0 = closed_gap(0, params), g1 = closed_gap(l->current, params);
    if (isnan(g0) || isnan(g1))
        return;
    if (g1 <= 0) {
        l->closed = TMC_RESCUE_CLOSED_MEETS;
        return;
    }
    if (g0 > 0) {
        l->closed = TMC_RESCUE_CLOSED_UNREACHED;
        return;
    }
    gsl_function fn = {closed_gap, params};
    gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
    if (!s)
        return;
    double lo = 0, hi = l->current;
    /* a refused setting inside gives NAN: an error code, not an abort */
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_root_fsolver_set(s, &fn, lo, hi);
    for (int i = 0; !rc && i < 100; i++) {
        if ((rc = gsl_root_fsolver_iterate(s)))
            break;
        lo = gsl_root_fsolver_x_lower(s);
        hi = gsl_root_fsolver_x_upper(s);
        if (gsl_root_test_interval(lo, hi, 0, 1e-9) == GSL_SUCCESS)
            break;
    }
    gsl_set_error_handler(old);
    gsl_root_fsolver_free(s);
    if (rc)
        return;
    l->closed = TMC_RESCUE_CLOSED_FOUND;
    l->closed_value = lo; /* the side that meets: the gap grows with the value */
}

void tmc_rescue_bracket_recovery(tmc_rescue_lever *l, const tmc_experiment *x,
                                 const tmc_sweep_target *t)
{
    const char *why = recovery_value(l, x, &l->current);
    l->larger = 0;
    l->bracket.lo = 0;
    /* two levels: a persistent restore is no faster than a local one (the
     * loader's rule), so it goes down to the local restore */
    if (l->kind == TMC_RESCUE_RESTORE && x->checkpoint.persistent_every > 1 &&
        x->checkpoint.local_restore_s > 0)
        l->bracket.lo = fmin(x->checkpoint.local_restore_s, l->current);
    l->bracket.hi = l->current;
    if (why) {
        l->outcome = TMC_RESCUE_NOT_APPLICABLE;
        snprintf(l->why, sizeof l->why, "%s", why);
        return;
    }
    closed_threshold(l, t);
}
