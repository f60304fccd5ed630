/* oracle.h - a deliberately naive second engine, written for obviousness,
 * not speed: every card's compute time is drawn every step, every card has
 * its own lifetime clock, events are kept in an explicit list, snapshots in
 * a plain list with their commit times. It implements
 * docs/reference/simulation-semantics.md on its own and shares nothing with
 * src/engine/engine.c (nor failures.c, snapshots.c, dist.c): only the experiment
 * loader (config.h) and the closed form's K and mu.
 *
 * Tests compare the engine with it (tests/test_combinations.c,
 * tests/test_oracle.c). Its cost is O(N) per step: keep N x steps small. */
#ifndef TMC_ORACLE_H
#define TMC_ORACLE_H

#include <stdint.h>

#include "config.h"

/* One replica's result: wall time and its split (seconds), and counts. */
typedef struct {
    double wall_s;
    double compute_s, straggler_s, pause_s, fixed_s, save_s, lost_s;
    double restore_s, downtime_s, detection_s, spare_wait_s, eviction_s, requeue_s;
    double card_failures, outages, loss_spikes, saves, evictions, slow_cards, requeues;
    double save_timeouts;
    double slowdown_s, refresh_s, refreshes; /* section 12 */
    double persistent_restores; /* section 13: interruptions restored from storage */
    double bursts, burst_nodes; /* section 5: bursts, and the nodes they took */
    int censored; /* 1: still running at horizon_s; wall_s = horizon_s */
} oracle_result;

/* Run replica `replica` of experiment x (validated by tmc_config_load) with
 * segments of interval_steps steps, mean per-card compute time compute_s (s)
 * and censoring horizon horizon_s (s). Its random numbers come from its own
 * generator (GSL's MT19937), seeded from (seed, replica) only. Returns 0, or
 * -1 if memory runs out. */
int oracle_run(const tmc_experiment *x, long interval_steps, double compute_s,
               double horizon_s, uint64_t seed, uint64_t replica, oracle_result *out);

#endif
