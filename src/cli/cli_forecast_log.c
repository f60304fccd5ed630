/* cli_forecast_log.c - `trainmc forecast EXPERIMENT.json --log LOG`: the
 * progress section made from a running job's own training log
 * (train_log.h), then run exactly as `trainmc run --progress FILE` runs a
 * file holding that object (docs/commands/forecast.md "A training log").
 * The log is read by the library (forecast_log.h), as
 * tmc_experiment_forecast's tmc_command_options.log reads it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "forecast_log.h"
#include "observed_input.h"
#include "ranks.h"

/* The log read into its progress object and reading, through the library
 * (forecast_log.h), its messages naming this program's flags. 0, or 2 after
 * a message. */
static int read_log(const tmc_cli_options *o, tmc_forecast_log *l)
{
    tmc_forecast_log_request rq = {o->log_path, o->step_regex, o->elapsed_days,
                                   o->has_committed_step ? o->committed_step : -1};
    tmc_status st = {TMC_OK, ""};
    tmc_api_keep_flag_names(1);
    int rc = tmc_forecast_log_read(&rq, l, &st) ? 2 : 0;
    tmc_error err = {""};
    snprintf(err.msg, sizeof err.msg, "%s", st.message);
    /* a rank that cannot read the log fails every rank (ranks.h) */
    if ((rc = tmc_ranks_agree(rc, &err))) {
        tmc_forecast_log_free(l);
        return tmc_cli_fail(rc, "%s", err.msg);
    }
    return 0;
}

/* x's progress from the log, then the run; the progress file after it. */
int tmc_cli_forecast_log(tmc_experiment *x, const tmc_cli_options *o)
{
    tmc_forecast_log l;
    int rc = read_log(o, &l);
    if (rc)
        return rc;
    tmc_error err = {""};
    if ((rc = tmc_observed_input_load_object(x, l.progress, o->log_path, &err) ? 2 : 0))
        tmc_cli_fail(2, "%s", err.msg);
    tmc_outfile prog = {0};
    if (!rc && o->write_progress_path)
        rc = tmc_cli_open_output(&prog, o->write_progress_path, x);
    if (!rc && tmc_cli_is_root())
        fputs(l.reading, stdout);
    if (!rc)
        rc = tmc_cli_run_experiment(x, o);
    if (o->write_progress_path && !rc)
        rc = tmc_cli_write_json(&prog, tmc_forecast_log_exact(l.progress));
    else if (o->write_progress_path) {
        tmc_output_abort(&prog);
    }
    tmc_forecast_log_free(&l);
    return rc;
}
