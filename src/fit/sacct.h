/* sacct.h - SLURM accounting (`sacct --parsable2`) read for `trainmc fit
 * --sacct` (docs/fit.md 11): one allocation a line, its state mapped to the
 * cause of its end, and what the allocations show, the interruptions per
 * node-hour or job-hour with exact intervals, the requeue waits and the
 * time limit.
 *
 * The file (SLURM's sacct manual page, https://slurm.schedmd.com/sacct.html):
 * fields separated by `|`, no trailing `|` (--parsable2), a header line
 * naming them. Read by name, in any order, extra fields ignored: JobID,
 * JobName, State, Start, End, Elapsed, NNodes, NodeList (required), Reason
 * and ExitCode (kept when present). Start and End are `YYYY-MM-DDTHH:MM:SS`
 * as printed, no time zone (run sacct with TZ=UTC: a job across a change of
 * daylight saving time would otherwise disagree with its Elapsed by an hour
 * and be refused); Elapsed is `[D-]HH:MM:SS`. A job step (a JobID with a
 * `.`: `123.batch`, `123.0`, `123.extern`) is skipped: its job's own line
 * carries the allocation's state, length and nodes. Every error names
 * FILE:LINE:COLUMN, the field, the value and what is allowed. */
#ifndef TMC_SACCT_H
#define TMC_SACCT_H

#include "error.h"

/* What ended an allocation: the causes `--sacct-map STATE=CAUSE` names. */
typedef enum {
    TMC_SACCT_NODE,       /* a node failed: a failure per node-hour */
    TMC_SACCT_JOB,        /* the job failed: per job-hour */
    TMC_SACCT_OUTAGE,     /* the scheduler took the allocation (preemption): per job-hour */
    TMC_SACCT_TIME_LIMIT, /* the allocation's wall-clock limit */
    TMC_SACCT_COMPLETED,  /* the job ended by itself */
    TMC_SACCT_IGNORED,    /* stopped by a person, or no end of interest: exposure only */
    TMC_SACCT_CAUSES
} tmc_sacct_cause;

/* The causes' names, in the enum's order ("node", "job", ...). */
extern const char *const tmc_sacct_cause_names[TMC_SACCT_CAUSES];

#define TMC_SACCT_MAX_STATES 48 /* the table's and --sacct-map's states together */
#define TMC_SACCT_STATE_BYTES 32

/* The state table in use: the built-in rows (tmc_sacct_map_default), then
 * --sacct-map's, which replace a row of the same state or add one. */
typedef struct {
    struct {
        char state[TMC_SACCT_STATE_BYTES];
        tmc_sacct_cause cause;
        int overridden; /* 1: set by --sacct-map */
    } row[TMC_SACCT_MAX_STATES];
    int n;
} tmc_sacct_map;

/* The built-in table (docs/fit.md 11). */
void tmc_sacct_map_default(tmc_sacct_map *m);

/* Apply one "STATE=CAUSE" (STATE upper case as sacct prints it, CAUSE a
 * tmc_sacct_cause_names entry). 0, or -1 with err naming what is allowed. */
int tmc_sacct_map_set(tmc_sacct_map *m, const char *spec, tmc_error *err);

/* The cause of a state, or -1 when the table has no row for it. */
int tmc_sacct_map_find(const tmc_sacct_map *m, const char *state);

/* One allocation (a job's line, not a step's). */
typedef struct {
    char *job_id, *name, *state, *node_list, *reason, *exit_code; /* "" when absent */
    tmc_sacct_cause cause;
    double start_s, end_s; /* seconds from 1970-01-01T00:00:00 as printed, no zone */
    double elapsed_s;      /* Elapsed: the exposure's length */
    long nnodes;
    long line;
} tmc_sacct_alloc;

typedef struct {
    tmc_sacct_alloc *alloc; /* the allocations that ran, in file order */
    int n_alloc;
    int n_rows;        /* lines after the header, blank lines left out */
    int n_steps;       /* job steps skipped */
    int n_never_ran;   /* ignored-cause lines whose Start or End is Unknown or None */
    int has_reason, has_exit_code;
    int cap;
} tmc_sacct_log;

/* Read path with map into log (zeroed first). 0, or -1 with err
 * ("PATH:LINE:COL: field 'Elapsed': '1-2:00' is not [D-]HH:MM:SS ...") and
 * log empty. A file with no allocation that ran is refused. */
int tmc_sacct_read(const char *path, const tmc_sacct_map *map, tmc_sacct_log *log,
                   tmc_error *err);

/* The same on text in memory (the fuzz target); path names it in messages.
 * text is modified (fields are cut in place) but not kept. */
int tmc_sacct_parse(char *text, const char *path, const tmc_sacct_map *map,
                    tmc_sacct_log *log, tmc_error *err);

void tmc_sacct_log_free(tmc_sacct_log *log);

#endif
