/* sacct_output.c - `trainmc fit --sacct`'s reports and experiment fragment
 * (sacct_output.h). */
#include "sacct_output.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HOURS_PER_DAY 24.0
#define MAX_JOBS_LISTED 20 /* the text lists this many jobs; --json every one */

/* v as %.<prec>g in b, or "-" when it is not defined (NaN, inf). */
static const char *num(char b[32], double v, int prec)
{
    if (isfinite(v))
        snprintf(b, 32, "%.*g", prec, v);
    else
        snprintf(b, 32, isinf(v) ? "inf" : "-");
    return b;
}

/* The states the table in use maps to cause c, ", "-separated, into b. */
static const char *states_of(char *b, size_t cap, const tmc_sacct_map *m, int c)
{
    b[0] = '\0';
    for (int i = 0; i < m->n; i++)
        if ((int)m->row[i].cause == c) {
            size_t len = strlen(b);
            snprintf(b + len, cap - len, "%s%s", len ? ", " : "", m->row[i].state);
        }
    if (!b[0])
        snprintf(b, cap, "(none)");
    return b;
}

/* ---------- the fragment ---------- */

static const char *const rate_unit[TMC_SACCT_RATES] = {"node-hours", "job-hours",
                                                        "job-hours"};

cJSON *tmc_sacct_output_fragment(const tmc_sacct_report *p)
{
    const tmc_sacct_fit *r = p->fit;
    const tmc_sacct_rate *node = &r->rate[TMC_SACCT_NODE], *job = &r->rate[TMC_SACCT_JOB],
                         *out = &r->rate[TMC_SACCT_OUTAGE];
    cJSON *root = cJSON_CreateObject();
    char source[1024], desc[2048];
    snprintf(source, sizeof source, "trainmc fit --sacct of %s: %d allocations of %d jobs, "
             "%.6g job-hours, %.6g node-hours", p->path, r->n_alloc, r->n_jobs, r->job_hours,
             r->node_hours);
    cJSON_AddStringToObject(root, "source", source);
    if (node->count || job->count) {
        cJSON *f = cJSON_AddObjectToObject(root, "failures");
        cJSON_AddStringToObject(f, "distribution", "exponential");
        if (node->count) {
            /* a node's MTBF: node-hours over node failures, in days */
            cJSON_AddNumberToObject(f, "per_node_mtbf_days", node->mean_hours / HOURS_PER_DAY);
            if (p->cards_per_node)
                cJSON_AddNumberToObject(f, "cards_per_node", (double)p->cards_per_node);
        }
        if (job->count)
            cJSON_AddNumberToObject(f, "per_job_mtbf_days", job->mean_hours / HOURS_PER_DAY);
        cJSON_AddStringToObject(f, "source", source);
        char b[6][32];
        snprintf(desc, sizeof desc, "node failures: %d over %.6g node-hours, a node's MTBF "
                 "%s h [%s, %s] (%g %% Garwood); the job's own failures: %d over %.6g "
                 "job-hours, %s h [%s, %s]", node->count, node->exposure_hours,
                 num(b[0], node->mean_hours, 4), num(b[1], node->mean_lo, 4),
                 num(b[2], node->mean_hi, 4), 100 * r->confidence, job->count,
                 job->exposure_hours, num(b[3], job->mean_hours, 4),
                 num(b[4], job->mean_lo, 4), num(b[5], job->mean_hi, 4));
        cJSON_AddStringToObject(f, "description", desc);
    }
    if (out->count) {
        cJSON *o = cJSON_AddObjectToObject(root, "outages");
        cJSON_AddNumberToObject(o, "mean_interval_days", out->mean_hours / HOURS_PER_DAY);
        cJSON_AddNumberToObject(o, "mtbf_events", out->count);
        const tmc_sacct_hours *w = &r->waits_by[TMC_SACCT_OUTAGE];
        if (w->n) { /* the requeue wait after an outage: the closest key is its downtime */
            cJSON_AddNumberToObject(o, "downtime_s", 3600 * w->mean);
            if (w->n > 1 && w->mean > 0)
                cJSON_AddNumberToObject(o, "downtime_cv", fmin(w->sd / w->mean, 20));
        }
    }
    if (r->timeout.n) {
        cJSON *t = cJSON_AddObjectToObject(root, "time_limit");
        cJSON_AddNumberToObject(t, "wall_hours", r->timeout.median);
        const tmc_sacct_hours *w = &r->waits_by[TMC_SACCT_TIME_LIMIT];
        if (w->n)
            cJSON_AddNumberToObject(t, "requeue_s", 3600 * w->mean);
    }
    return root;
}

/* ---------- text ---------- */

/* The fragment's numbers as "section.key value, ..." (the keys line). */
static void keys_text(FILE *f, const cJSON *frag)
{
    int first = 1;
    for (const cJSON *s = frag->child; s; s = s->next)
        for (const cJSON *k = cJSON_IsObject(s) ? s->child : NULL; k; k = k->next)
            if (cJSON_IsNumber(k)) {
                fprintf(f, "%s%s.%s %.4g", first ? "" : ", ", s->string, k->string,
                        k->valuedouble);
                first = 0;
            }
    if (first)
        fprintf(f, "none (no interruption and no time limit in the log)");
}

static void hours_text(FILE *f, const tmc_sacct_hours *h)
{
    char b[6][32];
    fprintf(f, "mean %s h (sd %s), median %s, 10 %% %s, 90 %% %s, max %s", num(b[0], h->mean, 4),
            num(b[1], h->sd, 3), num(b[2], h->median, 4), num(b[3], h->q10, 4),
            num(b[4], h->q90, 4), num(b[5], h->max, 4));
}

void tmc_sacct_output_text(FILE *f, const tmc_sacct_report *p)
{
    const tmc_sacct_fit *r = p->fit;
    const tmc_sacct_log *log = p->log;
    double cl = 100 * r->confidence;
    char b[8][32], states[512];
    fprintf(f, "trainmc fit --sacct: %s\n", p->path);
    fprintf(f, "allocations %d read (%d lines: %d job steps skipped, %d never started); %d "
               "job%s by JobName\n", r->n_alloc, log->n_rows, log->n_steps, log->n_never_ran,
            r->n_jobs, r->n_jobs == 1 ? "" : "s");
    fprintf(f, "exposure    %.6g job-hours (sum of Elapsed), %.6g node-hours (sum of NNodes x "
               "Elapsed)\n\n", r->job_hours, r->node_hours);
    const char *what[TMC_SACCT_RATES] = {"a node fails every", "the job fails every",
                                         "an outage every"};
    fprintf(f, "Answer:");
    for (int c = 0; c < TMC_SACCT_RATES; c++) {
        const tmc_sacct_rate *x = &r->rate[c];
        fprintf(f, "%s %s %s [%s, %s] %s (%d)", c ? ";" : "", what[c],
                num(b[0], x->mean_hours, 4), num(b[1], x->mean_lo, 4), num(b[2], x->mean_hi, 4),
                c == TMC_SACCT_NODE ? "node-hours" : "job-hours", x->count);
    }
    fprintf(f, " (%g %%); requeue wait %s h mean over %d; time limit %s h (%d TIMEOUT)\n", cl,
            num(b[3], r->waits.mean, 4), r->waits.n, num(b[4], r->timeout.median, 4),
            r->timeout.n);
    cJSON *frag = tmc_sacct_output_fragment(p);
    fprintf(f, "  keys (--write's fragment): ");
    if (frag)
        keys_text(f, frag);
    cJSON_Delete(frag);
    fprintf(f, "\n\nInterruptions per cause (exact Poisson %g %% intervals, Garwood 1936)\n", cl);
    for (int c = 0; c < TMC_SACCT_RATES; c++) {
        const tmc_sacct_rate *x = &r->rate[c];
        fprintf(f, "  %-10s %4d over %.6g %s: %s per hour [%s, %s], every %s [%s, %s] hours  (%s)\n",
                tmc_sacct_cause_names[c], x->count, x->exposure_hours, rate_unit[c],
                num(b[0], x->rate, 4), num(b[1], x->rate_lo, 4), num(b[2], x->rate_hi, 4),
                num(b[3], x->mean_hours, 4), num(b[4], x->mean_lo, 4), num(b[5], x->mean_hi, 4),
                states_of(states, sizeof states, p->map, c));
    }
    for (int c = TMC_SACCT_RATES; c < TMC_SACCT_CAUSES; c++)
        fprintf(f, "  %-10s %4d allocations  (%s)\n", tmc_sacct_cause_names[c], r->count[c],
                states_of(states, sizeof states, p->map, c));

    fprintf(f, "\nRequeue waits (the next allocation's Start - this one's End, same JobName, "
               "after a node failure, job failure, outage or time limit)\n");
    fprintf(f, "  all        %4d: ", r->waits.n);
    hours_text(f, &r->waits);
    fprintf(f, "\n");
    for (int c = 0; c < TMC_SACCT_CAUSES; c++)
        if (r->waits_by[c].n) {
            fprintf(f, "  %-10s %4d: ", tmc_sacct_cause_names[c], r->waits_by[c].n);
            hours_text(f, &r->waits_by[c]);
            fprintf(f, "\n");
        }
    if (r->overlaps)
        fprintf(f, "  %d next allocation%s started before the end (no wait counted: two jobs "
                   "of one name at once?)\n", r->overlaps, r->overlaps == 1 ? "" : "s");

    fprintf(f, "\nTime limit (Elapsed of the %d TIMEOUT allocations)\n", r->timeout.n);
    if (r->timeout.n)
        fprintf(f, "  min %s h, median %s h, max %s h -> time_limit.wall_hours %s (the median)\n",
                num(b[0], r->timeout.min, 4), num(b[1], r->timeout.median, 4),
                num(b[2], r->timeout.max, 4), num(b[3], r->timeout.median, 4));
    else
        fprintf(f, "  none: the log shows no allocation length\n");

    fprintf(f, "\nStates and causes (the table, --sacct-map's rows marked *)\n");
    for (int i = 0; i < p->map->n; i++)
        fprintf(f, "  %-14s %s%s\n", p->map->row[i].state,
                tmc_sacct_cause_names[p->map->row[i].cause], p->map->row[i].overridden ? " *" : "");

    fprintf(f, "\nJobs (JobName: allocations, job-hours; node, job, outage, time_limit ends)\n");
    for (int j = 0; j < r->n_jobs && j < MAX_JOBS_LISTED; j++) {
        const tmc_sacct_job *x = &r->jobs[j];
        fprintf(f, "  %-24s %4d  %10.6g h  %d, %d, %d, %d\n", x->name, x->allocations,
                x->job_hours, x->count[TMC_SACCT_NODE], x->count[TMC_SACCT_JOB],
                x->count[TMC_SACCT_OUTAGE], x->count[TMC_SACCT_TIME_LIMIT]);
    }
    if (r->n_jobs > MAX_JOBS_LISTED)
        fprintf(f, "  ... %d more in --json\n", r->n_jobs - MAX_JOBS_LISTED);
}

/* ---------- JSON ---------- */

/* A number that is not finite (no waits, no interval) prints as null: cJSON
 * writes NaN and infinities so. */

static cJSON *hours_json(const tmc_sacct_hours *h)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", h->n);
    cJSON_AddNumberToObject(o, "mean_hours", h->mean);
    cJSON_AddNumberToObject(o, "sd_hours", h->sd);
    cJSON_AddNumberToObject(o, "min_hours", h->min);
    cJSON_AddNumberToObject(o, "q10_hours", h->q10);
    cJSON_AddNumberToObject(o, "median_hours", h->median);
    cJSON_AddNumberToObject(o, "q90_hours", h->q90);
    cJSON_AddNumberToObject(o, "max_hours", h->max);
    return o;
}

cJSON *tmc_sacct_output_json(const tmc_sacct_report *p)
{
    const tmc_sacct_fit *r = p->fit;
    cJSON *root = cJSON_CreateObject(), *x, *y;
    cJSON_AddStringToObject(root, "log", p->path);
    cJSON_AddNumberToObject(root, "confidence", r->confidence);
    x = cJSON_AddObjectToObject(root, "allocations");
    cJSON_AddNumberToObject(x, "read", r->n_alloc);
    cJSON_AddNumberToObject(x, "lines", p->log->n_rows);
    cJSON_AddNumberToObject(x, "steps_skipped", p->log->n_steps);
    cJSON_AddNumberToObject(x, "never_started", p->log->n_never_ran);
    cJSON_AddNumberToObject(x, "jobs", r->n_jobs);
    x = cJSON_AddObjectToObject(root, "exposure");
    cJSON_AddNumberToObject(x, "job_hours", r->job_hours);
    cJSON_AddNumberToObject(x, "node_hours", r->node_hours);
    x = cJSON_AddObjectToObject(root, "causes");
    for (int c = 0; c < TMC_SACCT_CAUSES; c++) {
        cJSON *o = cJSON_AddObjectToObject(x, tmc_sacct_cause_names[c]);
        cJSON_AddNumberToObject(o, "count", r->count[c]);
        y = cJSON_AddArrayToObject(o, "states");
        for (int i = 0; i < p->map->n; i++)
            if ((int)p->map->row[i].cause == c)
                cJSON_AddItemToArray(y, cJSON_CreateString(p->map->row[i].state));
        if (c >= TMC_SACCT_RATES)
            continue;
        const tmc_sacct_rate *v = &r->rate[c];
        cJSON_AddStringToObject(o, "exposure_unit", rate_unit[c]);
        cJSON_AddNumberToObject(o, "exposure_hours", v->exposure_hours);
        cJSON *q = cJSON_AddObjectToObject(o, "rate_per_hour");
        cJSON_AddNumberToObject(q, "value", v->rate);
        cJSON_AddNumberToObject(q, "lo", v->rate_lo);
        cJSON_AddNumberToObject(q, "hi", v->rate_hi);
        q = cJSON_AddObjectToObject(o, "mean_hours_between");
        cJSON_AddNumberToObject(q, "value", v->mean_hours);
        cJSON_AddNumberToObject(q, "lo", v->mean_lo);
        cJSON_AddNumberToObject(q, "hi", v->mean_hi);
    }
    x = cJSON_AddObjectToObject(root, "waits");
    cJSON_AddItemToObject(x, "all", hours_json(&r->waits));
    y = cJSON_AddObjectToObject(x, "after");
    for (int c = 0; c < TMC_SACCT_CAUSES; c++)
        if (r->waits_by[c].n)
            cJSON_AddItemToObject(y, tmc_sacct_cause_names[c], hours_json(&r->waits_by[c]));
    cJSON_AddNumberToObject(x, "overlaps", r->overlaps);
    cJSON_AddItemToObject(root, "time_limit", hours_json(&r->timeout));
    x = cJSON_AddArrayToObject(root, "mapping");
    for (int i = 0; i < p->map->n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "state", p->map->row[i].state);
        cJSON_AddStringToObject(o, "cause", tmc_sacct_cause_names[p->map->row[i].cause]);
        cJSON_AddStringToObject(o, "from", p->map->row[i].overridden ? "--sacct-map" : "table");
        cJSON_AddItemToArray(x, o);
    }
    x = cJSON_AddArrayToObject(root, "jobs");
    for (int j = 0; j < r->n_jobs; j++) {
        const tmc_sacct_job *v = &r->jobs[j];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", v->name);
        cJSON_AddNumberToObject(o, "allocations", v->allocations);
        cJSON_AddNumberToObject(o, "job_hours", v->job_hours);
        cJSON_AddNumberToObject(o, "node_hours", v->node_hours);
        for (int c = 0; c < TMC_SACCT_CAUSES; c++)
            cJSON_AddNumberToObject(o, tmc_sacct_cause_names[c], v->count[c]);
        cJSON_AddItemToArray(x, o);
    }
    cJSON *frag = tmc_sacct_output_fragment(p);
    if (frag)
        cJSON_AddItemToObject(root, "fragment", frag);
    return root;
}
