/* cheapest.h - the cheapest plan that meets a deadline (issue 20, item 3,
 * `trainmc cheapest`): a search over several levers at once - the card
 * count, the checkpoint interval, the spare pool, sync or async saves - for
 * the plan of lowest expected cost (cost.h: money with a cost section, else
 * card-hours) whose P(T <= deadline) meets a target.
 *
 * Method. The levers other than the cards make a grid of combinations (at
 * most TMC_CHEAPEST_MAX_COMBOS). For each, TMC_CHEAPEST_GRID card counts
 * spread evenly over [cards_lo, cards_hi] are run, then the fewest cards
 * that meet the target are found by bisection (tmc_sweep_bisect) between the
 * last grid count that misses and the first that meets: within a
 * combination the cost rises with the cards (the same work, plus the
 * per-step time no card shares and the failures more cards bring), so its
 * cheapest feasible plan is its fewest feasible cards. When no grid count
 * meets, the search refines before it says no (issue 33, item 3: a grid of
 * misses and refusals had skipped every count that meets): it narrows in
 * on the count that runs best (highest P, then least mean completion time,
 * a refusal the worst; taken as unimodal in the cards: compute shrinks as
 * failures grow, and memory refuses below some count, "cannot finish" above
 * one) by probing the geometric middle of the wider gap beside it, until
 * its neighbours are adjacent; with no count that runs it probes the widest
 * gaps. A count that meets on the way
 * is bisected down from as a grid count is. If none meets when nothing is
 * left to probe, no plan meets; if the TMC_CHEAPEST_REFINE probes run out
 * first, the combination is undecided, with why and the card ranges not
 * examined. Every search evaluation runs the same replicas and seed (common random numbers, as
 * `sweep`). Card counts move in steps of card_step: whole nodes when the
 * failures name them (a node's failure takes all its cards, and a job is
 * given whole nodes), so every count searched, bisected or re-run is a
 * multiple of it. The TMC_CHEAPEST_FINALISTS cheapest plans that meet, each
 * with its combination at one step more, are then re-run on fresh replicas (seed
 * XOR TMC_CHEAPEST_FRESH_BIT, the same fresh streams for all of them), and
 * the chosen plan is the cheapest of those that meets the target there: its
 * reported cost and P come from replicas that played no part in making it
 * a finalist, so it is not chosen on its own noise. The card type cannot
 * be searched: an experiment has no card type, only job.peak_flops and
 * cost.card_hour_price (run once per type with --set; README).
 *
 * It prints nothing and never exits: src/cli/cli_cheapest.c is its client,
 * src/report/cheapest_output.h its report. */
#ifndef TMC_CHEAPEST_H
#define TMC_CHEAPEST_H

#include <stdint.h>

#include "cost.h"
#include "sweep.h"

#define TMC_CHEAPEST_MAX_VALUES 16   /* values of one list lever */
#define TMC_CHEAPEST_MAX_COMBOS 64   /* combinations of the levers other than cards */
#define TMC_CHEAPEST_GRID 5          /* card counts of the coarse grid per combination */
#define TMC_CHEAPEST_REFINE 64       /* counts probed past the grid per combination when
                                        none of the grid meets; then undecided */
#define TMC_CHEAPEST_MAX_GAPS 4      /* unexamined card ranges an undecided combination keeps */
#define TMC_CHEAPEST_FINALISTS 3     /* cheapest plans re-run on fresh replicas */
#define TMC_CHEAPEST_FRESH_BIT ((uint64_t)1 << 52) /* fresh seed = seed XOR this */
#define TMC_CHEAPEST_MAX_OVERRIDES 8 /* "KEY=VALUE" per combination: interval, spares,
                                        standbys, 3 for the mode, the refresh period,
                                        persistent_every */
#define TMC_CHEAPEST_OVERRIDE_LEN (TMC_SWEEP_KEY_LEN + 32)

/* The levers and their values (a lever not named keeps the experiment's). */
typedef struct {
    long cards_lo, cards_hi;          /* job.cards: LO:HI, 1 <= LO < HI, multiples of card_step */
    long card_step;                   /* the cards move in steps of this: whole nodes
                                         (failures.cards_per_node) when the failures name
                                         nodes, else 1 */
    long cards_asked[2];              /* job.cards=LO:HI as given, before its rounding to
                                         whole nodes; 0, 0: not named */
    char interval_key[TMC_SWEEP_KEY_LEN]; /* the experiment's own interval key */
    int n_intervals;
    double intervals[TMC_CHEAPEST_MAX_VALUES];
    int n_spares;
    long spares[TMC_CHEAPEST_MAX_VALUES];
    int n_standbys;
    long standbys[TMC_CHEAPEST_MAX_VALUES]; /* failures.standbys (docs/model.md 3.20) */
    int n_modes;
    int async[2];                     /* per mode value: 1 async, 0 sync */
    double async_copy_s;              /* an async save's copy from a sync experiment; NAN: not given */
    int n_refreshes;
    double refreshes[TMC_CHEAPEST_MAX_VALUES]; /* slowdown.refresh_hours (docs/model.md
                                         3.22); 0: the experiment has none */
    int n_persistents;
    long persistents_n[TMC_CHEAPEST_MAX_VALUES]; /* checkpoint.persistent_every (docs/model.md
                                         3.23): 1, one level */
#define TMC_CHEAPEST_LEVER_INTERVAL 1 /* named[]'s index of the interval */
    int named[7];                     /* which levers --lever named: cards, interval, spares,
                                         mode, standbys, refresh period, persistent_every */
} tmc_cheapest_levers;

/* One combination of the levers other than the cards. */
typedef struct {
    int n_overrides;
    char overrides[TMC_CHEAPEST_MAX_OVERRIDES][TMC_CHEAPEST_OVERRIDE_LEN]; /* "KEY=VALUE" */
    char label[300];  /* "checkpoint.interval_s=900, failures.spares=1, async" or "as given" */
    int cheapest;     /* the plan with the fewest cards meeting the target; -1: none */
    int undecided;    /* 1: no count probed meets, yet the refinement stopped (budget)
                         before it could rule out the counts between them */
    char undecided_why[256];
    int n_gaps;       /* undecided: the widest card ranges not examined, inclusive */
    long gaps[TMC_CHEAPEST_MAX_GAPS][2];
    long unexamined;  /* undecided: card counts (multiples of card_step) never probed */
} tmc_cheapest_combo;

/* One simulated plan: a combination at a card count, on the search
 * replicas or the fresh ones. */
typedef struct {
    int combo;
    long cards;
    int fresh;             /* 1: the final comparison's fresh replicas */
    int refused;           /* 1: not run (why): it does not fit or cannot finish; a miss */
    char why[512];
    double step_s;         /* closed form: the step time, s */
    long interval_steps;   /* K */
    tmc_sweep_result result;
    double p, p_lo, p_hi;  /* P(T <= deadline) with its Wilson 95 % interval */
    int meets;
    double cost, cost_se;  /* expected money (card-hours when unpriced) and its se */
    double card_hours;     /* expected card-hours */
    long cards_held;       /* cards + spares + standbys */
    int frontier;          /* search plans: no other is both cheaper and likelier */
} tmc_cheapest_plan;

/* Judge a setting before it runs; 0 to run it, else it is refused with
 * why (does not fit in memory, cannot finish). */
typedef int (*tmc_cheapest_check_fn)(const tmc_sweep_setting *s, void *ctx, char *why,
                                     size_t n);

typedef struct {
    int threads;                 /* >= 1 */
    tmc_progress_fn progress;    /* per simulation; NULL: none */
    void *progress_ctx;
    const volatile sig_atomic_t *stop; /* NULL: the process's (tmc_stop_request) */
    tmc_cheapest_check_fn check; /* NULL: run every setting */
    void *check_ctx;
} tmc_cheapest_options;

/* The whole search (large: on the heap). */
typedef struct {
    tmc_sweep_target target;   /* deadline.probability>=P, P in (0, 1) */
    tmc_sweep_source source;   /* the experiment's file or text: borrowed, with sets */
    const char *const *sets;
    int n_sets;
    tmc_sweep_base base;       /* the experiment as given (no key) */
    tmc_cheapest_levers levers;
    int priced;                /* 1: cost is money (a cost section), else card-hours */
    uint64_t fresh_seed;
    int n_combos;
    tmc_cheapest_combo combos[TMC_CHEAPEST_MAX_COMBOS];
    int n_undecided;           /* combinations undecided (tmc_cheapest_combo.undecided) */
    int n_plans, cap_plans;
    tmc_cheapest_plan *plans;  /* every simulation, in the order made */
    int n_finalists;
    int finalists[2 * TMC_CHEAPEST_FINALISTS]; /* fresh plans, cheapest first */
    double *finalist_cost;     /* [2 F x replicas]: per-replica cost on the fresh replicas */
    int chosen, runner_up;     /* fresh plans; -1: none */
    tmc_sweep_diff runner_up_diff; /* cost(runner_up) - cost(chosen), CRN */
    tmc_sweep_bracket scratch_bracket;
    tmc_sweep_base scratch;    /* the combination being searched */
    const tmc_cheapest_options *options; /* during tmc_cheapest_run */
    int combo_now;
    int failure;               /* the last simulation's failure (TMC_RUNNER_STOPPED, -1) */
} tmc_cheapest;

/* The target without --target (the library's NULL target). */
#define TMC_CHEAPEST_DEFAULT_TARGET "deadline.probability>=0.9"

/* A tmc_cheapest_check_fn (ctx: an int, 1 to run a plan that does not fit
 * in memory, the command line's --force): a plan that does not fit in memory
 * or cannot finish is refused with why, and counts as a miss. */
int tmc_cheapest_check_plan(const tmc_sweep_setting *s, void *ctx, char *why, size_t n);

/* Parse --target: a probability P in (0, 1), bare or as
 * "deadline.probability>=P". Returns 0, or -1 with err = "--target TEXT:
 * problem". */
int tmc_cheapest_parse_target(const char *text, tmc_sweep_target *t, tmc_error *err);

/* Load the experiment src names (a file or text) with sets[n_sets] (both
 * borrowed: --set, then --replicas and --seed) and the levers: lever[n_levers] are "KEY=VALUES"
 * (--lever): job.cards=LO:HI (integers), the experiment's interval key and
 * failures.spares with a list V1,V2,... or START:STOP:STEP,
 * checkpoint.mode=sync,async (from a sync experiment async needs
 * async_copy_s, the copy an async save blocks for, s; NAN: not given;
 * given without such a switch it is refused). A list lever's value may not
 * repeat; job.cards=LO:HI allows the key's range (its row), LO < HI. When
 * the failures name failures.cards_per_node g, the cards move in whole
 * nodes: LO is rounded up and HI down to multiples of g (refused when fewer
 * than two remain), and the spares and standbys levers take multiples of g
 * (or -1, unlimited spares). A lever not named keeps the experiment's
 * value; job.cards defaults to [ceil(n / 2), 2 n] steps, n = ceil(N / g)
 * (g = 1 without nodes). Every combination is loaded once to check its
 * values.
 * Returns 0, or -1 with err (a config message, or "--lever SPEC: problem"). */
int tmc_cheapest_load(tmc_cheapest *c, const tmc_sweep_source *src, const char *const *sets,
                      int n_sets, const tmc_sweep_target *target, const char *const *lever,
                      int n_levers, double async_copy_s, tmc_error *err);

/* The setting of combination `combo` at `cards` cards into *s. 0, or -1
 * with err (the validation table's message). */
int tmc_cheapest_load_setting(tmc_cheapest *c, int combo, long cards, tmc_sweep_setting *s,
                              tmc_error *err);

/* The search, the final comparison on fresh replicas and the frontier.
 * Returns 0 (also when no plan meets: c->chosen is then -1),
 * TMC_RUNNER_STOPPED with err, or -1 with err (memory). */
int tmc_cheapest_run(tmc_cheapest *c, const tmc_cheapest_options *o, tmc_error *err);

/* The search plans ordered for "the closest" when none meets: by P
 * descending, then cost ascending; at most n into idx. Returns the count. */
int tmc_cheapest_list_closest(const tmc_cheapest *c, int *idx, int n);

/* Frees what c holds, its base and scratch experiments included; c must
 * have been zeroed before its load (calloc), as the command line does. */
void tmc_cheapest_free(tmc_cheapest *c);

/* The frontier's plans (tmc_cheapest_plan.frontier) by increasing cost:
 * their indices into c->plans, written to idx (room for c->n_plans). Returns
 * their count. The text's table and the plot's line both read it. */
int tmc_cheapest_frontier_order(const tmc_cheapest *c, int *idx);

#endif
