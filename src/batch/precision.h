/* precision.h - replicas until the answer is precise enough (issue 8).
 *
 * A target names a figure and the half-width its 95 % interval must reach:
 * deadline.probability (Wilson interval) or completion_days.mean (1.96 x its
 * standard error), absolute (abs=) or relative to the figure (rel=). The run
 * adds replicas in batches of TMC_PRECISION_BATCH, replica k still drawing
 * from stream k, and stops after the first batch that meets the target or
 * when the replica budget (monte_carlo.replicas) is spent: the answer
 * depends only on the seed and the target. */
#ifndef TMC_PRECISION_H
#define TMC_PRECISION_H

#include "config.h"

#define TMC_PRECISION_BATCH 1000

typedef enum { TMC_PRECISION_PROBABILITY = 0, TMC_PRECISION_MEAN = 1 } tmc_precision_metric;

typedef struct {
    tmc_precision_metric metric;
    int relative;  /* 1: rel=, 0: abs= */
    double target; /* > 0; days for an absolute mean */
    char text[96]; /* as given */
} tmc_precision;

/* Parse "deadline.probability:abs=0.001" or "completion_days.mean:rel=1e-4".
 * Returns 0, or -1 if the text is none of these forms. */
int tmc_precision_parse(const char *s, tmc_precision *p);

/* The 95 % half-width of the target's figure over wall_s[0 .. n) (run wall
 * times in seconds) and restarts[0 .. n) (restarts.h: a run over the
 * restart budget misses) and, in *value, the figure; 1 if it meets the
 * target. */
int tmc_precision_met(const tmc_precision *p, const double *wall_s, const double *restarts,
                      long n, const tmc_deadline *d, double *half_width, double *value);

/* How a precision target ended . */
typedef struct {
    const tmc_precision *target;
    int reached;       /* 1: met; 0: the replica budget ran out first */
    double half_width; /* the 95 % half-width reached */
    double value;      /* the figure */
} tmc_precision_outcome;

#endif
