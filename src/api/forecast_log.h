/* forecast_log.h - what `trainmc forecast --log` makes of a training log
 * before it runs (train_log.h read, summed up): the progress section and the
 * lines that say what was read. tmc_experiment_forecast with
 * tmc_command_options.log and the command line both call it, so a log is
 * read one way. Not installed. */
#ifndef TMC_FORECAST_LOG_H
#define TMC_FORECAST_LOG_H

#include <cjson/cJSON.h>

#include "api_internal.h"

/* What to read. */
typedef struct {
    const char *path;       /* the log */
    const char *step_regex; /* NULL: Megatron-LM's iteration lines */
    double elapsed_days;    /* > 0: given; 0: from the stamps */
    long committed_step;    /* >= 0: given; -1: from the checkpoint lines */
} tmc_forecast_log_request;

/* What was read. */
typedef struct {
    cJSON *progress; /* the progress object (owned) */
    char *reading;   /* the report's first lines: what the log gave (owned) */
} tmc_forecast_log;

/* Read rq->path and make its progress object (docs/commands/forecast.md "A
 * training log"). TMC_OK; or TMC_ERR_INPUT with st ("LOG:LINE:COL: field
 * ...", a bad pattern, or a log without stamps or checkpoint lines: what to
 * give) or TMC_ERR_MEMORY, and l holds nothing. st's message names the
 * command line's flags where tmc_api_keep_flag_names(1), else the
 * library's parameters (tmc_command_options.elapsed_days, ...). */
int tmc_forecast_log_read(const tmc_forecast_log_request *rq, tmc_forecast_log *l,
                          tmc_status *st);

/* p with every number written so that it reads back as the same double (the
 * shortest of %.15g, %.16g, %.17g that does; cJSON's own printing may stop
 * an ulp short), so that `run --progress` of --write-progress's file
 * forecasts what --log did. NULL: out of memory. */
cJSON *tmc_forecast_log_exact(const cJSON *p);

void tmc_forecast_log_free(tmc_forecast_log *l);

/* tmc_experiment_forecast's log branch: the experiment src names with
 * sets, its progress from c's log, run with o's threads, progress, stop and
 * force. The document: the run's (`trainmc forecast --log --json`), and the
 * reading then the run's report as text. NULL with st. */
tmc_document *tmc_forecast_log_document(const char *f, const tmc_sweep_source *src,
                                        const tmc_api_sets *sets,
                                        const tmc_command_options *c,
                                        const tmc_run_options *o, tmc_status *st);

#endif
