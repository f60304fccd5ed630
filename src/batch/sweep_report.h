/* sweep_report.h - what a grid sweep (sweep_grid.h) and a --target
 * bisection (sweep_target.c) computed, as the writers (report/sweep_output.h)
 * and trainmc.h's results read it. */
#ifndef TMC_SWEEP_REPORT_H
#define TMC_SWEEP_REPORT_H

#include "sweep.h"

/* A grid sweep; all pointers borrowed, arrays indexed by setting. */
typedef struct {
    const tmc_sweep_base *base;
    const tmc_sweep_axis *axes;
    int n_axes;
    int n;                              /* settings */
    const tmc_sweep_setting *settings;
    const tmc_sweep_result *results;
    const tmc_sweep_diff *diffs;        /* T - T(reference), days */
    int reference;                      /* the lowest mean T */
    int interval_axis;                  /* the axis of checkpoint.interval_*, or -1 */
    const int *line_best;               /* with interval_axis: the best of each setting's line */
    const int *within;                  /* ... and whether it is within 2 CRN se of it */
    int threads;                        /* text only: the numbers do not depend on it */
    double elapsed_s;                   /* text only */
} tmc_sweep_report;

/* A --target bisection: its evaluations in the order made. */
typedef struct {
    const tmc_sweep_base *base;
    const tmc_sweep_target *target;
    const tmc_sweep_bracket *bracket;
    const tmc_sweep_bisection *bisection;
    int n;                              /* evaluations */
    const tmc_sweep_setting *settings;
    const tmc_sweep_result *results;
    int found, neighbour;               /* indices of the two final values */
    int threads;
    double elapsed_s;
} tmc_sweep_target_report;

#endif
