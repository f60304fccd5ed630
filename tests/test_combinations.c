/* combinations-1.x: the real engine against the brute-force oracle
 * (tests/oracle) over random valid experiments that cover the whole feature
 * space of docs/reference/simulation-semantics.md.
 *
 * combinations-1.1 generator: N_COMBOS experiments, each drawn from its own
 *   MT19937 stream seeded GEN_SEED + index (so the list is reproducible and
 *   one combination does not depend on the others), written as JSON text and
 *   parsed with tmc_config_parse, so the loader validates every one. The
 *   generator derives T0 and K with the closed form's own functions and
 *   plans the tests from its variables, so every shard counts the tests of
 *   all combinations without parsing them (the loader builds quantile
 *   tables: slow); a combination is parsed in its own test, where the plan
 *   is derived again from the parsed experiment and must be the same. They
 *   mix: jitter none / normal (cv 0..0.2, correlation 0, 0..1 or 1) /
 *   lognormal / gamma (cv up to 1); slow cards (fraction, factor,
 *   detect_after_steps with eviction and its own restore); pauses on all
 *   cards or one; failures exponential / Weibull / lognormal / trace (a
 *   temporary CSV file per combination), causes with shares, detection_s and
 *   their own restore_s, spares -1 / 0 / 1 / 2 / 4 with repair_mean_hours and
 *   repair_distribution exponential / fixed; outages (mean interval or trace)
 *   with downtime_s and downtime_cv, and with sync saves notice_s (at least
 *   the save: emergency saves; or shorter); time limits (save or lose at the
 *   limit, a requeue wait, restarts in the same or a new allocation, and
 *   with a save a warning notice_s that holds it or not); per-node and
 *   per-job failure rates beside a per-card law (drawn last); each cause's
 *   takes_spare, detection law (fixed / exponential / lognormal with its
 *   cv) and scope (card / node, with cards_per_node) from a stream of their
 *   own (cause_keys), and in 40 % of those with two causes or more a mix
 *   of its own per part (part_keys); restores immune to failures and outages in a quarter
 *   (immune_keys, a stream of its own); job renewal timed at the failure in
 *   half of those with job renewal (renewal_at_keys, likewise); repairs
 *   that start at the detection in a third of those with a spare pool or
 *   none (repair_from_keys, likewise); bursts of nodes (fixed, geometric or
 *   a table of sizes) in 40 % of those with exponential lifetimes
 *   (burst_keys, likewise); a run that
 *   slows down in a quarter (slowdown_keys, likewise: linear or saturating,
 *   refresh restarts in half of them, never beside async saves); two levels
 *   of snapshots in 60 % of those that allow them (levels_keys: every
 *   2nd to 4th persistent, cheaper local saves and restores, causes of
 *   level persistent, a node size); loss spikes (mean interval or trace)
 *   with rollback_snapshots 1..4; checkpoints sync / async (save_s,
 *   restore_s, write_s, including write backlogs), interval in steps or in
 *   seconds; a censoring horizon in a few; 1 to 600 cards and 20..400 steps
 *   with N x S <= WORK_BUDGET so the oracle's O(N) per step stays cheap. The
 *   rates are scaled to the run: expected arrivals = uninterrupted wall /
 *   mean interval is drawn in 0..10, capped so that a segment (with its save
 *   and restore) expects at most about one arrival (no e^(lambda tau)
 *   blow-up).
 *   repair_distribution and the outage / spike traces are new loader keys:
 *   each is used when the loader accepts it (probed at start, see
 *   COMBO_REPAIR_DISTRIBUTION and COMBO_PROCESS_TRACES to force it off or
 *   on); the random draws are the same either way, so the rest of the list
 *   does not move.
 * combinations-1.2 per combination, R replicas each of the engine in steps
 *   mode, of the engine in segments mode where that differs (jitter, and
 *   segments of >= 2 steps; with slow cards only if a
 *   replica without any is likely), and of the oracle (oracle_run with K =
 *   cf.interval_steps, mu = cf.compute_s, horizon = tmc_engine_horizon_s).
 *   Each engine mode against the oracle: wall time by a two-sample
 *   Kolmogorov-Smirnov test (asymptotic Kolmogorov distribution with
 *   Stephens' correction; values within 1e-9 of the uninterrupted wall time
 *   count as ties, so atoms such as "nothing struck" are not split by
 *   rounding), and the mean of the wall time, of every row of the split and
 *   of every count (failures, outages, spikes, saves, evictions, slow cards,
 *   censored) by Welch's z = |mean difference| / SE. A censored replica's
 *   split is not defined (semantics 7), so combinations with a horizon only
 *   compare the wall time and the censored fraction.
 *   Also exact, per replica, on both engines: the split adds up to the wall
 *   time (semantics 8, uncensored replicas) and the wall time never passes
 *   the horizon. These are checks of identities, not statistical tests.
 * combinations-1.3 closed forms, where the answer is known exactly:
 *   (a) Daly: no jitter, pauses, spikes or slow cards, exponential failures
 *       and/or Poisson outages without emergency saves, one restore time, unlimited spares, sync
 *       saves (or async with write_s = 0): E[wall] = Daly's T_wall with the
 *       mean delay (detection, downtime) (tmc_closed_form_daly_wall_s's
 *       delayed form, cf.daly_wall_s), whatever S mod K is;
 *   (b) jitter only (no arrivals, slow cards or pauses; sync or write_s =
 *       0): E[wall] = S (E[max_i X_i] + fixed) + segments x save, with
 *       E[max] = mu (1 + c_N cv sqrt(1 - rho)) for the normal
 *       (tmc_dist_normal_emax) and by quadrature of the exact maximum
 *       (tmc_dist_expected_max) for lognormal and gamma;
 *   (c) Poisson tail P(no arrival strikes): with no jitter and no slow cards
 *       (sync, or write_s = 0) the uninterrupted run has a known length T0
 *       and compute time, so P(N = 0) = S_life(T0)^N x e^(-T0 / M_outages)
 *       x e^(-lambda_spikes x compute time) (traces: 0 or 1), where
 *       S_life is the survival function of the lifetime law (every card is
 *       new at t = 0): exact binomial test on the replicas with no failure,
 *       outage or spike;
 *   (d) compensator: exponential failures and Poisson outages are Poisson
 *       processes that strike except while the job is down, so
 *       N(T) - lambda (T - detection - spare wait - downtime) has mean 0
 *       (optional stopping), tested by z on every engine.
 *   Each of (a)-(d) runs on every engine (steps, segments if run, oracle).
 *
 * Multiple testing: Bonferroni over every statistical test of the whole
 * suite (all shards: each shard plans the full list to count them),
 * family-wise alpha = FAMILY_ALPHA = 0.001. So with n_tests tests, a KS test
 * passes if p > 0.001 / n_tests, a z test if |z| < Qinv(0.001 / (2 n_tests))
 * (two-sided; gsl_cdf_ugaussian_Qinv), at least Z_FLOOR = 4 SE, and a
 * binomial test if its two-sided exact p > 0.001 / n_tests. A difference of
 * at most 1e-9 x the uninterrupted wall time (1e-9 for counts) counts as
 * none, whatever the SE (deterministic rows summed in another order).
 *
 * Usage: test_combinations [SHARD NSHARDS] runs the combinations i with
 * i % NSHARDS == SHARD (CTest: 4 shards). Every failing combination prints
 * its JSON (and its trace files). The smallest p-value is printed at the end.
 * Environment: COMBO_ONLY=i runs combination i only (with its shard, or
 * without arguments); COMBO_VERBOSE=1 prints each combination's JSON and
 * the mean of every row on every engine.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "config.h"
#include "dist.h"
#include "engine.h"
#include "oracle.h"
#include "rng_pcg.h"

#define N_COMBOS 320
#define R 400                 /* replicas per engine and combination */
#define GEN_SEED 20250611u    /* combination i: MT19937 seeded GEN_SEED + i */
#define ENGINE_SEED 5000u     /* run seed of combination i: ENGINE_SEED + i */
#define ORACLE_SEED 900000u   /* the oracle's: ORACLE_SEED + i */
#define FAMILY_ALPHA 0.001
#define Z_FLOOR 4.0
#define WORK_BUDGET 12000.0   /* cards x steps at most */
#define TIE_REL 1e-9          /* relative to the uninterrupted wall time */

/* New loader keys: 1 use, 0 leave out, -1 use if the loader accepts it. */
#ifndef COMBO_REPAIR_DISTRIBUTION
#define COMBO_REPAIR_DISTRIBUTION -1
#endif
#ifndef COMBO_PROCESS_TRACES
#define COMBO_PROCESS_TRACES -1
#endif

/* ---------- the rows compared ---------- */

enum {
    ROW_WALL, ROW_COMPUTE, ROW_STRAGGLER, ROW_PAUSE, ROW_FIXED, ROW_SAVE, ROW_LOST,
    ROW_RESTORE, ROW_DOWNTIME, ROW_DETECTION, ROW_SPARE_WAIT, ROW_EVICTION, ROW_REQUEUE,
    ROW_SLOWDOWN, ROW_REFRESH,
    ROW_FAILURES, ROW_OUTAGES, ROW_SPIKES, ROW_SAVES, ROW_EVICTIONS, ROW_REQUEUES,
    ROW_TIMEOUTS, ROW_SLOW_CARDS, ROW_CENSORED, ROW_REFRESHES, ROW_PERSISTENT, ROW_BURSTS,
    ROW_BURST_NODES, N_ROWS
};
#define N_TIME_ROWS (ROW_REFRESH + 1)
static const char *const row_names[N_ROWS] = {
    "wall", "compute", "straggler", "pause", "fixed", "save", "lost", "restore", "downtime",
    "detection", "spare_wait", "eviction", "requeue", "slowdown", "refresh", "failures",
    "outages", "spikes", "saves", "evictions", "requeues", "save_timeouts", "slow_cards",
    "censored", "refreshes", "persistent_restores", "bursts", "burst_nodes"};

static void engine_rows(const tmc_replica *o, double *v)
{
    double r[N_ROWS] = {o->wall_s, o->compute_s, o->straggler_s, o->pause_s, o->fixed_s,
                        o->save_s, o->lost_s, o->restore_s, o->downtime_s, o->detection_s,
                        o->spare_wait_s, o->eviction_s, o->requeue_s, o->slowdown_s,
                        o->refresh_s, o->card_failures,
                        o->outages, o->loss_spikes, o->saves, o->evictions, o->requeues,
                        o->save_timeouts, o->slow_cards, o->censored, o->refreshes,
                        o->persistent_restores, o->bursts, o->burst_nodes};
    memcpy(v, r, sizeof r);
}

static void oracle_rows(const oracle_result *o, double *v)
{
    double r[N_ROWS] = {o->wall_s, o->compute_s, o->straggler_s, o->pause_s, o->fixed_s,
                        o->save_s, o->lost_s, o->restore_s, o->downtime_s, o->detection_s,
                        o->spare_wait_s, o->eviction_s, o->requeue_s, o->slowdown_s,
                        o->refresh_s, o->card_failures,
                        o->outages, o->loss_spikes, o->saves, o->evictions, o->requeues,
                        o->save_timeouts, o->slow_cards, (double)o->censored, o->refreshes,
                        o->persistent_restores, o->bursts, o->burst_nodes};
    memcpy(v, r, sizeof r);
}

/* ---------- one combination ---------- */

/* What decides which tests a combination runs. */
typedef struct {
    long cards, k, every;
    int jitter, slow, slow_free_likely, pauses, write_free, failures, fail_exponential, one_restore,
        unlimited_spares, outages, outage_poisson, noticed, spikes, censoring, limited,
        durations, slowdown, levels;
} plan;

typedef struct {
    int index;
    char label[512];        /* its file name (relative traces resolve beside it) */
    char *json;             /* the experiment as generated */
    char *traces;           /* the trace files it names, for the failure message */
    char summary[256];
    plan plan;              /* from the generator; checked against the parse */
    tmc_experiment *x;      /* parsed in the combination's own test */
    tmc_closed_form cf;
    int run_segments;     /* 1: the segments mode differs from the steps one */
    int check_daly, check_jitter, check_tail, check_comp_failures, check_comp_outages;
    int n_tests;            /* statistical tests this combination runs */
} combo;

static char tmp_dir[256];
static int use_repair_distribution, use_process_traces;

static double unif(gsl_rng *r, double a, double b) { return a + (b - a) * gsl_rng_uniform(r); }
static long unif_int(gsl_rng *r, long a, long b) /* a..b */
{
    return a + (long)gsl_rng_uniform_int(r, (unsigned long)(b - a + 1));
}
static int coin(gsl_rng *r, double p) { return gsl_rng_uniform(r) < p; }
static double log_unif(gsl_rng *r, double a, double b) { return exp(unif(r, log(a), log(b))); }

/* A trace CSV of n increasing times (days) in (0, span_s]: when `use`, its
 * file name relative to tmp_dir in name and its text appended to *traces.
 * The same draws either way, so the combinations after it do not move. */
static void write_trace(gsl_rng *r, int use, int index, const char *what, int n,
                        double span_s, char *name, size_t name_size, char **traces)
{
    double t[16];
    for (int i = 0; i < n; i++)
        t[i] = unif(r, 0.002, 1) * span_s / TMC_DAY_S;
    if (!use)
        return;
    gsl_sort(t, 1, (size_t)n);
    snprintf(name, name_size, "combination-%d-%s.csv", index, what);
    char path[1024], text[2048];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    int len = snprintf(text, sizeof text, "time_days\n");
    double prev = 0;
    for (int i = 0; i < n; i++) {
        if (t[i] <= prev) /* equal draws: keep them increasing */
            t[i] = prev * (1 + 1e-9) + 1e-12;
        prev = t[i];
        len += snprintf(text + len, sizeof text - (size_t)len, "%.17g\n", t[i]);
    }
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f))
        fail_msg("cannot write %s: %s", path, strerror(errno));
    size_t old = *traces ? strlen(*traces) : 0;
    *traces = realloc(*traces, old + strlen(name) + strlen(text) + 8);
    snprintf(*traces + old, strlen(name) + strlen(text) + 8, "%s:\n%s", name, text);
}

static int parse(const char *json, const char *label, tmc_experiment *x, char *msg, size_t n)
{
    tmc_error err = {""};
    int rc = tmc_config_parse(json, label, tmp_dir, NULL, 0, x, &err);
    if (rc)
        snprintf(msg, n, "%s", err.msg);
    return rc;
}

/* Survival probability of one new card to time t under failures f. */
static double card_survival(const tmc_failures *f, double t)
{
    double mean = f->per_card_mtbf_days * TMC_DAY_S;
    switch (f->distribution) {
    case TMC_LIFETIME_EXPONENTIAL:
        return exp(-t / mean);
    case TMC_LIFETIME_WEIBULL: {
        double scale = mean / gsl_sf_gamma(1 + 1 / f->shape);
        return exp(-pow(t / scale, f->shape));
    }
    case TMC_LIFETIME_LOGNORMAL: {
        double s2 = log1p(f->lifetime_cv * f->lifetime_cv);
        return gsl_cdf_ugaussian_Q((log(t) - (log(mean) - s2 / 2)) / sqrt(s2));
    }
    default:
        return NAN;
    }
}

/* The uninterrupted run without jitter or slow cards (sync, or async with
 * write_s = 0): its length T0, and in *compute_total the time its compute
 * phases take (pauses and the fixed part included). */
static double uninterrupted_run(const combo *c, double *compute_total)
{
    const tmc_experiment *x = c->x;
    double mu = c->cf.compute_s, fixed = x->job.exposed_comm_s + x->job.input_wait_s;
    long s = x->job.steps, k = c->cf.interval_steps;
    long paused = x->pauses.enabled ? s / x->pauses.every_steps : 0;
    double pause = x->pauses.enabled ? x->pauses.duration_s : 0;
    *compute_total = s * (mu + fixed) + paused * pause;
    return *compute_total + (double)((s + k - 1) / k) * x->checkpoint.save_s;
}

/* 1 if a trace time (days) falls in a compute phase of the uninterrupted
 * run (spikes strike only there); 0 otherwise. */
static int trace_hits_compute(const combo *c, const double *days, int n)
{
    const tmc_experiment *x = c->x;
    double mu = c->cf.compute_s, fixed = x->job.exposed_comm_s + x->job.input_wait_s;
    long s = x->job.steps, k = c->cf.interval_steps, every = x->pauses.enabled
                                                             ? x->pauses.every_steps : 0;
    double t = 0;
    for (long done = 0; done < s;) {
        long m = s - done < k ? s - done : k;
        long paused = every ? (done + m) / every - done / every : 0;
        double end = t + m * (mu + fixed) + paused * x->pauses.duration_s;
        for (int i = 0; i < n; i++)
            if (days[i] * TMC_DAY_S >= t && days[i] * TMC_DAY_S < end) /* [start, end) */
                return 1;
        t = end + x->checkpoint.save_s;
        done += m;
    }
    return 0;
}

/* With slow cards, whether a replica without any is likely (P >= 0.1): the
 * segments mode then differs from the steps one in those replicas. */
static int slow_free_likely(double fraction, long cards)
{
    return pow(1 - fraction, (double)cards) >= 0.1;
}

/* Which tests a combination runs, from the parsed experiment x and its K. */
static plan plan_of(const tmc_experiment *x, long k, int censoring)
{
    const tmc_failures *f = &x->failures;
    plan p;
    p.cards = x->job.cards;
    p.k = k;
    p.jitter = x->jitter.cv > 0;
    p.slow = x->slow_cards.enabled;
    p.slow_free_likely = p.slow && slow_free_likely(x->slow_cards.fraction, x->job.cards);
    p.pauses = x->pauses.enabled;
    p.every = p.pauses ? x->pauses.every_steps : 0;
    p.write_free = x->checkpoint.mode == TMC_SAVE_SYNC || x->checkpoint.write_s == 0;
    p.failures = f->enabled;
    p.fail_exponential = f->enabled && f->distribution == TMC_LIFETIME_EXPONENTIAL;
    p.one_restore = 1;
    for (int i = 0; f->enabled && i < f->n_causes; i++)
        p.one_restore &= f->causes[i].restore_s < 0 ||
                         f->causes[i].restore_s == x->checkpoint.restore_s;
    p.unlimited_spares = !f->enabled || (f->spares == -1 && f->standbys == 0);
    p.outages = x->outages.enabled;
    p.outage_poisson = p.outages && x->outages.n_trace == 0;
    p.noticed = p.outages && x->outages.notice_s > 0 &&
                x->outages.notice_s >= x->checkpoint.save_s;
    p.spikes = x->loss_spikes.enabled;
    p.limited = x->time_limit.enabled;
    const tmc_checkpoint *cp = &x->checkpoint;
    p.durations = cp->save_cv > 0 || cp->restore_cv > 0 || cp->save_timeout_s > 0;
    p.slowdown = x->slowdown.enabled;
    p.levels = cp->persistent_every > 1;
    p.censoring = censoring;
    return p;
}

/* The tests of plan p: c's flags and count. */
static void choose_tests(combo *c)
{
    const plan *p = &c->plan;
    /* a slowdown draws every step (its times depend on the clock), and is in
     * none of the closed forms and identities below */
    c->run_segments = p->jitter && p->k >= 2 && (!p->slow || p->slow_free_likely) &&
                      !p->slowdown;
    /* two levels of snapshots: in none of them either (their saves differ) */
    c->check_daly = !p->jitter && !p->pauses && !p->slow && !p->spikes && p->write_free &&
                    !p->slowdown && !p->levels &&
                    !p->censoring && !p->limited &&
                    (!p->failures || (p->fail_exponential && p->one_restore &&
                                      p->unlimited_spares)) &&
                    (!p->outages || (p->outage_poisson && !p->noticed));
    /* random saves and restores: Daly's formula holds (random_segment), the
     * jitter-only sum and the no-arrival run length do not */
    c->check_jitter = p->jitter && !p->failures && !p->outages && !p->spikes && !p->slow &&
                      !p->pauses && p->write_free && !p->limited && !p->durations &&
                      !p->slowdown && !p->levels;
    c->check_tail = !p->jitter && !p->slow && p->write_free && !p->limited && !p->durations &&
                    !p->slowdown && !p->levels &&
                    (p->failures || p->outages || p->spikes);
    /* a requeue is time down the compensators do not subtract */
    c->check_comp_failures = p->fail_exponential && !p->censoring && !p->limited;
    c->check_comp_outages = p->outage_poisson && !p->censoring && !p->limited;
    int engines = 2 + c->run_segments;
    int per_pair = p->censoring ? 1 + 2 : 1 + N_ROWS; /* KS + means */
    c->n_tests = (engines - 1) * per_pair +
                 engines * (c->check_daly + c->check_jitter + c->check_comp_failures +
                            c->check_comp_outages) +
                 2 * c->check_tail; /* the tail test needs no jitter: no segments run */
}

/* Build combination `index`: its JSON, trace files, summary and plan
 * (without parsing it: every shard builds all of them to count the tests;
 * the loader validates it in its own shard, where the plan is checked). */
/* Issue 19's keys of each cause (takes_spare, detection_distribution and
 * detection_cv, scope), drawn from a stream of their own (MT19937 seeded
 * CAUSE_SEED + index) so that every other draw of the list stays where it
 * was. A cause of scope "node" needs cards_per_node: when the per-node
 * rate did not give it, it is drawn here (1, 2, 4 or 8). */
#define CAUSE_SEED 19031u
static void cause_keys(int index, cJSON *f, long cards, char *sum, size_t sn)
{
    cJSON *causes = f ? cJSON_GetObjectItem(f, "causes") : NULL;
    if (!causes)
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, CAUSE_SEED + (unsigned long)index);
    static const char *const laws[3] = {"fixed", "exponential", "lognormal"};
    int node = 0;
    cJSON *cz;
    cJSON_ArrayForEach(cz, causes) {
        int spare = gsl_rng_uniform(r) >= 0.3, law = (int)gsl_rng_uniform_int(r, 3);
        int scope = gsl_rng_uniform(r) < 0.25;
        double cv = 0.2 + 2.8 * gsl_rng_uniform(r);
        if (!spare)
            cJSON_AddFalseToObject(cz, "takes_spare");
        if (law > 0)
            cJSON_AddStringToObject(cz, "detection_distribution", laws[law]);
        if (law == 2)
            cJSON_AddNumberToObject(cz, "detection_cv", cv);
        if (scope)
            cJSON_AddStringToObject(cz, "scope", "node");
        node |= scope;
        snprintf(sum + strlen(sum), sn - strlen(sum), " cause(%s%s%s)", spare ? "" : "no spare,",
                 laws[law], scope ? ",node" : "");
    }
    if (node && !cJSON_GetObjectItem(f, "cards_per_node")) {
        static const long sizes[] = {1, 2, 4, 8};
        long g = sizes[gsl_rng_uniform_int(r, 4)];
        cJSON_AddNumberToObject(f, "cards_per_node", (double)(g < cards ? g : cards));
    }
    gsl_rng_free(r);
}

/* A cause mix per part (issue 36 part 2) in 40 % of the combinations with
 * two causes or more, from a stream of its own: each part (card, node, job)
 * shares its failures among the causes afresh (uniform weights, some of
 * them 0, normalised), given as card_share, node_share, job_share and burst_share in
 * place of share. */
#define PART_SEED 36021u
static int own_coin(int index, unsigned long seed, double p);
static void part_keys(int index, cJSON *f, char *sum, size_t sn)
{
    cJSON *causes = f ? cJSON_GetObjectItem(f, "causes") : NULL;
    int n = causes ? cJSON_GetArraySize(causes) : 0;
    if (n < 2 || !own_coin(index, PART_SEED, 0.4))
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, PART_SEED + 1 + (unsigned long)index);
    static const char *const keys[] = {"card_share", "node_share", "job_share", "burst_share"};
    double w[TMC_FAILURE_PARTS][TMC_MAX_CAUSES], total[TMC_FAILURE_PARTS] = {0};
    for (int p = 0; p < TMC_FAILURE_PARTS; p++) {
        for (int i = 0; i < n; i++)
            total[p] += w[p][i] = gsl_rng_uniform(r) < 0.3 ? 0 : gsl_rng_uniform_pos(r);
        if (total[p] == 0) /* every weight 0: the first cause takes the part */
            total[p] = w[p][0] = 1;
    }
    int i = 0;
    cJSON *cz;
    cJSON_ArrayForEach(cz, causes) {
        cJSON_DeleteItemFromObject(cz, "share");
        for (int p = 0; p < TMC_FAILURE_PARTS; p++)
            cJSON_AddNumberToObject(cz, keys[p], w[p][i] / total[p]);
        i++;
    }
    snprintf(sum + strlen(sum), sn - strlen(sum), " parts(%d causes)", n);
    gsl_rng_free(r);
}

/* Issue 19's warm standbys and cold provisioning (standbys, standby_swap_s,
 * standby_refill_hours, spare_provision_s) in about a third of the
 * combinations with failures, drawn from a stream of their own (MT19937
 * seeded STANDBY_SEED + index) so that every other draw stays where it was:
 * 0 to 4 standby cards, a swap up to 2 % of T0, provisioning up to 5 % of
 * T0 (none in 30 %), a refill after 2 to 52 % of T0 (never in half).
 * Standbys leave Daly's check out: the delay per failure is then random. */
#define STANDBY_SEED 19052u
static void standby_keys(int index, cJSON *f, double t0, plan *pl, char *sum, size_t sn)
{
    if (!f)
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, STANDBY_SEED + (unsigned long)index);
    if (gsl_rng_uniform(r) < 0.35) {
        long w = (long)gsl_rng_uniform_int(r, 5);
        double swap = 0.02 * t0 * gsl_rng_uniform(r);
        double provision = gsl_rng_uniform(r) < 0.3 ? 0 : 0.05 * t0 * gsl_rng_uniform(r);
        double refill_h = gsl_rng_uniform(r) < 0.5
            ? 0 : (0.02 + 0.5 * gsl_rng_uniform(r)) * t0 / 3600;
        cJSON_AddNumberToObject(f, "standbys", (double)w);
        cJSON_AddNumberToObject(f, "standby_swap_s", swap);
        cJSON_AddNumberToObject(f, "spare_provision_s", provision);
        cJSON_AddNumberToObject(f, "standby_refill_hours", refill_h);
        pl->unlimited_spares &= w == 0;
        snprintf(sum + strlen(sum), sn - strlen(sum), " standbys=%ld(swap %.3g, H %.3g, refill "
                 "%.3g h)", w, swap, provision, refill_h);
    }
    gsl_rng_free(r);
}

/* 1 with probability p, from a stream of its own (MT19937 seeded seed +
 * index), so that a key added later leaves every other draw where it was. */
static int own_coin(int index, unsigned long seed, double p)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed + (unsigned long)index);
    int yes = gsl_rng_uniform(r) < p;
    gsl_rng_free(r);
    return yes;
}

/* checkpoint.restore_immune (issue 34 part 5) in a quarter of the
 * combinations. */
#define IMMUNE_SEED 34051u
static void immune_keys(int index, cJSON *cp, char *sum, size_t sn)
{
    if (own_coin(index, IMMUNE_SEED, 0.25)) {
        cJSON_AddTrueToObject(cp, "restore_immune");
        snprintf(sum + strlen(sum), sn - strlen(sum), " immune restores");
    }
}

/* slowdown (issue 34 part 3) in a quarter of the combinations, its values
 * from a stream of its own: a drift of 10 % to 100 % over the run, or with
 * refresh restarts (half, not beside asynchronous saves, which refuse them)
 * over a refresh period of 4 to 30 units (a step at the slowest, a pause
 * and a save: so the loader never refuses it), saturating in 40 %. */
#define SLOWDOWN_SEED 34030u
static void slowdown_keys(int index, cJSON *root, double t0, double unit_s, int async,
                          plan *pl, char *sum, size_t sn)
{
    if (!own_coin(index, SLOWDOWN_SEED, 0.25))
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, SLOWDOWN_SEED + 1 + (unsigned long)index);
    cJSON *d = cJSON_AddObjectToObject(root, "slowdown");
    int refresh = !async && coin(r, 0.5);
    double span = refresh ? unif(r, 4, 30) * unit_s : t0;
    double per_hour = unif(r, 0.1, 1) * 3600 / span;
    cJSON_AddNumberToObject(d, "per_hour", per_hour);
    snprintf(sum + strlen(sum), sn - strlen(sum), " slowdown(%.3g/h", per_hour);
    if (coin(r, 0.4)) {
        double s = unif(r, 0.1, 1);
        cJSON_AddNumberToObject(d, "max_extra", s);
        snprintf(sum + strlen(sum), sn - strlen(sum), ", max %.2f", s);
    }
    if (refresh) {
        cJSON_AddNumberToObject(d, "refresh_hours", span / 3600);
        snprintf(sum + strlen(sum), sn - strlen(sum), ", refresh %.3g h", span / 3600);
        if (coin(r, 0.5))
            cJSON_AddNumberToObject(d, "refresh_s", unif(r, 0, 1) * unit_s);
    }
    snprintf(sum + strlen(sum), sn - strlen(sum), ")");
    pl->slowdown = 1;
    gsl_rng_free(r);
}

/* failures.renewal_at "failure" (issue 34 part 5) in half the combinations
 * with job renewal. */
#define RENEWAL_AT_SEED 34052u
static void renewal_at_keys(int index, cJSON *f, char *sum, size_t sn)
{
    if (own_coin(index, RENEWAL_AT_SEED, 0.5)) {
        cJSON_AddStringToObject(f, "renewal_at", "failure");
        snprintf(sum + strlen(sum), sn - strlen(sum), " at failure");
    }
}

/* Bursts (issue 36 part 1) in 40 % of the combinations with exponential
 * lifetimes (what bursts need), from a stream of their own: at `rate` per
 * second for the job (the caller bounds it as the per-node part), a node
 * size when none is given (1, 2, 4 or 8 cards), and a size law: fixed 1 to
 * 4 nodes, geometric of mean 2.2 to 4, or a table of 2 to 5 sizes. */
#define BURST_SEED 36011u
static void burst_keys(int index, cJSON *f, long cards, double rate, char *sum, size_t sn)
{
    const cJSON *law = f ? cJSON_GetObjectItem(f, "distribution") : NULL;
    if (!law || strcmp(law->valuestring, "exponential") || !own_coin(index, BURST_SEED, 0.4))
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, BURST_SEED + 1 + (unsigned long)index);
    static const long sizes[] = {1, 2, 4, 8};
    const cJSON *given = cJSON_GetObjectItem(f, "cards_per_node");
    long g = given ? (long)given->valuedouble : sizes[gsl_rng_uniform_int(r, 4)];
    long nodes = (cards + g - 1) / g;
    if (!given)
        cJSON_AddNumberToObject(f, "cards_per_node", (double)g);
    cJSON_AddNumberToObject(f, "burst_per_node_mtbf_days", nodes / rate / TMC_DAY_S);
    unsigned long kind = gsl_rng_uniform_int(r, 3);
    if (kind == 0) {
        long k = 1 + (long)gsl_rng_uniform_int(r, 4);
        cJSON_AddNumberToObject(f, "burst_nodes", (double)k);
        snprintf(sum + strlen(sum), sn - strlen(sum), " bursts(g %ld, fixed %ld)", g, k);
    } else if (kind == 1) {
        double mean = 2.2 + 1.8 * gsl_rng_uniform(r);
        cJSON_AddStringToObject(f, "burst_size", "geometric");
        cJSON_AddNumberToObject(f, "burst_nodes", mean);
        snprintf(sum + strlen(sum), sn - strlen(sum), " bursts(g %ld, geometric %.2f)", g, mean);
    } else {
        double w[5];
        int n = 2 + (int)gsl_rng_uniform_int(r, 4);
        for (int i = 0; i < n; i++)
            w[i] = gsl_rng_uniform(r) < 0.3 ? 0 : gsl_rng_uniform_pos(r);
        w[n - 1] += w[n - 1] == 0; /* not all 0 */
        cJSON_AddStringToObject(f, "burst_size", "table");
        cJSON_AddItemToObject(f, "burst_weights", cJSON_CreateDoubleArray(w, n));
        snprintf(sum + strlen(sum), sn - strlen(sum), " bursts(g %ld, table of %d)", g, n);
    }
    gsl_rng_free(r);
}

/* failures.repair_from "detection" (issue 36 part 3) in a third of the
 * combinations with a spare pool or none. */
#define REPAIR_FROM_SEED 36031u
static void repair_from_keys(int index, cJSON *f, char *sum, size_t sn)
{
    if (own_coin(index, REPAIR_FROM_SEED, 1.0 / 3)) {
        cJSON_AddStringToObject(f, "repair_from", "detection");
        snprintf(sum + strlen(sum), sn - strlen(sum), " repair from detection");
    }
}

/* Two levels of snapshots (issue 34 part 1) in 60 % of the combinations
 * (sync or async) without a rollback of several snapshots (refused beside
 * them) that expect at most 0.8 arrivals a segment, from a stream of their
 * own: every 2nd to 4th snapshot persistent (a period expecting about 1.6 at
 * most), local saves and restores cheaper (or as dear, in a few), each
 * cause of level persistent in 30 %, and a node size when failures give
 * none. */
#define LEVELS_SEED 34011u
static void levels_keys(int index, cJSON *root, cJSON *cp, cJSON *f, double per_segment,
                        plan *pl, char *sum, size_t sn)
{
    const cJSON *spikes = cJSON_GetObjectItem(root, "loss_spikes");
    const cJSON *back = spikes ? cJSON_GetObjectItem(spikes, "rollback_snapshots") : NULL;
    if ((back && back->valuedouble > 1) ||
        !own_coin(index, LEVELS_SEED, 0.6))
        return;
    /* a persistent restore loses up to m segments: keep a period's expected
     * arrivals about 1, or the oracle's O(N) steps grow as e^(m x that) */
    long most = (long)fmin(4, 1.6 / fmax(per_segment, 1e-9));
    if (most < 2)
        return;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, LEVELS_SEED + 1 + (unsigned long)index);
    long every = unif_int(r, 2, most);
    double save = cJSON_GetObjectItem(cp, "save_s")->valuedouble;
    double restore = cJSON_GetObjectItem(cp, "restore_s")->valuedouble;
    double c1 = coin(r, 0.2) ? save : save * unif(r, 0, 1);
    double r1 = coin(r, 0.2) ? restore : restore * unif(r, 0, 1);
    cJSON_AddNumberToObject(cp, "persistent_every", (double)every);
    cJSON_AddNumberToObject(cp, "local_save_s", c1);
    cJSON_AddNumberToObject(cp, "local_restore_s", r1);
    static const long sizes[] = {1, 2, 4, 8};
    long g = sizes[unif_int(r, 0, 3)];
    if (f && !cJSON_GetObjectItem(f, "cards_per_node"))
        cJSON_AddNumberToObject(f, "cards_per_node", (double)g);
    int persistent = 0;
    const cJSON *causes = f ? cJSON_GetObjectItem(f, "causes") : NULL;
    for (cJSON *c = causes ? causes->child : NULL; c; c = c->next)
        if (coin(r, 0.3)) {
            cJSON_AddStringToObject(c, "level", "persistent");
            persistent++;
        }
    pl->levels = 1;
    snprintf(sum + strlen(sum), sn - strlen(sum), " levels(every %ld, c1 %.3g, r1 %.3g, %d "
             "persistent causes)", every, c1, r1, persistent);
    gsl_rng_free(r);
}

static void generate(int index, combo *c)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    snprintf(c->label, sizeof c->label, "%s/combination-%d.json", tmp_dir, index);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, GEN_SEED + (unsigned long)index);
    plan *pl = &c->plan;
    memset(pl, 0, sizeof *pl);
    pl->one_restore = pl->unlimited_spares = 1;
    char *sum = c->summary;
    size_t sn = sizeof c->summary;
#define SUM(...) snprintf(sum + strlen(sum), sn - strlen(sum), __VA_ARGS__)

    cJSON *root = cJSON_CreateObject();
    char name[64];
    snprintf(name, sizeof name, "combination-%d", index);
    cJSON_AddStringToObject(root, "name", name);

    /* job: mu in 0.5 .. 30 s per step */
    tmc_job job;
    memset(&job, 0, sizeof job);
    job.cards = coin(r, 0.1) ? 1 : lround(log_unif(r, 2, 600));
    long max_steps = (long)fmin(400, fmax(20, WORK_BUDGET / job.cards));
    job.steps = unif_int(r, 20, max_steps);
    double mu = log_unif(r, 0.5, 30);
    job.efficiency = unif(r, 0.3, 1);
    job.peak_flops = 1e14;
    job.flop_per_step = mu * (double)job.cards * job.peak_flops * job.efficiency;
    job.exposed_comm_s = coin(r, 0.5) ? unif(r, 0, 0.2) * mu : 0;
    job.input_wait_s = coin(r, 0.3) ? unif(r, 0, 0.1) * mu : 0;
    long steps = job.steps, cards = job.cards;
    cJSON *jo = cJSON_AddObjectToObject(root, "job");
    cJSON_AddNumberToObject(jo, "steps", (double)steps);
    cJSON_AddNumberToObject(jo, "cards", (double)cards);
    cJSON_AddNumberToObject(jo, "flop_per_step", job.flop_per_step);
    cJSON_AddNumberToObject(jo, "peak_flops", job.peak_flops);
    cJSON_AddNumberToObject(jo, "efficiency", job.efficiency);
    cJSON_AddNumberToObject(jo, "exposed_comm_s", job.exposed_comm_s);
    cJSON_AddNumberToObject(jo, "input_wait_s", job.input_wait_s);
    pl->cards = cards;
    SUM("N=%ld S=%ld", cards, steps);

    /* jitter */
    tmc_jitter jit = {TMC_JITTER_NORMAL, 0, 0};
    double u = gsl_rng_uniform(r);
    if (u < 0.2) {
        int how = (int)unif_int(r, 0, 2); /* absent, null, cv 0 */
        if (how == 1)
            cJSON_AddNullToObject(root, "jitter");
        else if (how == 2) {
            cJSON *j = cJSON_AddObjectToObject(root, "jitter");
            cJSON_AddStringToObject(j, "distribution", "normal");
            cJSON_AddNumberToObject(j, "cv", 0);
        }
        SUM(" jitter=none");
    } else {
        cJSON *j = cJSON_AddObjectToObject(root, "jitter");
        if (u < 0.55) {
            double v;
            jit.cv = unif(r, 0.005, 0.2);
            v = gsl_rng_uniform(r);
            jit.rho = v < 0.5 ? 0 : v < 0.85 ? unif(r, 0, 1) : 1;
            cJSON_AddStringToObject(j, "distribution", "normal");
            cJSON_AddNumberToObject(j, "cv", jit.cv);
            if (jit.rho > 0)
                cJSON_AddNumberToObject(j, "correlation", jit.rho);
            SUM(" jitter=normal(cv %.3f, rho %.2f)", jit.cv, jit.rho);
        } else {
            jit.kind = u < 0.8 ? TMC_JITTER_LOGNORMAL : TMC_JITTER_GAMMA;
            jit.cv = unif(r, 0.02, 1);
            const char *law = jit.kind == TMC_JITTER_LOGNORMAL ? "lognormal" : "gamma";
            cJSON_AddStringToObject(j, "distribution", law);
            cJSON_AddNumberToObject(j, "cv", jit.cv);
            SUM(" jitter=%s(cv %.3f)", law, jit.cv);
        }
        pl->jitter = 1;
    }

    /* checkpoint: interval in steps (1..5, any, or S) or in seconds */
    u = gsl_rng_uniform(r);
    long k = u < 0.25 ? unif_int(r, 1, 5 < steps ? 5 : steps)
           : u < 0.45 ? steps : unif_int(r, 1, steps);
    int by_time = coin(r, 0.15);
    double seg = k * mu; /* about a segment's compute, s */
    double save = coin(r, 0.15) ? 0 : unif(r, 0, 0.3) * seg;
    double restore = coin(r, 0.15) ? 0 : unif(r, 0, 1) * seg;
    double write = 0;
    int async = coin(r, 0.3);
    cJSON *cp = cJSON_AddObjectToObject(root, "checkpoint");
    if (async) {
        double v = gsl_rng_uniform(r);
        write = v < 0.2 ? 0 : v < 0.7 ? unif(r, 0, 1) * seg : unif(r, 1, 4) * seg;
        save = unif(r, 0, 0.1) * seg;
        cJSON_AddStringToObject(cp, "mode", "async");
        cJSON_AddNumberToObject(cp, "write_s", write);
        SUM(" async(copy %.3g, write %.3g)", save, write);
    }
    cJSON_AddNumberToObject(cp, "save_s", save);
    cJSON_AddNumberToObject(cp, "restore_s", restore);
    pl->write_free = !async || write == 0;

    /* slow cards */
    if (coin(r, 0.25)) {
        double fraction = coin(r, 0.05) ? 1 : fmin(1, unif(r, 0.2, 3) / (double)cards);
        double factor = unif(r, 1, 3);
        long detect = coin(r, 0.4) ? 0 : unif_int(r, 1, steps);
        cJSON *sc = cJSON_AddObjectToObject(root, "slow_cards");
        cJSON_AddNumberToObject(sc, "fraction", fraction);
        cJSON_AddNumberToObject(sc, "factor", factor);
        cJSON_AddNumberToObject(sc, "detect_after_steps", (double)detect);
        if (coin(r, 0.5))
            cJSON_AddNumberToObject(sc, "eviction_restore_s", unif(r, 0, 1) * seg);
        pl->slow = 1;
        pl->slow_free_likely = slow_free_likely(fraction, cards);
        SUM(" slow(f %.3g, x%.2f, W %ld)", fraction, factor, detect);
    }

    /* pauses */
    double pause_per_step = 0;
    double step_s = tmc_closed_form_step_s(&job, &jit); /* as the closed form: E[max] + fixed */
    if (coin(r, 0.3)) {
        long every = unif_int(r, 1, steps / 2 > 1 ? steps / 2 : 1);
        double d = unif(r, 0.05, 2) * mu;
        int one = coin(r, 0.5);
        cJSON *p = cJSON_AddObjectToObject(root, "pauses");
        cJSON_AddNumberToObject(p, "every_steps", (double)every);
        cJSON_AddNumberToObject(p, "duration_s", d);
        cJSON_AddStringToObject(p, "cards", one ? "one" : "all");
        double m = tmc_closed_form_compute_s(&job);
        double fixed = job.exposed_comm_s + job.input_wait_s;
        pause_per_step = !one || cards == 1
            ? d / every
            : (m * tmc_dist_paused_max_mean(&jit, cards, d / m) - (step_s - fixed)) / every;
        pl->pauses = 1;
        pl->every = every;
        SUM(" pauses(%s every %ld)", one ? "one" : "all", every);
    }
    step_s += pause_per_step;

    tmc_checkpoint ck;
    memset(&ck, 0, sizeof ck);
    if (by_time) { /* the steps K stand for, at the expected step time */
        ck.interval_s = (k + unif(r, -0.3, 0.3)) * step_s;
        cJSON_AddNumberToObject(cp, "interval_s", ck.interval_s);
        SUM(" interval_s=%.4g", ck.interval_s);
    } else {
        ck.interval_steps = k;
        cJSON_AddNumberToObject(cp, "interval_steps", (double)k);
    }
    pl->k = tmc_closed_form_interval_steps(&ck, step_s, steps);
    /* the uninterrupted wall time, as the closed form's */
    double t0 = steps * step_s + (double)((steps + pl->k - 1) / pl->k) * save + write;
    double segment_s = pl->k * step_s + save + restore;
    SUM(" K=%ld", pl->k);

    cJSON *dl = cJSON_AddObjectToObject(root, "deadline");
    cJSON_AddNumberToObject(dl, "days", 30);
    cJSON *mc = cJSON_AddObjectToObject(root, "monte_carlo");
    cJSON_AddNumberToObject(mc, "replicas", R);
    cJSON_AddNumberToObject(mc, "seed", ENGINE_SEED + (double)index);
    cJSON_AddStringToObject(mc, "mode", "steps");

    /* interruptions: expected arrivals in 0..10 over T0, at most ~1 per segment */
    int fail_on = coin(r, 0.65), out_on = coin(r, 0.35), spike_on = coin(r, 0.35);
    double w[3] = {fail_on * unif(r, 0.2, 1), out_on * unif(r, 0.2, 1),
                   spike_on * unif(r, 0.2, 1)};
    double rate = unif(r, 0, 10) / t0;
    rate = fmin(rate, 1.2 / segment_s);
    double wsum = w[0] + w[1] + w[2];
    double expect[3];
    for (int i = 0; i < 3; i++)
        expect[i] = wsum > 0 ? fmax(rate * t0 * w[i] / wsum, 0.05) : 0;

    cJSON *f_obj = NULL;
    if (fail_on) {
        cJSON *f = f_obj = cJSON_AddObjectToObject(root, "failures");
        double v = gsl_rng_uniform(r), e = expect[0], n = (double)cards;
        double mean_s;
        pl->failures = 1;
        if (v < 0.45) {
            mean_s = n * t0 / e;
            cJSON_AddStringToObject(f, "distribution", "exponential");
            pl->fail_exponential = 1;
            SUM(" fail=exp(%.2f)", e);
        } else if (v < 0.65) {
            double shape = coin(r, 0.5) ? unif(r, 0.5, 1) : unif(r, 1, 3);
            double scale = t0 / pow(e / n, 1 / shape);
            mean_s = scale * gsl_sf_gamma(1 + 1 / shape);
            cJSON_AddStringToObject(f, "distribution", "weibull");
            cJSON_AddNumberToObject(f, "shape", shape);
            SUM(" fail=weibull(k %.2f, %.2f)", shape, e);
        } else if (v < 0.85) {
            double cv = unif(r, 0.3, 3), s = sqrt(log1p(cv * cv));
            double p = fmin(e / n, 0.9);
            double m = log(t0) - s * gsl_cdf_ugaussian_Pinv(p);
            mean_s = exp(m + s * s / 2);
            cJSON_AddStringToObject(f, "distribution", "lognormal");
            cJSON_AddNumberToObject(f, "lifetime_cv", cv);
            SUM(" fail=lognormal(cv %.2f, %.2f)", cv, e);
        } else {
            char file[128];
            int count = (int)fmin(8, 1 + gsl_ran_poisson(r, e));
            write_trace(r, 1, index, "failures", count, 1.3 * t0, file, sizeof file,
                        &c->traces);
            cJSON_AddStringToObject(f, "distribution", "trace");
            cJSON_AddStringToObject(f, "trace", file);
            mean_s = 0;
            SUM(" fail=trace(%d)", count);
        }
        /* the first lifetimes give about e failures in T0 (every card new);
         * replaced cards fail at the renewal rate N / mean: keep both low */
        mean_s = mean_s > 0 ? fmax(mean_s, n * t0 / e) : 0;
        if (mean_s > 0)
            cJSON_AddNumberToObject(f, "per_card_mtbf_days", fmax(mean_s / TMC_DAY_S, 1e-9));
        if (coin(r, 0.4)) {
            int nc = (int)unif_int(r, 1, 3);
            double ws[3], total = 0;
            for (int i = 0; i < nc; i++)
                total += ws[i] = unif(r, 0.1, 1);
            cJSON *causes = cJSON_AddArrayToObject(f, "causes");
            for (int i = 0; i < nc; i++) {
                cJSON *cz = cJSON_CreateObject();
                char cname[24];
                snprintf(cname, sizeof cname, "cause-%d", i);
                cJSON_AddStringToObject(cz, "name", cname);
                cJSON_AddNumberToObject(cz, "share", ws[i] / total);
                if (coin(r, 0.5))
                    cJSON_AddNumberToObject(cz, "detection_s", unif(r, 0, 0.5) * seg);
                if (coin(r, 0.5)) {
                    double own = unif(r, 0, 1) * seg;
                    cJSON_AddNumberToObject(cz, "restore_s", own);
                    pl->one_restore &= own == restore;
                }
                cJSON_AddItemToArray(causes, cz);
            }
            SUM(" causes=%d", nc);
        }
        static const long spare_choices[] = {-2, -1, 0, 1, 2, 4}; /* -2: key absent */
        long spares = spare_choices[unif_int(r, 0, 5)];
        double repair_h = unif(r, 0.02, 0.5) * t0 / 3600;
        int fixed = coin(r, 0.5);
        if (spares != -2)
            cJSON_AddNumberToObject(f, "spares", (double)spares);
        pl->unlimited_spares = spares < 0;
        if (spares >= 0) {
            cJSON_AddNumberToObject(f, "repair_mean_hours", repair_h);
            if (use_repair_distribution)
                cJSON_AddStringToObject(f, "repair_distribution",
                                        fixed ? "fixed" : "exponential");
            SUM(" spares=%ld(%s)", spares,
                use_repair_distribution ? (fixed ? "fixed" : "exp") : "default");
            repair_from_keys(index, f, sum, sn);
        }
    }

    cJSON *o = NULL;
    if (out_on) {
        o = cJSON_AddObjectToObject(root, "outages");
        int trace = coin(r, 0.2) && use_process_traces;
        char file[128];
        int count = (int)fmin(8, 1 + gsl_ran_poisson(r, expect[1]));
        write_trace(r, trace, index, "outages", count, 1.3 * t0, file, sizeof file,
                    &c->traces);
        if (trace)
            cJSON_AddStringToObject(o, "trace", file);
        else
            cJSON_AddNumberToObject(o, "mean_interval_days", t0 / expect[1] / TMC_DAY_S);
        double down = coin(r, 0.25) ? 0 : unif(r, 0, 0.3) * t0 / fmax(1, expect[1]);
        double cv = coin(r, 0.5) ? 0 : unif(r, 0.1, 2);
        if (down > 0 || coin(r, 0.5))
            cJSON_AddNumberToObject(o, "downtime_s", down);
        if (cv > 0)
            cJSON_AddNumberToObject(o, "downtime_cv", cv);
        pl->outages = 1;
        pl->outage_poisson = !trace;
        SUM(" outages(%s, down %.3g, cv %.2f)", trace ? "trace" : "poisson", down, cv);
    }

    if (spike_on) {
        cJSON *sp = cJSON_AddObjectToObject(root, "loss_spikes");
        int trace = coin(r, 0.2) && use_process_traces;
        char file[128];
        int count = (int)fmin(8, 1 + gsl_ran_poisson(r, expect[2]));
        long rollback = coin(r, 0.5) ? 1 : unif_int(r, 2, 4);
        write_trace(r, trace, index, "spikes", count, 1.3 * t0, file, sizeof file,
                    &c->traces);
        if (trace)
            cJSON_AddStringToObject(sp, "trace", file);
        else
            cJSON_AddNumberToObject(sp, "mean_interval_days", t0 / expect[2] / TMC_DAY_S);
        if (rollback > 1 || coin(r, 0.5))
            cJSON_AddNumberToObject(sp, "rollback_snapshots", (double)rollback);
        pl->spikes = 1;
        SUM(" spikes(%s, rollback %ld)", trace ? "trace" : "poisson", rollback);
    }

    /* a censoring horizon that some replicas reach */
    if (wsum > 0 && rate * t0 >= 2 && coin(r, 0.1)) {
        double horizon = unif(r, 1.05, 1.6) * t0;
        cJSON_ReplaceItemInObject(dl, "days", cJSON_CreateNumber(t0 / TMC_DAY_S));
        cJSON_AddNumberToObject(mc, "horizon_days", horizon / TMC_DAY_S);
        pl->censoring = 1;
        SUM(" horizon=%.2f T0", horizon / t0);
    }

    /* outages with notice (sync saves only): drawn last, so that the rest of
     * each combination is the same with or without them */
    if (o && !async && coin(r, 0.4)) {
        double notice = coin(r, 0.75) ? fmax(save * unif(r, 1, 3), 1e-3 * seg)
                                      : save * unif(r, 0, 1);
        cJSON_AddNumberToObject(o, "notice_s", notice);
        pl->noticed = notice > 0 && notice >= save;
        SUM(" notice(%.3g%s)", notice, pl->noticed ? ", saved" : ", too short");
    }

    /* a scheduler's time limit (not with slow cards, whose steps may not
     * fit one), drawn last too: several allocations, each holding a few
     * segments */
    /* job renewal of Weibull or lognormal lifetimes, drawn last too, when
     * the job's own mean time between failures (the minimum of N fresh
     * lifetimes) keeps the arrivals as bounded as above */
    if (f_obj && coin(r, 0.4)) {
        const char *law = cJSON_GetObjectItem(f_obj, "distribution")->valuestring;
        const cJSON *mean = cJSON_GetObjectItem(f_obj, "per_card_mtbf_days");
        tmc_failures lf = {.per_card_mtbf_days = mean ? mean->valuedouble : 0};
        lf.distribution = !strcmp(law, "weibull") ? TMC_LIFETIME_WEIBULL
                        : !strcmp(law, "lognormal") ? TMC_LIFETIME_LOGNORMAL
                                                    : TMC_LIFETIME_EXPONENTIAL;
        const cJSON *k = cJSON_GetObjectItem(f_obj, "shape");
        const cJSON *cv = cJSON_GetObjectItem(f_obj, "lifetime_cv");
        lf.shape = k ? k->valuedouble : 1;
        lf.lifetime_cv = cv ? cv->valuedouble : 1;
        double job_mtbf = lf.distribution == TMC_LIFETIME_EXPONENTIAL
                              ? 0 : tmc_closed_form_job_mtbf_s(&lf, cards);
        if (job_mtbf > 0 && t0 / job_mtbf <= 10 && segment_s / job_mtbf <= 1.2) {
            cJSON_AddStringToObject(f_obj, "renewal", "job");
            SUM(" renewal=job");
            renewal_at_keys(index, f_obj, sum, sn);
        }
    }

    if (!pl->slow && coin(r, 0.2)) {
        double limit = fmax(unif(r, 0.25, 1.2) * t0, unif(r, 2, 4) * segment_s);
        double queue = coin(r, 0.3) ? 0 : unif(r, 0, 0.2) * t0;
        int lose = async || coin(r, 0.5), renew = coin(r, 0.3);
        cJSON *tl = cJSON_AddObjectToObject(root, "time_limit");
        cJSON_AddNumberToObject(tl, "wall_hours", limit / 3600);
        cJSON_AddNumberToObject(tl, "requeue_s", queue);
        cJSON_AddStringToObject(tl, "at_limit", lose ? "lose" : "save");
        if (renew)
            cJSON_AddStringToObject(tl, "restarts", "new_allocation");
        pl->limited = 1;
        SUM(" limit(%.3g T0, queue %.3g, %s%s)", limit / t0, queue, lose ? "lose" : "save",
            renew ? ", renewed" : "");
    }

    /* saves and restores of random length, and a save timeout: drawn last
     * too; a timeout past 1.1 saves keeps most saves in time */
    if (coin(r, 0.3)) {
        static const char *const laws[] = {"lognormal", "gamma", "uniform"};
        int law = (int)unif_int(r, 0, 2);
        double top = law == 2 ? 0.57 : 0.8;
        double save_cv = unif(r, 0, top), restore_cv = coin(r, 0.5) ? unif(r, 0, top) : 0;
        double timeout = save > 0 && coin(r, 0.5) ? save * unif(r, 1.1, 2.5) : 0;
        cJSON_AddStringToObject(cp, "duration_law", laws[law]);
        cJSON_AddNumberToObject(cp, "save_cv", save_cv);
        cJSON_AddNumberToObject(cp, "restore_cv", restore_cv);
        if (timeout > 0)
            cJSON_AddNumberToObject(cp, "save_timeout_s", timeout);
        pl->durations = save_cv > 0 || restore_cv > 0 || timeout > 0;
        SUM(" durations(%s, cv %.2g/%.2g, timeout %.3g)", laws[law], save_cv, restore_cv,
            timeout);
    }
    /* per-node and per-job failures (docs/model.md 3.13) beside a per-card
     * law, drawn last of all: together at most ~0.3 arrivals a segment */
    if (f_obj && strcmp(cJSON_GetObjectItem(f_obj, "distribution")->valuestring, "trace") &&
        coin(r, 0.3)) {
        double extra = fmin(unif(r, 0.2, 1) * fmax(expect[0], 0.5) / t0, 0.3 / segment_s);
        double node_share = coin(r, 0.3) ? 1 : coin(r, 0.4) ? 0 : unif(r, 0.2, 0.8);
        static const long sizes[] = {1, 2, 4, 8};
        long g = sizes[unif_int(r, 0, 3)], nodes = (cards + g - 1) / g;
        if (node_share > 0) {
            cJSON_AddNumberToObject(f_obj, "per_node_mtbf_days",
                                    nodes / (node_share * extra) / TMC_DAY_S);
            cJSON_AddNumberToObject(f_obj, "cards_per_node", (double)g);
        }
        if (node_share < 1)
            cJSON_AddNumberToObject(f_obj, "per_job_mtbf_days",
                                    1 / ((1 - node_share) * extra) / TMC_DAY_S);
        SUM(" scale(node %.2f g %ld, job %.2f of %.3g T0)", node_share, g, 1 - node_share,
            extra * t0);
    }
    /* the warning before a time limit with a save (time_limit.notice_s),
     * drawn after all the rest so that every other key stays as it was:
     * mostly one that holds the save (the allocation ends early), else one
     * too short (the limit loses the work) */
    cJSON *limit = cJSON_GetObjectItem(root, "time_limit");
    if (limit && !strcmp(cJSON_GetObjectItem(limit, "at_limit")->valuestring, "save") &&
        coin(r, 0.5)) {
        double notice = coin(r, 0.6) ? save * unif(r, 1, 3) : save * unif(r, 0, 1);
        cJSON_AddNumberToObject(limit, "notice_s", notice);
        SUM(" limit notice(%.3g%s)", notice, notice >= save ? ", saved" : ", too short");
    }
    burst_keys(index, f_obj, cards, fmin(fmax(expect[0], 0.5) / t0, 0.3 / segment_s) / 2, sum,
               sn);
    cause_keys(index, f_obj, cards, sum, sn);
    part_keys(index, f_obj, sum, sn);
    standby_keys(index, f_obj, t0, pl, sum, sn);
    immune_keys(index, cp, sum, sn);
    /* a unit of time that holds a step at the slowest (slow cards up to 3x,
     * a pause up to 2 mu, drift up to 2x) and a save */
    slowdown_keys(index, root, t0, 3 * step_s + 2 * mu + save, async, pl, sum, sn);
    levels_keys(index, root, cp, f_obj, rate * segment_s, pl, sum, sn);
    c->json = cJSON_Print(root);
    cJSON_Delete(root);
    gsl_rng_free(r);
#undef SUM
    choose_tests(c);
}

/* Parse combination c into c->x and c->cf; its plan must be the generator's. */
static void load_combo(combo *c)
{
    c->x = malloc(sizeof *c->x);
    assert_non_null(c->x);
    char msg[1024];
    if (parse(c->json, c->label, c->x, msg, sizeof msg))
        fail_msg("combination %d: the loader refuses the generated experiment: %s\n%s",
                 c->index, msg, c->json);
    tmc_closed_form_compute(c->x, &c->cf);
    plan p = plan_of(c->x, c->cf.interval_steps, c->plan.censoring);
    const plan *q = &c->plan;
    const long pl[] = {p.cards, p.k, p.every, p.jitter, p.slow, p.slow_free_likely, p.pauses, p.write_free,
                       p.failures, p.fail_exponential, p.one_restore, p.unlimited_spares,
                       p.outages, p.outage_poisson, p.noticed, p.spikes, p.censoring,
                       p.limited, p.durations, p.slowdown, p.levels};
    const long ql[] = {q->cards, q->k, q->every, q->jitter, q->slow, q->slow_free_likely,
                       q->pauses, q->write_free,
                       q->failures, q->fail_exponential, q->one_restore, q->unlimited_spares,
                       q->outages, q->outage_poisson, q->noticed, q->spikes, q->censoring,
                       q->limited, q->durations, q->slowdown, q->levels};
    static const char *const names[] = {
        "cards", "K", "pause every", "jitter", "slow", "slow_free_likely", "pauses",
        "write_free", "failures", "fail_exponential", "one_restore", "unlimited_spares",
        "outages", "outage_poisson", "noticed", "spikes", "censoring", "limited",
        "durations", "slowdown", "levels"};
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++)
        if (pl[i] != ql[i])
            fail_msg("combination %d: the generator's plan has %s = %ld, the parsed "
                     "experiment %ld: the test count would be wrong\n%s",
                     c->index, names[i], ql[i], pl[i], c->json);
}

/* c's experiment, its heap parts first (experiment.h). */
static void drop_experiment(combo *c)
{
    if (c->x)
        tmc_experiment_release(c->x);
    free(c->x);
    c->x = NULL;
}

static void free_combo(combo *c)
{
    drop_experiment(c);
    free(c->json);
    free(c->traces);
}

/* ---------- statistics ---------- */

/* The asymptotic Kolmogorov survival function Q(lambda) =
 * 2 sum_k (-1)^(k-1) exp(-2 k^2 lambda^2). */
static double kolmogorov_q(double lambda)
{
    if (lambda < 0.2)
        return 1;
    double s = 0;
    for (int k = 1; k <= 100; k++) {
        double term = exp(-2.0 * k * k * lambda * lambda);
        s += k % 2 ? term : -term;
        if (term < 1e-300)
            break;
    }
    return fmin(1, fmax(0, 2 * s));
}

/* sup |F_a - F_b| for sorted samples, values within eps of a group's
 * smallest counting as equal. */
static double ks_tied(const double *a, long na, const double *b, long nb, double eps)
{
    long i = 0, j = 0;
    double d = 0;
    while (i < na && j < nb) {
        double x = fmin(a[i], b[j]) + eps;
        while (i < na && a[i] <= x)
            i++;
        while (j < nb && b[j] <= x)
            j++;
        d = fmax(d, fabs((double)i / na - (double)j / nb));
    }
    return d;
}

static double ks_p(double d, long na, long nb)
{
    double ne = (double)na * nb / (na + nb), sq = sqrt(ne);
    return kolmogorov_q((sq + 0.12 + 0.11 / sq) * d);
}

/* The smallest p-value of the shard and where. */
static struct {
    double p;
    char what[256];
} worst = {2, ""};
static double alpha_test, z_crit;
static long tests_run;

static void note_p(double p, const combo *c, const char *what)
{
    tests_run++;
    if (p < worst.p) {
        worst.p = p;
        snprintf(worst.what, sizeof worst.what, "combination %d: %s", c->index, what);
    }
}

/* Welch z of two samples (stride N_ROWS); 0 if the means differ by at most
 * tol; +-inf if they differ with no variance at all. */
static double welch_z(const double *a, long na, const double *b, long nb, double tol,
                      double *ma, double *mb, double *se)
{
    *ma = gsl_stats_mean(a, N_ROWS, (size_t)na);
    *mb = gsl_stats_mean(b, N_ROWS, (size_t)nb);
    double va = na > 1 ? gsl_stats_variance_m(a, N_ROWS, (size_t)na, *ma) : 0;
    double vb = nb > 1 ? gsl_stats_variance_m(b, N_ROWS, (size_t)nb, *mb) : 0;
    *se = sqrt(va / na + vb / nb);
    double d = *ma - *mb;
    if (fabs(d) <= tol)
        return 0;
    return *se > 0 ? d / *se : copysign(INFINITY, d);
}

/* One-sample z of values v[k * stride] against `expect`. */
static double one_z(const double *v, size_t stride, long n, double expect, double tol,
                    double *m, double *se)
{
    *m = gsl_stats_mean(v, stride, (size_t)n);
    *se = n > 1 ? gsl_stats_sd(v, stride, (size_t)n) / sqrt((double)n) : 0;
    double d = *m - expect;
    if (fabs(d) <= tol)
        return 0;
    return *se > 0 ? d / *se : copysign(INFINITY, d);
}

/* ---------- running one combination ---------- */

static const char *const engine_names[3] = {"engine steps", "engine segments", "oracle"};

typedef struct {
    double *v[3];  /* [R][N_ROWS] per engine: steps, segments, oracle */
} samples;

static void run_engine(const combo *c, int segments, double *v)
{
    tmc_experiment x = *c->x; /* a view in another mode, never released */
    x.monte_carlo.mode = segments ? TMC_MODE_SEGMENTS : TMC_MODE_STEPS;
    tmc_engine e;
    assert_int_equal(tmc_engine_init(&e, &x, &c->cf), 0);
    assert_int_equal(e.stragglers.segments, segments);
    gsl_rng *rng[TMC_STREAM_COUNT];
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
    uint64_t seed = ENGINE_SEED + (uint64_t)c->index + (segments ? 7777 : 0);
    for (long k = 0; k < R; k++) {
        tmc_replica o;
        tmc_engine_run(&e, seed, (uint64_t)k, rng, &o);
        assert_false(o.stopped);
        engine_rows(&o, v + k * N_ROWS);
    }
    for (int s = 0; s < TMC_STREAM_COUNT; s++)
        gsl_rng_free(rng[s]);
    tmc_engine_free(&e);
}

static void run_oracle(const combo *c, double *v)
{
    double horizon = tmc_engine_horizon_s(c->x, &c->cf);
    for (long k = 0; k < R; k++) {
        oracle_result o;
        memset(&o, 0, sizeof o);
        if (oracle_run(c->x, c->cf.interval_steps, c->cf.compute_s, horizon,
                       ORACLE_SEED + (uint64_t)c->index, (uint64_t)k, &o))
            fail_msg("combination %d: oracle_run ran out of memory", c->index);
        oracle_rows(&o, v + k * N_ROWS);
    }
}

/* A failure message of the combination, collected until the end. */
typedef struct {
    char *text;
    size_t len;
    int count;
} report;

static void say(report *rep, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    rep->text = realloc(rep->text, rep->len + n + 2);
    memcpy(rep->text + rep->len, line, n + 1);
    rep->len += n;
    rep->count++;
}

/* Identities on every replica: the split adds up to the wall time
 * (uncensored), the wall time never passes the horizon. */
static void check_identities(const combo *c, int eng, const double *v, report *rep)
{
    double horizon = tmc_engine_horizon_s(c->x, &c->cf);
    int split_bad = 0, horizon_bad = 0;
    for (long k = 0; k < R; k++) {
        const double *row = v + k * N_ROWS;
        double parts = 0;
        for (int i = ROW_COMPUTE; i < N_TIME_ROWS; i++)
            parts += row[i];
        if (!row[ROW_CENSORED] && fabs(parts - row[ROW_WALL]) > 1e-9 * row[ROW_WALL] + 1e-9 &&
            !split_bad++)
            say(rep, "  %s replica %ld: the split adds to %.9g s, wall %.9g s\n",
                engine_names[eng], k, parts, row[ROW_WALL]);
        if (row[ROW_WALL] > horizon * (1 + 1e-12) && !horizon_bad++)
            say(rep, "  %s replica %ld: wall %.9g s past the horizon %.9g s (censored %g)\n",
                engine_names[eng], k, row[ROW_WALL], horizon, row[ROW_CENSORED]);
    }
    if (split_bad > 1)
        say(rep, "  %s: %d replicas whose split does not add up\n", engine_names[eng],
            split_bad);
    if (horizon_bad > 1)
        say(rep, "  %s: %d replicas past the horizon\n", engine_names[eng], horizon_bad);
}

/* An engine mode against the oracle: KS on the wall time, z on the means. */
static void compare(const combo *c, int eng, samples *s, report *rep)
{
    double t0 = c->cf.uninterrupted_s, eps = TIE_REL * t0;
    double *a = malloc(R * sizeof *a), *b = malloc(R * sizeof *b);
    for (long k = 0; k < R; k++) {
        a[k] = s->v[eng][k * N_ROWS + ROW_WALL];
        b[k] = s->v[2][k * N_ROWS + ROW_WALL];
    }
    gsl_sort(a, 1, R);
    gsl_sort(b, 1, R);
    double d = ks_tied(a, R, b, R, eps), p = ks_p(d, R, R);
    char what[160];
    snprintf(what, sizeof what, "KS wall, %s vs oracle (D = %.4f)", engine_names[eng], d);
    note_p(p, c, what);
    if (!(p > alpha_test))
        say(rep, "  KS wall %s vs oracle: D = %.4f, p = %.3g (medians %.6g vs %.6g s)\n",
            engine_names[eng], d, p, a[R / 2], b[R / 2]);
    free(a);
    free(b);
    for (int row = 0; row < N_ROWS; row++) {
        if (c->plan.censoring && row != ROW_WALL && row != ROW_CENSORED)
            continue;
        double tol = row < N_TIME_ROWS ? eps : 1e-9, ma, mb, se;
        double z = welch_z(s->v[eng] + row, R, s->v[2] + row, R, tol, &ma, &mb, &se);
        double pz = isinf(z) ? 0 : 2 * gsl_cdf_ugaussian_Q(fabs(z));
        snprintf(what, sizeof what, "mean %s, %s vs oracle (z = %.2f)", row_names[row],
                 engine_names[eng], z);
        note_p(pz, c, what);
        if (!(fabs(z) < z_crit))
            say(rep, "  mean %-10s %s %.6g vs oracle %.6g (diff %.4g, se %.3g, z = %.2f)\n",
                row_names[row], engine_names[eng], ma, mb, ma - mb, se, z);
    }
}

/* An engine's mean of `vals` (stride `stride`) against an exact value. */
static void against(const combo *c, int eng, const char *what, const double *vals,
                    size_t stride, double expect, double tol, report *rep)
{
    double m, se, z = one_z(vals, stride, R, expect, tol, &m, &se);
    double p = isinf(z) ? 0 : 2 * gsl_cdf_ugaussian_Q(fabs(z));
    char label[160];
    snprintf(label, sizeof label, "%s, %s (z = %.2f)", what, engine_names[eng], z);
    note_p(p, c, label);
    if (!(fabs(z) < z_crit))
        say(rep, "  %s: %s mean %.6g, exact %.6g (diff %.4g, se %.3g, z = %.2f)\n", what,
            engine_names[eng], m, expect, m - expect, se, z);
}

static void closed_forms(const combo *c, int eng, const double *v, report *rep)
{
    const tmc_experiment *x = c->x;
    double t0 = c->cf.uninterrupted_s, eps = TIE_REL * t0;
    if (c->check_daly)
        against(c, eng, "Daly mean wall", v + ROW_WALL, N_ROWS, c->cf.daly_wall_s, eps, rep);
    if (c->check_jitter) {
        double mu = c->cf.compute_s, emax;
        if (x->jitter.kind == TMC_JITTER_NORMAL)
            emax = mu * (1 + tmc_dist_normal_emax(x->job.cards, NULL) * x->jitter.cv *
                                 sqrt(1 - x->jitter.rho));
        else
            emax = tmc_dist_expected_max(&x->jitter, mu, x->job.cards);
        double expect = x->job.steps * (emax + x->job.exposed_comm_s + x->job.input_wait_s) +
                        (double)c->cf.segments * x->checkpoint.save_s;
        against(c, eng, "jitter-only mean wall", v + ROW_WALL, N_ROWS, expect, eps, rep);
    }
    double *y = malloc(R * sizeof *y);
    for (int proc = 0; proc < 2; proc++) {
        if (!(proc ? c->check_comp_outages : c->check_comp_failures))
            continue;
        double rate = proc ? c->cf.rate_outages : c->cf.rate_failures;
        for (long k = 0; k < R; k++) {
            const double *row = v + k * N_ROWS;
            double exposed = row[ROW_WALL] - row[ROW_DETECTION] - row[ROW_SPARE_WAIT] -
                             row[ROW_DOWNTIME];
            if (x->checkpoint.restore_immune) /* nothing strikes a restore either */
                exposed -= row[ROW_RESTORE] + row[ROW_EVICTION];
            y[k] = row[proc ? ROW_OUTAGES : ROW_FAILURES] - rate * exposed;
        }
        against(c, eng, proc ? "outages - compensator" : "failures - compensator", y, 1, 0,
                1e-9, rep);
    }
    free(y);
    if (c->check_tail && eng != 1) {
        double compute, t_end = uninterrupted_run(c, &compute), p0 = 1;
        const tmc_failures *f = &x->failures;
        if (f->enabled)
            p0 *= f->distribution == TMC_LIFETIME_TRACE
                      ? (f->trace_days[0] * TMC_DAY_S > t_end)
                      : pow(card_survival(f, t_end), (double)x->job.cards) *
                        exp(-tmc_closed_form_scoped_rate(f, x->job.cards) * t_end);
        if (x->outages.enabled)
            p0 *= x->outages.n_trace ? (x->outages.trace_days[0] * TMC_DAY_S > t_end)
                                     : exp(-c->cf.rate_outages * t_end);
        if (x->loss_spikes.enabled)
            p0 *= x->loss_spikes.n_trace
                      ? !trace_hits_compute(c, x->loss_spikes.trace_days, x->loss_spikes.n_trace)
                      : exp(-c->cf.rate_spikes * compute);
        long zero = 0;
        for (long k = 0; k < R; k++) {
            const double *row = v + k * N_ROWS;
            zero += row[ROW_FAILURES] + row[ROW_OUTAGES] + row[ROW_SPIKES] == 0;
        }
        double p;
        if (p0 <= 0 || p0 >= 1)
            p = zero == (p0 >= 1 ? R : 0) ? 1 : 0;
        else
            p = fmin(1, 2 * fmin(gsl_cdf_binomial_P((unsigned)zero, p0, R),
                                 zero ? gsl_cdf_binomial_Q((unsigned)zero - 1, p0, R) : 1));
        char label[160];
        snprintf(label, sizeof label, "P(no arrival), %s (%ld of %d, expected %.4f)",
                 engine_names[eng], zero, R, p0);
        note_p(p, c, label);
        if (!(p > alpha_test))
            say(rep, "  P(no arrival strikes): %s %ld of %d replicas, exact %.5f x %d = %.2f "
                     "(p = %.3g; T0 = %.6g s)\n",
                engine_names[eng], zero, R, p0, R, p0 * R, p, t_end);
    }
}

/* CPU time of the process, s (the machine may be shared: wall time lies). */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static combo *all_combos;
static int shard = 0, n_shards = 1;

static void test_combination(void **state)
{
    combo *c = *state;
    load_combo(c);
    samples s;
    memset(&s, 0, sizeof s);
    for (int e = 0; e < 3; e++)
        s.v[e] = malloc((size_t)R * N_ROWS * sizeof(double));
    double t_start = cpu_s();
    run_engine(c, 0, s.v[0]);
    if (c->run_segments)
        run_engine(c, 1, s.v[1]);
    double t_engine = cpu_s();
    run_oracle(c, s.v[2]);
    double t_oracle = cpu_s();
    report rep = {NULL, 0, 0};
    long before = tests_run;
    for (int e = 0; e < 3; e++) {
        if (e == 1 && !c->run_segments)
            continue;
        check_identities(c, e, s.v[e], &rep);
        if (e < 2)
            compare(c, e, &s, &rep);
        closed_forms(c, e, s.v[e], &rep);
    }
    print_message("combination %d (%.2f s CPU: engine %.2f, oracle %.2f; %ld tests%s%s%s%s%s%s)"
                  ": %s\n", c->index, cpu_s() - t_start, t_engine - t_start,
                  t_oracle - t_engine, tests_run - before,
                  c->run_segments ? ", segments" : "", c->check_daly ? ", Daly" : "",
                  c->check_jitter ? ", jitter-only" : "", c->check_tail ? ", P(N=0)" : "",
                  c->check_comp_failures ? ", failure compensator" : "",
                  c->check_comp_outages ? ", outage compensator" : "", c->summary);
    if (getenv("COMBO_VERBOSE")) { /* the means of every row, engine by engine */
        print_message("%s\n%s", c->json, c->traces ? c->traces : "");
        for (int row = 0; row < N_ROWS; row++) {
            print_message("  %-10s", row_names[row]);
            for (int e = 0; e < 3; e++)
                if (e != 1 || c->run_segments)
                    print_message("  %s %12.6g +- %-9.3g", e == 2 ? "oracle" : e ? "agg" : "exact",
                                  gsl_stats_mean(s.v[e] + row, N_ROWS, R),
                                  gsl_stats_sd(s.v[e] + row, N_ROWS, R) / sqrt(R));
            print_message("\n");
        }
    }
    if (tests_run - before != c->n_tests)
        fail_msg("combination %d ran %ld tests, counted %d", c->index, tests_run - before,
                 c->n_tests);
    for (int e = 0; e < 3; e++)
        free(s.v[e]);
    drop_experiment(c);
    if (rep.count) {
        print_error("combination %d disagrees (%s):\n%s%s\n%s", c->index, c->summary,
                    rep.text, c->json, c->traces ? c->traces : "");
        free(rep.text);
        fail_msg("combination %d: %d disagreements", c->index, rep.count);
    }
}

/* Whether the loader accepts a document (the probe of a new key). */
static int accepts(const char *extra_section)
{
    char doc[1024];
    snprintf(doc, sizeof doc,
             "{\"name\": \"probe\", \"job\": {\"steps\": 10, \"cards\": 2, \"flop_per_step\": 1,"
             " \"peak_flops\": 1, \"efficiency\": 1}, \"checkpoint\": {\"interval_steps\": 1,"
             " \"save_s\": 0, \"restore_s\": 0}, \"deadline\": {\"days\": 1}, %s}",
             extra_section);
    tmc_experiment x;
    char msg[1024], label[300];
    snprintf(label, sizeof label, "%s/probe.json", tmp_dir);
    int ok = parse(doc, label, &x, msg, sizeof msg) == 0;
    tmc_experiment_release(&x); /* after a failure it owns nothing */
    return ok;
}

static void probe_loader(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/probe.csv", tmp_dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("time_days\n0.5\n", f);
        fclose(f);
    }
    use_repair_distribution = COMBO_REPAIR_DISTRIBUTION >= 0
        ? COMBO_REPAIR_DISTRIBUTION
        : accepts("\"failures\": {\"per_card_mtbf_days\": 1, \"spares\": 1,"
                  " \"repair_distribution\": \"fixed\"}");
    use_process_traces = COMBO_PROCESS_TRACES >= 0
        ? COMBO_PROCESS_TRACES
        : accepts("\"outages\": {\"trace\": \"probe.csv\"},"
                  " \"loss_spikes\": {\"trace\": \"probe.csv\"}");
    remove(path);
    printf("loader: repair_distribution %s, outage/spike traces %s\n",
           use_repair_distribution ? "used" : "NOT accepted, left out",
           use_process_traces ? "used" : "NOT accepted, left out");
}

static void remove_tmp_dir(void)
{
    char path[600];
    for (int i = 0; i < N_COMBOS; i++) {
        static const char *const kinds[3] = {"failures", "outages", "spikes"};
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "%s/combination-%d-%s.csv", tmp_dir, i, kinds[k]);
            remove(path);
        }
    }
    rmdir(tmp_dir);
}

int main(int argc, char **argv)
{
    if (argc == 3) {
        shard = atoi(argv[1]);
        n_shards = atoi(argv[2]);
    }
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "usage: %s [SHARD NSHARDS]\n", argv[0]);
        return 2;
    }
    if (n_shards < 1 || shard < 0 || shard >= n_shards) {
        fprintf(stderr, "%s: shard %d of %d: expected 0 <= SHARD < NSHARDS\n", argv[0],
                shard, n_shards);
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tmc-combinations-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        fprintf(stderr, "%s: cannot create a temporary folder: %s\n", argv[0], strerror(errno));
        return 1;
    }
    probe_loader();
    gsl_set_error_handler_off();

    /* every combination, to count the tests of the whole suite (Bonferroni) */
    all_combos = calloc(N_COMBOS, sizeof *all_combos);
    const char *only = getenv("COMBO_ONLY"); /* run this combination only */
    long n_tests = 0;
    int mine = 0;
    for (int i = 0; i < N_COMBOS; i++) {
        generate(i, &all_combos[i]);
        n_tests += all_combos[i].n_tests;
        mine += i % n_shards == shard && (!only || atoi(only) == i);
    }
    alpha_test = FAMILY_ALPHA / (double)n_tests;
    z_crit = fmax(Z_FLOOR, gsl_cdf_ugaussian_Qinv(alpha_test / 2));
    printf("%d combinations, %ld statistical tests in all: each passes at p > %.3g "
           "(|z| < %.2f); shard %d of %d runs %d combinations, %d replicas per engine\n",
           N_COMBOS, n_tests, alpha_test, z_crit, shard, n_shards, mine, R);

    struct CMUnitTest *tests = calloc((size_t)mine, sizeof *tests);
    char (*names)[48] = calloc((size_t)mine, sizeof *names);
    int t = 0;
    for (int i = 0; i < N_COMBOS; i++) {
        if (i % n_shards != shard || (only && atoi(only) != i))
            continue;
        snprintf(names[t], sizeof names[t], "combination-%d", i);
        tests[t].name = names[t];
        tests[t].test_func = test_combination;
        tests[t].initial_state = &all_combos[i];
        t++;
    }
    char group[64];
    snprintf(group, sizeof group, "combinations-1 (shard %d of %d)", shard, n_shards);
    int failed = _cmocka_run_group_tests(group, tests, (size_t)mine, NULL, NULL);
    printf("shard %d of %d: %ld tests run; smallest p-value %.3g at %s (threshold %.3g)\n",
           shard, n_shards, tests_run, worst.p, worst.what, alpha_test);
    for (int i = 0; i < N_COMBOS; i++)
        free_combo(&all_combos[i]);
    free(all_combos);
    free(tests);
    free(names);
    remove_tmp_dir();
    return failed;
}
