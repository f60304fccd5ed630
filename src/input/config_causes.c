/* config_causes.c - failures.causes: the causes of card failures, each with
 * its share of the failure rate, detection delay and restore time.
 *
 * Invariants: 1 to TMC_MAX_CAUSES causes, every one a valid row of the
 * cause table (config_fields.c) with a non-empty name; per part (card,
 * node, job, burst) their shares add to 1 within 1e-6, or to 0 (check_scoped
 * refuses a part with a rate that no cause strikes); n_causes is set only
 * when all of them passed. */
#include "config_internal.h"

#include <math.h>
#include <stdio.h>

/* prefix + "name" into buf[n]: the cause's name key by its JSON path. */
static const char *name_path(const char *prefix, char *buf, size_t n)
{
    snprintf(buf, n, "%sname", prefix);
    return buf;
}

/* A cause's share of each part: its own (card_share, ...), else share,
 * else 0; added to total[part]. 0, or -1 when it gives no share at all. */
static int part_shares(tmc_failure_cause *c, const char *label, const char *prefix,
                       double *total, tmc_error *err)
{
    const double own[TMC_FAILURE_PARTS] = {c->card_share, c->node_share, c->job_share,
                                           c->burst_share};
    if (c->share < 0 && own[0] < 0 && own[1] < 0 && own[2] < 0 && own[3] < 0)
        return tmc_error_set(err, "%s: %sshare: missing required key (its share of every "
                                  "part's failures, in [0, 1]; or card_share, node_share, "
                                  "job_share and burst_share, one part each)", label, prefix);
    for (int p = 0; p < TMC_FAILURE_PARTS; p++) {
        c->part_share[p] = own[p] >= 0 ? own[p] : c->share >= 0 ? c->share : 0;
        total[p] += c->part_share[p];
    }
    return 0;
}

/* n_causes is at `at`, followed in memory by the causes array. */
int tmc_cfg_read_causes(const cJSON *v, const char *label, const char *path, void *at,
                        tmc_error *err)
{
    int *n = at;
    tmc_failure_cause *c = (tmc_failure_cause *)(void *)((char *)at +
                           offsetof(tmc_failures, causes) - offsetof(tmc_failures, n_causes));
    int count = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (count < 1 || count > TMC_MAX_CAUSES)
        return tmc_error_set(err, "%s: %s: expected an array of 1 to %d cause objects, got %s",
                             label, path, TMC_MAX_CAUSES, tmc_cfg_value_text(v).s);
    double total[TMC_FAILURE_PARTS] = {0};
    for (int i = 0; i < count; i++) {
        const cJSON *o = cJSON_GetArrayItem(v, i);
        char prefix[300], name[320];
        snprintf(prefix, sizeof prefix, "%s[%d].", path, i);
        if (!cJSON_IsObject(o))
            return tmc_error_set(err, "%s: %s[%d]: expected an object, got %s", label, path,
                                 i, tmc_cfg_value_text(o).s);
        if (tmc_cfg_read_fields(&tmc_cfg_cause, o, label, NULL, prefix, (char *)&c[i], NULL,
                                err) ||
            tmc_cfg_read_string_at(o, "name", name_path(prefix, name, sizeof name), 1,
                                   c[i].name, sizeof c[i].name, label, err))
            return -1;
        if (part_shares(&c[i], label, prefix, total, err))
            return -1;
    }
    static const char *const parts[] = {"card", "node", "job", "burst"};
    for (int p = 0; p < TMC_FAILURE_PARTS; p++)
        if (total[p] != 0 && fabs(total[p] - 1) > 1e-6)
            return tmc_error_set(err, "%s: %s: the shares of %s failures add to %.10g; they "
                                      "must add to 1 (or to 0: no cause strikes that part)",
                                 label, path, parts[p], total[p]);
    *n = count;
    return 0;
}
