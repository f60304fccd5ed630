/* forecast_log_api.c - a training log made a forecast (`trainmc forecast
 * --log`, docs/commands/forecast.md "A training log"): the log read and
 * summed up (train_log.h) into the progress section, which the experiment
 * then runs with, as `trainmc run --progress FILE` runs that object. The
 * command line reads the log here too (forecast_log.h) and runs the
 * experiment through tmc_experiment_run, so for the same experiment, log,
 * replicas and seed the library's document is the program's --json. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "forecast_log.h"
#include "observed_input.h"
#include "output.h"
#include "result.h"
#include "train_log.h"
#include "units.h"

/* The log read (with its pattern) and summed up. TMC_OK, or a code with st. */
static int read_log(const tmc_forecast_log_request *rq, tmc_train_log *log,
                    tmc_train_log_summary *s, tmc_status *st)
{
    tmc_error err = {""};
    tmc_step_regex re = {0};
    int bad = rq->step_regex && tmc_step_regex_compile(&re, rq->step_regex, &err);
    if (!bad)
        bad = tmc_train_log_read(rq->path, rq->step_regex ? &re : NULL, log, &err);
    tmc_step_regex_free(&re);
    if (bad)
        return tmc_api_fail_load(st, &err);
    tmc_train_log_summarize(log, s);
    return TMC_OK;
}

/* The progress object: the log's figures, elapsed_days and committed_step
 * where given. NULL with st. */
static cJSON *progress_object(const tmc_forecast_log_request *rq, const tmc_train_log_summary *s,
                              double *elapsed_days, tmc_status *st)
{
    *elapsed_days = rq->elapsed_days > 0 ? rq->elapsed_days : s->stamped_s / TMC_DAY_S;
    long committed = rq->committed_step >= 0 ? rq->committed_step : s->committed_step;
    if (isnan(*elapsed_days))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: the iteration lines have no time stamps, "
                             "so the wall time since the job started is unknown; give "
                             "--elapsed-days D", rq->path), NULL;
    if (committed < 0)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: no checkpoint line (\"successfully saved "
                             "checkpoint from iteration N\", \"successfully loaded checkpoint "
                             "from PATH ... at iteration N\"), so the newest commit is "
                             "unknown; give --committed-step N", rq->path), NULL;
    cJSON *p = cJSON_CreateObject();
    int ok = p && cJSON_AddNumberToObject(p, "elapsed_days", *elapsed_days) &&
             cJSON_AddNumberToObject(p, "steps_done", (double)s->steps_done) &&
             cJSON_AddNumberToObject(p, "committed_step", (double)committed) &&
             cJSON_AddNumberToObject(p, "failures", (double)s->failures);
    if (ok && s->intervals > 0) {
        ok = cJSON_AddNumberToObject(p, "step_s", s->step_s) != NULL;
        if (ok && s->intervals > 1) {
            /* steps done again after a restart count once: at most steps_done */
            long n = s->step_steps < s->steps_done ? s->step_steps : s->steps_done;
            ok = cJSON_AddNumberToObject(p, "step_sd_s", s->step_sd_s) &&
                 cJSON_AddNumberToObject(p, "step_count", (double)n);
        }
    }
    if (!ok) {
        cJSON_Delete(p);
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a progress object"), NULL;
    }
    return p;
}

cJSON *tmc_forecast_log_exact(const cJSON *p)
{
    cJSON *q = cJSON_CreateObject();
    for (const cJSON *c = p->child; c && q; c = c->next) {
        char text[32];
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, c->valuedouble);
            if (strtod(text, NULL) == c->valuedouble)
                break;
        }
        if (!cJSON_AddRawToObject(q, c->string, text)) {
            cJSON_Delete(q);
            q = NULL;
        }
    }
    return q;
}

/* What was read, before the run's report. */
static void print_reading(FILE *f, const tmc_forecast_log_request *rq,
                          const tmc_train_log *log, const tmc_train_log_summary *s,
                          double elapsed_days, const cJSON *p)
{
    fprintf(f, "trainmc forecast: %s: %d iteration lines (%s), iterations %ld to %ld; %ld "
            "restart%s", rq->path, log->n, rq->step_regex ? "--step-regex" : "Megatron-LM",
            log->pt[0].iteration, log->pt[log->n - 1].iteration, s->failures,
            s->failures == 1 ? "" : "s");
    for (long i = 0; i < s->failures && i < 8; i++)
        fprintf(f, "%s%ld", i ? ", " : " (lines ", log->restart_line[i]);
    fprintf(f, "%s; %d save%s, %d load%s",
            s->failures ? (s->failures > 8 ? ", ...)" : ")") : "", log->n_saves,
            log->n_saves == 1 ? "" : "s", log->n_loads, log->n_loads == 1 ? "" : "s");
    if (log->commit >= 0)
        fprintf(f, ", the newest checkpoint iteration %ld (line %ld)", log->commit,
                log->commit_line);
    fprintf(f, "\n");
    if (s->intervals > 0)
        fprintf(f, "  pace: %.6g s a step, sd %.4g s, over %d intervals of %ld steps (a "
                "start's first interval, which holds the start-up, left out)\n", s->step_s,
                s->step_sd_s, s->intervals, s->step_steps);
    else
        fprintf(f, "  pace: no interval after a start's first, so the plan's step time\n");
    if (rq->elapsed_days > 0)
        fprintf(f, "  elapsed: %.6g days (--elapsed-days)\n", elapsed_days);
    else
        fprintf(f, "  elapsed: %.6g days (the stamps of lines %ld to %ld, and the %ld "
                "iterations before line %ld)\n", elapsed_days, log->pt[0].line,
                log->pt[log->n - 1].line, log->pt[0].first_steps, log->pt[0].line);
    cJSON *exact = tmc_forecast_log_exact(p);
    char *text = exact ? cJSON_PrintUnformatted(exact) : NULL;
    cJSON_Delete(exact);
    fprintf(f, "  progress: %s (every restart counted a failure; outages, cards in repair "
            "and the like are not in a log: --write-progress, edit, `trainmc run "
            "--progress`)\n\n", text ? text : "?");
    free(text);
}

int tmc_forecast_log_read(const tmc_forecast_log_request *rq, tmc_forecast_log *l,
                          tmc_status *st)
{
    *l = (tmc_forecast_log){0};
    tmc_train_log log = {0};
    tmc_train_log_summary s;
    double elapsed_days;
    int rc = read_log(rq, &log, &s, st);
    if (!rc && !(l->progress = progress_object(rq, &s, &elapsed_days, st)))
        rc = st ? st->code : TMC_ERR_INPUT;
    size_t size = 0;
    FILE *f = rc ? NULL : open_memstream(&l->reading, &size);
    if (f) {
        print_reading(f, rq, &log, &s, elapsed_days, l->progress);
        if (fclose(f)) {
            free(l->reading);
            l->reading = NULL;
        }
    }
    if (!rc && !l->reading)
        rc = tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a training log's reading");
    tmc_train_log_free(&log);
    if (rc)
        tmc_forecast_log_free(l);
    return rc;
}

void tmc_forecast_log_free(tmc_forecast_log *l)
{
    cJSON_Delete(l->progress);
    free(l->reading);
    *l = (tmc_forecast_log){0};
}

/* ---------- the library's forecast from a log ---------- */

typedef struct {
    const char *reading;
    const tmc_result *res;
} log_report;

static void write_text(FILE *f, const void *report)
{
    const log_report *r = report;
    fputs(r->reading, f);
    tmc_output_text(f, &r->res->report); /* the brief report (detail 0), as the program's */
}

/* The options the log's run takes; a field out of range refused. */
static int check_log_options(const char *f, const tmc_command_options *c, tmc_status *st)
{
    if (c->history)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.history and .log "
                             "are both given: give one (snapshots, or a training log)", f);
    if (c->elapsed_days != 0 && !(c->elapsed_days > 0 && c->elapsed_days <= 1e6))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.elapsed_days = "
                             "%.10g: must be in (0, 1e6] (0: from the log's stamps)", f,
                             c->elapsed_days);
    if (c->committed_step < -1 || c->committed_step > 1000000000L)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.committed_step = "
                             "%ld: must be in [0, 1e9] (-1: from the log's checkpoint lines)",
                             f, c->committed_step);
    return TMC_OK;
}

tmc_document *tmc_forecast_log_document(const char *f, const tmc_sweep_source *src,
                                        const tmc_api_sets *sets,
                                        const tmc_command_options *c,
                                        const tmc_run_options *o, tmc_status *st)
{
    if (check_log_options(f, c, st))
        return NULL;
    tmc_experiment x;
    tmc_error err = {""};
    if (src->text ? tmc_config_parse(src->text, src->path, src->base_dir, sets->sets,
                                     sets->n_sets, &x, &err)
                  : tmc_config_load(src->path, sets->sets, sets->n_sets, &x, &err))
        return tmc_api_fail_load(st, &err), NULL;
    tmc_forecast_log_request rq = {c->log, c->step_regex, c->elapsed_days, c->committed_step};
    tmc_forecast_log l;
    tmc_document *d = NULL;
    int rc = tmc_forecast_log_read(&rq, &l, st);
    if (!rc && tmc_observed_input_load_object(&x, l.progress, c->log, &err))
        rc = tmc_api_fail_load(st, &err);
    if (!rc) {
        tmc_run_options ro;
        tmc_run_options_init(&ro);
        ro.threads = o->threads;
        ro.progress = o->progress;
        ro.progress_ctx = o->progress_ctx;
        ro.stop = o->stop;
        ro.force = o->force;
        ro.summary_only = 1;
        tmc_result *res = tmc_experiment_run(&x, &ro, st);
        if (res) {
            log_report rep = {l.reading, res};
            d = tmc_api_document_new(cJSON_Duplicate(res->document.doc, 1), write_text, &rep,
                                     st);
            tmc_result_free(res);
        }
    }
    tmc_forecast_log_free(&l);
    tmc_experiment_release(&x);
    return d;
}
