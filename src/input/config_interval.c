/* config_interval.c - checkpoint.interval_s by name (issue 34 part 5):
 * "young" or "daly" asks for the closed form's optimum interval for the
 * experiment's own interruptions (closed_form.h: young_interval_s and
 * daly_interval_s, from the save time and M), so that a sweep over the
 * cards or the MTBF moves the interval with the failure rate. "optimal"
 * starts from Daly's here; the batch layer replaces it by the simulated
 * optimum before a run (batch/interval_search.h).
 *
 * The name is read from the document after the overrides, and a
 * placeholder number takes its place, so the key table reads and checks
 * the section as usual; once every section is read, the interval is
 * resolved, before the rules across keys see it. */
#include "config_internal.h"
#include "closed_form.h"

#include <math.h>
#include <string.h>

static const char *const rule_names[] = {NULL, "young", "daly", "optimal"};

const char *tmc_config_interval_rule_name(tmc_interval_rule rule)
{
    return rule_names[rule];
}

int tmc_cfg_interval_read(cJSON *root, const char *label, tmc_interval_rule *rule,
                          tmc_error *err)
{
    cJSON *cp = cJSON_GetObjectItemCaseSensitive(root, "checkpoint");
    cJSON *v = cJSON_IsObject(cp) ? cJSON_GetObjectItemCaseSensitive(cp, "interval_s") : NULL;
    *rule = TMC_INTERVAL_GIVEN;
    if (!cJSON_IsString(v))
        return 0; /* a number, or absent: the key table's */
    for (int r = TMC_INTERVAL_YOUNG; r <= TMC_INTERVAL_OPTIMAL; r++)
        if (!strcmp(v->valuestring, rule_names[r])) {
            *rule = (tmc_interval_rule)r;
            cJSON *placeholder = cJSON_CreateNumber(1);
            return placeholder && cJSON_ReplaceItemInObjectCaseSensitive(cp, "interval_s",
                                                                         placeholder)
                       ? 0 : tmc_error_set(err, "out of memory");
        }
    return tmc_error_set(err, "%s: checkpoint.interval_s: \"%.60s\" is not a name; expected "
                              "\"young\" or \"daly\" (the closed form's optimum), \"optimal\" "
                              "(the simulated one) or %s (seconds)", label, v->valuestring,
                         tmc_cfg_range_of("checkpoint", "interval_s").s);
}

void tmc_cfg_interval_resolve(tmc_experiment *x, tmc_interval_rule rule)
{
    x->checkpoint.interval_rule = rule;
    if (rule == TMC_INTERVAL_GIVEN)
        return;
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    double opt = rule == TMC_INTERVAL_YOUNG ? cf.young_interval_s : cf.daly_interval_s;
    tmc_levels_form lf; /* two levels: the two-level form's for the given m, both names */
    tmc_closed_form_levels(x, &cf, &lf);
    if (lf.enabled)
        opt = tmc_closed_form_levels_interval(&lf, lf.m);
    /* nothing interrupts (M infinite) or the optimum is past the run: one
     * save, at its end */
    x->checkpoint.interval_s = isfinite(opt) && opt < cf.failure_free_s ? opt
                                                                        : cf.failure_free_s;
}
