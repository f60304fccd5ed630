/* fuzz_engine.c - libFuzzer target for the engine (issue: "the experiment
 * loader is fuzzed; the other parsers are not").
 *
 * What must hold: any byte string is an experiment that tmc_config_parse
 * accepts or refuses with a non-empty message; an accepted one that the
 * command line would run (finite step time, no async write backlog, Daly's
 * expected wall time at most TMC_FINISHABLE_MAX_DALY_FACTOR times the uninterrupted
 * one: tmc_cli_check_finishable) goes through tmc_closed_form_compute,
 * tmc_engine_init, two replicas of tmc_engine_run (and replica 0 again) and
 * tmc_engine_free with no crash, leak, undefined behaviour or hang, and
 * every replica meets the invariants of fuzz_support.c (wall_s finite, >= 0,
 * at most the horizon; the split adding to wall_s within 1e-6 for a replica
 * that is not censored, docs/reference/simulation-semantics.md section 8; compute,
 * fixed and pause rows equal to their per-step values x steps; w = 1; the
 * same result when a replica is run again).
 *
 * Bounded work, so that one input runs well under a second (run with
 * -timeout to catch what slips through): the experiment is re-parsed with
 * --set overrides job.steps=2000 when it has more steps, and job.cards=4096
 * when it has more cards and they cost work (jitter, a quantile table per
 * card count; Weibull or lognormal lifetimes, a heap of N cards; slow
 * cards); monte_carlo.replicas is 2 (mode auto then runs exact). The
 * censoring horizon is shortened (monte_carlo.horizon_days, which must
 * exceed the deadline's budget: when it cannot, the deadline is moved
 * earlier with it) so that a replica meets at most about FUZZ_EVENTS
 * arrivals and step draws before the horizon. Paths in the experiment are
 * relative to experiments/, so the tree's distribution and model files
 * resolve; tests/fuzz/seed.sh rewrites the replays' CSV paths to match. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "finishable.h"

#define FUZZ_MAX_STEPS 2000
#define FUZZ_MAX_CARDS 4096
#define FUZZ_EVENTS 1e5 /* arrivals + step draws a replica may meet before the horizon */

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
void fuzz_check_engine(const tmc_experiment *x, const tmc_closed_form *cf);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char label[] = TMC_SOURCE_DIR "/experiments/fuzz.json";
static const char base_dir[] = TMC_SOURCE_DIR "/experiments";

static int parse(const char *text, const char *const *sets, int n, tmc_experiment *x)
{
    tmc_error err = {""};
    if (tmc_config_parse(text, label, base_dir, sets, n, x, &err) == 0)
        return 0;
    if (!err.msg[0])
        fuzz_fail("a refusal without a message", NULL);
    return -1;
}

/* Cards cost work beyond O(1) per step or arrival. */
static int cards_cost(const tmc_experiment *x)
{
    return x->jitter.cv > 0 || x->slow_cards.enabled ||
           (x->failures.enabled && (x->failures.distribution == TMC_LIFETIME_WEIBULL ||
                                    x->failures.distribution == TMC_LIFETIME_LOGNORMAL));
}

/* Shorten the horizon so that about FUZZ_EVENTS arrivals and step draws fit
 * before it; 0, or -1 when even that is not possible. */
static int bound_horizon(tmc_experiment *x, const tmc_closed_form *cf)
{
    double per_s = cf->rate_failures + cf->rate_outages + cf->rate_spikes + 1 / cf->step_s;
    double limit_s = FUZZ_EVENTS / per_s;
    if (!(limit_s > 1e-6)) /* too many events per second for any horizon */
        return -1;
    if (tmc_engine_horizon_s(x, cf) <= limit_s)
        return 0;
    double h_days = limit_s / TMC_DAY_S;
    if (!(h_days > x->deadline.days - x->deadline.reserve_days)) {
        x->deadline.reserve_days = 0; /* the budget must stay below the horizon */
        x->deadline.days = h_days / 2;
    }
    x->monte_carlo.horizon_days = h_days;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    tmc_experiment xs, *x = &xs; /* owns nothing after a refusal */
    if (parse(text, NULL, 0, x))
        goto done;
    char steps[64], cards[64];
    const char *sets[2];
    int n = 0;
    if (x->job.steps > FUZZ_MAX_STEPS) {
        snprintf(steps, sizeof steps, "job.steps=%d", FUZZ_MAX_STEPS);
        sets[n++] = steps;
    }
    if (x->job.cards > FUZZ_MAX_CARDS && cards_cost(x)) {
        snprintf(cards, sizeof cards, "job.cards=%d", FUZZ_MAX_CARDS);
        sets[n++] = cards;
    }
    if (n)
        tmc_experiment_release(x); /* loaded again, smaller */
    if (n && parse(text, sets, n, x))
        goto done;
    x->monte_carlo.replicas = 2;
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    /* what tmc_cli_check_finishable refuses, the command line never runs */
    if (!isfinite(cf.uninterrupted_s) || cf.write_backlog ||
        !(cf.daly_wall_s / cf.uninterrupted_s <= TMC_FINISHABLE_MAX_DALY_FACTOR))
        goto done;
    if (bound_horizon(x, &cf) == 0)
        fuzz_check_engine(x, &cf);
done:
    tmc_experiment_release(x);
    free(text);
    return 0;
}
