/* train_log.h - a training job's own log read for its pace, restarts and
 * commits (issue 37): `trainmc forecast --log LOG`, the progress section
 * made from it.
 *
 * Two forms (docs/commands/forecast.md "A training log"):
 *   megatron: Megatron-LM's training_log line (megatron/training/training.py),
 *     which NeMo's Megatron-based training prints too:
 *       ` [2026-03-01 10:00:00] iteration      100/  500000 | consumed samples:
 *       ... | elapsed time per iteration (ms): 1234.5 | learning rate: ... |`
 *     the bracketed stamp optional (all lines or none); the time per
 *     iteration the interval's mean, over the iterations since the line
 *     before (log_interval of them); and the checkpoint lines of
 *     megatron/training/checkpointing.py: "successfully saved checkpoint
 *     from iteration N to PATH" (older: "saved checkpoint at iteration N"),
 *     "successfully loaded checkpoint from PATH [ t .., p .. ] at iteration N".
 *   regex: --step-regex PATTERN, an extended regular expression with named
 *     groups (?P<step>...) and (?P<ms>...) or (?P<s>...), optional
 *     (?P<time>...) (YYYY-MM-DD HH:MM:SS, or with a T); the checkpoint lines
 *     as above are read beside it.
 * A line that is neither is skipped (logs are noisy); a line that is one but
 * has a bad field is an error at FILE:LINE:COLUMN naming the field. */
#ifndef TMC_TRAIN_LOG_H
#define TMC_TRAIN_LOG_H

#include <regex.h>

#include "error.h"

#define TMC_TRAIN_LOG_MAX_LINE 65536 /* bytes of a line read; longer lines refused */

/* --step-regex, translated from Python's named groups to POSIX ERE. */
typedef struct {
    regex_t re;
    int compiled;
    int g_step, g_ms, g_s, g_time; /* group indices; 0: absent */
    size_t n_groups;
} tmc_step_regex;

/* Translate and compile pattern: (?P<name>...) or (?<name>...) become plain
 * groups with their indices kept; \d \D become [0-9] [^0-9]; any other
 * (?...) is refused. step and one of ms or s are required; time optional.
 * 0, or -1 with err naming the pattern and what is wrong. */
int tmc_step_regex_compile(tmc_step_regex *r, const char *pattern, tmc_error *err);
void tmc_step_regex_free(tmc_step_regex *r);

/* One iteration line. */
typedef struct {
    long line;      /* in the file, 1-based */
    long iteration; /* N of "iteration N/M" (or the step group) */
    long steps;     /* iterations since the line before in the same start; 0 for a
                     * start's first line (its interval holds the start-up) */
    long first_steps; /* a start's first line: iterations since the start, when known
                       * (the loaded iteration, or 0 at the log's start); else 0 */
    double step_s;  /* the logged time per iteration, s (> 0) */
    double stamp_s; /* the line's stamp, s from 1970 as printed (no zone); NAN: none */
} tmc_train_log_point;

typedef struct {
    tmc_train_log_point *pt; /* file order */
    int n, cap;
    int stamped;             /* 1: every iteration line has a stamp */
    int restarts;            /* iteration numbers that went back, or a load line after one */
    long restart_line[8];    /* the first restarts' lines, for the report */
    long commit;             /* the newest checkpoint saved or loaded, file order; -1: none */
    long commit_line;
    long resumed_at;         /* a load line after the last iteration line: its iteration;
                              * -1: none (the job is at the last iteration line) */
    int n_saves, n_loads;
    long n_lines;
} tmc_train_log;

/* Read the log at path, Megatron-LM's form (re NULL) or re's. 0, or -1 with
 * err ("PATH:LINE:COL: field 'elapsed time per iteration (ms)': 'x' is not a
 * number > 0 ..."; "PATH: no iteration line ...") and log empty. */
int tmc_train_log_read(const char *path, const tmc_step_regex *re, tmc_train_log *log,
                       tmc_error *err);

/* The same on text in memory (the fuzz target); path names it in messages.
 * text is modified (lines cut in place) but not kept. log must be zeroed or
 * hold a log: it is freed first. */
int tmc_train_log_parse(char *text, const char *path, const tmc_step_regex *re,
                        tmc_train_log *log, tmc_error *err);

void tmc_train_log_free(tmc_train_log *log);

/* What the log says of the run (docs/commands/forecast.md gives each rule). */
typedef struct {
    long steps_done;     /* the last iteration line's (or the load line's after it) */
    long committed_step; /* the newest checkpoint saved or loaded; -1: none */
    long failures;       /* restarts */
    double step_s;       /* sum n_i t_i / sum n_i over the intervals after a start's first */
    double step_sd_s;    /* sqrt(sum n_i (t_i - step_s)^2 / (k - 1)); 0 when k < 2 */
    long step_steps;     /* sum n_i */
    int intervals;       /* k */
    double stamped_s;    /* last stamp - first stamp + the first line's interval
                          * (first_steps x its time); NAN without stamps */
} tmc_train_log_summary;

void tmc_train_log_summarize(const tmc_train_log *log, tmc_train_log_summary *s);

#endif
