/* weights.h - importance sampling inside one replica: the likelihood ratio
 * of the untilted to the tilted processes, and the cross-entropy sums from
 * which batch/importance.c updates the tilt (Rubinstein and Kroese 2004).
 *
 * Invariant: with every tilt 1 the weight is exactly 1, whatever happened. */
#ifndef TMC_WEIGHTS_H
#define TMC_WEIGHTS_H

#include "accounting.h"
#include "processes.h"

/* Record in out (w, w2, w_miss, w2_miss, and the ce_* sums when the run is
 * in the elite, wall_s >= elite_wall_s) the likelihood ratio of a replica
 * that ended with processes p. out->wall_s must be set. */
void tmc_weights_record(const tmc_process_model *m, const tmc_processes *p,
                        double wall_end_s, double deadline_wall_s, double elite_wall_s,
                        tmc_replica *out);

/* 1 when tilt k (weights.h order) can apply to m: Poisson rates (not
 * per-card lifetimes or replayed traces) and exponential repair times. */
int tmc_weights_tiltable(const tmc_process_model *m, int k);

/* Check a tilt for the processes m (slots TMC_TILT_*, accounting.h):
 * theta[TMC_TILT_FAILURES..SPIKES] multiply the rates of failures, outages
 * and spikes, theta[TMC_TILT_REPAIRS] the mean repair time,
 * theta[TMC_TILT_DOWNTIMES] the mean of a lognormal outage downtime. Returns 0, or -1 if a tilt is not
 * positive and finite, tilts failures that are not a Poisson process, tilts
 * a replayed trace, or tilts fixed repair times. */
int tmc_weights_check(const tmc_process_model *m, const double theta[TMC_TILTS]);

#endif
