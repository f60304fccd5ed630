/* samples.h - every replica of `trainmc run` as CSV (--samples), for users
 * who draw their own plots or combine runs. */
#ifndef TMC_SAMPLES_H
#define TMC_SAMPLES_H

#include "accounting.h"
#include "config.h"

/* n replicas' figures (samples[k] is replica k's, its streams (seed, k))
 * as CSV text (RFC 4180): a header, then a row per replica with
 *   replica             k, from 0
 *   completion_days     T = deadline.reserve_days + wall time / 86,400 s
 *   met_deadline        1 if T <= deadline.days, else 0
 *   censored            1 if still running at the horizon (T is the horizon's)
 *   the event counts    card_failures, outages, loss_spikes, saves,
 *                       steps_simulated (the JSON's "events" keys)
 *   the wall-time split in days, one column per row of the JSON's
 *                       "split_days" (useful_compute_days, ...), which add
 *                       up to T - reserve_days for a replica not censored.
 * Numbers with 17 significant digits. Caller frees; NULL if memory runs out. */
char *tmc_samples_csv(const tmc_sample *samples, long n, const tmc_experiment *x);

#endif
