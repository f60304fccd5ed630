/* config_fields.c - the validation table: every section of an experiment,
 * every key with its type, unit (in its name, config.h), bounds and default.
 *
 * Invariants: a key's row is its only definition (the readers, the messages,
 * `trainmc sweep`'s key kinds and the JSON written back all come from it);
 * tmc_cfg_sections lists the sections in document order; a section has at
 * most TMC_CFG_MAX_FIELDS keys. Rules that span keys live in
 * config_checks.c, each named in a comment on the row it qualifies. */
#include "config_internal.h"

#include <string.h>

#define MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact in a JSON number */

#define NUM(k, lo, hi, open, req, def, st, m) {k, T_NUM, lo, hi, open, req, def, offsetof(st, m), NULL}
#define INT(k, lo, hi, req, def, st, m) {k, T_INT, lo, hi, 0, req, def, offsetof(st, m), NULL}
#define TEXT(k) {k, T_STR, 0, 0, 0, 0, 0, 0, NULL}

static const field job_fields[] = {
    INT("steps", 1, 1e9, 1, 0, tmc_job, steps),
    INT("cards", 1, 1e7, 1, 0, tmc_job, cards),
    NUM("flop_per_step", 0, 1e30, 1, 1, 0, tmc_job, flop_per_step),
    NUM("peak_flops", 0, 1e20, 1, 1, 0, tmc_job, peak_flops),
    NUM("efficiency", 0, 1, 1, 1, 0, tmc_job, efficiency),
    NUM("exposed_comm_s", 0, 86400, 0, 0, 0, tmc_job, exposed_comm_s),
    NUM("input_wait_s", 0, 86400, 0, 0, 0, tmc_job, input_wait_s),
};

const char *const tmc_cfg_jitter_choices[] = {"normal", "lognormal", "gamma", NULL};
static const field jitter_fields[] = {
    {"distribution", T_ENUM, 0, 0, 0, 1, 0, offsetof(tmc_jitter, kind), tmc_cfg_jitter_choices},
    /* normal: at most 0.2, checked in check_jitter */
    NUM("cv", 0, 2, 0, 1, 0, tmc_jitter, cv),
    NUM("correlation", 0, 1, 0, 0, 0, tmc_jitter, rho),
    TEXT("source"), TEXT("description"),
};

static const char *const failure_choices[] = {"exponential", "weibull", "lognormal", "trace",
                                              NULL};
static const char *const repair_choices[] = {"exponential", "fixed", "lognormal", "weibull",
                                             NULL};
static const char *const renewal_choices[] = {"card", "job", NULL};
static const field failure_fields[] = {
    {"distribution", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failures, distribution),
     failure_choices},
    /* required unless distribution is "trace": checked in check_failures */
    NUM("per_card_mtbf_days", 0, 1e9, 1, 0, 0, tmc_failures, per_card_mtbf_days),
    NUM("shape", 0.05, 20, 0, 0, 1, tmc_failures, shape),
    NUM("lifetime_cv", 0.01, 20, 0, 0, 1, tmc_failures, lifetime_cv),
    INT("spares", -1, 1e6, 0, -1, tmc_failures, spares),
    NUM("repair_mean_hours", 0, 1e6, 0, 0, 24, tmc_failures, repair_mean_hours),
    {"repair_distribution", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failures, repair_distribution),
     repair_choices},
    /* the repair pipeline (issue 19): the manual stage's law, an automatic stage
     * and silent failures */
    NUM("repair_cv", 0, 20, 1, 0, 1, tmc_failures, repair_cv),
    NUM("repair_shape", 0.05, 20, 1, 0, 1, tmc_failures, repair_shape),
    NUM("repair_auto_share", 0, 1, 0, 0, 0, tmc_failures, repair_auto_share),
    NUM("repair_auto_hours", 0, 1e6, 0, 0, 0.5, tmc_failures, repair_auto_hours),
    /* at most 0.99: a repair that fails more often takes 1 / (1 - f) > 100 repairs
     * on average, and at 1 - 2^-32 every draw fails (the wait never ends) */
    NUM("repair_fail_share", 0, 0.99, 0, 0, 0, tmc_failures, repair_fail_share),
    /* warm standbys and cold spares' provisioning (issue 19): docs/model.md 3.20 */
    INT("standbys", 0, 1e6, 0, 0, tmc_failures, standbys),
    NUM("standby_swap_s", 0, 1e7, 0, 0, 0, tmc_failures, standby_swap_s),
    NUM("standby_refill_hours", 0, 1e6, 0, 0, 0, tmc_failures, standby_refill_hours),
    NUM("spare_provision_s", 0, 1e7, 0, 0, 0, tmc_failures, spare_provision_s),
    /* "job" is refused with a trace: check_failures */
    {"renewal", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failures, renewal), renewal_choices},
    /* not with a trace: check_failures */
    NUM("mtbf_events", 0, 1e9, 0, 0, 0, tmc_failures, mtbf_events),
    /* 0, or at least 3; exponential repairs only, not with unlimited spares:
     * check_drawn_rates */
    NUM("repair_events", 0, 1e9, 0, 0, 0, tmc_failures, repair_events),
    /* scale-dependent rates: not with a trace; cards_per_node goes with
     * per_node_mtbf_days (check_failures) */
    NUM("per_node_mtbf_days", 0, 1e9, 1, 0, 0, tmc_failures, per_node_mtbf_days),
    INT("cards_per_node", 1, 1e6, 0, 0, tmc_failures, cards_per_node),
    NUM("per_job_mtbf_days", 0, 1e9, 1, 0, 0, tmc_failures, per_job_mtbf_days),
    /* bad nodes: need cards_per_node, exponential lifetimes; check_bad_nodes */
    NUM("bad_node_share", 0, 1, 0, 0, 0, tmc_failures, bad_node_share),
    NUM("bad_node_mtbf_days", 0, 1e9, 1, 0, 0, tmc_failures, bad_node_mtbf_days),
    INT("bad_node_retire_after", 0, 1000, 0, 0, tmc_failures, bad_node_retire_after),
    INT("measured_cards", 1, 1e7, 0, 0, tmc_failures, measured_cards),
    {"causes", T_CAUSES, 0, 0, 0, 0, 0, offsetof(tmc_failures, n_causes), NULL},
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_failures, n_trace), NULL},
    TEXT("source"), TEXT("description"),
};

static const char *const detection_choices[] = {"fixed", "exponential", "lognormal", NULL};
static const char *const cause_scope_choices[] = {"card", "node", NULL};
static const field cause_fields[] = {
    {"name", T_STR, 0, 0, 0, 1, 0, 0, NULL},
    NUM("share", 0, 1, 1, 1, 0, tmc_failure_cause, share),
    NUM("detection_s", 0, 1e7, 0, 0, 0, tmc_failure_cause, detection_s),
    NUM("restore_s", 0, 1e7, 0, 0, -1, tmc_failure_cause, restore_s),
    {"takes_spare", T_BOOL, 0, 0, 0, 0, 1, offsetof(tmc_failure_cause, takes_spare), NULL},
    {"detection_distribution", T_ENUM, 0, 0, 0, 0, 0,
     offsetof(tmc_failure_cause, detection_law), detection_choices},
    NUM("detection_cv", 0, 20, 1, 0, 1, tmc_failure_cause, detection_cv),
    /* "node" needs failures.cards_per_node: check_failures (config_checks.c) */
    {"scope", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_failure_cause, scope), cause_scope_choices},
};

static const char *const save_choices[] = {"sync", "async", NULL};
static const char *const duration_choices[] = {"lognormal", "gamma", "uniform", NULL};
static const field checkpoint_fields[] = {
    NUM("interval_s", 0, 1e9, 1, 0, 0, tmc_checkpoint, interval_s),
    INT("interval_steps", 1, 1e9, 0, 0, tmc_checkpoint, interval_steps),
    NUM("save_s", 0, 1e7, 0, 1, 0, tmc_checkpoint, save_s),
    NUM("restore_s", 0, 1e7, 0, 1, 0, tmc_checkpoint, restore_s),
    {"mode", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_checkpoint, mode), save_choices},
    NUM("write_s", 0, 1e7, 0, 0, 0, tmc_checkpoint, write_s),
    {"duration_law", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_checkpoint, duration_law),
     duration_choices},
    /* uniform: at most 1 / sqrt(3), checked in check_durations */
    NUM("save_cv", 0, 2, 0, 0, 0, tmc_checkpoint, save_cv),
    NUM("restore_cv", 0, 2, 0, 0, 0, tmc_checkpoint, restore_cv),
    /* above the shortest save the law allows: check_durations */
    NUM("save_timeout_s", 0, 1e7, 0, 0, 0, tmc_checkpoint, save_timeout_s),
};

/* mean_interval_days is required unless a trace replays the times: checked
 * in check_replayed. */
static const field outage_fields[] = {
    NUM("mean_interval_days", 0, 1e9, 1, 0, 0, tmc_outages, mean_interval_days),
    NUM("downtime_s", 0, 1e7, 0, 0, 0, tmc_outages, downtime_s),
    NUM("downtime_cv", 0, 20, 0, 0, 0, tmc_outages, downtime_cv),
    NUM("notice_s", 0, 1e7, 0, 0, 0, tmc_outages, notice_s),
    /* not with a trace: check_outage_events (config_checks.c) */
    NUM("mtbf_events", 0, 1e9, 0, 0, 0, tmc_outages, mtbf_events),
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_outages, n_trace), NULL},
};

static const field spike_fields[] = {
    NUM("mean_interval_days", 0, 1e9, 1, 0, 0, tmc_loss_spikes, mean_interval_days),
    INT("rollback_snapshots", 1, TMC_MAX_ROLLBACK, 0, 1, tmc_loss_spikes, rollback_snapshots),
    {"trace", T_TRACE, 0, 0, 0, 0, 0, offsetof(tmc_loss_spikes, n_trace), NULL},
};

static const char *const limit_action_choices[] = {"save", "lose", NULL};
static const char *const limit_restart_choices[] = {"same_allocation", "new_allocation", NULL};
static const field time_limit_fields[] = {
    NUM("wall_hours", 0, 1e6, 1, 1, 0, tmc_time_limit, wall_hours),
    NUM("requeue_s", 0, 1e8, 0, 0, 0, tmc_time_limit, requeue_s),
    /* "save" needs synchronous saves: config_checks.c */
    {"at_limit", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_time_limit, at_limit), limit_action_choices},
    {"restarts", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_time_limit, restarts),
     limit_restart_choices},
};

/* G divides job.cards, min_groups <= G, and what elastic groups cannot be
 * combined with: check_elastic (config_checks.c) */
static const field elastic_fields[] = {
    INT("groups", 2, 1e7, 1, 0, tmc_elastic, groups),
    INT("min_groups", 1, 1e7, 0, 1, tmc_elastic, min_groups),
    NUM("heal_s", 0, 1e7, 0, 0, 0, tmc_elastic, heal_s),
};

/* committed_step <= steps_done < job.steps, the spares, the step time and
 * what a forecast cannot start from: tmc_cfg_check_progress
 * (config_progress.c) */
static const field progress_fields[] = {
    NUM("elapsed_days", 0, 1e6, 0, 1, 0, tmc_progress, elapsed_days),
    INT("steps_done", 0, 1e9, 1, 0, tmc_progress, steps_done),
    INT("committed_step", 0, 1e9, 1, 0, tmc_progress, committed_step),
    INT("failures", 0, 1e9, 0, 0, tmc_progress, failures),
    INT("outages", 0, 1e9, 0, 0, tmc_progress, outages),
    /* -1 (the default, as the JSON writes it back): elapsed_days */
    NUM("exposure_days", -1, 1e6, 0, 0, -1, tmc_progress, exposure_days),
    INT("cards", 0, 1e7, 0, 0, tmc_progress, cards),
    INT("cards_in_repair", 0, 1e6, 0, 0, tmc_progress, cards_in_repair),
    INT("standbys_used", 0, 1e6, 0, 0, tmc_progress, standbys_used),
    NUM("step_s", 0, 1e7, 0, 0, 0, tmc_progress, step_s),
};

/* 0: off; what a window cannot be combined with: tmc_cfg_check_window
 * (config_window.c) */
static const field window_fields[] = {
    NUM("days", 0, 1e5, 0, 0, 0, tmc_window, days),
};

/* config_trace.c stores every section's trace through this one gap */
_Static_assert(TMC_CFG_TRACE_GAP(tmc_outages) == TMC_CFG_TRACE_GAP(tmc_failures) &&
               TMC_CFG_TRACE_GAP(tmc_loss_spikes) == TMC_CFG_TRACE_GAP(tmc_failures),
               "n_trace and trace_days laid out alike");

static const field slow_fields[] = {
    NUM("fraction", 0, 1, 0, 1, 0, tmc_slow_cards, fraction),
    NUM("factor", 1, 100, 0, 1, 0, tmc_slow_cards, factor),
    INT("detect_after_steps", 0, 1e9, 0, 0, tmc_slow_cards, detect_after_steps),
    NUM("eviction_restore_s", 0, 1e7, 0, 0, -1, tmc_slow_cards, eviction_restore_s),
};

static const char *const pause_choices[] = {"all", "one", NULL};
static const field pause_fields[] = {
    INT("every_steps", 1, 1e9, 1, 0, tmc_pauses, every_steps),
    NUM("duration_s", 0, 1e7, 1, 1, 0, tmc_pauses, duration_s),
    {"cards", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_pauses, cards), pause_choices},
};

static const field deadline_fields[] = {
    NUM("days", 0, 1e6, 1, 1, 0, tmc_deadline, days),
    NUM("reserve_days", 0, 1e6, 0, 0, 0, tmc_deadline, reserve_days),
    INT("max_restarts", -1, 1e9, 0, -1, tmc_deadline, max_restarts),
};

static const char *const mode_choices[] = {"auto", "exact", "aggregated", NULL};
static const field mc_fields[] = {
    INT("replicas", 1, 1e9, 0, 10000, tmc_monte_carlo, replicas),
    {"seed", T_U64, 0, MAX_SEED, 0, 0, 1, offsetof(tmc_monte_carlo, seed), NULL},
    {"mode", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_monte_carlo, mode), mode_choices},
    NUM("horizon_days", 0, 1e9, 0, 0, 0, tmc_monte_carlo, horizon_days),
};

/* The sections below feed only `trainmc plan`; defaults are docs/model.md 1's. */
static const field model_fields[] = {
    INT("parameters", 1, 1e15, 1, 0, tmc_model, parameters),
    NUM("flop_per_sequence", 0, 1e30, 1, 1, 0, tmc_model, flop_per_sequence),
    INT("sequence_tokens", 1, 1e9, 1, 0, tmc_model, sequence_tokens),
    NUM("weights_bytes_per_param", 0, 64, 1, 0, 2, tmc_model, weights_bytes_per_param),
    NUM("grads_bytes_per_param", 0, 64, 1, 0, 2, tmc_model, grads_bytes_per_param),
    NUM("master_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, master_bytes_per_param),
    NUM("adam_m_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, adam_m_bytes_per_param),
    NUM("adam_v_bytes_per_param", 0, 64, 0, 0, 4, tmc_model, adam_v_bytes_per_param),
    TEXT("source"), TEXT("description"),
};

static const char *const reuse_choices[] = {"together", "reused", NULL};
static const field memory_fields[] = {
    NUM("usable_gib", 0, 1e6, 1, 1, 0, tmc_memory, usable_gib),
    INT("zero_stage", 0, 3, 0, 3, tmc_memory, zero_stage),
    NUM("activations_gib", 0, 1e6, 0, 0, 0, tmc_memory, activations_gib),
    NUM("buffer_gib", 0, 1e6, 0, 0, 0, tmc_memory, buffer_gib),
    INT("buffer_count", 0, 1e6, 0, 1, tmc_memory, buffer_count),
    {"buffer_reuse", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_memory, buffers_reused), reuse_choices},
};

static const field interconnect_fields[] = {
    NUM("link_gb_per_s", 0, 1e9, 1, 1, 0, tmc_interconnect, link_gb_per_s),
};

static const field storage_fields[] = {
    NUM("write_gb_per_s", 0, 1e9, 1, 1, 0, tmc_storage, write_gb_per_s),
};

static const field input_fields[] = {
    INT("processes", 1, 1e6, 1, 0, tmc_input_pipeline, processes),
    NUM("process_sequences_per_s", 0, 1e9, 1, 1, 0, tmc_input_pipeline, process_sequences_per_s),
    INT("paused_processes", 0, 1e6, 0, 1, tmc_input_pipeline, paused_processes),
    NUM("pause_s", 0, 1e9, 0, 1, 0, tmc_input_pipeline, pause_s),
};

static const field batch_fields[] = {
    INT("sequences", 1, 1e9, 1, 0, tmc_batch, sequences),
    NUM("train_tokens", 0, 1e18, 1, 1, 0, tmc_batch, train_tokens),
};

static const field critical_batch_fields[] = {
    NUM("noise_scale_tokens", 0, 1e18, 1, 1, 0, tmc_critical_batch, noise_scale_tokens),
    INT("scale_to_cards", 1, 1e7, 1, 0, tmc_critical_batch, scale_to_cards),
};

static const field scale_up_fields[] = {
    NUM("parameters", 0, 1e18, 1, 1, 0, tmc_scale_up, parameters),
    NUM("tokens", 0, 1e18, 1, 1, 0, tmc_scale_up, tokens),
    INT("cards", 1, 1e9, 1, 0, tmc_scale_up, cards),
    NUM("efficiency", 0, 1, 1, 1, 0, tmc_scale_up, efficiency),
    NUM("deadline_days", 0, 1e6, 1, 1, 0, tmc_scale_up, deadline_days),
};

static const char *const reserve_billing_choices[] = {"excluded", "held", NULL};
static const field cost_fields[] = {
    NUM("card_hour_price", 0, 1e9, 0, 1, 0, tmc_cost, card_hour_price),
    NUM("energy_kwh_per_card_hour", 0, 1e4, 0, 0, 0, tmc_cost, energy_kwh_per_card_hour),
    NUM("energy_price_per_kwh", 0, 1e6, 0, 0, 0, tmc_cost, energy_price_per_kwh),
    NUM("fixed", 0, 1e15, 0, 0, 0, tmc_cost, fixed),
    {"reserve", T_ENUM, 0, 0, 0, 0, 0, offsetof(tmc_cost, reserve), reserve_billing_choices},
    TEXT("currency"), TEXT("source"),
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* N(f), refused at compile time beyond TMC_CFG_MAX_FIELDS: the readers list
 * a section's keys in an array of that size. */
#define N_FIELDS(f) (N(f) + 0 * sizeof(char[N(f) <= TMC_CFG_MAX_FIELDS ? 1 : -1]))

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
    SEC("deadline", deadline_fields, deadline, 1, 0, -1, NULL),
    SEC("progress", progress_fields, progress, 0, 1, offsetof(tmc_progress, enabled), NULL),
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

/* config.h: which values a sweep may give a key. */
tmc_key_kind tmc_config_classify_key(const char *key)
{
    char name[64];
    size_t len = strcspn(key, ".");
    if (!key[len] || len >= sizeof name)
        return TMC_KEY_UNKNOWN;
    memcpy(name, key, len);
    name[len] = '\0';
    const section *s = tmc_cfg_find_section(name);
    for (size_t i = 0; s && i < s->n_fields; i++) {
        if (strcmp(s->fields[i].key, key + len + 1) != 0)
            continue;
        ftype t = s->fields[i].type;
        return t == T_NUM ? TMC_KEY_NUMBER
             : t == T_INT || t == T_U64 ? TMC_KEY_INTEGER : TMC_KEY_OTHER;
    }
    return TMC_KEY_UNKNOWN;
}
