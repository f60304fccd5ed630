/* config_fields.c - the validation table: every section of an experiment,
 * every key with its type, bounds, default, unit and one-line help.
 *
 * Invariants: a key's row is its only definition (the readers, the
 * messages, `trainmc sweep`'s key kinds, the JSON written back and the keys
 * reference, docs/reference/keys.md from `trainmc help-keys`, all come from
 * it); tmc_cfg_sections lists the sections in document order; a section has
 * at most TMC_CFG_MAX_FIELDS keys. Rules that span keys live in
 * config_checks.c, each named in a comment on the row it qualifies. */
#include "config_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact in a JSON number */

static const char *const pace_choices[] = {"observed", "plan", NULL};
static const field job_fields[] = {
    {.key = "steps", .type = T_INT, .lo = 1, .hi = TMC_JOB_STEPS_MAX, .required = 1, .unit = "steps",
     .help = "optimizer steps S of the whole run",
     .off = offsetof(tmc_job, steps)},
    {.key = "cards", .type = T_INT, .lo = 1, .hi = 1e7, .required = 1, .unit = "cards",
     .help = "cards N, all data-parallel (ZeRO-3)",
     .off = offsetof(tmc_job, cards)},
    {.key = "flop_per_step", .type = T_NUM, .lo = 0, .hi = 1e30, .lo_open = 1, .required = 1,
     .unit = "FLOP",
     .help = "training FLOP per step",
     .off = offsetof(tmc_job, flop_per_step)},
    {.key = "peak_flops", .type = T_NUM, .lo = 0, .hi = 1e20, .lo_open = 1, .required = 1,
     .unit = "FLOP/s",
     .help = "peak FLOP/s of one card",
     .off = offsetof(tmc_job, peak_flops)},
    {.key = "efficiency", .type = T_NUM, .lo = 0, .hi = 1, .lo_open = 1, .required = 1,
     .unit = "",
     .help = "model FLOP utilisation: mu = flop_per_step / (cards x peak_flops x "
             "efficiency)",
     .off = offsetof(tmc_job, efficiency)},
    {.key = "exposed_comm_s", .type = T_NUM, .lo = 0, .hi = 86400, .unit = "s",
     .help = "communication not hidden under compute, per step",
     .off = offsetof(tmc_job, exposed_comm_s)},
    {.key = "input_wait_s", .type = T_NUM, .lo = 0, .hi = 86400, .unit = "s",
     .help = "mean input wait per step",
     .off = offsetof(tmc_job, input_wait_s)},
    /* progress.step_s a step that this row's efficiencies give (at the
     * observed pace): check_pace (config_progress.c) */
    {.key = "pace", .type = T_ENUM, .choices = pace_choices, .unit = "",
     .help = "a forecast's steps left: observed (at progress.step_s, when given, through "
             "the efficiency that gives it) or plan (at job.efficiency)",
     .off = offsetof(tmc_job, pace)},
};

static const char *const jitter_choices[] = {"normal", "lognormal", "gamma", NULL};
static const field jitter_fields[] = {
    {.key = "distribution", .type = T_ENUM, .required = 1, .choices = jitter_choices,
     .unit = "",
     .help = "law of one card's compute time per step X_i, mean mu",
     .off = offsetof(tmc_jitter, kind)},
    /* normal: at most 0.2, checked in check_jitter */
    {.key = "cv", .type = T_NUM, .lo = 0, .hi = 2, .required = 1, .unit = "",
     .help = "sigma / mu of a card's compute time; 0: no jitter (each law's own limits: "
             "experiment-keys.md)",
     .off = offsetof(tmc_jitter, cv)},
    {.key = "correlation", .type = T_NUM, .lo = 0, .hi = 1, .unit = "",
     .help = "share rho of the variance common to all cards of a step; normal only",
     .off = offsetof(tmc_jitter, rho)},
    {.key = "source", .type = T_STR, .unit = "",
     .help = "where the figures come from (required in a distribution file)"},
    {.key = "description", .type = T_STR, .unit = "",
     .help = "free text for the reader"},
};

static const char *const failure_choices[] = {"exponential", "weibull", "lognormal", "trace",
                                              NULL};
static const char *const repair_choices[] = {"exponential", "fixed", "lognormal", "weibull",
                                             NULL};
static const char *const renewal_choices[] = {"card", "job", NULL};
static const char *const renewal_at_choices[] = {"restore", "failure", NULL};
static const char *const repair_from_choices[] = {"failure", "detection", NULL};
static const char *const bad_placement_choices[] = {"job", "fleet", NULL};
static const char *const spare_order_choices[] = {"random", "fifo", NULL};
static const char *const burst_size_choices[] = {"fixed", "geometric", "table", NULL};
static const field failure_fields[] = {
    {.key = "distribution", .type = T_ENUM, .choices = failure_choices, .unit = "",
     .help = "per-card lifetime law of mean per_card_mtbf_days, or a replayed trace",
     .off = offsetof(tmc_failures, distribution)},
    /* required unless distribution is "trace": checked in check_failures */
    {.key = "per_card_mtbf_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "mean lifetime of one card (MTBF); required but for a trace, or "
             "exponential lifetimes with per-node or per-job rates",
     .off = offsetof(tmc_failures, per_card_mtbf_days)},
    {.key = "shape", .type = T_NUM, .lo = 0.05, .hi = 20, .def = 1, .unit = "",
     .help = "Weibull shape k: < 1 early-life failures, > 1 wear-out, 1 exponential",
     .off = offsetof(tmc_failures, shape)},
    {.key = "lifetime_cv", .type = T_NUM, .lo = 0.01, .hi = 20, .def = 1, .unit = "",
     .help = "lognormal lifetimes: sd / mean",
     .off = offsetof(tmc_failures, lifetime_cv)},
    /* whole nodes when every failure that takes hardware takes a node and
     * no standby shares the pool: check_whole_units (config_checks.c) */
    {.key = "spares", .type = T_INT, .lo = -1, .hi = 1e6, .def = -1, .unit = "cards",
     .help = "spare cards in the pool; -1: unlimited",
     .off = offsetof(tmc_failures, spares)},
    {.key = "repair_mean_hours", .type = T_NUM, .lo = 0, .hi = 1e6, .def = 24, .unit = "h",
     .help = "M: mean repair time of a failed card (with a repair pipeline, of its "
             "manual stage)",
     .off = offsetof(tmc_failures, repair_mean_hours)},
    {.key = "repair_distribution", .type = T_ENUM, .choices = repair_choices, .unit = "",
     .help = "law of a repair time of mean repair_mean_hours; only exponential can be "
             "tilted by --importance",
     .off = offsetof(tmc_failures, repair_distribution)},
    /* the repair pipeline (issue 19): the manual stage's law, an automatic stage
     * and silent failures */
    {.key = "repair_cv", .type = T_NUM, .lo = 0, .hi = 20, .lo_open = 1, .def = 1, .unit = "",
     .help = "lognormal repairs: sd / mean",
     .off = offsetof(tmc_failures, repair_cv)},
    {.key = "repair_shape", .type = T_NUM, .lo = 0.05, .hi = 20, .lo_open = 1, .def = 1,
     .unit = "",
     .help = "Weibull repairs: shape k (< 1: heavy tail)",
     .off = offsetof(tmc_failures, repair_shape)},
    {.key = "repair_auto_share", .type = T_NUM, .lo = 0, .hi = 1, .unit = "",
     .help = "a: share of repairs an automatic first stage (reboot, reset) ends; 0: no "
             "such stage (docs/model.md 3.17)",
     .off = offsetof(tmc_failures, repair_auto_share)},
    {.key = "repair_auto_hours", .type = T_NUM, .lo = 0, .hi = 1e6, .def = 0.5, .unit = "h",
     .help = "A: the automatic stage's time, which every repair spends when "
             "repair_auto_share > 0",
     .off = offsetof(tmc_failures, repair_auto_hours)},
    /* at most 0.99: a repair that fails more often takes 1 / (1 - f) > 100 repairs
     * on average, and at 1 - 2^-32 every draw fails (the wait never ends) */
    {.key = "repair_fail_share", .type = T_NUM, .lo = 0, .hi = 0.99, .unit = "",
     .help = "f: probability that a repair silently fails; the card fails on first use "
             "and goes back to repair",
     .off = offsetof(tmc_failures, repair_fail_share)},
    {.key = "repair_from", .type = T_ENUM, .choices = repair_from_choices, .unit = "",
     .help = "when a repair starts: at the failure's instant, while it is being detected "
             "(failure), or once it is detected, when the job takes a spare (detection); "
             "the same without a detection delay",
     .off = offsetof(tmc_failures, repair_from)},
    /* warm standbys and cold spares' provisioning (issue 19): docs/model.md 3.20 */
    {.key = "standbys", .type = T_INT, .lo = 0, .hi = 1e6, .unit = "cards",
     .help = "W warm standby cards, taken before the pool, held the whole run "
             "(docs/model.md 3.20)",
     .off = offsetof(tmc_failures, standbys)},
    {.key = "standby_swap_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "swapping a warm standby in",
     .off = offsetof(tmc_failures, standby_swap_s)},
    {.key = "standby_refill_hours", .type = T_NUM, .lo = 0, .hi = 1e6, .unit = "h",
     .help = "d: a standby taken is replaced from outside this long after; 0: never "
             "(the standbys run out)",
     .off = offsetof(tmc_failures, standby_refill_hours)},
    {.key = "spare_provision_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "H: host selection and provisioning of a cold spare, from the pool or "
             "back from repair",
     .off = offsetof(tmc_failures, spare_provision_s)},
    /* "job" is refused with a trace: check_failures */
    {.key = "renewal", .type = T_ENUM, .choices = renewal_choices, .unit = "",
     .help = "whose clock a failure renews: the failed card's, or the job's (every "
             "card's); job not with a trace",
     .off = offsetof(tmc_failures, renewal)},
    /* failure only with renewal job: check_failures */
    {.key = "renewal_at", .type = T_ENUM, .choices = renewal_at_choices, .unit = "",
     .help = "job renewal: the new clocks start when the job is up again (restore), or at "
             "the failure's instant, so that the time down ages them (failure)",
     .off = offsetof(tmc_failures, renewal_at)},
    /* not with a trace: check_failures */
    {.key = "mtbf_events", .type = T_NUM, .lo = 0, .hi = 1e9, .unit = "failures",
     .help = "n: the MTBF was estimated from n failures and each replica draws its "
             "rate from the Gamma(n) posterior; 0: known (docs/model.md 3.11)",
     .off = offsetof(tmc_failures, mtbf_events)},
    /* 0, or at least 3; exponential repairs only, not with unlimited spares:
     * check_drawn_rates */
    {.key = "repair_events", .type = T_NUM, .lo = 0, .hi = 1e9, .unit = "repairs",
     .help = "n: the repair mean was estimated from n exponential repairs (0, or at "
             "least 3) and each replica draws its own; 0: known (docs/model.md 3.11)",
     .off = offsetof(tmc_failures, repair_events)},
    /* scale-dependent rates: not with a trace; cards_per_node goes with
     * per_node_mtbf_days (check_failures) */
    {.key = "per_node_mtbf_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "a node's own failures (host, NIC, power), each taking its cards_per_node "
             "cards; not given: none (docs/model.md 3.13)",
     .off = offsetof(tmc_failures, per_node_mtbf_days)},
    {.key = "cards_per_node", .type = T_INT, .lo = 1, .hi = 1e6, .def_unset = 1,
     .unit = "cards",
     .help = "g, the cards of a node (the job holds ceil(N / g) nodes); needed by "
             "per_node_mtbf_days, bad_node_share and node-scope causes",
     .off = offsetof(tmc_failures, cards_per_node)},
    {.key = "per_job_mtbf_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "failures of the job whatever its size (software, infrastructure), taking "
             "no spare; not given: none",
     .off = offsetof(tmc_failures, per_job_mtbf_days)},
    /* bad nodes: need cards_per_node, exponential lifetimes; check_bad_nodes */
    {.key = "bad_node_share", .type = T_NUM, .lo = 0, .hi = 1, .unit = "",
     .help = "b: probability that a node is bad, drawn per replica; 0: none "
             "(docs/model.md 3.19)",
     .off = offsetof(tmc_failures, bad_node_share)},
    {.key = "bad_node_mtbf_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "a bad node's extra failures, rate 1 / this on top of the others; "
             "required with bad_node_share",
     .off = offsetof(tmc_failures, bad_node_mtbf_days)},
    {.key = "bad_node_retire_after", .type = T_INT, .lo = 0, .hi = 1000, .unit = "faults",
     .help = "k: a bad node is retired at its k-th fault and replaced by a good one; "
             "0: never",
     .off = offsetof(tmc_failures, bad_node_retire_after)},
    {.key = "bad_node_placement", .type = T_ENUM, .choices = bad_placement_choices, .unit = "",
     .help = "job: bad nodes are drawn among the job's nodes and stay there, a bad node's "
             "fault rebooting it in place; fleet: among the job's and the pool's nodes, and "
             "a bad node's fault that takes a spare sends it to repair, whence it comes back "
             "to the pool still bad (needs a finite pool of whole nodes)",
     .off = offsetof(tmc_failures, bad_node_placement)},
    {.key = "bad_node_known", .type = T_BOOL, .unit = "",
     .help = "fleet: true when the bad nodes are known, so the job and its replacements "
             "take good nodes first; false: taken at random",
     .off = offsetof(tmc_failures, bad_node_known)},
    {.key = "bad_node_cure_share", .type = T_NUM, .lo = 0, .hi = 1, .unit = "",
     .help = "fleet: the chance that a bad node's repair cures it, so that it comes back "
             "good (AIReSim's repair that does not fail); 0: a bad node always comes back "
             "bad (a cohort, such as a firmware batch)",
     .off = offsetof(tmc_failures, bad_node_cure_share)},
    {.key = "node_aging_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "fleet: a good node turns bad after an exponential time of this mean, in the "
             "job, the pool or repair (aging: a fleet that degrades); not given: never",
     .off = offsetof(tmc_failures, node_aging_days)},
    {.key = "misdiagnosis_share", .type = T_NUM, .lo = 0, .hi = 1, .unit = "",
     .help = "fleet: the chance that a node failure sends the wrong node (another of the "
             "job's, drawn uniformly) to repair and takes a spare for it, the faulty one "
             "staying in the job; 0: never",
     .off = offsetof(tmc_failures, misdiagnosis_share)},
    {.key = "retire_after_failures", .type = T_INT, .lo = 0, .hi = 1000, .unit = "failures",
     .help = "fleet: k: a node whose repair ends with k failures of its own in the "
             "retire_window_days before leaves the fleet instead of returning to the pool "
             "(AIReSim's ThresholdRemoval); 0: never",
     .off = offsetof(tmc_failures, retire_after_failures)},
    {.key = "retire_window_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "fleet: w, the window in which retire_after_failures counts a node's "
             "failures; not given: the whole run",
     .off = offsetof(tmc_failures, retire_window_days)},
    {.key = "spare_order", .type = T_ENUM, .choices = spare_order_choices, .unit = "",
     .help = "fleet: which node the pool hands out: random, any of them uniformly; fifo, "
             "the one back from repair longest, so a repaired node waits behind every idle "
             "one (AIReSim's host selection by its pool's order)",
     .off = offsetof(tmc_failures, spare_order)},
    {.key = "reserve_nodes", .type = T_INT, .lo = 0, .hi = 1e6, .unit = "nodes",
     .help = "fleet: whole nodes kept apart from the pool (another job's, a spare pool of "
             "its own), fetched one at a time when the pool is empty, before the job waits "
             "for repairs; once fetched they are the fleet's for good (AIReSim's spare pool, "
             "moved into its working pool); 0: none",
     .off = offsetof(tmc_failures, reserve_nodes)},
    {.key = "reserve_fetch_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "fleet: the time to fetch one reserve node, the fetches one after another "
             "(AIReSim's preemption_wait_time), before its provisioning",
     .off = offsetof(tmc_failures, reserve_fetch_s)},
    /* bursts: need cards_per_node, exponential or no per-card lifetimes, a
     * size law's own keys: check_bursts (config_checks.c) */
    {.key = "burst_per_node_mtbf_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "bursts, failures taking several nodes at once (a switch, a rack's power): "
             "per node held, their mean interval; the job's rate is ceil(N / g) / this; "
             "not given: none (docs/model.md 3.24)",
     .off = offsetof(tmc_failures, burst_per_node_mtbf_days)},
    {.key = "burst_size", .type = T_ENUM, .choices = burst_size_choices, .unit = "",
     .help = "the law of a burst's nodes: exactly burst_nodes, geometric on 2, 3, ... of "
             "mean burst_nodes, or the table burst_weights",
     .off = offsetof(tmc_failures, burst_size)},
    {.key = "burst_nodes", .type = T_NUM, .lo = 1, .hi = 1e6, .def = 2, .unit = "nodes",
     .help = "fixed: the nodes a burst takes (an integer); geometric: their mean (> 2); "
             "past the job's nodes: all of them",
     .off = offsetof(tmc_failures, burst_nodes)},
    {.key = "burst_weights", .type = T_WEIGHTS, .lo = 0, .hi = 1e9, .unit = "",
     .help = "burst_size table: burst_weights[i] weighs bursts of i + 1 nodes (1 to 64 "
             "entries, not all 0), e.g. the group counts trainmc fit finds",
     .off = offsetof(tmc_failures, n_burst_weights)},
    {.key = "measured_cards", .type = T_INT, .lo = 1, .hi = 1e7, .def_unset = 1,
     .unit = "cards",
     .help = "the card count the rates were measured at; the closed form warns past 8x "
             "either way; not given: not stated",
     .off = offsetof(tmc_failures, measured_cards)},
    {.key = "causes", .type = T_CAUSES, .unit = "",
     .help = "a mix of 1 to 16 causes (failures.causes[i] below); absent: one cause, "
             "no detection delay",
     .off = offsetof(tmc_failures, n_causes)},
    {.key = "trace", .type = T_TRACE, .unit = "",
     .help = "CSV file of job failure times (header time_days, days from the start), "
             "replayed in every replica",
     .off = offsetof(tmc_failures, n_trace)},
    {.key = "source", .type = T_STR, .unit = "",
     .help = "where the figures come from (required in a distribution file)"},
    {.key = "description", .type = T_STR, .unit = "",
     .help = "free text for the reader"},
};

static const char *const detection_choices[] = {"fixed", "exponential", "lognormal", NULL};
static const char *const cause_scope_choices[] = {"card", "node", NULL};
static const char *const cause_level_choices[] = {"local", "persistent", NULL};
static const field cause_fields[] = {
    {.key = "name", .type = T_STR, .required = 1, .unit = "",
     .help = "the cause's name, at most 47 bytes of UTF-8"},
    /* per part the shares add to 1 or 0: tmc_cfg_read_causes, check_scoped */
    {.key = "share", .type = T_NUM, .lo = 0, .hi = 1, .def = -1, .def_unset = 1, .unit = "",
     .help = "its share of the failures of every part (card, node, job, burst) not given its "
             "own share below; per part the causes' shares add to 1",
     .off = offsetof(tmc_failure_cause, share)},
    {.key = "card_share", .type = T_NUM, .lo = 0, .hi = 1, .def = -1, .def_unset = 1,
     .unit = "",
     .help = "its share of card failures (per_card_mtbf_days, a lifetime law, a trace); "
             "not given: share, or 0 without it",
     .off = offsetof(tmc_failure_cause, card_share)},
    {.key = "node_share", .type = T_NUM, .lo = 0, .hi = 1, .def = -1, .def_unset = 1,
     .unit = "",
     .help = "its share of node failures (per_node_mtbf_days, bad nodes' faults); not "
             "given: share, or 0 without it",
     .off = offsetof(tmc_failure_cause, node_share)},
    {.key = "job_share", .type = T_NUM, .lo = 0, .hi = 1, .def = -1, .def_unset = 1,
     .unit = "",
     .help = "its share of the job's own failures (per_job_mtbf_days); not given: "
             "share, or 0 without it",
     .off = offsetof(tmc_failure_cause, job_share)},
    {.key = "burst_share", .type = T_NUM, .lo = 0, .hi = 1, .def = -1, .def_unset = 1,
     .unit = "",
     .help = "its share of bursts (burst_per_node_mtbf_days); not given: share, or 0 "
             "without it",
     .off = offsetof(tmc_failure_cause, burst_share)},
    {.key = "detection_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "from the failure to its detection (the mean when the law is not fixed)",
     .off = offsetof(tmc_failure_cause, detection_s)},
    {.key = "restore_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "its restore time; not given: checkpoint.restore_s",
     .off = offsetof(tmc_failure_cause, restore_s)},
    {.key = "takes_spare", .type = T_BOOL, .def = 1, .unit = "",
     .help = "true: its cards go to repair and the job takes spares; false: a restart "
             "only",
     .off = offsetof(tmc_failure_cause, takes_spare)},
    {.key = "detection_distribution", .type = T_ENUM, .choices = detection_choices, .unit = "",
     .help = "law of the detection delay: exactly detection_s, or of mean detection_s",
     .off = offsetof(tmc_failure_cause, detection_law)},
    {.key = "detection_cv", .type = T_NUM, .lo = 0, .hi = 20, .lo_open = 1, .def = 1,
     .unit = "",
     .help = "lognormal detection: sd / mean of the delay",
     .off = offsetof(tmc_failure_cause, detection_cv)},
    /* "node" needs failures.cards_per_node: check_failures (config_checks.c) */
    {.key = "scope", .type = T_ENUM, .choices = cause_scope_choices, .unit = "",
     .help = "what a failure takes: the card, or its node (failures.cards_per_node "
             "cards)",
     .off = offsetof(tmc_failure_cause, scope)},
    {.key = "level", .type = T_ENUM, .choices = cause_level_choices, .unit = "",
     .help = "two levels of snapshots (checkpoint.persistent_every): the snapshot its "
             "restore needs, "
             "the newest (local: a local one survives on the partner node unless that "
             "node failed too) or the newest persistent one (persistent: its failure "
             "loses every node's memory, a storage or network fault)",
     .off = offsetof(tmc_failure_cause, level)},
};

static const char *const save_choices[] = {"sync", "async", NULL};
static const char *const duration_choices[] = {"lognormal", "gamma", "uniform", NULL};
static const field checkpoint_fields[] = {
    {.key = "interval_s", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1, .def_unset = 1,
     .unit = "s",
     .help = "checkpoint interval in seconds, or \"young\" or \"daly\": the closed form's "
             "optimum for the experiment's own interruptions, found on load, or "
             "\"optimal\": the lowest simulated mean T, searched before each run "
             "(docs/reference/experiment-keys.md); give this or interval_steps",
     .alternative = "interval_steps",
     .off = offsetof(tmc_checkpoint, interval_s)},
    {.key = "interval_steps", .type = T_INT, .lo = 1, .hi = 1e9, .def_unset = 1,
     .unit = "steps",
     .help = "checkpoint interval in steps; give this or interval_s",
     .alternative = "interval_s",
     .off = offsetof(tmc_checkpoint, interval_steps)},
    {.key = "save_s", .type = T_NUM, .lo = 0, .hi = 1e7, .required = 1, .unit = "s",
     .help = "c: time a save blocks training, the whole save (sync) or the copy into a "
             "buffer (async)",
     .off = offsetof(tmc_checkpoint, save_s)},
    {.key = "restore_s", .type = T_NUM, .lo = 0, .hi = 1e7, .required = 1, .unit = "s",
     .help = "r: restore time",
     .off = offsetof(tmc_checkpoint, restore_s)},
    {.key = "mode", .type = T_ENUM, .choices = save_choices, .unit = "",
     .help = "sync, or async: saves write in the background and commit when written",
     .off = offsetof(tmc_checkpoint, mode)},
    {.key = "write_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "async: background write of one snapshot",
     .off = offsetof(tmc_checkpoint, write_s)},
    {.key = "duration_law", .type = T_ENUM, .choices = duration_choices, .unit = "",
     .help = "law of a save's and a restore's duration around its mean (docs/model.md "
             "3.12)",
     .off = offsetof(tmc_checkpoint, duration_law)},
    /* uniform: at most 1 / sqrt(3), checked in check_durations */
    {.key = "save_cv", .type = T_NUM, .lo = 0, .hi = 2, .unit = "",
     .help = "sd / mean of a save (the async copy); 0: fixed; uniform at most "
             "1/sqrt(3)",
     .off = offsetof(tmc_checkpoint, save_cv)},
    {.key = "restore_cv", .type = T_NUM, .lo = 0, .hi = 2, .unit = "",
     .help = "sd / mean of a restore attempt; 0: fixed; uniform at most 1/sqrt(3)",
     .off = offsetof(tmc_checkpoint, restore_cv)},
    {.key = "restore_immune", .type = T_BOOL, .unit = "",
     .help = "true: failures and outages due during a restore are dropped, as simulators "
             "that charge each failure one restore assume (Daly's form becomes "
             "(M + D + r)(e^((tau + c)/M) - 1) a segment); false: they strike it and it "
             "starts again",
     .off = offsetof(tmc_checkpoint, restore_immune)},
    /* above the shortest save the law allows: check_durations */
    {.key = "save_timeout_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "a save still running after this fails the job; 0: none; must exceed the "
             "shortest save",
     .off = offsetof(tmc_checkpoint, save_timeout_s)},
    /* not with elastic groups, a window or rollbacks of several snapshots:
     * tmc_cfg_check_levels */
    {.key = "persistent_every", .type = T_INT, .lo = 1, .hi = 1e6, .def = 1,
     .unit = "snapshots",
     .help = "m: every m-th snapshot (at multiples of m intervals) and the last are "
             "written to persistent storage, the others kept local (in host memory, "
             "copied to the next node); a restore needs a persistent one after an "
             "outage, a loss spike, a time limit, a save timeout, a failure of level "
             "persistent, or a node failure whose partner node failed since the last "
             "snapshot; with async saves every snapshot's copy is local at once and "
             "only the persistent ones are written; 1: every snapshot persistent (one "
             "level)",
     .off = offsetof(tmc_checkpoint, persistent_every)},
    {.key = "local_save_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "c1: time a local snapshot blocks training; at most save_s; not given: "
             "save_s; unused with persistent_every 1 (a sweep may set it)",
     .off = offsetof(tmc_checkpoint, local_save_s)},
    {.key = "local_restore_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "r1: a restore from a local snapshot; at most restore_s; not given: "
             "restore_s; unused with persistent_every 1",
     .off = offsetof(tmc_checkpoint, local_restore_s)},
};

/* mean_interval_days is required unless a trace replays the times: checked
 * in check_replayed. */
static const field outage_fields[] = {
    {.key = "mean_interval_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "mean time between common outages; required unless a trace replays them",
     .alternative = "trace",
     .off = offsetof(tmc_outages, mean_interval_days)},
    {.key = "downtime_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "mean time down before the restore",
     .off = offsetof(tmc_outages, downtime_s)},
    {.key = "downtime_cv", .type = T_NUM, .lo = 0, .hi = 20, .unit = "",
     .help = "0: every outage lasts downtime_s; else lognormal downtimes with this cv",
     .off = offsetof(tmc_outages, downtime_cv)},
    {.key = "notice_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "warning before each outage; at least save_s: an emergency save loses no "
             "work (sync saves only)",
     .off = offsetof(tmc_outages, notice_s)},
    /* not with a trace: check_outage_events (config_checks.c) */
    {.key = "mtbf_events", .type = T_NUM, .lo = 0, .hi = 1e9, .unit = "outages",
     .help = "n: the outage rate was estimated from n outages and each replica draws "
             "its own; 0: known; not with a trace",
     .off = offsetof(tmc_outages, mtbf_events)},
    {.key = "trace", .type = T_TRACE, .unit = "",
     .help = "CSV file of outage times (header time_days), replayed instead of a "
             "Poisson process",
     .alternative = "mean_interval_days",
     .off = offsetof(tmc_outages, n_trace)},
};

static const field spike_fields[] = {
    {.key = "mean_interval_days", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .def_unset = 1, .unit = "days",
     .help = "mean time between loss spikes; required unless a trace replays them",
     .alternative = "trace",
     .off = offsetof(tmc_loss_spikes, mean_interval_days)},
    {.key = "rollback_snapshots", .type = T_INT, .lo = 1, .hi = TMC_MAX_ROLLBACK, .def = 1,
     .unit = "snapshots",
     .help = "committed snapshots a spike rolls back (noticed late: more than 1)",
     .off = offsetof(tmc_loss_spikes, rollback_snapshots)},
    {.key = "trace", .type = T_TRACE, .unit = "",
     .help = "CSV file of spike times (header time_days), replayed instead of a "
             "Poisson process",
     .alternative = "mean_interval_days",
     .off = offsetof(tmc_loss_spikes, n_trace)},
};

static const char *const limit_action_choices[] = {"save", "lose", NULL};
static const char *const limit_restart_choices[] = {"same_allocation", "new_allocation", NULL};
static const field time_limit_fields[] = {
    {.key = "wall_hours", .type = T_NUM, .lo = 0, .hi = 1e6, .lo_open = 1, .required = 1,
     .unit = "h",
     .help = "an allocation's wall-clock limit (SLURM's --time); the job is then "
             "requeued",
     .off = offsetof(tmc_time_limit, wall_hours)},
    {.key = "requeue_s", .type = T_NUM, .lo = 0, .hi = 1e8, .unit = "s",
     .help = "waiting in the queue for the next allocation",
     .off = offsetof(tmc_time_limit, requeue_s)},
    /* "save" needs synchronous saves: config_checks.c */
    {.key = "at_limit", .type = T_ENUM, .choices = limit_action_choices, .unit = "",
     .help = "save: an emergency save just before the limit (sync saves only); lose: "
             "the work since the last commit is lost",
     .off = offsetof(tmc_time_limit, at_limit)},
    {.key = "notice_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "the scheduler's warning before the limit (SLURM's --signal=B:USR1@N); with "
             "at_limit save: shorter than save_s, the save cannot finish and the work is "
             "lost; longer, the job saves at the warning and ends its allocation; not "
             "given: a save is assumed to fit",
     .off = offsetof(tmc_time_limit, notice_s)},
    {.key = "restarts", .type = T_ENUM, .choices = limit_restart_choices, .unit = "",
     .help = "whether a failure restarts the job inside its allocation (its limit "
             "counting) or in a new one",
     .off = offsetof(tmc_time_limit, restarts)},
};

/* refresh_hours longer than a save, and what slowdown cannot be combined
 * with: check_slowdown (config_checks.c) */
static const field slowdown_fields[] = {
    {.key = "per_hour", .type = T_NUM, .lo = 0, .hi = 100, .required = 1, .unit = "1/h",
     .help = "drift: a step's slowest-card time times 1 + per_hour x the hours since "
             "the job's last (re)start (at the step's start); every restore starts "
             "the hours again",
     .off = offsetof(tmc_slowdown, per_hour)},
    {.key = "max_extra", .type = T_NUM, .lo = 0, .hi = 1e3, .lo_open = 1, .def_unset = 1,
     .unit = "",
     .help = "saturating drift: the factor is 1 + max_extra (1 - exp(-per_hour h / "
             "max_extra)), the same slope at first, never above 1 + max_extra; not "
             "given: linear",
     .off = offsetof(tmc_slowdown, max_extra)},
    {.key = "refresh_hours", .type = T_NUM, .lo = 0, .hi = 1e6, .lo_open = 1, .def_unset = 1,
     .unit = "h",
     .help = "a planned refresh restart when the hours since the (re)start reach it: "
             "the steps done are saved (compute stops a save time before), then the job "
             "restarts; not given: none",
     .off = offsetof(tmc_slowdown, refresh_hours)},
    {.key = "refresh_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "a refresh restart's cost (struck by failures like a restore); not given: "
             "checkpoint.restore_s",
     .off = offsetof(tmc_slowdown, refresh_s)},
};

/* G divides job.cards, min_groups <= G, and what elastic groups cannot be
 * combined with: check_elastic (config_checks.c) */
static const field elastic_fields[] = {
    {.key = "groups", .type = T_INT, .lo = 2, .hi = 1e7, .required = 1, .unit = "groups",
     .help = "G replica groups of job.cards / G cards; G divides job.cards",
     .off = offsetof(tmc_elastic, groups)},
    {.key = "min_groups", .type = T_INT, .lo = 1, .hi = 1e7, .def = 1, .unit = "groups",
     .help = "fewer groups up is a global restart from the last commit; at most groups",
     .off = offsetof(tmc_elastic, min_groups)},
    {.key = "heal_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "a rejoining group copies the weights from a live peer for this long",
     .off = offsetof(tmc_elastic, heal_s)},
};

/* committed_step <= steps_done < job.steps, the spares, the step time and
 * what a forecast cannot start from: tmc_cfg_check_progress
 * (config_progress.c) */
static const field progress_fields[] = {
    {.key = "elapsed_days", .type = T_NUM, .lo = 0, .hi = 1e6, .required = 1, .unit = "days",
     .help = "wall time since the training run started",
     .off = offsetof(tmc_observed, elapsed_days)},
    {.key = "steps_done", .type = T_INT, .lo = 0, .hi = 1e9, .required = 1, .unit = "steps",
     .help = "steps completed so far; below job.steps",
     .off = offsetof(tmc_observed, steps_done)},
    {.key = "committed_step", .type = T_INT, .lo = 0, .hi = 1e9, .required = 1, .unit = "steps",
     .help = "the last step of the newest committed checkpoint; at most steps_done",
     .off = offsetof(tmc_observed, committed_step)},
    {.key = "failures", .type = T_INT, .lo = 0, .hi = 1e9, .unit = "failures",
     .help = "failures that interrupted the run so far",
     .off = offsetof(tmc_observed, failures)},
    {.key = "outages", .type = T_INT, .lo = 0, .hi = 1e9, .unit = "outages",
     .help = "outages that interrupted the run so far",
     .off = offsetof(tmc_observed, outages)},
    /* -1 (the default, as the JSON writes it back): elapsed_days */
    {.key = "exposure_days", .type = T_NUM, .lo = -1, .hi = 1e6, .def = -1, .unit = "days",
     .help = "the time failures and outages were watched over; -1: elapsed_days",
     .off = offsetof(tmc_observed, exposure_days)},
    {.key = "cards", .type = T_INT, .lo = 0, .hi = 1e7, .unit = "cards",
     .help = "the cards held so far (the exposure's); 0: job.cards",
     .off = offsetof(tmc_observed, cards)},
    {.key = "cards_in_repair", .type = T_INT, .lo = 0, .hi = 1e6, .unit = "cards",
     .help = "cards of the spare pool in repair now",
     .off = offsetof(tmc_observed, cards_in_repair)},
    {.key = "standbys_used", .type = T_INT, .lo = 0, .hi = 1e6, .unit = "cards",
     .help = "standbys not warm now (taken, not yet replaced)",
     .off = offsetof(tmc_observed, standbys_used)},
    {.key = "step_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "mean step time observed so far; 0: not given (the planned one)",
     .off = offsetof(tmc_observed, step_s)},
    /* only beside step_s: check_pool_and_clock (config_progress.c) */
    {.key = "step_sd_s", .type = T_NUM, .lo = 0, .hi = 1e7, .unit = "s",
     .help = "sd of the step times step_s averages (its standard error is step_sd_s / "
             "sqrt(step_count)); 0: not given",
     .off = offsetof(tmc_observed, step_sd_s)},
    /* 0 or in [2, steps_done]: check_step_count (config_progress.c) */
    {.key = "step_count", .type = T_INT, .lo = 0, .hi = 1e9, .unit = "steps",
     .help = "steps step_s averages, 2 to steps_done; 0: steps_done",
     .off = offsetof(tmc_observed, step_count)},
};

/* 0: off; what a window cannot be combined with: tmc_cfg_check_window
 * (config_window.c) */
static const field window_fields[] = {
    {.key = "days", .type = T_NUM, .lo = 0, .hi = 1e5, .unit = "days",
     .help = "the calendar window W from the job's start; 0: off",
     .off = offsetof(tmc_window, days)},
};

/* config_trace.c stores every section's trace through this one gap */
_Static_assert(TMC_CFG_TRACE_GAP(tmc_outages) == TMC_CFG_TRACE_GAP(tmc_failures) &&
               TMC_CFG_TRACE_GAP(tmc_loss_spikes) == TMC_CFG_TRACE_GAP(tmc_failures),
               "n_trace and trace_days laid out alike");

static const field slow_fields[] = {
    {.key = "fraction", .type = T_NUM, .lo = 0, .hi = 1, .required = 1, .unit = "",
     .help = "probability that a card is persistently slow",
     .off = offsetof(tmc_slow_cards, fraction)},
    {.key = "factor", .type = T_NUM, .lo = 1, .hi = 100, .required = 1, .unit = "",
     .help = "a slow card's compute time over a normal card's",
     .off = offsetof(tmc_slow_cards, factor)},
    {.key = "detect_after_steps", .type = T_INT, .lo = 0, .hi = 1e9, .unit = "steps",
     .help = "steps before slow cards are detected and evicted at the next commit; 0: "
             "never",
     .off = offsetof(tmc_slow_cards, detect_after_steps)},
    {.key = "eviction_restore_s", .type = T_NUM, .lo = 0, .hi = 1e7, .def = -1, .def_unset = 1,
     .unit = "s",
     .help = "the restore an eviction costs; not given: checkpoint.restore_s",
     .off = offsetof(tmc_slow_cards, eviction_restore_s)},
};

static const char *const pause_choices[] = {"all", "one", NULL};
static const field pause_fields[] = {
    {.key = "every_steps", .type = T_INT, .lo = 1, .hi = 1e9, .required = 1, .unit = "steps",
     .help = "a pause falls on steps k, 2k, 3k, ... of the run",
     .off = offsetof(tmc_pauses, every_steps)},
    {.key = "duration_s", .type = T_NUM, .lo = 0, .hi = 1e7, .lo_open = 1, .required = 1,
     .unit = "s",
     .help = "length of a pause",
     .off = offsetof(tmc_pauses, duration_s)},
    {.key = "cards", .type = T_ENUM, .choices = pause_choices, .unit = "",
     .help = "all cards stop (the step is longer by the pause), or one card does (the "
             "step waits for it)",
     .off = offsetof(tmc_pauses, cards)},
};

static const field deadline_fields[] = {
    {.key = "days", .type = T_NUM, .lo = 0, .hi = 1e6, .lo_open = 1, .required = 1,
     .unit = "days",
     .help = "deadline from the job's start",
     .off = offsetof(tmc_deadline, days)},
    {.key = "reserve_days", .type = T_NUM, .lo = 0, .hi = 1e6, .unit = "days",
     .help = "reserved for start-up, evaluation, pauses; below days",
     .off = offsetof(tmc_deadline, reserve_days)},
    {.key = "max_restarts", .type = T_INT, .lo = -1, .hi = 1e9, .def = -1, .unit = "restarts",
     .help = "a run restarted more often fails (a miss); -1: no limit",
     .off = offsetof(tmc_deadline, max_restarts)},
};

static const char *const mode_choices[] = {"auto", "steps", "segments", NULL};
static const field mc_fields[] = {
    {.key = "replicas", .type = T_INT, .lo = 1, .hi = 1e9, .def = 10000, .unit = "replicas",
     .help = "independent full runs",
     .off = offsetof(tmc_monte_carlo, replicas)},
    {.key = "seed", .type = T_U64, .lo = 0, .hi = MAX_SEED, .def = 1, .unit = "",
     .help = "run seed",
     .off = offsetof(tmc_monte_carlo, seed)},
    {.key = "mode", .type = T_ENUM, .choices = mode_choices, .unit = "",
     .help = "how compute time is drawn: segments (one exact draw of a segment's sum "
             "where nothing inside it needs a step's end), steps (every step), or auto "
             "(segments; steps for elastic groups)",
     .off = offsetof(tmc_monte_carlo, mode)},
    {.key = "horizon_days", .type = T_NUM, .lo = 0, .hi = 1e9, .unit = "days",
     .help = "a replica still running at this wall time is censored; 0: 1000 x the "
             "uninterrupted wall time; past the deadline's budget",
     .off = offsetof(tmc_monte_carlo, horizon_days)},
};

/* The sections below feed only `trainmc plan`; defaults are docs/model.md 1's. */
static const field model_fields[] = {
    {.key = "parameters", .type = T_INT, .lo = 1, .hi = 1e15, .required = 1,
     .unit = "parameters",
     .help = "trainable parameters P",
     .off = offsetof(tmc_model, parameters)},
    {.key = "flop_per_sequence", .type = T_NUM, .lo = 0, .hi = 1e30, .lo_open = 1,
     .required = 1, .unit = "FLOP",
     .help = "training FLOP (forward + backward) per sequence",
     .off = offsetof(tmc_model, flop_per_sequence)},
    {.key = "sequence_tokens", .type = T_INT, .lo = 1, .hi = 1e9, .required = 1,
     .unit = "tokens",
     .help = "tokens per sequence",
     .off = offsetof(tmc_model, sequence_tokens)},
    {.key = "weights_bytes_per_param", .type = T_NUM, .lo = 0, .hi = 64, .lo_open = 1, .def = 2,
     .unit = "bytes/parameter",
     .help = "matmul weight copy (BF16 2, FP8 block-scaled 1.0002)",
     .off = offsetof(tmc_model, weights_bytes_per_param)},
    {.key = "grads_bytes_per_param", .type = T_NUM, .lo = 0, .hi = 64, .lo_open = 1, .def = 2,
     .unit = "bytes/parameter",
     .help = "gradients (BF16 2, FP32 4)",
     .off = offsetof(tmc_model, grads_bytes_per_param)},
    {.key = "master_bytes_per_param", .type = T_NUM, .lo = 0, .hi = 64, .def = 4,
     .unit = "bytes/parameter",
     .help = "FP32 master weights",
     .off = offsetof(tmc_model, master_bytes_per_param)},
    {.key = "adam_m_bytes_per_param", .type = T_NUM, .lo = 0, .hi = 64, .def = 4,
     .unit = "bytes/parameter",
     .help = "Adam first moment",
     .off = offsetof(tmc_model, adam_m_bytes_per_param)},
    {.key = "adam_v_bytes_per_param", .type = T_NUM, .lo = 0, .hi = 64, .def = 4,
     .unit = "bytes/parameter",
     .help = "Adam second moment",
     .off = offsetof(tmc_model, adam_v_bytes_per_param)},
    {.key = "source", .type = T_STR, .unit = "",
     .help = "where the figures come from (required in a model file)"},
    {.key = "description", .type = T_STR, .unit = "",
     .help = "free text for the reader"},
};

static const char *const reuse_choices[] = {"together", "reused", NULL};
static const field memory_fields[] = {
    {.key = "usable_gib", .type = T_NUM, .lo = 0, .hi = 1e6, .lo_open = 1, .required = 1,
     .unit = "GiB",
     .help = "usable memory per card",
     .off = offsetof(tmc_memory, usable_gib)},
    {.key = "zero_stage", .type = T_INT, .lo = 0, .hi = 3, .def = 3, .unit = "",
     .help = "ZeRO stage: 0 none sharded, 1 optimizer states, 2 also gradients, 3 also "
             "weights",
     .off = offsetof(tmc_memory, zero_stage)},
    {.key = "activations_gib", .type = T_NUM, .lo = 0, .hi = 1e6, .unit = "GiB",
     .help = "activations (and buffers not listed apart) per card",
     .off = offsetof(tmc_memory, activations_gib)},
    {.key = "buffer_gib", .type = T_NUM, .lo = 0, .hi = 1e6, .unit = "GiB",
     .help = "one temporary buffer, e.g. a gathered module",
     .off = offsetof(tmc_memory, buffer_gib)},
    {.key = "buffer_count", .type = T_INT, .lo = 0, .hi = 1e6, .def = 1, .unit = "buffers",
     .help = "how many such buffers a step uses",
     .off = offsetof(tmc_memory, buffer_count)},
    {.key = "buffer_reuse", .type = T_ENUM, .choices = reuse_choices, .unit = "",
     .help = "the buffers live at once (together), or reuse one space (reused)",
     .off = offsetof(tmc_memory, buffers_reused)},
};

static const field interconnect_fields[] = {
    {.key = "link_gb_per_s", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1, .required = 1,
     .unit = "GB/s",
     .help = "each card's link for ZeRO traffic",
     .off = offsetof(tmc_interconnect, link_gb_per_s)},
};

static const field storage_fields[] = {
    {.key = "write_gb_per_s", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1, .required = 1,
     .unit = "GB/s",
     .help = "sustained checkpoint write bandwidth",
     .off = offsetof(tmc_storage, write_gb_per_s)},
};

static const field input_fields[] = {
    {.key = "processes", .type = T_INT, .lo = 1, .hi = 1e6, .required = 1, .unit = "processes",
     .help = "input preparation processes",
     .off = offsetof(tmc_input_pipeline, processes)},
    {.key = "process_sequences_per_s", .type = T_NUM, .lo = 0, .hi = 1e9, .lo_open = 1,
     .required = 1, .unit = "sequences/s",
     .help = "sequences each process prepares per second",
     .off = offsetof(tmc_input_pipeline, process_sequences_per_s)},
    {.key = "paused_processes", .type = T_INT, .lo = 0, .hi = 1e6, .def = 1,
     .unit = "processes",
     .help = "processes a pause stops; at most processes",
     .off = offsetof(tmc_input_pipeline, paused_processes)},
    {.key = "pause_s", .type = T_NUM, .lo = 0, .hi = 1e9, .required = 1, .unit = "s",
     .help = "length of the pause",
     .off = offsetof(tmc_input_pipeline, pause_s)},
};

static const field batch_fields[] = {
    {.key = "sequences", .type = T_INT, .lo = 1, .hi = 1e9, .required = 1, .unit = "sequences",
     .help = "global batch, sequences per step",
     .off = offsetof(tmc_batch, sequences)},
    {.key = "train_tokens", .type = T_NUM, .lo = 0, .hi = 1e18, .lo_open = 1, .required = 1,
     .unit = "tokens",
     .help = "effective tokens to train on",
     .off = offsetof(tmc_batch, train_tokens)},
};

static const field critical_batch_fields[] = {
    {.key = "noise_scale_tokens", .type = T_NUM, .lo = 0, .hi = 1e18, .lo_open = 1,
     .required = 1, .unit = "tokens",
     .help = "gradient noise scale B_noise",
     .off = offsetof(tmc_critical_batch, noise_scale_tokens)},
    {.key = "scale_to_cards", .type = T_INT, .lo = 1, .hi = 1e7, .required = 1, .unit = "cards",
     .help = "card count for weak and strong scaling",
     .off = offsetof(tmc_critical_batch, scale_to_cards)},
};

static const field scale_up_fields[] = {
    {.key = "parameters", .type = T_NUM, .lo = 0, .hi = 1e18, .lo_open = 1, .required = 1,
     .unit = "parameters",
     .help = "N of a dense model (F = 6ND)",
     .off = offsetof(tmc_scale_up, parameters)},
    {.key = "tokens", .type = T_NUM, .lo = 0, .hi = 1e18, .lo_open = 1, .required = 1,
     .unit = "tokens",
     .help = "D, the tokens it trains on",
     .off = offsetof(tmc_scale_up, tokens)},
    {.key = "cards", .type = T_INT, .lo = 1, .hi = 1e9, .required = 1, .unit = "cards",
     .help = "cards it trains on",
     .off = offsetof(tmc_scale_up, cards)},
    {.key = "efficiency", .type = T_NUM, .lo = 0, .hi = 1, .lo_open = 1, .required = 1,
     .unit = "",
     .help = "model FLOP utilisation",
     .off = offsetof(tmc_scale_up, efficiency)},
    {.key = "deadline_days", .type = T_NUM, .lo = 0, .hi = 1e6, .lo_open = 1, .required = 1,
     .unit = "days",
     .help = "deadline for the card count",
     .off = offsetof(tmc_scale_up, deadline_days)},
};

static const char *const reserve_billing_choices[] = {"excluded", "held", NULL};
static const field cost_fields[] = {
    {.key = "card_hour_price", .type = T_NUM, .lo = 0, .hi = 1e9, .required = 1,
     .unit = "currency/card-h",
     .help = "price of one card held for an hour",
     .off = offsetof(tmc_cost, card_hour_price)},
    {.key = "energy_kwh_per_card_hour", .type = T_NUM, .lo = 0, .hi = 1e4, .unit = "kWh/card-h",
     .help = "energy one card draws in an hour",
     .off = offsetof(tmc_cost, energy_kwh_per_card_hour)},
    {.key = "energy_price_per_kwh", .type = T_NUM, .lo = 0, .hi = 1e6, .unit = "currency/kWh",
     .help = "price of a kWh, in the same currency",
     .off = offsetof(tmc_cost, energy_price_per_kwh)},
    {.key = "fixed", .type = T_NUM, .lo = 0, .hi = 1e15, .unit = "currency",
     .help = "preparation and other fixed cost",
     .off = offsetof(tmc_cost, fixed)},
    {.key = "reserve", .type = T_ENUM, .choices = reserve_billing_choices, .unit = "",
     .help = "excluded: the deadline's reserve is not billed; held: the cards are held "
             "through it",
     .off = offsetof(tmc_cost, reserve)},
    {.key = "currency", .type = T_STR, .unit = "",
     .help = "the currency's name, for the reader"},
    {.key = "source", .type = T_STR, .unit = "",
     .help = "where the prices come from"},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* N(f), refused at compile time beyond TMC_CFG_MAX_FIELDS: the readers list
 * a section's keys in an array of that size. */
#define N_FIELDS(f) (N(f) + 0 * sizeof(char[N(f) <= TMC_CFG_MAX_FIELDS ? 1 : -1]))

/* The document's own keys, before its sections: name and source are read in
 * config.c, base in config_base.c (before validation, which never sees it). */
static const field top_fields[] = {
    {.key = "name", .type = T_STR, .required = 1, .unit = "",
     .help = "the experiment's name, printed with its results"},
    {.key = "source", .type = T_STR, .unit = "",
     .help = "where its numbers come from: docs/model.md, a paper, a log"},
    {.key = "description", .type = T_STR, .unit = "",
     .help = "free text, not read"},
    {.key = "base", .type = T_STR, .unit = "",
     .help = "the experiment file this one builds on, relative to this file's folder: its "
             "keys, each overridden by this file's (objects key by key; docs/reference/"
             "experiment-keys.md)"},
};
const section tmc_cfg_top = {"", top_fields, N_FIELDS(top_fields), 0, 1, 0, -1, NULL};

/* failures.causes is an array of these objects, read like a section's keys */
const section tmc_cfg_cause = {"cause", cause_fields, N_FIELDS(cause_fields), 0, 1, 0, -1, NULL};

#define SEC(nm, f, m, req, nul, en, file) \
    {nm, f, N_FIELDS(f), offsetof(tmc_experiment, m), req, nul, en, file}
#define DIST "distribution file"
/* An optional plan section: null or absent turns it off. */
#define PLAN(nm, f, m, st, file) SEC(nm, f, m, 0, 1, offsetof(st, enabled), file)

static const section sections[] = {
    SEC("job", job_fields, job, 1, 0, -1, NULL),
    SEC("jitter", jitter_fields, jitter, 0, 1, -1, DIST),
    SEC("failures", failure_fields, failures, 0, 1, offsetof(tmc_failures, enabled), DIST),
    SEC("checkpoint", checkpoint_fields, checkpoint, 1, 0, -1, NULL),
    SEC("outages", outage_fields, outages, 0, 1, offsetof(tmc_outages, enabled), NULL),
    SEC("loss_spikes", spike_fields, loss_spikes, 0, 1, offsetof(tmc_loss_spikes, enabled), NULL),
    SEC("time_limit", time_limit_fields, time_limit, 0, 1, offsetof(tmc_time_limit, enabled),
        NULL),
    SEC("elastic", elastic_fields, elastic, 0, 1, offsetof(tmc_elastic, enabled), NULL),
    SEC("pauses", pause_fields, pauses, 0, 1, offsetof(tmc_pauses, enabled), NULL),
    SEC("slow_cards", slow_fields, slow_cards, 0, 1, offsetof(tmc_slow_cards, enabled), NULL),
    SEC("slowdown", slowdown_fields, slowdown, 0, 1, offsetof(tmc_slowdown, enabled), NULL),
    SEC("deadline", deadline_fields, deadline, 1, 0, -1, NULL),
    /* the JSON section "progress" fills the observed state (experiment.h) */
    SEC("progress", progress_fields, observed, 0, 1, offsetof(tmc_observed, enabled), NULL),
    SEC("window", window_fields, window, 0, 1, offsetof(tmc_window, enabled), NULL),
    SEC("monte_carlo", mc_fields, monte_carlo, 0, 0, -1, NULL),
    PLAN("model", model_fields, model, tmc_model, "model file"),
    PLAN("memory", memory_fields, memory, tmc_memory, NULL),
    PLAN("interconnect", interconnect_fields, interconnect, tmc_interconnect, NULL),
    PLAN("storage", storage_fields, storage, tmc_storage, NULL),
    PLAN("input_pipeline", input_fields, input_pipeline, tmc_input_pipeline, NULL),
    PLAN("batch", batch_fields, batch, tmc_batch, NULL),
    PLAN("critical_batch", critical_batch_fields, critical_batch, tmc_critical_batch, NULL),
    PLAN("scale_up", scale_up_fields, scale_up, tmc_scale_up, NULL),
    PLAN("cost", cost_fields, cost, tmc_cost, NULL),
};

_Static_assert(N(sections) == TMC_CFG_N_SECTIONS, "TMC_CFG_N_SECTIONS counts the sections");
const section *const tmc_cfg_sections = sections;

const section *tmc_cfg_find_section(const char *name)
{
    for (size_t i = 0; i < TMC_CFG_N_SECTIONS; i++)
        if (strcmp(tmc_cfg_sections[i].name, name) == 0)
            return &tmc_cfg_sections[i];
    return NULL;
}

const field *tmc_cfg_find_field(const char *section_name, const char *key)
{
    const section *s = strcmp(section_name, "cause") == 0 ? &tmc_cfg_cause
                                                          : tmc_cfg_find_section(section_name);
    for (size_t i = 0; s && i < s->n_fields; i++)
        if (strcmp(s->fields[i].key, key) == 0)
            return &s->fields[i];
    return NULL;
}

/* config.h */
int tmc_config_split_cause_key(const char *key, long *index, const char **name)
{
    static const char prefix[] = "failures.causes[";
    const char *digits = key + sizeof prefix - 1, *p = digits;
    if (strncmp(key, prefix, sizeof prefix - 1))
        return 0;
    while (isdigit((unsigned char)*p))
        p++;
    if (p == digits || strncmp(p, "].", 2))
        return 0;
    *index = strtol(digits, NULL, 10); /* LONG_MAX when it overflows */
    *name = p + 2;
    return 1;
}

/* The row of a cause's key "failures.causes[I].KEY" (I below
 * TMC_MAX_CAUSES; whether the experiment has cause I is the override's to
 * check), or NULL. */
static const field *find_cause_key(const char *key)
{
    long i;
    const char *name;
    if (!tmc_config_split_cause_key(key, &i, &name) || i >= TMC_MAX_CAUSES)
        return NULL;
    return tmc_cfg_find_field("cause", name);
}

/* The row of a dotted key ("job.cards", "failures.causes[0].detection_s"),
 * or NULL. */
static const field *find_dotted(const char *key)
{
    const field *cause = find_cause_key(key);
    if (cause)
        return cause;
    char name[64];
    size_t len = strcspn(key, ".");
    if (!key[len] || len >= sizeof name)
        return NULL;
    memcpy(name, key, len);
    name[len] = '\0';
    return tmc_cfg_find_section(name) ? tmc_cfg_find_field(name, key + len + 1) : NULL;
}

/* config.h: which values a sweep may give a key. */
tmc_key_kind tmc_config_classify_key(const char *key)
{
    const field *f = find_dotted(key);
    if (!f)
        return TMC_KEY_UNKNOWN;
    return f->type == T_NUM ? TMC_KEY_NUMBER
         : f->type == T_INT || f->type == T_U64 ? TMC_KEY_INTEGER : TMC_KEY_OTHER;
}

/* config.h: a numeric key's bounds, for a command-line flag that overrides
 * it (--replicas, --seed). */
int tmc_config_key_bounds(const char *key, double *lo, double *hi, int *lo_open)
{
    const field *f = find_dotted(key);
    if (!f || (f->type != T_NUM && f->type != T_INT && f->type != T_U64))
        return -1;
    *lo = f->lo;
    *hi = f->hi;
    *lo_open = f->lo_open;
    return 0;
}

int tmc_config_keys_alternative(const char *a, const char *b)
{
    const field *f = find_dotted(a);
    const char *dot = strchr(a, '.');
    size_t n = dot ? (size_t)(dot - a) + 1 : 0;
    return f && f->alternative && dot && !strncmp(a, b, n) && !strcmp(b + n, f->alternative);
}

/* config.h: the word of a choice, as an experiment spells it. */
const char *tmc_config_choice_name(const char *key, int value)
{
    const field *f = find_dotted(key);
    if (!f || f->type != T_ENUM || value < 0)
        return NULL;
    for (int i = 0; f->choices[i]; i++)
        if (i == value)
            return f->choices[i];
    return NULL;
}
