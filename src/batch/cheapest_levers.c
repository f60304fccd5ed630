/* cheapest_levers.c - the target, the levers and their combinations of
 * `trainmc cheapest` (cheapest.h). */
#include "cheapest.h"
#include "experiment_rules.h"
#include "number.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CARDS, INTERVAL, SPARES, MODE, STANDBYS, REFRESH, PERSISTENT, N_LEVERS };
_Static_assert(INTERVAL == TMC_CHEAPEST_LEVER_INTERVAL, "cheapest.h names the interval's index");

int tmc_cheapest_parse_target(const char *text, tmc_sweep_target *t, tmc_error *err)
{
    double p = NAN;
    if (!tmc_number_parse(text, &p)) { /* a bare probability (decimal, number.h) */
        memset(t, 0, sizeof *t);
        t->metric = TMC_SWEEP_PROBABILITY;
        t->at_least = 1;
        t->value = p;
        snprintf(t->text, sizeof t->text, "deadline.probability>=%.10g", p);
    } else if (tmc_sweep_parse_target(text, t, err)) {
        return -1;
    } else if (t->metric != TMC_SWEEP_PROBABILITY || !t->at_least) {
        return tmc_error_set(err, "--target %s: the cheapest plan is found subject to "
                                  "deadline.probability>=P; give P or that form", text);
    }
    /* P = 0 is met by any plan and P = 1 by no finite sample's interval */
    if (!(t->value > 0 && t->value < 1))
        return tmc_error_set(err, "--target %s: P(deadline) %.10g is not a probability in "
                                  "(0, 1)", text, t->value);
    return 0;
}

/* The card range asked for, rounded inwards to whole steps (nodes): LO up,
 * HI down; refused when fewer than two counts remain. */
static int whole_nodes(const char *spec, tmc_cheapest_levers *l, tmc_error *err)
{
    long g = l->card_step;
    l->cards_lo = (l->cards_asked[0] + g - 1) / g * g;
    l->cards_hi = l->cards_asked[1] / g * g;
    if (l->cards_hi <= l->cards_lo)
        return tmc_error_set(err, "--lever %s: cards move in whole nodes of %ld "
                                  "(failures.cards_per_node) and [%ld, %ld] holds fewer than "
                                  "two; widen the range", spec, g, l->cards_asked[0],
                             l->cards_asked[1]);
    return 0;
}

/* "LO:HI", integers in the range of the key job.cards (its row in
 * src/input/config_fields.c; "1e7" is read as an integer too), LO < HI,
 * into the card range. */
static int parse_cards(const char *spec, const char *v, tmc_cheapest_levers *l, tmc_error *err)
{
    char buf[64]; /* LO and HI apart, each read as a decimal number (number.h) */
    const char *colon = strchr(v, ':');
    double lo = NAN, hi = NAN, key_lo, key_hi;
    int lo_open, bad = !colon || (size_t)(colon - v) >= sizeof buf;
    if (!bad) {
        memcpy(buf, v, (size_t)(colon - v));
        buf[colon - v] = '\0';
        bad = tmc_number_parse(buf, &lo) || tmc_number_parse(colon + 1, &hi);
    }
    tmc_config_key_bounds("job.cards", &key_lo, &key_hi, &lo_open);
    if (bad || !(lo >= key_lo && hi > lo && hi <= key_hi) || lo != floor(lo) ||
        hi != floor(hi)) {
        return tmc_error_set(err, "--lever %s: expected job.cards=LO:HI, integers with "
                                  "%s <= LO < HI <= %s (the range of job.cards)", spec,
                             tmc_config_bound_text(key_lo).s, tmc_config_bound_text(key_hi).s);
    }
    l->cards_asked[0] = (long)lo;
    l->cards_asked[1] = (long)hi;
    return whole_nodes(spec, l, err);
}

/* A list V1,V2,... or START:STOP:STEP of at most TMC_CHEAPEST_MAX_VALUES. */
static int parse_list(const char *spec, const char *v, double *out, int *n, tmc_error *err)
{
    static double values[TMC_SWEEP_MAX_SETTINGS];
    tmc_error why = {""};
    if (tmc_sweep_parse_values(v, values, n, &why))
        return tmc_error_set(err, "--lever %s: %s", spec, why.msg);
    if (*n > TMC_CHEAPEST_MAX_VALUES)
        return tmc_error_set(err, "--lever %s: %d values; at most %d", spec, *n,
                             TMC_CHEAPEST_MAX_VALUES);
    for (int i = 1; i < *n; i++) /* a repeated value would run its plans twice */
        for (int j = 0; j < i; j++)
            if (values[i] == values[j])
                return tmc_error_set(err, "--lever %s: the value %.10g is repeated; give "
                                          "each value once", spec, values[i]);
    memcpy(out, values, (size_t)*n * sizeof *out);
    return 0;
}

/* A list of card counts in the key's range [lo, hi] (spares from -1,
 * unlimited; standbys from 0) into out[*n]. */
static int parse_counts(const char *spec, const char *v, const char *what, double lo,
                        double hi, long *out, int *n, const tmc_experiment *x, tmc_error *err)
{
    double d[TMC_CHEAPEST_MAX_VALUES];
    if (!x->failures.enabled)
        return tmc_error_set(err, "--lever %s: the experiment has no failures; %s change "
                                  "nothing", spec, what);
    if (parse_list(spec, v, d, n, err))
        return -1;
    for (int i = 0; i < *n; i++) {
        if (d[i] != floor(d[i]) || d[i] < lo || d[i] > hi) {
            return tmc_error_set(err, "--lever %s: %.10g is not a count of %s (an integer "
                                      "in [%s, %s])", spec, d[i], what,
                                 tmc_config_bound_text(lo).s, tmc_config_bound_text(hi).s);
        }
        out[i] = (long)d[i];
    }
    return 0;
}

/* When every failure that takes hardware takes a whole node, a pool of
 * count[n] cards is whole nodes too, the loader's rule (tmc_pool_unit_cards,
 * config_checks.c); -1 (unlimited spares) passes. */
static int whole_counts(const char *spec, const char *what, const long *count, int n,
                        const tmc_experiment *x, tmc_error *err)
{
    long g = tmc_pool_unit_cards(&x->failures);
    for (int i = 0; i < n; i++)
        if (g > 1 && count[i] > 0 && count[i] % g)
            return tmc_error_set(err, "--lever %s: %ld %s are not whole nodes: every failure "
                                      "that takes hardware takes a node's %ld cards "
                                      "(failures.cards_per_node), so a remainder of %ld would "
                                      "shorten no wait, though billed; give multiples of g = %ld: 0, %ld, "
                                      "%ld, ...", spec, count[i], what, g, count[i] % g, g, g,
                                 2 * g);
    return 0;
}

static int parse_modes(const char *spec, const char *v, tmc_cheapest_levers *l, tmc_error *err)
{
    l->n_modes = 0;
    for (const char *p = v;; p += strcspn(p, ",") + 1) {
        size_t len = strcspn(p, ",");
        int async = len == 5 && !strncmp(p, "async", 5);
        if (!async && !(len == 4 && !strncmp(p, "sync", 4)))
            return tmc_error_set(err, "--lever %s: expected checkpoint.mode=sync,async (or "
                                      "one of them)", spec);
        if (l->n_modes == 2 || (l->n_modes == 1 && l->async[0] == async))
            return tmc_error_set(err, "--lever %s: a mode is named twice", spec);
        l->async[l->n_modes++] = async;
        if (p[len] == '\0')
            return 0;
    }
}

/* checkpoint.persistent_every=V1,...: integers in the key's range. */
static int parse_every(const char *spec, const char *v, tmc_cheapest_levers *l, tmc_error *err)
{
    double d[TMC_CHEAPEST_MAX_VALUES], lo, hi;
    int lo_open;
    tmc_config_key_bounds("checkpoint.persistent_every", &lo, &hi, &lo_open);
    if (parse_list(spec, v, d, &l->n_persistents, err))
        return -1;
    for (int i = 0; i < l->n_persistents; i++) {
        if (d[i] != floor(d[i]) || d[i] < lo || d[i] > hi)
            return tmc_error_set(err, "--lever %s: %.10g is not a number of snapshots (an "
                                      "integer in [%s, %s])", spec, d[i],
                                 tmc_config_bound_text(lo).s, tmc_config_bound_text(hi).s);
        l->persistents_n[i] = (long)d[i];
    }
    return 0;
}

/* Which lever `key` is, for the experiment x; -1 with err if none. */
static int classify(const char *spec, const char *key, const tmc_experiment *x,
                    const char *interval_key, tmc_error *err)
{
    static const char *const names[N_LEVERS] = {"job.cards", NULL, "failures.spares",
                                                "checkpoint.mode", "failures.standbys",
                                                "slowdown.refresh_hours",
                                                "checkpoint.persistent_every"};
    for (int k = 0; k < N_LEVERS; k++)
        if (!strcmp(key, k == INTERVAL ? interval_key : names[k])) {
            if (k == REFRESH && !x->slowdown.enabled)
                return tmc_error_set(err, "--lever %s: the experiment has no slowdown "
                                          "section; a refresh period changes nothing", spec);
            return k;
        }
    if (!strncmp(key, "checkpoint.interval_", 20))
        return tmc_error_set(err, "--lever %s: the experiment gives its interval as %s; "
                                  "name that key", spec, interval_key);
    return tmc_error_set(err, "--lever %s: not a lever; expected job.cards, %s, "
                              "failures.spares, failures.standbys, checkpoint.mode, "
                              "slowdown.refresh_hours or checkpoint.persistent_every (the "
                              "card type is not a key of an experiment: run once per type "
                              "with --set)", spec, interval_key);
}

static int parse_lever(const char *spec, tmc_cheapest_levers *l, const tmc_experiment *x,
                       tmc_error *err)
{
    char key[TMC_CHEAPEST_OVERRIDE_LEN];
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof key || !eq[1])
        return tmc_error_set(err, "--lever %s: expected KEY=VALUES", spec);
    snprintf(key, sizeof key, "%.*s", (int)(eq - spec), spec);
    int k = classify(spec, key, x, l->interval_key, err);
    if (k < 0)
        return -1;
    if (l->named[k])
        return tmc_error_set(err, "--lever %s: %s is named twice", spec, key);
    l->named[k] = 1;
    const char *v = eq + 1;
    double lo, hi; /* a count lever's bounds: its key's row */
    int lo_open;
    switch (k) {
    case CARDS:
        return parse_cards(spec, v, l, err);
    case INTERVAL:
        return parse_list(spec, v, l->intervals, &l->n_intervals, err);
    case REFRESH:
        return parse_list(spec, v, l->refreshes, &l->n_refreshes, err);
    case PERSISTENT:
        return parse_every(spec, v, l, err);
    case SPARES:
        tmc_config_key_bounds("failures.spares", &lo, &hi, &lo_open);
        return parse_counts(spec, v, "spares", lo, hi, l->spares, &l->n_spares, x, err) ||
               whole_counts(spec, "spares", l->spares, l->n_spares, x, err) ? -1 : 0;
    case STANDBYS:
        tmc_config_key_bounds("failures.standbys", &lo, &hi, &lo_open);
        return parse_counts(spec, v, "standbys", lo, hi, l->standbys, &l->n_standbys, x,
                            err) ||
               whole_counts(spec, "standbys", l->standbys, l->n_standbys, x, err)
                   ? -1 : 0;
    default:
        return parse_modes(spec, v, l, err);
    }
}

/* The levers not named: the experiment's own values; the cards from half
 * to twice its n = ceil(N / g) steps (nodes of g cards, or g = 1). */
static void default_levers(tmc_cheapest_levers *l, const tmc_experiment *x)
{
    if (!l->named[CARDS]) {
        long g = l->card_step, n = (x->job.cards + g - 1) / g, lo = (n + 1) / 2;
        l->cards_lo = lo * g;
        l->cards_hi = (2 * n > lo ? 2 * n : lo + 1) * g;
    }
    if (!l->named[INTERVAL]) {
        l->n_intervals = 1;
        l->intervals[0] = x->checkpoint.interval_steps > 0 ? (double)x->checkpoint.interval_steps
                                                           : x->checkpoint.interval_s;
    }
    if (!l->named[SPARES]) {
        l->n_spares = 1;
        l->spares[0] = x->failures.spares;
    }
    if (!l->named[STANDBYS]) {
        l->n_standbys = 1;
        l->standbys[0] = x->failures.standbys;
    }
    if (!l->named[MODE]) {
        l->n_modes = 1;
        l->async[0] = x->checkpoint.mode == TMC_SAVE_ASYNC;
    }
    if (!l->named[REFRESH]) {
        l->n_refreshes = 1;
        l->refreshes[0] = x->slowdown.enabled ? x->slowdown.refresh_hours : 0;
    }
    if (!l->named[PERSISTENT]) {
        l->n_persistents = 1;
        l->persistents_n[0] = x->checkpoint.persistent_every;
    }
}

/* "KEY=V" into o[TMC_CHEAPEST_OVERRIDE_LEN], V the shortest text that reads
 * back as v (16.38, not 16.379999999999999). */
static void format_assign(char *o, const char *key, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(o, TMC_CHEAPEST_OVERRIDE_LEN, "%s=%.0f", key, v);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(o, TMC_CHEAPEST_OVERRIDE_LEN, "%s=%.*g", key, digits, v);
        if (strtod(strchr(o, '=') + 1, NULL) == v)
            return;
    }
}

/* The overrides that switch x's saves to `async`: from sync, the copy
 * blocks (async_copy_s) and the whole save is written in the background;
 * from async, the write blocks. None when x is in that mode already. */
static int mode_overrides(tmc_cheapest_combo *cb, int async, const tmc_cheapest_levers *l,
                          const tmc_experiment *x, tmc_error *err)
{
    const tmc_checkpoint *cp = &x->checkpoint;
    int was_async = cp->mode == TMC_SAVE_ASYNC;
    if (async == was_async)
        return 0;
    if (async && isnan(l->async_copy_s))
        return tmc_error_set(err, "--lever checkpoint.mode: the experiment's saves are "
                                  "synchronous; give --async-copy-s S, the time an "
                                  "asynchronous save blocks training (its write then takes "
                                  "checkpoint.save_s)");
    char(*o)[TMC_CHEAPEST_OVERRIDE_LEN] = cb->overrides + cb->n_overrides;
    snprintf(o[0], sizeof o[0], "checkpoint.mode=%s", async ? "async" : "sync");
    format_assign(o[1], "checkpoint.save_s", async ? l->async_copy_s : cp->write_s);
    format_assign(o[2], "checkpoint.write_s", async ? cp->save_s : 0.0);
    cb->n_overrides += 3;
    return 0;
}

static void add_label(tmc_cheapest_combo *cb, const char *text)
{
    size_t used = strlen(cb->label);
    snprintf(cb->label + used, sizeof cb->label - used, "%s%s", used ? ", " : "", text);
}

/* Combination i of the grid (the mode varies fastest, then the spares, the
 * standbys, the interval, the refresh period and persistent_every). */
static int make_combo(tmc_cheapest *c, int i, tmc_error *err)
{
    const tmc_cheapest_levers *l = &c->levers;
    const tmc_experiment *x = &c->base.x;
    tmc_cheapest_combo *cb = &c->combos[i];
    int m = i % l->n_modes, s = i / l->n_modes % l->n_spares;
    int b = i / (l->n_modes * l->n_spares) % l->n_standbys;
    int v = i / (l->n_modes * l->n_spares * l->n_standbys) % l->n_intervals;
    int r = i / (l->n_modes * l->n_spares * l->n_standbys * l->n_intervals) % l->n_refreshes;
    int e = i / (l->n_modes * l->n_spares * l->n_standbys * l->n_intervals * l->n_refreshes);
    char text[TMC_CHEAPEST_OVERRIDE_LEN];
    memset(cb, 0, sizeof *cb);
    cb->cheapest = -1;
    format_assign(text, l->interval_key, l->intervals[v]);
    /* an interval by name ("daly", "optimal") is resolved per setting: not
     * pinned at the base's unless it is a lever */
    if (l->named[INTERVAL] || x->checkpoint.interval_rule == TMC_INTERVAL_GIVEN)
        snprintf(cb->overrides[cb->n_overrides++], TMC_CHEAPEST_OVERRIDE_LEN, "%s", text);
    if (l->named[INTERVAL])
        add_label(cb, text);
    if (x->failures.enabled) {
        snprintf(text, sizeof text, "failures.spares=%ld", l->spares[s]);
        snprintf(cb->overrides[cb->n_overrides++], TMC_CHEAPEST_OVERRIDE_LEN, "%s", text);
        if (l->named[SPARES])
            add_label(cb, text);
        snprintf(text, sizeof text, "failures.standbys=%ld", l->standbys[b]);
        snprintf(cb->overrides[cb->n_overrides++], TMC_CHEAPEST_OVERRIDE_LEN, "%s", text);
        if (l->named[STANDBYS])
            add_label(cb, text);
    }
    if (mode_overrides(cb, l->async[m], l, x, err))
        return -1;
    if (l->named[MODE])
        add_label(cb, l->async[m] ? "async" : "sync");
    if (l->named[REFRESH]) {
        format_assign(text, "slowdown.refresh_hours", l->refreshes[r]);
        snprintf(cb->overrides[cb->n_overrides++], TMC_CHEAPEST_OVERRIDE_LEN, "%s", text);
        add_label(cb, text);
    }
    if (l->named[PERSISTENT]) {
        snprintf(text, sizeof text, "checkpoint.persistent_every=%ld", l->persistents_n[e]);
        snprintf(cb->overrides[cb->n_overrides++], TMC_CHEAPEST_OVERRIDE_LEN, "%s", text);
        add_label(cb, text);
    }
    if (!cb->label[0])
        add_label(cb, "as given");
    return 0;
}

int tmc_cheapest_load(tmc_cheapest *c, const tmc_sweep_source *src, const char *const *sets,
                      int n_sets, const tmc_sweep_target *target, const char *const *lever,
                      int n_levers, double async_copy_s, tmc_error *err)
{
    memset(c, 0, sizeof *c);
    c->target = *target;
    c->source = *src;
    c->sets = sets;
    c->n_sets = n_sets;
    c->chosen = c->runner_up = -1;
    if (tmc_sweep_load_base_from(&c->base, src, sets, n_sets, NULL, 0, err) ||
        tmc_sweep_check_replicas(&c->base, err))
        return -1;
    const tmc_experiment *x = &c->base.x;
    tmc_cheapest_levers *l = &c->levers;
    l->async_copy_s = async_copy_s;
    /* a node's failure takes its g cards: plans hold whole nodes */
    l->card_step = x->failures.enabled && x->failures.cards_per_node > 0
        ? x->failures.cards_per_node : 1;
    snprintf(l->interval_key, sizeof l->interval_key, "%s",
             x->checkpoint.interval_steps > 0 ? "checkpoint.interval_steps"
                                              : "checkpoint.interval_s");
    for (int i = 0; i < n_levers; i++)
        if (parse_lever(lever[i], l, x, err))
            return -1;
    default_levers(l, x);
    if (!isnan(async_copy_s)) { /* only a switch from sync to async reads it */
        int needed = 0;
        for (int i = 0; l->named[MODE] && i < l->n_modes; i++)
            needed |= l->async[i] && x->checkpoint.mode != TMC_SAVE_ASYNC;
        if (!needed)
            return tmc_error_set(err, "--async-copy-s %.10g: it only matters with --lever "
                                      "checkpoint.mode=async (or sync,async) from a "
                                      "synchronous experiment, as the time an asynchronous "
                                      "save blocks training; %s: leave it out",
                                 async_copy_s,
                                 x->checkpoint.mode == TMC_SAVE_ASYNC
                                     ? "the experiment's saves are asynchronous already"
                                     : "no --lever checkpoint.mode names async");
    }
    c->n_combos = l->n_intervals * l->n_spares * l->n_standbys * l->n_modes * l->n_refreshes *
                  l->n_persistents;
    if (c->n_combos > TMC_CHEAPEST_MAX_COMBOS)
        return tmc_error_set(err, "--lever: %d intervals x %d spare counts x %d standby "
                                  "counts x %d modes x %d refresh periods x %d persistent "
                                  "levels = %d combinations; at most %d",
                             l->n_intervals, l->n_spares, l->n_standbys, l->n_modes,
                             l->n_refreshes, l->n_persistents, c->n_combos,
                             TMC_CHEAPEST_MAX_COMBOS);
    c->priced = x->cost.enabled;
    c->fresh_seed = x->monte_carlo.seed ^ TMC_CHEAPEST_FRESH_BIT;
    for (int i = 0; i < c->n_combos; i++) {
        tmc_sweep_setting s = {0}; /* owns nothing until loaded */
        int rc = make_combo(c, i, err) || tmc_cheapest_load_setting(c, i, l->cards_hi, &s, err);
        tmc_experiment_release(&s.x);
        if (rc)
            return -1;
    }
    return 0;
}

int tmc_cheapest_load_setting(tmc_cheapest *c, int combo, long cards, tmc_sweep_setting *s,
                              tmc_error *err)
{
    const tmc_cheapest_combo *cb = &c->combos[combo];
    const char *all[TMC_CHEAPEST_MAX_OVERRIDES + 80];
    static const char *const cards_key[] = {"job.cards"};
    if (c->n_sets + cb->n_overrides > (int)(sizeof all / sizeof all[0]))
        return tmc_error_set(err, "too many overrides");
    int n = 0;
    for (int i = 0; i < c->n_sets; i++)
        all[n++] = c->sets[i];
    for (int i = 0; i < cb->n_overrides; i++)
        all[n++] = cb->overrides[i];
    double v = (double)cards;
    tmc_experiment_release(&c->scratch.x); /* the previous combination's */
    if (tmc_sweep_load_base_from(&c->scratch, &c->source, all, n, cards_key, 1, err))
        return -1;
    return tmc_sweep_load_setting(&c->scratch, &v, s, err);
}
