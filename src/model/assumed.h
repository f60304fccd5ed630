/* assumed.h - what a run assumes that its experiment did not state (issue 32).
 *
 * A model choice left at its default can make the answer optimistic: an
 * unlimited pool of spares, failures detected at once, no outages, no
 * jitter, no loss spikes, restores of a fixed time. Each check below judges
 * whether the choice matters FOR THIS RUN, and names the key that changes it:
 *   failures.spares        -1 (unlimited) while failures take cards or nodes;
 *   failures.causes        none: every failure detected at once (any failures);
 *                          or, with causes, failures.causes[i].detection_s 0
 *                          in every cause;
 *   outages                null while the run lasts a day or more;
 *   jitter.cv              0 on TMC_ASSUMED_JITTER_CARDS cards or more (the
 *                          step waits for the slowest of N: E[max] grows with N);
 *   loss_spikes            null while the failure-free run lasts
 *                          TMC_ASSUMED_SPIKE_DAYS or more (docs/model.md 3.4:
 *                          one spike in 7 days);
 *   checkpoint.restore_cv  0 while restores take TMC_ASSUMED_SHARE of the run
 *                          or more in the closed form (W / M restores of r);
 *   time_limit.notice_s    not given while at_limit "save" saves before each
 *                          limit: the warning is assumed to hold the save.
 * The run, plan and forecast reports (text and JSON "assumed") read this one
 * list. tmc_assumed_contradicts says when the closed form's verdict and the
 * simulation disagree. */
#ifndef TMC_ASSUMED_H
#define TMC_ASSUMED_H

#include <stddef.h>

#include "closed_form.h"
#include "experiment.h"

#define TMC_ASSUMED_MAX 12
#define TMC_ASSUMED_JITTER_CARDS 256 /* jitter assumed 0 matters from here */
#define TMC_ASSUMED_SPIKE_DAYS 7.0   /* loss spikes left out matter from here */
#define TMC_ASSUMED_SHARE 0.001      /* restores of a fixed time matter from here */

typedef struct {
    const char *key;   /* the experiment key that changes it */
    char value[32];    /* its value in this run */
    char why[192];     /* what it assumes, and why that flatters the answer */
    int stated;        /* 1: the experiment (or an override) gave the key, 0: the
                          default (tmc_experiment.stated) */
} tmc_assumed_item;

typedef struct {
    int n;
    tmc_assumed_item item[TMC_ASSUMED_MAX];
} tmc_assumed;

/* The choices of x that flatter this run's answer, most telling first, each
 * marked stated or left to its default. */
void tmc_assumed_list(const tmc_experiment *x, const tmc_closed_form *cf, tmc_assumed *out);

/* How far Young's (or the shown closed form's) T may lie outside the
 * simulated [p01, p99] before it counts as a contradiction: TMC_ASSUMED_SE
 * standard errors of the simulated mean plus TMC_ASSUMED_REL of T. A run
 * without spread (no failures, one step) has p01 = p99 = its T, which the
 * closed form matches only to rounding. */
#define TMC_ASSUMED_SE 3.0
#define TMC_ASSUMED_REL 1e-6

/* Why the closed form's deadline verdict contradicts the simulation (into
 * buf[n], "" when it does not): the verdict "meets" (the closed form's T,
 * t_days, at most deadline_days) beside a simulated P(T <= deadline) whose
 * interval p[1]..p[2] lies below 0.5, "misses" beside an interval above 0.5
 * (p[0] is the estimate; a P whose interval holds 0.5 is a coin flip, which
 * neither verdict contradicts: the flag must not turn with the seed), or
 * t_days outside the simulated
 * [p01, p99] widened each way by TMC_ASSUMED_SE x se_days + TMC_ASSUMED_REL x
 * t_days. form names the closed form's T in the message ("Young's T", "the
 * elastic T"). Returns 1 when it does. */
int tmc_assumed_contradicts(const char *form, double t_days, double deadline_days,
                            const double p[3], double p01, double p99, double se_days, char *buf,
                            size_t n);

#endif
