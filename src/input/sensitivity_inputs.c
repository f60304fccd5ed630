/* sensitivity_inputs.c - the --inputs file of `trainmc sensitivity`
 * (sensitivity_inputs.h), read and parsed as the experiment files are
 * (config_internal.h: a small regular text file, JSON with line and column
 * in its syntax errors). */
#include "sensitivity_inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "config_internal.h"
#include "text.h"

/* One member "NAME": [LOW, HIGH] into *r. 0, or -1 with err. */
static int read_range(const cJSON *c, const char *label, tmc_sensitivity_range *r,
                      tmc_error *err)
{
    const cJSON *lo = cJSON_GetArrayItem(c, 0), *hi = cJSON_GetArrayItem(c, 1);
    if (strlen(c->string) >= sizeof r->name)
        return tmc_error_set(err, "%s: '%.40s...': name too long", label, c->string);
    if (tmc_text_require(c->string, label, "a name", err)) /* it is printed: text.h */
        return -1;
    if (!cJSON_IsArray(c) || cJSON_GetArraySize(c) != 2 || !cJSON_IsNumber(lo) ||
        !cJSON_IsNumber(hi) || !isfinite(lo->valuedouble) || !isfinite(hi->valuedouble))
        return tmc_error_set(err, "%s: %s: expected [LOW, HIGH], two finite numbers", label,
                             c->string);
    if (lo->valuedouble > hi->valuedouble)
        return tmc_error_set(err, "%s: %s: low %.10g is above high %.10g; expected "
                                  "[LOW, HIGH] with LOW <= HIGH", label, c->string,
                             lo->valuedouble, hi->valuedouble);
    snprintf(r->name, sizeof r->name, "%s", c->string);
    r->low = lo->valuedouble;
    r->high = hi->valuedouble;
    return 0;
}

/* The ranges of the parsed object root into out. The count, or -1. */
static int read_ranges(const cJSON *root, const char *label, tmc_sensitivity_range *out,
                       tmc_error *err)
{
    int n = 0;
    for (const cJSON *c = root->child; c; c = c->next) {
        for (const cJSON *p = root->child; p != c; p = p->next)
            if (!strcmp(p->string, c->string))
                return tmc_error_set(err, "%s: %s: named twice", label, c->string);
        if (n == TMC_SENSITIVITY_MAX_RANGES)
            return tmc_error_set(err, "%s: more than %d inputs", label,
                                 TMC_SENSITIVITY_MAX_RANGES);
        if (read_range(c, label, &out[n++], err))
            return -1;
    }
    if (n == 0)
        return tmc_error_set(err, "%s: no inputs; expected {\"KEY\": [LOW, HIGH], ...}", label);
    return n;
}

int tmc_sensitivity_read_inputs(const char *path, tmc_sensitivity_range *out, tmc_error *err)
{
    char label[TMC_PATH_MAX + 16], *text = NULL;
    snprintf(label, sizeof label, "--inputs %s", path);
    if (tmc_cfg_read_text(path, &text, err)) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return tmc_error_set(err, "--inputs %s", why);
    }
    cJSON *root = tmc_cfg_parse_object(text, label, err);
    free(text);
    if (!root)
        return -1;
    int n = read_ranges(root, label, out, err);
    cJSON_Delete(root);
    return n;
}
