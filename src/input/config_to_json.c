/* config_to_json.c - the validated experiment written back as JSON, so that a
 * result file records exactly what ran.
 *
 * Invariants: every section of the validation table appears, with every
 * key's value in force (defaults included) under the key's own name; a
 * process that is off is null; a replayed trace appears as its times
 * (trace_days), and the mean interval it replaces is left out; of the
 * checkpoint interval's two keys only the one given appears (the other holds
 * 0, which validation would refuse: the JSON must read back as the same
 * experiment); text keys other than name and source (and a cause's name)
 * are not echoed. */
#include "config_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static cJSON *field_json(const field *f, const char *base)
{
    const void *at = base + f->off;
    switch (f->type) {
    case T_NUM: return cJSON_CreateNumber(*(const double *)at);
    case T_INT: return cJSON_CreateNumber((double)*(const long *)at);
    case T_ENUM: return cJSON_CreateString(f->choices[*(const int *)at]);
    case T_BOOL: return cJSON_CreateBool(*(const int *)at);
    case T_U64: {
        char digits[24]; /* raw: cJSON would round a 2^53-scale integer */
        snprintf(digits, sizeof digits, "%llu", (unsigned long long)*(const uint64_t *)at);
        return cJSON_CreateRaw(digits);
    }
    default: return NULL; /* text keys are not echoed; causes: causes_json */
    }
}

/* A replayed trace's times, days (NULL when there is none). */
static cJSON *trace_json(const char *at)
{
    int n = *(const int *)(const void *)at;
    const char *gap = at + TMC_CFG_TRACE_GAP(tmc_failures);
    const double *days = *(const double *const *)(const void *)gap;
    return n > 0 ? cJSON_CreateDoubleArray(days, n) : NULL;
}

/* failures.burst_weights as given (NULL when not given). */
static cJSON *weights_json(const char *at)
{
    int n = *(const int *)(const void *)at;
    const double *w = (const double *)(const void *)(at + offsetof(tmc_failures, burst_weights) -
                                                     offsetof(tmc_failures, n_burst_weights));
    return n > 0 ? cJSON_CreateDoubleArray(w, n) : NULL;
}

/* 1 for a number left "not given" (def_unset) whose stand-in lies outside
 * its range (-1 for a time that defaults to another key's, 0 for a mean
 * that must be > 0 when given): written back it would be refused on
 * reload. */
static int sentinel_not_given(const field *f, const char *base)
{
    if (!(f->type == T_NUM && f->def_unset))
        return 0;
    double v = *(const double *)(const void *)(base + f->off);
    return v < f->lo || (f->lo_open && v <= f->lo);
}

/* failures.causes, every key in force; one left unset (a share, or a
 * restore_s left to the checkpoint's) is left out (NULL when there are no causes). */
static cJSON *causes_json(const char *at)
{
    int n = *(const int *)(const void *)at;
    const tmc_failure_cause *c = (const tmc_failure_cause *)(const void *)(
        at + offsetof(tmc_failures, causes) - offsetof(tmc_failures, n_causes));
    if (n <= 0)
        return NULL;
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", c[i].name);
        for (size_t j = 0; j < tmc_cfg_cause.n_fields; j++) {
            const field *f = &tmc_cfg_cause.fields[j];
            if (sentinel_not_given(f, (const char *)&c[i])) /* a share, restore_s */
                continue;
            cJSON *v = field_json(f, (const char *)&c[i]);
            if (v)
                cJSON_AddItemToObject(o, f->key, v);
        }
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* 1 for the checkpoint interval key that was not given (it holds 0). */
static int interval_not_given(const section *sec, const field *f, const char *base)
{
    if (strcmp(sec->name, "checkpoint") != 0)
        return 0;
    const void *at = base + f->off;
    return (!strcmp(f->key, "interval_s") && *(const double *)at == 0) ||
           (!strcmp(f->key, "interval_steps") && *(const long *)at == 0);
}

/* The name ("young", "daly") of checkpoint.interval_s given by name, or NULL:
 * written back as given, so the interval follows the rates again on reload. */
static const char *interval_by_name(const section *sec, const field *f, const char *base)
{
    if (strcmp(sec->name, "checkpoint") != 0 || strcmp(f->key, "interval_s") != 0)
        return NULL;
    const tmc_checkpoint *cp = (const void *)base;
    return tmc_config_interval_rule_name(cp->interval_rule);
}

/* 1 for a failures key of docs/model.md 3.13 that was not given (it holds 0,
 * which validation would refuse), and for per_card_mtbf_days left out
 * beside per-node or per-job rates. */
static int scoped_not_given(const section *sec, const field *f, const char *base)
{
    if (strcmp(sec->name, "failures") != 0)
        return 0;
    const void *at = base + f->off;
    if (!strcmp(f->key, "per_node_mtbf_days") || !strcmp(f->key, "per_job_mtbf_days") ||
        !strcmp(f->key, "per_card_mtbf_days") || !strcmp(f->key, "bad_node_mtbf_days"))
        return *(const double *)at == 0;
    if (!strcmp(f->key, "cards_per_node") || !strcmp(f->key, "measured_cards"))
        return *(const long *)at == 0;
    return 0;
}


/* 1 if section `sec` at `base` replays a trace. */
static int traced(const section *sec, const char *base)
{
    int n = 0;
    for (size_t j = 0; j < sec->n_fields; j++)
        if (sec->fields[j].type == T_TRACE)
            n = *(const int *)(const void *)(base + sec->fields[j].off);
    return n > 0;
}

static void add_section(cJSON *obj, const section *sec, const char *base)
{
    int replayed = traced(sec, base);
    for (size_t j = 0; j < sec->n_fields; j++) {
        const field *f = &sec->fields[j];
        /* a replayed trace records its times; the mean it replaces is unset */
        if (replayed && (!strcmp(f->key, "mean_interval_days") ||
                         !strcmp(f->key, "per_card_mtbf_days")))
            continue;
        if (interval_not_given(sec, f, base) || scoped_not_given(sec, f, base) ||
            sentinel_not_given(f, base))
            continue;
        const char *name = interval_by_name(sec, f, base);
        cJSON *v = f->type == T_TRACE ? trace_json(base + f->off)
                 : f->type == T_CAUSES ? causes_json(base + f->off)
                 : f->type == T_WEIGHTS ? weights_json(base + f->off)
                 : name                ? cJSON_CreateString(name)
                                       : field_json(f, base);
        if (v)
            cJSON_AddItemToObject(obj, f->type == T_TRACE ? "trace_days" : f->key, v);
    }
}

cJSON *tmc_config_to_json(const tmc_experiment *x)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", x->name);
    cJSON_AddStringToObject(root, "source", x->source);
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++) {
        const section *sec = &tmc_cfg_sections[i];
        const char *base = (const char *)x + sec->off;
        if (sec->enabled >= 0 && !*(const int *)(const void *)(base + sec->enabled))
            cJSON_AddNullToObject(root, sec->name);
        else
            add_section(cJSON_AddObjectToObject(root, sec->name), sec, base);
    }
    return root;
}

/* The row of section sec named key, or NULL. */
static const field *find_field(const section *sec, const char *key)
{
    for (size_t j = 0; j < sec->n_fields; j++)
        if (!strcmp(sec->fields[j].key, key))
            return &sec->fields[j];
    return NULL;
}

static int holds_default(const field *f, const char *base)
{
    const void *at = base + f->off;
    switch (f->type) {
    case T_NUM: return *(const double *)at == f->def;
    case T_INT: return *(const long *)at == (long)f->def;
    case T_U64: return *(const uint64_t *)at == (uint64_t)f->def;
    case T_ENUM: return *(const int *)at == 0;
    case T_BOOL: return (*(const int *)at != 0) == (f->def != 0);
    default: return 0;
    }
}

int tmc_config_key_is_default(const tmc_experiment *x, const char *section_name,
                              const char *key)
{
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++) {
        const section *sec = &tmc_cfg_sections[i];
        if (strcmp(sec->name, section_name) != 0)
            continue;
        const field *f = find_field(sec, key);
        return f && !f->required && holds_default(f, (const char *)x + sec->off);
    }
    return 0;
}
