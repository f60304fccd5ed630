/* sensitivity.c - the inputs of a sensitivity report, their ranges, the
 * compound case, and every setting loaded (sensitivity.h). Running and
 * comparing them is sensitivity_run.c's. */
#include "sensitivity.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "finishable.h"
#include "plan.h"
#include "number.h"

/* Sections whose keys only `trainmc plan` reads (docs/reference/experiment-keys.md):
 * moving one changes no simulated figure. */
static const char *const plan_only[] = {"model.", "memory.", "interconnect.", "storage.",
                                        "input_pipeline.", "batch.", "critical_batch.",
                                        "scale_up.", "cost."};

#define EXPOSED_KEY "job.exposed_comm_s"

/* ---------- inputs ---------- */

/* The value of the numeric key "SECTION.NAME" in x into *v: 0; 1 when its
 * section is off (null); -1 when x does not hold it. */
static int key_value(const tmc_experiment *x, const char *key, double *v)
{
    char section[TMC_SWEEP_KEY_LEN];
    const char *dot = strchr(key, '.');
    snprintf(section, sizeof section, "%.*s", dot ? (int)(dot - key) : 0, key);
    cJSON *doc = tmc_config_to_json(x);
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(doc, section);
    const char *rest = dot ? dot + 1 : NULL;
    long i;
    const char *name;
    if (tmc_config_split_cause_key(key, &i, &name)) {
        sec = i < INT_MAX ? cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sec, "causes"),
                                               (int)i) : NULL;
        rest = name;
    }
    const cJSON *item = rest ? cJSON_GetObjectItemCaseSensitive(sec, rest) : NULL;
    int rc = cJSON_IsNull(sec) ? 1 : cJSON_IsNumber(item) ? 0 : -1;
    if (!rc)
        *v = item->valuedouble;
    cJSON_Delete(doc);
    return rc;
}

/* The link input (prefetch working or failed) of x. 0, or -1 with err. */
static int link_key(const tmc_experiment *x, tmc_sensitivity_key *k, tmc_error *err)
{
    if (!x->model.enabled || !x->batch.enabled || !x->interconnect.enabled)
        return tmc_error_set(err, "%s: the link time comes from the model, batch and "
                                  "interconnect sections (docs/reference/experiment-keys.md, plan-only "
                                  "sections), which %s does not give all of", k->name,
                             x->path);
    k->n_keys = 2;
    k->keys[0] = TMC_SENSITIVITY_LINK;
    k->keys[1] = EXPOSED_KEY;
    k->base = k->b0 = x->interconnect.link_gb_per_s;
    k->e0 = x->job.exposed_comm_s;
    k->link_bytes = tmc_plan_link_bytes(&x->model, x->job.cards,
                                        tmc_plan_micro_batches(x->batch.sequences,
                                                               x->job.cards));
    return 0;
}

/* The input named name of experiment x into *k. 0, or -1 with err. */
static int identify(const tmc_experiment *x, const char *name, tmc_sensitivity_key *k,
                    tmc_error *err)
{
    memset(k, 0, sizeof *k);
    snprintf(k->name, sizeof k->name, "%s", name);
    if (!strcmp(name, TMC_SENSITIVITY_LINK) ||
        !strcmp(name, TMC_SENSITIVITY_LINK TMC_SENSITIVITY_PREFETCH_FAILED)) {
        k->kind = strchr(name, ':') ? TMC_SENSITIVITY_LINK_EXPOSED : TMC_SENSITIVITY_LINK_HIDDEN;
        return link_key(x, k, err);
    }
    tmc_key_kind kind = tmc_config_classify_key(name);
    if (kind == TMC_KEY_UNKNOWN)
        return tmc_error_set(err, "%s: not a key of an experiment; expected a numeric key "
                                  "(docs/reference/experiment-keys.md) such as job.efficiency, or %s "
                                  "(prefetch working) or %s%s", name, TMC_SENSITIVITY_LINK,
                             TMC_SENSITIVITY_LINK, TMC_SENSITIVITY_PREFETCH_FAILED);
    if (kind == TMC_KEY_OTHER)
        return tmc_error_set(err, "%s: not a numeric key (it holds a string or a choice)", name);
    if (!strncmp(name, "monte_carlo.", 12))
        return tmc_error_set(err, "%s: every setting runs the same replicas and seed (common "
                                  "random numbers); use --replicas and --seed", name);
    for (size_t i = 0; i < sizeof plan_only / sizeof plan_only[0]; i++)
        if (!strncmp(name, plan_only[i], strlen(plan_only[i])))
            return tmc_error_set(err, "%s: a plan-only key: the simulation does not read it, "
                                      "so it moves nothing (the link bandwidth is the input "
                                      "%s)", name, TMC_SENSITIVITY_LINK);
    if (tmc_sweep_check_pace_key(x, "", name, err)) /* it would swing nothing */
        return -1;
    k->kind = TMC_SENSITIVITY_KEY;
    k->n_keys = 1;
    k->keys[0] = k->name;
    int rc = key_value(x, name, &k->base);
    if (rc)
        return tmc_error_set(err, "%s: %s", name, rc > 0 ? "its section is off (null) in the "
                                  "experiment; moving it would turn the section on" :
                                  "the experiment gives no value for it");
    return 0;
}

/* The values of k's keys when the input is at v into out[k->n_keys]. */
static void key_values(const tmc_sensitivity_key *k, double v, double *out)
{
    out[0] = v;
    if (k->kind == TMC_SENSITIVITY_KEY)
        return;
    /* prefetch failed: the whole link is exposed, the part that never hides
     * included (it is part of the link's traffic, issue 14) */
    out[1] = k->kind == TMC_SENSITIVITY_LINK_EXPOSED ? k->link_bytes / (v * TMC_GB)
                                                    : k->e0 * k->b0 / v;
}

/* Run r: the file with sets[n_sets], then k's keys at the input's value v
 * (k NULL: none). 0, or -1 with err (the validation table's message). */
static int load_run(const tmc_sensitivity *s, const char *const *sets, int n_sets,
                    const tmc_sensitivity_key *k, double v, tmc_sensitivity_run *r,
                    tmc_error *err)
{
    double values[TMC_SWEEP_MAX_KEYS];
    if (k && k->kind != TMC_SENSITIVITY_KEY && !(v > 0))
        return tmc_error_set(err, "%s: %.10g GB/s; a link bandwidth must be above 0",
                             k->name, v);
    if (k)
        key_values(k, v, values);
    return tmc_sweep_load_base_from(&r->base, &s->source, sets, n_sets, k ? k->keys : NULL,
                                    k ? k->n_keys : 0, err) ||
           tmc_sweep_load_setting(&r->base, k ? values : NULL, &r->setting, err);
}

/* Add input name with its range and both ends loaded. 0, or -1 with err
 * (the input is listed either way, so a default can say why it is left). */
static int add_input(tmc_sensitivity *s, const char *name, double low, double high,
                     const char *source, tmc_error *err)
{
    tmc_sensitivity_input *in = &s->inputs[s->n_inputs++];
    memset(in, 0, sizeof *in);
    snprintf(in->key.name, sizeof in->key.name, "%s", name);
    in->low = low;
    in->high = high;
    snprintf(in->source, sizeof in->source, "%s", source);
    for (int i = 0; i < s->n_inputs - 1; i++)
        if (!strcmp(s->inputs[i].key.name, name))
            return tmc_error_set(err, "%s: named twice", name);
    if (identify(&s->base.setting.x, name, &in->key, err))
        return -1;
    for (int e = 0; e < 2; e++)
        if (load_run(s, s->sets, s->n_sets, &in->key, e ? high : low, &in->end[e], err))
            return -1;
    return 0;
}

/* A default input: when it does not apply to the experiment (no such
 * section, or the loader refuses its range), listed as skipped with why. */
static void add_default(tmc_sensitivity *s, const char *name, double low, double high,
                        const char *source)
{
    tmc_error err = {""};
    if (add_input(s, name, low, high, source, &err))
        snprintf(s->inputs[s->n_inputs - 1].skipped, sizeof s->inputs[0].skipped, "%s",
                 err.msg);
}

/* The default inputs and ranges (sensitivity.h, tmc_sensitivity_load). */
static void add_defaults(tmc_sensitivity *s)
{
    const tmc_experiment *x = &s->base.setting.x;
    double eff = x->job.efficiency, wait = x->job.input_wait_s;
    double link = x->interconnect.link_gb_per_s;
    add_default(s, "job.efficiency", 0.75 * eff, fmin(1, 1.075 * eff),
                "x0.75 (docs/model.md 5: 40 -> 30 %) to x1.075 (43 %, the best Llama 3 "
                "reports, docs/model.md 1), at most 1");
    add_default(s, TMC_SENSITIVITY_LINK, 0.5 * link, link,
                "x0.5 (docs/model.md 5: PCIe halved) to x1 (PCIe 4.0 x16, the card's own "
                "link); prefetch working");
    add_default(s, TMC_SENSITIVITY_LINK TMC_SENSITIVITY_PREFETCH_FAILED, 0.5 * link, link,
                "x0.5 to x1, as above, with prefetch failed: the whole link time exposed "
                "(docs/model.md 5)");
    add_default(s, "job.input_wait_s", 0, wait > 0 ? 10 * wait : 5,
                "0 (prefetch hides it all) to x10 (docs/model.md 4, 5: 0.5 -> 5 s; 5 s when "
                "the base is 0)");
    add_default(s, "jitter.cv", 0, 0.05,
                "0 to 0.05 (docs/model.md 2's worked example: sigma 5 % of mu)");
    add_default(s, "failures.per_card_mtbf_days", 0.5 * x->failures.per_card_mtbf_days,
                2 * x->failures.per_card_mtbf_days,
                "x0.5 to x2 (docs/model.md 3.1's 337 d is one cluster's figure)");
    /* two levels: a persistent save or restore no faster than a local one
     * (the loader's rule), and the local ones x0.5 to x2, no dearer */
    const tmc_checkpoint *cp = &x->checkpoint;
    int levels = cp->persistent_every > 1;
    double c = cp->save_s, r = cp->restore_s;
    double c1 = levels && cp->local_save_s >= 0 ? cp->local_save_s : 0;
    double r1 = levels && cp->local_restore_s >= 0 ? cp->local_restore_s : 0;
    add_default(s, "checkpoint.save_s", fmax(0.5 * c, c1), 2 * c,
                c1 > 0.5 * c ? "x0.5 to x2, not below the local save (docs/model.md 3.2, "
                               "3.23)"
                             : "x0.5 to x2 (docs/model.md 3.2: 114.7 GB at 14 to 3.5 GB/s "
                               "for the design)");
    add_default(s, "checkpoint.restore_s", fmax(0.5 * r, r1), 2 * r,
                r1 > 0.5 * r ? "x0.5 to x2, not below the local restore (docs/model.md 3.2, "
                               "3.23)"
                             : "x0.5 to x2 (docs/model.md 3.2's 120 s)");
    if (levels && c1 > 0)
        add_default(s, "checkpoint.local_save_s", 0.5 * c1, fmin(2 * c1, c),
                    "x0.5 to x2, no dearer than the persistent save (docs/model.md 3.23)");
    if (levels && r1 > 0)
        add_default(s, "checkpoint.local_restore_s", 0.5 * r1, fmin(2 * r1, r),
                    "x0.5 to x2, no dearer than the persistent restore (docs/model.md 3.23)");
}

/* The inputs of the --inputs file. 0, or -1 with err. */
static int add_file_inputs(tmc_sensitivity *s, tmc_error *err)
{
    tmc_sensitivity_range r[TMC_SENSITIVITY_MAX_RANGES];
    int n = tmc_sensitivity_read_inputs(s->inputs_path, r, err);
    char source[sizeof s->inputs[0].source];
    snprintf(source, sizeof source, "--inputs %s", s->inputs_path);
    for (int i = 0; i < n; i++)
        if (add_input(s, r[i].name, r[i].low, r[i].high, source, err)) {
            char why[sizeof err->msg];
            snprintf(why, sizeof why, "%s", err->msg);
            return tmc_error_set(err, "--inputs %s: %s", s->inputs_path, why);
        }
    return n < 0 ? -1 : 0;
}

/* ---------- the compound case ---------- */

/* "NAME=VALUE" into degradation d (NAME identified, VALUE a number). 0, or
 * -1 with err. */
static int parse_degradation(const tmc_sensitivity *s, const char *item, size_t len,
                             tmc_sensitivity_degradation *d, tmc_error *err)
{
    char text[TMC_SWEEP_KEY_LEN + 64];
    if (len >= sizeof text)
        return tmc_error_set(err, "'%.40s...': too long", item);
    snprintf(text, sizeof text, "%.*s", (int)len, item);
    char *eq = strchr(text, '=');
    if (!eq || eq == text)
        return tmc_error_set(err, "'%s': expected NAME=VALUE", text);
    *eq = '\0';
    if (tmc_number_parse(eq + 1, &d->value)) /* decimal only (number.h) */
        return tmc_error_set(err, "%s: '%s' is not a number", text, eq + 1);
    return identify(&s->base.setting.x, text, &d->key, err);
}

/* 1 when degradations a and b set a key in common. */
static int overlap(const tmc_sensitivity_key *a, const tmc_sensitivity_key *b)
{
    for (int i = 0; i < a->n_keys; i++)
        for (int j = 0; j < b->n_keys; j++)
            if (!strcmp(a->keys[i], b->keys[j]))
                return 1;
    return 0;
}

/* s->degradations from "NAME=VALUE,...". 0, or -1 with err (no prefix). */
static int parse_compound(tmc_sensitivity *s, tmc_error *err)
{
    const char *list = s->compound_text;
    for (const char *p = list;; p += strcspn(p, ",") + 1) {
        size_t len = strcspn(p, ",");
        tmc_sensitivity_degradation *d = &s->degradations[s->n_degradations];
        if (s->n_degradations == TMC_SENSITIVITY_MAX_COMPOUND)
            return tmc_error_set(err, "more than %d degradations",
                                 TMC_SENSITIVITY_MAX_COMPOUND);
        if (parse_degradation(s, p, len, d, err))
            return -1;
        for (int i = 0; i < s->n_degradations; i++)
            if (overlap(&s->degradations[i].key, &d->key))
                return tmc_error_set(err, "%s and %s set the same key", d->key.name,
                                     s->degradations[i].key.name);
        s->n_degradations++;
        if (p[len] == '\0')
            return 0;
    }
}

/* The overrides of the compound: the user's, then each degradation's keys
 * at its value. 0, or -1 with err. */
static int compound_sets(tmc_sensitivity *s, tmc_error *err)
{
    int n = 0;
    s->compound_sets = malloc((size_t)(s->n_sets + TMC_SWEEP_MAX_KEYS * s->n_degradations) *
                              sizeof *s->compound_sets);
    if (!s->compound_sets)
        return tmc_error_set(err, "out of memory");
    for (int i = 0; i < s->n_sets; i++)
        s->compound_sets[n++] = s->sets[i];
    for (int i = 0, a = 0; i < s->n_degradations; i++) {
        const tmc_sensitivity_key *k = &s->degradations[i].key;
        double values[TMC_SWEEP_MAX_KEYS];
        key_values(k, s->degradations[i].value, values);
        for (int j = 0; j < k->n_keys; j++, a++) {
            snprintf(s->compound_assign[a], sizeof s->compound_assign[a], "%s=%.17g",
                     k->keys[j], values[j]);
            s->compound_sets[n++] = s->compound_assign[a];
        }
    }
    return n;
}

/* The compound's settings: all degradations at once, each alone, and the
 * compound with each fixed. 0, or -1 with err (no prefix). */
static int load_compound(tmc_sensitivity *s, tmc_error *err)
{
    int n;
    if (parse_compound(s, err) || (n = compound_sets(s, err)) < 0 ||
        load_run(s, s->compound_sets, n, NULL, 0, &s->compound, err))
        return -1;
    for (int i = 0; i < s->n_degradations; i++) {
        tmc_sensitivity_degradation *d = &s->degradations[i];
        if (load_run(s, s->sets, s->n_sets, &d->key, d->value, &d->alone, err) ||
            load_run(s, s->compound_sets, n, &d->key, d->key.base, &d->fixed, err))
            return -1;
    }
    return 0;
}

/* ---------- the whole ---------- */

int tmc_sensitivity_load(tmc_sensitivity *s, const tmc_sweep_source *src,
                         const char *const *sets, int n_sets, const char *inputs_path,
                         const char *compound, tmc_error *err)
{
    memset(s, 0, sizeof *s);
    s->source = *src;
    s->sets = sets;
    s->n_sets = n_sets;
    s->inputs_path = inputs_path;
    s->compound_text = compound;
    if (load_run(s, sets, n_sets, NULL, 0, &s->base, err) ||
        tmc_sweep_check_replicas(&s->base.base, err))
        return -1;
    if (inputs_path && add_file_inputs(s, err))
        return -1;
    if (!inputs_path)
        add_defaults(s);
    if (compound && load_compound(s, err)) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return tmc_error_set(err, "--compound %s: %s", compound, why);
    }
    tmc_sensitivity_run *runs[TMC_SENSITIVITY_MAX_RUNS];
    double kept = (double)tmc_sensitivity_list_runs(s, runs) *
                  (double)s->base.setting.x.monte_carlo.replicas;
    if (kept > TMC_SWEEP_MAX_DOUBLES)
        return tmc_error_set(err, "%.4g completion times to keep for the differences; at "
                                  "most %ld (2 GiB): use fewer replicas or inputs", kept,
                             TMC_SWEEP_MAX_DOUBLES);
    return 0;
}

void tmc_sensitivity_skip_unrunnable(tmc_sensitivity *s, int force)
{
    if (s->inputs_path)
        return;
    for (int i = 0; i < s->n_inputs; i++) {
        tmc_sensitivity_input *in = &s->inputs[i];
        for (int e = 0; e < 2 && !in->skipped[0]; e++) {
            const tmc_sweep_setting *st = &in->end[e].setting;
            /* the skipped line holds the label (300) and the reason */
            char why[sizeof in->skipped - sizeof st->label - 2];
            if (!force && tmc_plan_feasibility(&st->x, why, sizeof why) == 0)
                snprintf(in->skipped, sizeof in->skipped, "%s: the training state does not "
                         "fit in memory (see `trainmc plan`)", st->label);
            else if (tmc_finishable_check(&st->x, why, sizeof why) > 0)
                snprintf(in->skipped, sizeof in->skipped, "%s: %s", st->label, why);
        }
    }
}
