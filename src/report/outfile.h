/* outfile.h - output files written atomically: every command's --json,
 * --csv, --plot and --samples file is complete or absent, never partial, and
 * an input is never overwritten by a half-written result. */
#ifndef TMC_OUTFILE_H
#define TMC_OUTFILE_H

#include <stdio.h>

#include "error.h"
#include "experiment.h" /* TMC_PATH_MAX */

/* An output file written atomically: opened as a temporary file beside the
 * target before any work (so a missing folder or a permission error fails
 * early), renamed over the target only when complete. */
typedef struct {
    char path[TMC_PATH_MAX];
    char tmp[TMC_PATH_MAX + 16];
    FILE *fp;
    int slot; /* its place in the list a signal handler cleans up (output.c), -1: none */
} tmc_outfile;

/* Create the temporary file. Returns 0, or -1 with err naming path and cause. */
int tmc_output_open(tmc_outfile *o, const char *path, tmc_error *err);

/* Write text, flush, sync and rename onto the target. On failure the target
 * is untouched, the temporary file removed, and -1 returned with err set. */
int tmc_output_commit(tmc_outfile *o, const char *text, tmc_error *err);

/* The temporary file (o->tmp) was filled by another program (gnuplot):
 * sync it and rename it onto the target. On failure as tmc_output_commit. */
int tmc_output_commit_written(tmc_outfile *o, tmc_error *err);

/* Remove the temporary file; the target is untouched. */
void tmc_output_abort(tmc_outfile *o);

/* Remove the temporary file of the output being written, if any: only
 * unlink(2), so a signal handler may call it (SIGTERM may come while the
 * process waits in an MPI collective for a rank that was killed, and be
 * followed by SIGKILL, which leaves no chance to clean up later). */
void tmc_output_discard_pending(void);

#endif
