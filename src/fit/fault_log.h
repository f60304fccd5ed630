/* fault_log.h - a cluster's fault event log, read for `trainmc fit`
 * (docs/fit.md 1): one record per fault of a node, with its start, its end
 * (repair) and its cause.
 *
 * Two inputs:
 *  - JSON: an array of events, or JSON lines (one event object a line), as
 *    stepfun-ai/InfiniteHBD-Trace's fault_trace.json: `node_id` (string or
 *    number), `event_time` (days, finite, >= 0), `event_type` `fault_start`
 *    or `fault_end`, optional `fault_type` {`Level`, `Class`, `Desc`}. A
 *    fault_end closes the open fault of that node with the same fault_type,
 *    else that node's oldest open fault; an end with no open fault on its
 *    node is counted (unmatched_ends) and ignored.
 *  - CSV: a header row, then one fault a line; the columns holding the
 *    node, the start, the end (empty: not repaired) and the cause are named
 *    by tmc_fault_log_columns. `#` lines and blank lines are skipped; fields
 *    may be quoted ("a, b", "" for a quote).
 *
 * Times are days from the start of the observation (hours in a CSV read with
 * hours = 1 are converted). Faults are kept sorted by start time, file order
 * among equal times. A CSV header naming a column twice is refused. Every
 * line of a CSV log, and every node id and cause, must be printable UTF-8
 * (text.h): they reach the terminal and --json. A fault that repeats an
 * earlier one exactly is counted in duplicates (see tmc_fault_log_dedupe).
 * Errors name the file and the CSV line (and column) or the JSON path
 * ([12].event_time), the value and what is allowed. */
#ifndef TMC_FAULT_LOG_H
#define TMC_FAULT_LOG_H

#include "error.h"

typedef struct {
    int node;          /* index into tmc_fault_log.nodes */
    double start_days; /* fault start, days */
    double end_days;   /* repair end, days; NAN: not repaired in the log */
    char *level, *cls, *desc; /* cause, "" when not given (CSV: cause in cls) */
    long where;        /* CSV line, or JSON index of the fault_start event */
} tmc_fault;

typedef struct {
    tmc_fault *faults;
    int n_faults;
    char **nodes; /* distinct node ids, in order of first appearance */
    int n_nodes;
    double last_event_days; /* the latest start or end in the log */
    int unmatched_ends;     /* JSON fault_end events with no open fault */
    int duplicates;         /* faults that repeat an earlier one exactly (node, start,
                               end, cause): counted by the readers, never dropped by them */
    long duplicate_where, duplicate_of; /* the first such: its line or index, and the
                                           earlier fault's */
    /* private */
    int cap_faults, cap_nodes, *hash, hash_size;
} tmc_fault_log;

/* Column names of a CSV log; end and cause may be NULL (absent). */
typedef struct {
    const char *node, *start, *end, *cause;
    int hours; /* 1: times are in hours, else days */
    int end_optional, cause_optional; /* 1: a missing column is absent, no error */
} tmc_fault_log_columns;

/* Read a JSON log (array or JSON lines) into log (zeroed first). 0, or -1
 * with err ("PATH: [i].KEY: ...", "PATH: line N: ...") and log empty. */
int tmc_fault_log_read_json(const char *path, tmc_fault_log *log, tmc_error *err);

/* Read a CSV log with the given columns into log. 0, or -1 with err
 * ("PATH:LINE: column 'start': 'x' is not a number >= 0") and log empty. */
int tmc_fault_log_read_csv(const char *path, const tmc_fault_log_columns *cols,
                           tmc_fault_log *log, tmc_error *err);

/* 1 if fault f's Class or Desc equals text (ASCII case ignored), else 0. */
int tmc_fault_log_match_cause(const tmc_fault *f, const char *text);

/* Drop the faults whose cause matches any of the n texts
 * (tmc_fault_log_match_cause); removed[i] gets the count text i removed
 * (removed may be NULL). Returns the number of faults dropped. Nodes stay. */
int tmc_fault_log_exclude(tmc_fault_log *log, const char *const *texts, int n, int *removed);

/* Drop every fault that repeats an earlier one exactly (same node, start,
 * end and cause: `fit --dedupe`); returns how many were dropped, and sets
 * duplicates to 0. Without it `fit` refuses a log with duplicates. */
int tmc_fault_log_dedupe(tmc_fault_log *log);

/* Build a log in memory (tests, synthetic logs): append a fault of node
 * (id; new ids become new nodes) from start_days to end_days (NAN: not
 * repaired), cause in cls (NULL: none), to log (zeroed before the first
 * call); then tmc_fault_log_finish sorts the faults by start and sets
 * last_event_days, as the readers do. 0, or -1 with err for start < 0,
 * end < start or out of memory. */
int tmc_fault_log_add(tmc_fault_log *log, const char *node, double start_days,
                      double end_days, const char *cause, tmc_error *err);
void tmc_fault_log_finish(tmc_fault_log *log);

/* The whole of a regular file at path as text, NUL-terminated (malloc'd;
 * the caller frees it), a leading UTF-8 byte-order mark dropped; NULL with
 * err for a file that cannot be read, is not regular, is larger than 256
 * MiB or holds a NUL byte. The fault logs' and `fit --sacct`'s reader. */
char *tmc_fault_log_read_text(const char *path, tmc_error *err);

/* Free everything log owns and zero it. */
void tmc_fault_log_free(tmc_fault_log *log);

#endif
