/* config_checks.c - the rules that span keys, which no row of the validation
 * table can state: exactly one checkpoint interval, a mean or a trace for
 * each replayed process, a jitter law that can be computed at this card
 * count, a deadline longer than its reserve and shorter than the horizon.
 *
 * Invariants: run only on a fully read experiment (every key in range), in a
 * fixed order so that a document breaking two rules always gets the same
 * message; each message names the key to change by its JSON path. */
#include "config_internal.h"
#include "experiment_rules.h"
#include "laws.h"
#include "dist.h"

#include <math.h>

/* jitter.cv's limits beyond its row's bounds, written here once and read
 * through tmc_config_jitter_cv_range (config.h says why each holds); a
 * message that names one by its macro prints it by stringizing, so its text
 * is the one written. A gamma duration shares the gamma's
 * (check_durations). */
#define JITTER_CV_TINY 1e-6 /* every law: a smaller spread is below every printed digit */
#define NORMAL_CV_MAX 0.2   /* the normal: beyond, compute times go negative */
#define GAMMA_CV_MIN 0.005  /* the gamma: shape > 40,000, GSL's quantile fails */
#define TEXT_(x) #x
#define TEXT(x) TEXT_(x)

int tmc_config_jitter_cv_range(int law, double *lo, double *hi)
{
    double row_lo, row_hi;
    int lo_open;
    if (law < TMC_JITTER_NORMAL || law > TMC_JITTER_GAMMA ||
        tmc_config_key_bounds("jitter.cv", &row_lo, &row_hi, &lo_open))
        return -1;
    *lo = law == TMC_JITTER_GAMMA ? GAMMA_CV_MIN : JITTER_CV_TINY;
    *hi = law == TMC_JITTER_NORMAL ? NORMAL_CV_MAX : row_hi;
    return 0;
}

/* Asked of the document, not the struct: an absent interval reads as 0,
 * which is also out of range, so only the keys tell "neither" from "both". */
static int check_checkpoint(const cJSON *root, const char *label, tmc_error *err)
{
    const cJSON *cp = cJSON_GetObjectItemCaseSensitive(root, "checkpoint");
    int has_s = tmc_cfg_has_key(cp, "interval_s");
    int has_steps = tmc_cfg_has_key(cp, "interval_steps");
    if (has_s == has_steps)
        return tmc_error_set(err, "%s: checkpoint: give exactly one of interval_s (%s, s) "
                                  "or interval_steps (%s, steps)%s", label,
                             tmc_cfg_range_of("checkpoint", "interval_s").s,
                             tmc_cfg_range_of("checkpoint", "interval_steps").s,
                             has_s ? "; both are set" : "; neither is set");
    return 0;
}

/* A uniform duration m (1 +- sqrt(3) cv) must stay positive; a gamma one
 * needs cv >= 0.005, as jitter does (GSL's gamma quantile fails beyond
 * shape 40,000, and the closed form integrates over it); and a save
 * timeout must leave some save a chance to finish (docs/model.md 3.12). */
static int check_durations(const tmc_checkpoint *cp, const char *label, tmc_error *err)
{
    const double max_cv = 1 / sqrt(3.0);
    for (int i = 0; i < 2; i++) {
        double cv = i ? cp->restore_cv : cp->save_cv;
        const char *key = i ? "restore_cv" : "save_cv";
        if (cp->duration_law == TMC_DURATION_UNIFORM && cv > max_cv)
            return tmc_error_set(err, "%s: checkpoint.%s: %.10g is more than a uniform "
                                      "duration allows (1/sqrt(3) = 0.57735: the "
                                      "shortest would be negative)", label, key, cv);
        if (cp->duration_law == TMC_DURATION_GAMMA && cv > 0 && cv < GAMMA_CV_MIN)
            return tmc_error_set(err, "%s: checkpoint.%s: %.10g is too small for a gamma law "
                                      "(below " TEXT(GAMMA_CV_MIN) " its quantiles cannot be "
                                      "computed accurately); at so small a spread use the "
                                      "lognormal law, or 0", label, key, cv);
    }
    double shortest = cp->save_s;
    if (cp->save_cv > 0)
        shortest = cp->duration_law == TMC_DURATION_UNIFORM
            ? cp->save_s * (1 - sqrt(3.0) * cp->save_cv) : 0;
    if (cp->save_timeout_s > 0 && cp->save_timeout_s <= shortest)
        return tmc_error_set(err, "%s: checkpoint.save_timeout_s: %.10g s is not longer than "
                                  "the shortest save (%.10g s): every save would time out",
                             label, cp->save_timeout_s, shortest);
    return 0;
}

/* A pause cannot stop more preparation processes than there are. */
static int check_input_pipeline(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_input_pipeline *in = &x->input_pipeline;
    if (in->enabled && in->paused_processes > in->processes)
        return tmc_error_set(err, "%s: input_pipeline.paused_processes: %ld is more than "
                                  "input_pipeline.processes (%ld)",
                             label, in->paused_processes, in->processes);
    return 0;
}

/* An emergency save on notice is modelled for synchronous saves only: an
 * asynchronous one would first wait for the queued writes, a delay the
 * notice cannot be checked against. */
static int check_notice(const tmc_experiment *x, const char *label, tmc_error *err)
{
    if (x->checkpoint.mode != TMC_SAVE_ASYNC)
        return 0;
    if (x->outages.enabled && x->outages.notice_s > 0)
        return tmc_error_set(err, "%s: outages.notice_s: %.10g s of notice needs "
                                  "synchronous saves (checkpoint.mode \"sync\"); an "
                                  "emergency save with asynchronous saves is not modelled",
                             label, x->outages.notice_s);
    if (x->time_limit.enabled && x->time_limit.at_limit == TMC_LIMIT_SAVE)
        return tmc_error_set(err, "%s: time_limit.at_limit: \"save\" needs synchronous "
                                  "saves (checkpoint.mode \"sync\"); an emergency save "
                                  "with asynchronous saves is not modelled; use \"lose\"",
                             label);
    return 0;
}

/* A slowdown's refresh (slowdown.refresh_hours) saves like a time limit
 * with a save before it, so it needs synchronous saves and an allocation
 * longer than the save; the drift makes each step's time depend on the
 * clock, so segments cannot be drawn whole. */
static int check_slowdown(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_slowdown *d = &x->slowdown;
    if (!d->enabled)
        return 0;
    if (x->monte_carlo.mode == TMC_MODE_SEGMENTS)
        return tmc_error_set(err, "%s: monte_carlo.mode: \"segments\" cannot draw a "
                                  "segment whole when its steps slow down with the clock "
                                  "(slowdown); use \"auto\" or \"steps\"",
                             label);
    if (d->refresh_hours == 0)
        return 0;
    if (x->checkpoint.mode == TMC_SAVE_ASYNC)
        return tmc_error_set(err, "%s: slowdown.refresh_hours: a refresh restart saves "
                                  "first, which needs synchronous saves (checkpoint.mode "
                                  "\"sync\"); with asynchronous saves it is not modelled",
                             label);
    if (d->refresh_hours * 3600 <= x->checkpoint.save_s)
        return tmc_error_set(err, "%s: slowdown.refresh_hours: %.10g h (%.10g s) is no "
                                  "longer than a save (checkpoint.save_s %.10g s); a "
                                  "refresh must leave time to compute",
                             label, d->refresh_hours, d->refresh_hours * 3600,
                             x->checkpoint.save_s);
    return 0;
}

/* A part of the failure process with a rate (card, node, job) whose
 * causes' shares add to 0: its failures would have no cause. */
static int unstruck_part(const tmc_failures *f, const char *label, tmc_error *err)
{
    static const char *const parts[] = {"card", "node", "job", "burst"};
    static const char *const keys[] = {"per_card_mtbf_days (or the trace)",
                                       "per_node_mtbf_days (or bad_node_share)",
                                       "per_job_mtbf_days", "burst_per_node_mtbf_days"};
    int on[TMC_FAILURE_PARTS] = {f->per_card_mtbf_days > 0 || tmc_failures_replayed(f),
                                 f->per_node_mtbf_days > 0 || f->bad_node_share > 0 ||
                                     f->node_aging_days > 0,
                                 f->per_job_mtbf_days > 0, f->burst_per_node_mtbf_days > 0};
    for (int p = 0; p < TMC_FAILURE_PARTS && f->n_causes; p++) {
        double total = 0;
        for (int i = 0; i < f->n_causes; i++)
            total += f->causes[i].part_share[p];
        if (on[p] && total == 0)
            return tmc_error_set(err, "%s: failures.causes: no cause has a share of %s "
                                      "failures, which failures.%s gives; give a cause "
                                      "%s_share (or share)", label, parts[p], keys[p],
                                 parts[p]);
    }
    return 0;
}

/* Per-node and per-job rates (docs/model.md 3.13): a node's size goes with
 * its rate (or with two levels of snapshots, `levels`: tmc_levels_stated,
 * whose partner copies live on nodes); a replayed trace is the job's whole failure history
 * already. */
static int check_scoped(const tmc_failures *f, int levels, const char *label, tmc_error *err)
{
    if (f->per_node_mtbf_days > 0 && f->cards_per_node == 0)
        return tmc_error_set(err, "%s: failures.cards_per_node: missing required key (%s, "
                                  "the cards a node failure takes; required with "
                                  "failures.per_node_mtbf_days)",
                             label, tmc_cfg_range_of("failures", "cards_per_node").s);
    /* a cause of scope "node" takes g = cards_per_node cards (issue 19) */
    int node_cause = 0;
    for (int i = 0; i < f->n_causes; i++)
        if (f->causes[i].scope == TMC_CAUSE_NODE) {
            if (f->cards_per_node == 0)
                return tmc_error_set(err, "%s: failures.causes[%d].scope: \"node\" takes the "
                                          "failed card's node, whose size is not given; give "
                                          "failures.cards_per_node (%s) or scope \"card\"",
                                     label, i, tmc_cfg_range_of("failures", "cards_per_node").s);
            node_cause = 1;
        }
    int takes_node = f->per_node_mtbf_days > 0 || node_cause || f->bad_node_share > 0 ||
                     f->node_aging_days > 0 || f->burst_per_node_mtbf_days > 0;
    /* retirement needs cards_per_node (config_bad_nodes.c): named here, or
     * the two refusals would each send the user to the other */
    if (f->retire_after_failures > 0 && !takes_node)
        return tmc_error_set(err, "%s: failures.retire_after_failures: %ld, but no failure "
                                  "takes a node (failures.per_node_mtbf_days, bad_node_share, "
                                  "node_aging_days, bursts or a cause of scope \"node\"), "
                                  "so no node ever retires; give one of them, or leave it 0",
                             label, f->retire_after_failures);
    if (f->cards_per_node > 0 && !takes_node && !levels)
        return tmc_error_set(err, "%s: failures.cards_per_node: %ld is given without "
                                  "failures.per_node_mtbf_days, bad_node_share, "
                                  "node_aging_days, bursts, a cause "
                                  "of scope \"node\" nor two levels of snapshots "
                                  "(checkpoint.persistent_every), so it has no effect; give "
                                  "both or neither",
                             label, f->cards_per_node);
    if (unstruck_part(f, label, err))
        return -1;
    if (tmc_failures_replayed(f) &&
        (f->per_node_mtbf_days > 0 || f->per_job_mtbf_days > 0))
        return tmc_error_set(err, "%s: failures.%s: %.10g days is given with a replayed "
                                  "trace, which holds the job's every failure already; give "
                                  "rates or a trace, not both", label,
                             f->per_node_mtbf_days > 0 ? "per_node_mtbf_days"
                                                       : "per_job_mtbf_days",
                             f->per_node_mtbf_days > 0 ? f->per_node_mtbf_days
                                                       : f->per_job_mtbf_days);
    return 0;
}

/* Spares in whole units when every failure that takes hardware takes a
 * node's g cards (tmc_pool_unit_cards) and no standby shares the pool: a
 * remainder would shorten no wait (a failure still waits for a whole node
 * back from repair), though billed. A mixed card and node model uses it
 * for card failures, and takes any count. Standbys are not refused: a
 * partial node of them is taken beside cold cards and keeps that many in
 * the pool (test_standbys 1.1 (c)), so what a remainder is worth depends
 * on spares + standbys and the refill, not ruled on here. */
static int check_whole_units(const tmc_failures *f, const char *label, tmc_error *err)
{
    long g = tmc_pool_unit_cards(f);
    if (g > 1 && f->standbys == 0 && f->spares > 0 && f->spares % g)
        return tmc_error_set(err, "%s: failures.spares: %ld cards are not whole nodes: every "
                                  "failure that takes hardware takes a node's %ld cards "
                                  "(failures.cards_per_node), so a remainder of %ld would "
                                  "shorten no wait, though billed; give a multiple of g = %ld: "
                                  "0, %ld, %ld, ...%s",
                             label, f->spares, g, f->spares % g, g, g, 2 * g,
                             f->bad_node_placement == TMC_BAD_IN_FLEET
                                 ? "" /* a fleet's pool is finite */
                                 : " (or -1, unlimited)");
    return 0;
}

/* A failure law needs its mean lifetime, and a trace its file. Without a
 * per-card part (per-node or per-job rates only) lifetimes are exponential. */
static int check_failures(const tmc_failures *f, int levels, const char *label,
                          tmc_error *err)
{
    if (!f->enabled)
        return 0;
    if (check_scoped(f, levels, label, err) || check_whole_units(f, label, err))
        return -1;
    int trace = tmc_failures_replayed(f);
    int scoped = f->per_node_mtbf_days > 0 || f->per_job_mtbf_days > 0 ||
                 f->burst_per_node_mtbf_days > 0;
    if (!trace && f->per_card_mtbf_days == 0 &&
        (!scoped || !tmc_laws_lifetime_memoryless(f->distribution)))
        return tmc_error_set(err, "%s: failures.per_card_mtbf_days: missing required key "
                                  "(%s%s)",
                             label, tmc_cfg_range_of("failures", "per_card_mtbf_days").s,
                             scoped ? "; a weibull or lognormal law is the per-card part's" : "");
    if (trace && f->n_trace == 0)
        return tmc_error_set(err, "%s: failures.trace: missing required key (a CSV file of "
                                  "failure times, for distribution trace)", label);
    if (!trace && f->n_trace > 0) /* replayed only with distribution trace: not silently */
        return tmc_error_set(err, "%s: failures.trace: a trace is replayed only with "
                                  "failures.distribution \"trace\" (here a lifetime law); "
                                  "set it, or leave the trace out", label);
    if (trace && f->mtbf_events > 0)
        return tmc_error_set(err, "%s: failures.mtbf_events: %.10g: a replayed trace has no "
                                  "rate to draw; leave mtbf_events out", label, f->mtbf_events);
    if (trace && f->renewal == TMC_RENEWAL_JOB)
        return tmc_error_set(err, "%s: failures.renewal: \"job\" renews lifetimes, which a "
                                  "replayed trace does not have; use \"card\" or a lifetime "
                                  "law", label);
    if (f->renewal_at == TMC_RENEWAL_AT_FAILURE && f->renewal != TMC_RENEWAL_JOB)
        return tmc_error_set(err, "%s: failures.renewal_at: \"failure\" needs "
                                  "failures.renewal \"job\", not \"card\": it says when the "
                                  "job's clocks start again; a card's own starts when it fails",
                             label);
    return 0;
}

/* The uncertain rates drawn per replica (docs/model.md 3.11) need
 * something to draw: a rate, not a replayed trace; an exponential repair
 * mean that a job waits for (a pool of spares), not a fixed, lognormal or
 * Weibull one (with a repair pipeline, the manual stage's mean). The
 * repair mean's posterior is inverse-gamma of shape n, whose variance is
 * finite only for n > 2: fewer repairs are refused rather than give a
 * standard error that means nothing. */
static int check_drawn_rates(const tmc_experiment *x, const char *label, tmc_error *err)
{
    const tmc_outages *o = &x->outages;
    const tmc_failures *f = &x->failures;
    if (o->enabled && o->n_trace > 0 && o->mtbf_events > 0)
        return tmc_error_set(err, "%s: outages.mtbf_events: %.10g: a replayed trace has no "
                                  "rate to draw; leave mtbf_events out", label, o->mtbf_events);
    double n = f->enabled ? f->repair_events : 0;
    if (n > 0 && n < 3)
        return tmc_error_set(err, "%s: failures.repair_events: %.10g: a repair mean from "
                                  "fewer than 3 repairs has a posterior of infinite variance "
                                  "(inverse-gamma, shape n); give 0 or at least 3", label, n);
    if (n > 0 && f->repair_distribution != TMC_REPAIR_EXPONENTIAL)
        return tmc_error_set(err, "%s: failures.repair_events: %.10g: the posterior drawn is "
                                  "an exponential repair mean's, and repair_distribution is "
                                  "\"%s\"; leave repair_events out or use \"exponential\"",
                             label, n,
                             tmc_config_choice_name("failures.repair_distribution",
                                                    (int)f->repair_distribution));
    if (n > 0 && f->spares < 0)
        return tmc_error_set(err, "%s: failures.repair_events: %.10g: with unlimited spares "
                                  "(failures.spares -1, the default) no job waits for a "
                                  "repair, so its mean does nothing; give failures.spares or "
                                  "leave repair_events out", label, n);
    return 0;
}

/* An outage or spike process needs its mean interval or a trace, not both. */
static int check_replayed(const char *name, int enabled, double mean_days, int n_trace,
                          const char *label, tmc_error *err)
{
    if (!enabled)
        return 0;
    if (n_trace > 0 && mean_days > 0)
        return tmc_error_set(err, "%s: %s.trace: given with %s.mean_interval_days; a trace "
                                  "replays the times, so give one of the two", label, name, name);
    if (n_trace == 0 && mean_days == 0)
        return tmc_error_set(err, "%s: %s.mean_interval_days: missing required key (%s, "
                                  "or a trace)", label, name,
                             tmc_cfg_range_of(name, "mean_interval_days").s);
    return 0;
}

/* Normal jitter beyond cv 0.2 gives negative compute times (P = Phi(-1/cv)
 * per card: 3e-7 at 0.2): heavier spreads need lognormal or gamma. A common
 * per-step part is defined for the normal only. */
static int check_jitter(const tmc_jitter *j, const char *label, tmc_error *err)
{
    double lo = 0, hi = 0; /* set: the row admits only the three laws */
    tmc_config_jitter_cv_range((int)j->kind, &lo, &hi);
    if (j->kind == TMC_JITTER_NORMAL && j->cv > hi)
        return tmc_error_set(err, "%s: jitter.cv: %.10g is out of range for a normal; "
                                  "expected a number in [0, %s] (a wider spread would give "
                                  "negative compute times: use lognormal or gamma)", label,
                             j->cv, tmc_config_bound_text(hi).s);
    if (j->cv > 0 && j->cv < JITTER_CV_TINY)
        return tmc_error_set(err, "%s: jitter.cv: %.10g is below " TEXT(JITTER_CV_TINY)
                                  ", too small a spread to compute (its effect is below "
                                  "every printed digit); give 0 for no jitter", label, j->cv);
    if (j->kind != TMC_JITTER_NORMAL && j->rho > 0)
        return tmc_error_set(err, "%s: jitter.correlation: %.10g is given for a %s; a "
                                  "common per-step part is defined for the normal only",
                             label, j->rho,
                             tmc_config_choice_name("jitter.distribution", (int)j->kind));
    return 0;
}

/* The law's quantiles must be computable to the sampler's accuracy at this
 * card count: GSL's gamma quantile loses it far in the tail for very large
 * shapes (cv below about 0.01, sooner with millions of cards), where it
 * printed garbage (issue 13). The table's error is measured when it is built
 * (dist.h); the moments by quadrature must converge too. A few milliseconds. */
#define TMC_TABLE_TOLERANCE 1e-6 /* in units of sigma */
static int check_computable(const tmc_jitter *j, long cards, const char *label, tmc_error *err)
{
    if (j->cv == 0)
        return 0;
    double lo = 0, hi = 0; /* set: the row admits only the three laws */
    tmc_config_jitter_cv_range((int)j->kind, &lo, &hi);
    if (j->kind == TMC_JITTER_GAMMA && j->cv < lo) /* fails at any N, slowly: refuse now */
        return tmc_error_set(err, "%s: jitter.cv: %.10g is too small for a gamma law (below "
                                  "%s its quantiles cannot be computed accurately); at so "
                                  "small a spread use the normal law", label, j->cv,
                             tmc_config_bound_text(lo).s);
    tmc_max_sampler s;
    double mean, sd, skew;
    if (tmc_dist_max_init(&s, j, 1.0, cards))
        return tmc_error_set(err, "%s: out of memory for the jitter's quantile table", label);
    double table_error = s.max_error;
    tmc_dist_max_free(&s);
    int moments = tmc_dist_max_moments(j, cards, &mean, &sd, &skew);
    /* rounding near mu: an error of 1e-12 mu is fine however small sigma is */
    int accurate = table_error <= TMC_TABLE_TOLERANCE || table_error * j->cv <= 1e-12;
    if (!accurate || moments || !isfinite(mean + sd + skew))
        return tmc_error_set(err, "%s: jitter.cv: %.10g is too small for a %s law on %ld cards: "
                                  "%s; at so small a spread use the normal law",
                             label, j->cv,
                             tmc_config_choice_name("jitter.distribution", (int)j->kind), cards,
                             accurate ? "the moments of its maximum do not converge"
                                      : "its quantiles cannot be computed accurately");
    return 0;
}

/* The reserve is part of the deadline, so it must be shorter; a censoring
 * horizon must lie past the deadline. */
static int check_deadline(const tmc_experiment *x, const char *label, tmc_error *err)
{
    double budget = x->deadline.days - x->deadline.reserve_days;
    if (budget <= 0)
        return tmc_error_set(err, "%s: deadline.reserve_days: %.10g is not shorter than "
                                  "deadline.days (%.10g); the reserve is part of the "
                                  "deadline", label, x->deadline.reserve_days,
                             x->deadline.days);
    double h = x->monte_carlo.horizon_days;
    if (h > 0 && h <= budget)
        return tmc_error_set(err, "%s: monte_carlo.horizon_days: %.10g must exceed the "
                                  "deadline's wall-time budget, deadline.days - "
                                  "deadline.reserve_days = %.10g, so that a censored "
                                  "replica counts as a miss", label, h, budget);
    return 0;
}

int tmc_cfg_check_all(const cJSON *root, const tmc_experiment *x, const char *label,
                      tmc_error *err)
{
    if (check_checkpoint(root, label, err) ||
        check_durations(&x->checkpoint, label, err) || check_jitter(&x->jitter, label, err) ||
        check_computable(&x->jitter, x->job.cards, label, err) ||
        check_failures(&x->failures, tmc_levels_stated(x), label, err) || tmc_cfg_check_bad_nodes(x, label, err) ||
        tmc_cfg_check_bursts(x, label, err) || check_drawn_rates(x, label, err) ||
        check_replayed("outages", x->outages.enabled, x->outages.mean_interval_days,
                       x->outages.n_trace, label, err) ||
        check_notice(x, label, err) || check_slowdown(x, label, err) ||
        check_replayed("loss_spikes", x->loss_spikes.enabled,
                       x->loss_spikes.mean_interval_days, x->loss_spikes.n_trace, label,
                       err) ||
        check_deadline(x, label, err) || tmc_cfg_check_elastic(x, label, err) ||
        tmc_cfg_check_progress(x, label, err) || tmc_cfg_check_window(x, label, err) ||
        tmc_cfg_check_levels(x, label, err))
        return -1;
    return check_input_pipeline(x, label, err);
}
