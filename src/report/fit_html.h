/* fit_html.h - `trainmc fit --html FILE`: the report to share (html.h) of a
 * fit, one page for each of its modes: a fault log, a step-time log
 * (--steps: a CSV of per-rank times, or a training log) and SLURM
 * accounting (--sacct). Answer first, with the
 * figures --json gives unrounded in data-* attributes; then the text
 * report's parts, each a section, as printed; then the document --write
 * wrote, when asked; the version and the command. No experiment section:
 * fit reads none. No figure: fit draws none. */
#ifndef TMC_FIT_HTML_H
#define TMC_FIT_HTML_H

#include <cjson/cJSON.h>

#include "fit.h"
#include "html.h"
#include "sacct_output.h"
#include "step_fit.h"
#include "train_step_fit.h"

/* What --write wrote beside the report: its path and document (NULL:
 * --write was not given). */
typedef struct {
    const char *path;
    const cJSON *doc;
} tmc_fit_html_written;

/* The pages of a fault log's fit, a step-time log's and SLURM accounting's.
 * Each a malloc'ed string the caller frees; NULL if memory runs out. */
char *tmc_fit_html(const tmc_fit_result *r, const tmc_fit_html_written *w,
                   const tmc_html_meta *m);
char *tmc_step_fit_html(const tmc_step_fit *r, const tmc_step_log *log, const char *path,
                        const tmc_fit_html_written *w, const tmc_html_meta *m);
/* A training log's fit and what its reports name. */
typedef struct {
    const tmc_train_step_fit *r;
    const tmc_train_log *log;
    const char *path, *form;
} tmc_train_step_report;
char *tmc_train_step_html(const tmc_train_step_report *p, const tmc_fit_html_written *w,
                          const tmc_html_meta *m);
char *tmc_sacct_html(const tmc_sacct_report *p, const tmc_fit_html_written *w,
                     const tmc_html_meta *m);

#endif
