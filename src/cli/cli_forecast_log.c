/* cli_forecast_log.c - `trainmc forecast EXPERIMENT.json --log LOG`: the
 * progress section made from a running job's own training log
 * (train_log.h), then run exactly as `trainmc run --progress FILE` runs a
 * file holding that object (docs/commands/forecast.md "A training log"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "observed_input.h"
#include "ranks.h"
#include "train_log.h"
#include "units.h"

/* The log read and summed up; 0, or 2 after a message. */
static int read_log(const tmc_cli_options *o, tmc_train_log *log, tmc_train_log_summary *s)
{
    tmc_error err = {""};
    tmc_step_regex re = {0};
    int rc = o->step_regex && tmc_step_regex_compile(&re, o->step_regex, &err) ? 2 : 0;
    if (!rc)
        rc = tmc_train_log_read(o->log_path, o->step_regex ? &re : NULL, log, &err) ? 2 : 0;
    tmc_step_regex_free(&re);
    if ((rc = tmc_ranks_agree(rc, &err)))
        return tmc_cli_fail(rc, "%s", err.msg);
    tmc_train_log_summarize(log, s);
    return 0;
}

/* The progress object: the log's figures, --elapsed-days and
 * --committed-step where given. NULL after a message (2). */
static cJSON *progress_object(const tmc_cli_options *o, const tmc_train_log_summary *s,
                              double *elapsed_days)
{
    *elapsed_days = o->elapsed_days > 0 ? o->elapsed_days : s->stamped_s / TMC_DAY_S;
    long committed = o->has_committed_step ? o->committed_step : s->committed_step;
    if (isnan(*elapsed_days)) {
        tmc_cli_fail(2, "%s: the iteration lines have no time stamps, so the wall time since "
                     "the job started is unknown; give --elapsed-days D", o->log_path);
        return NULL;
    }
    if (committed < 0) {
        tmc_cli_fail(2, "%s: no checkpoint line (\"successfully saved checkpoint from "
                     "iteration N\", \"successfully loaded checkpoint from PATH ... at "
                     "iteration N\"), so the newest commit is unknown; give --committed-step "
                     "N", o->log_path);
        return NULL;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "elapsed_days", *elapsed_days);
    cJSON_AddNumberToObject(p, "steps_done", (double)s->steps_done);
    cJSON_AddNumberToObject(p, "committed_step", (double)committed);
    cJSON_AddNumberToObject(p, "failures", (double)s->failures);
    if (s->intervals > 0) {
        cJSON_AddNumberToObject(p, "step_s", s->step_s);
        if (s->intervals > 1) {
            cJSON_AddNumberToObject(p, "step_sd_s", s->step_sd_s);
            /* steps done again after a restart count once: at most steps_done */
            long n = s->step_steps < s->steps_done ? s->step_steps : s->steps_done;
            cJSON_AddNumberToObject(p, "step_count", (double)n);
        }
    }
    return p;
}

/* p with every number written so that it reads back as the same double
 * (the shortest of %.15g, %.16g, %.17g that does; cJSON's own printing
 * may stop an ulp short), so that `run --progress` of --write-progress's
 * file forecasts what --log did. NULL: out of memory. */
static cJSON *exact_copy(const cJSON *p)
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
static void print_reading(const tmc_cli_options *o, const tmc_train_log *log,
                          const tmc_train_log_summary *s, double elapsed_days,
                          const cJSON *p)
{
    printf("trainmc forecast: %s: %d iteration lines (%s), iterations %ld to %ld; %ld "
           "restart%s", o->log_path, log->n, o->step_regex ? "--step-regex" : "Megatron-LM",
           log->pt[0].iteration, log->pt[log->n - 1].iteration, s->failures,
           s->failures == 1 ? "" : "s");
    for (long i = 0; i < s->failures && i < 8; i++)
        printf("%s%ld", i ? ", " : " (lines ", log->restart_line[i]);
    printf("%s; %d save%s, %d load%s", s->failures ? (s->failures > 8 ? ", ...)" : ")") : "",
           log->n_saves, log->n_saves == 1 ? "" : "s", log->n_loads,
           log->n_loads == 1 ? "" : "s");
    if (log->commit >= 0)
        printf(", the newest checkpoint iteration %ld (line %ld)", log->commit,
               log->commit_line);
    printf("\n");
    if (s->intervals > 0)
        printf("  pace: %.6g s a step, sd %.4g s, over %d intervals of %ld steps (a start's "
               "first interval, which holds the start-up, left out)\n", s->step_s,
               s->step_sd_s, s->intervals, s->step_steps);
    else
        printf("  pace: no interval after a start's first, so the plan's step time\n");
    if (o->elapsed_days > 0)
        printf("  elapsed: %.6g days (--elapsed-days)\n", elapsed_days);
    else
        printf("  elapsed: %.6g days (the stamps of lines %ld to %ld, and the %ld iterations "
               "before line %ld)\n", elapsed_days, log->pt[0].line, log->pt[log->n - 1].line,
               log->pt[0].first_steps, log->pt[0].line);
    cJSON *exact = exact_copy(p);
    char *text = exact ? cJSON_PrintUnformatted(exact) : NULL;
    cJSON_Delete(exact);
    printf("  progress: %s (every restart counted a failure; outages, cards in repair and "
           "the like are not in a log: --write-progress, edit, `trainmc run --progress`)\n\n",
           text ? text : "?");
    free(text);
}

/* x's progress from the log, then the run; the progress file after it. */
int tmc_cli_forecast_log(tmc_experiment *x, const tmc_cli_options *o)
{
    tmc_train_log log = {0};
    tmc_train_log_summary s;
    int rc = read_log(o, &log, &s);
    if (rc)
        return rc;
    double elapsed_days;
    cJSON *p = progress_object(o, &s, &elapsed_days);
    tmc_error err = {""};
    rc = !p ? 2 : tmc_observed_input_load_object(x, p, o->log_path, &err) ? 2 : 0;
    if (p && rc)
        tmc_cli_fail(2, "%s", err.msg);
    tmc_outfile prog = {0};
    if (!rc && o->write_progress_path)
        rc = tmc_cli_open_output(&prog, o->write_progress_path, x);
    if (!rc && tmc_cli_is_root())
        print_reading(o, &log, &s, elapsed_days, p);
    if (!rc)
        rc = tmc_cli_run_experiment(x, o);
    if (o->write_progress_path && !rc)
        rc = tmc_cli_write_json(&prog, exact_copy(p));
    else if (o->write_progress_path) {
        tmc_output_abort(&prog);
    }
    cJSON_Delete(p);
    tmc_train_log_free(&log);
    return rc;
}
