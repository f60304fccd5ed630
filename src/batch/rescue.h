/* rescue.h - the ways out of a plan that misses its target (issue 20,
 * `trainmc rescue`): for each lever alone - fewer steps (tokens), a later
 * deadline, a higher efficiency, more cards, the checkpoint interval moved
 * toward Daly's optimum, and the recovery levers (issue 34 part 4: a
 * shorter restore, detection per cause, heal, spare provisioning, repair) -
 * the smallest change that meets the target, found by bisection
 * (tmc_sweep_bisect) through a tmc_sweep_search: every evaluation runs the
 * same replicas and seed (common random numbers).
 *
 * Each lever's bracket runs from the current value (which misses) to a far
 * end: job.steps down to TMC_RESCUE_MIN_STEPS of the current (integers;
 * a forecast: at least one more than progress.steps_done);
 * deadline.days up to the first of 2x, 4x, ... the current that meets, at
 * most TMC_RESCUE_MAX_DOUBLINGS doublings; job.efficiency up to 1; job.cards
 * up to TMC_RESCUE_MAX_CARDS times the current (integers); the experiment's
 * own interval key (interval_s or interval_steps) to Daly's optimum (with two
 * levels of snapshots the two-level form's, docs/model.md 3.23; the
 * run's length when nothing interrupts it), since past the optimum the
 * metric turns back and bisection needs it monotone; a recovery time down
 * to 0 (instant). A non-integer lever is bisected until its bracket is
 * TMC_RESCUE_TOLERANCE of the current value wide. Every lever but the cards
 * moves the metric one way (fewer steps, a later deadline, a higher
 * efficiency, an interval nearer the optimum, a shorter recovery);
 * more cards compute faster but fail more often, so when job.cards' far end
 * misses or is refused, counts inside the bracket are probed first (issue
 * 33, item 3: the far end alone had said "not reached" though counts
 * between meet): the geometric middle of the wider gap beside the count
 * that runs best (P taken as unimodal in the cards, a refusal the worst),
 * until one meets (the bracket's far end is pulled in to it and bisected
 * as usual), none is left (not reached) or TMC_RESCUE_REFINE probes are
 * spent (undecided). It prints nothing and never exits: src/cli/cli_rescue.c is its
 * client, src/report/rescue_output.h its report. */
#ifndef TMC_RESCUE_H
#define TMC_RESCUE_H

#include "sweep.h"
#include "sweep_search.h"

#define TMC_RESCUE_MAX_LEVERS (9 + 2 * TMC_MAX_CAUSES) /* every kind, per-cause ones per cause */
#define TMC_RESCUE_TOLERANCE 1e-4    /* a non-integer lever's, of its current value */
#define TMC_RESCUE_MIN_STEPS 0.1     /* job.steps' far end, of the current steps */
#define TMC_RESCUE_MAX_CARDS 4       /* job.cards' far end, times the current cards */
#define TMC_RESCUE_MAX_DOUBLINGS 6   /* deadline.days' far end: at most 64x the current */
#define TMC_RESCUE_REFINE 16         /* job.cards: counts probed inside the bracket when
                                        its far end misses or is refused; then undecided */

/* The levers, in the order of the report (rescue.c's table gives each its
 * key and direction). */
typedef enum {
    TMC_RESCUE_STEPS,
    TMC_RESCUE_DEADLINE,
    TMC_RESCUE_EFFICIENCY,
    TMC_RESCUE_CARDS,
    TMC_RESCUE_INTERVAL,
    TMC_RESCUE_RESTORE,         /* checkpoint.restore_s */
    TMC_RESCUE_DETECTION,       /* failures.causes[i].detection_s, per cause */
    TMC_RESCUE_CAUSE_RESTORE,   /* failures.causes[i].restore_s, per cause that gives it */
    TMC_RESCUE_HEAL,            /* elastic.heal_s */
    TMC_RESCUE_PROVISION,       /* failures.spare_provision_s */
    TMC_RESCUE_REPAIR,          /* failures.repair_mean_hours */
    TMC_RESCUE_N_KINDS
} tmc_rescue_kind;

typedef enum {
    TMC_RESCUE_PENDING,        /* not run yet */
    TMC_RESCUE_FOUND,          /* found meets the target, neighbour does not */
    TMC_RESCUE_UNREACHED,      /* no end of the bracket meets it: best is the best reached */
    TMC_RESCUE_NOT_APPLICABLE, /* the lever cannot help (why says why) */
    TMC_RESCUE_REFUSED,        /* a setting was refused (why, or the check, says why) */
    TMC_RESCUE_UNDECIDED       /* job.cards: none probed meets, the probes ran out (why;
                                  unexamined) before the best count was bracketed */
} tmc_rescue_outcome;

/* What the closed form (Daly's, or the elastic form with elastic groups:
 * closed_form.h) says of a recovery lever: the value in [0, current] where
 * its metric meets the target (for P(deadline): where its T meets the
 * deadline, the closed form having no spread). */
typedef enum {
    TMC_RESCUE_CLOSED_NONE = 0,  /* not a recovery lever, or not applicable */
    TMC_RESCUE_CLOSED_FOUND,     /* closed_value */
    TMC_RESCUE_CLOSED_MEETS,     /* the closed form meets at the current value already */
    TMC_RESCUE_CLOSED_UNREACHED  /* the closed form misses even at 0 */
} tmc_rescue_closed;

typedef struct {
    tmc_rescue_kind kind;
    int cause;                  /* a per-cause lever's cause index; else -1 */
    tmc_sweep_base base;        /* the experiment with this lever's key */
    double current;             /* the key's value in the plan */
    int larger;                 /* 1: larger values help; 0: smaller */
    int two_level;              /* the interval lever moves toward the two-level form's
                                   optimum (checkpoint.persistent_every > 1), not Daly's */
    tmc_sweep_bracket bracket;  /* key, [lo, hi], tol (0: integers) */
    int doublings;              /* deadline.days: how often its far end was doubled */
    tmc_rescue_outcome outcome;
    char why[1024];             /* NOT_APPLICABLE, REFUSED: why; else "" */
    tmc_sweep_search search;    /* the evaluations, in order */
    tmc_sweep_bisection bisection; /* FOUND */
    int found, neighbour;       /* FOUND: their indices in search */
    int best;                   /* UNREACHED: the index of the best metric */
    int unresolved;             /* FOUND: the target lies inside either one's 95 % interval */
    double unexamined[2];       /* UNDECIDED: the widest range of counts never probed */
    long n_unexamined;          /* UNDECIDED: the counts never probed, in all */
    tmc_rescue_closed closed;   /* a recovery lever: the closed form's threshold */
    double closed_value;        /* closed == TMC_RESCUE_CLOSED_FOUND: the value */
} tmc_rescue_lever;

/* The whole search (large: on the heap). */
typedef struct {
    tmc_sweep_target target;
    tmc_sweep_base base;              /* no key: the plan as it stands */
    tmc_sweep_setting plan;
    tmc_sweep_result plan_result;
    int n_levers;
    tmc_rescue_lever levers[TMC_RESCUE_MAX_LEVERS];
} tmc_rescue;

/* The target without --target (the library's NULL target). */
#define TMC_RESCUE_DEFAULT_TARGET "deadline.probability>=0.9"

/* How the evaluations run (sweep_search.h). */
typedef struct {
    int threads;                /* >= 1 */
    tmc_progress_fn progress;   /* NULL: none */
    void *progress_ctx;
    const volatile sig_atomic_t *stop; /* NULL: the process's (tmc_stop_request) */
    tmc_sweep_check_fn check;   /* NULL: run every setting */
    void *check_ctx;
} tmc_rescue_options;

/* The lever named key (a dotted experiment key) into l's kind, cause and
 * bracket.key. The interval lever is the key x gives
 * (checkpoint.interval_s or .interval_steps); a per-cause lever names a
 * cause x has. Returns 0, or -1 with err = "--levers KEY: ..." naming the
 * levers. */
int tmc_rescue_parse_lever(const char *key, const tmc_experiment *x, tmc_rescue_lever *l,
                           tmc_error *err);

/* What moving lever l does, for the report ("a shorter restore"). */
const char *tmc_rescue_describe_lever(const tmc_rescue_lever *l);

/* Load the plan (the experiment src names, a file or text, with sets[n_sets], the --set
 * overrides and --replicas, --seed, all borrowed) into r and its levers:
 * `levers` is "KEY,KEY,..." (tmc_rescue_parse_lever, no lever twice) or NULL
 * for the five plan levers and every recovery lever that applies to the
 * experiment. Each lever gets its base, current value, direction and
 * bracket, or NOT_APPLICABLE with why. Returns 0, or -1 with err (a config
 * message, a bad lever, fewer than 2 replicas). */
int tmc_rescue_load(tmc_rescue *r, const tmc_sweep_source *src, const char *const *sets,
                    int n_sets, const tmc_sweep_target *target, const char *levers, tmc_error *err);

/* Run the plan as it stands into r->plan_result. Returns 0,
 * TMC_RUNNER_STOPPED with err, or -1 with err (memory). */
int tmc_rescue_run_plan(tmc_rescue *r, const tmc_rescue_options *o, tmc_error *err);

/* 1 when the plan as it stands meets the target (after tmc_rescue_run_plan). */
int tmc_rescue_plan_meets(const tmc_rescue *r);

/* Bisect lever i (a pending one; the plan run): the plan's result seeds its
 * search at the current value, a deadline's far end is grown, then
 * tmc_sweep_bisect, and the outcome is set. Returns 0 (an outcome, REFUSED
 * included: o->check refused a setting, or the table a value);
 * TMC_RUNNER_STOPPED with err; -1 with err (memory). */
int tmc_rescue_run_lever(tmc_rescue *r, int i, const tmc_rescue_options *o, tmc_error *err);

/* Frees what r holds, every experiment loaded included; r must have been
 * zeroed before its load (calloc), as the command line does. */
void tmc_rescue_free(tmc_rescue *r);

#endif
