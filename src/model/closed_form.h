/* closed_form.h - every closed-form prediction trainmc sets beside a
 * simulation. Each function cites its source; units are seconds unless the
 * name says otherwise. All functions are pure. */
#ifndef TMC_CLOSED_FORM_H
#define TMC_CLOSED_FORM_H

#include "experiment.h"
#include "slowdown.h"
#include "units.h"

/* Steps needed to see `tokens` effective tokens at `batch_sequences`
 * sequences of `sequence_tokens` tokens per step: ceil(tokens / (batch x
 * sequence)) (docs/model.md 1: 1e11 / (384 x 8,192) -> 31,790). Returns -1 if an
 * argument is not positive or the count exceeds LONG_MAX. */
long tmc_closed_form_steps(double tokens, double batch_sequences, double sequence_tokens);

/* Per-card compute time per step mu = flop_per_step / (cards x peak x eff),
 * seconds (docs/model.md 1: 78.3 s at 32 cards, 52.2 s at 48). */
double tmc_closed_form_compute_s(const tmc_job *job);

/* Expected step time E[max_i X_i] + exposed_comm + input_wait, seconds, with
 * E[max] = mu + c_N sigma (docs/model.md 1 and 2: 52.8 s at 48 cards, no jitter). */
double tmc_closed_form_step_s(const tmc_job *job, const tmc_jitter *jitter);

/* Steps per checkpoint segment K: interval_steps if given, else
 * max(1, round(interval_s / step_s)) (issue 2 semantics); never more than
 * the run's `steps` (a longer interval means one save, at the end). */
long tmc_closed_form_interval_steps(const tmc_checkpoint *cp, double step_s, long steps);

/* Young's first-order overhead (docs/model.md 3.4; J. W. Young, CACM 17(9), 1974):
 * L = c / tau + (tau / 2 + r) / M for interval tau, save c, restore r and
 * mean time between interruptions M (all seconds). M = INFINITY gives c/tau. */
double tmc_closed_form_young_overhead(double tau_s, double save_s, double restore_s,
                                      double mtbf_s);

/* Young's optimum interval tau* = sqrt(2 c M), seconds (docs/model.md 3.4). */
double tmc_closed_form_young_interval(double save_s, double mtbf_s);

/* Daly's expected wall time (docs/model.md 3.5; J. T. Daly, FGCS 22(3), 2006) of
 * `steps` steps of step_s seconds cut into segments of k steps, each followed
 * by a save of save_s, with exponential interruptions of mean mtbf_s that may
 * also strike saves and restores (an interrupted restore restarts):
 * sum over segments of M e^(r/M) (e^(w/M) - 1), w = segment work + save.
 * For steps a multiple of k this is M e^(r/M) (e^((tau+c)/M) - 1) T_s / tau.
 * M = INFINITY gives steps x step_s + segments x save_s. Seconds. */
double tmc_closed_form_daly_wall_s(long steps, double step_s, long k, double save_s,
                                   double restore_s, double mtbf_s);

/* The same where every interruption is followed by a delay of delay_s on
 * average during which nothing strikes (outage downtime, failure detection,
 * a repair) before its restore: per segment (M + D) e^(r/M) (e^(w/M) - 1),
 * exact under Daly's assumptions since the e^(w/M) - 1 interruptions of the
 * work and e^(r/M) - 1 more per restore each cost D. Seconds. */
double tmc_closed_form_daly_wall_delayed_s(long steps, double step_s, long k,
                                           double save_s, double restore_s,
                                           double mtbf_s, double delay_s);

/* Daly's optimum interval (docs/model.md 3.5): sqrt(2cM)[1 + sqrt(c/2M)/3 +
 * (c/2M)/9] - c for c < 2M, else M. Seconds. */
double tmc_closed_form_daly_interval(double save_s, double mtbf_s);

/* With job renewal (failures.renewal "job", docs/model.md 3.10) the mean
 * time between the job's failures is the mean of the minimum of N fresh
 * lifetimes, integral of S(t)^N: mean x N^(-1/k) for Weibull, by GSL
 * quadrature for lognormal, mean / N for exponential. Per-node and per-job
 * rates (docs/model.md 3.13) add to its rate: 1 / (1 / that + the scoped
 * rate); without a per-card part, 1 / the scoped rate. Seconds; NaN if the
 * quadrature fails. */
double tmc_closed_form_job_mtbf_s(const tmc_failures *f, long cards);

/* The per-node and per-job failure rates of N cards (docs/model.md 3.13):
 * ceil(N / g) / MTBF_node + 1 / MTBF_job, plus bad nodes' mean extra rate
 * at the start ceil(N / g) b / MTBF_bad (docs/model.md 3.19; with
 * retirement the rate falls below it) and bursts' ceil(N / g) /
 * MTBF_burst (3.24), per second (0 when none is given). */
double tmc_closed_form_scoped_rate(const tmc_failures *f, long cards);

/* The bad nodes a job of `cards` cards holds at its start, on average
 * (docs/model.md 3.19): ceil(N / g) b, or in a fleet whose bad nodes are
 * known (failures.bad_node_known), where the job takes good nodes first,
 * E[max(0, B - P)] with B ~ Binomial(ceil(N / g) + P, b) the fleet's and P
 * the pool's whole nodes (spares / g). 0 without bad nodes. */
double tmc_closed_form_bad_nodes_held(const tmc_failures *f, long cards);

/* Bursts (docs/model.md 3.24; closed_form_bursts.c). The size law of a
 * burst's nodes in a job of `cards` cards, capped at its nodes (a
 * geometric's tail past them, or past 1e-12, lumped at the cap): with q
 * NULL returns the largest size only; else fills q[0..n] (q[k]: P(K = k);
 * n at least that size) and returns it. */
long tmc_closed_form_burst_size_law(const tmc_failures *f, long cards, double *q, long n);

/* E[K], the nodes a burst takes on average (capped at the job's). NaN if
 * memory runs out. */
double tmc_closed_form_burst_mean_nodes(const tmc_failures *f, long cards);

/* The share of the failures that take hardware that wait for a spare, a
 * pool of `units` nodes, single failures at `single` and bursts at
 * `burst` per second up, repairs of mean repair_s: the batch chain's
 * P(wait), exact for exponential repairs (closed_form_bursts.c); Erlang's
 * B(units, single repair_s) without bursts. 0 for units < 0 (unlimited);
 * NaN if memory runs out. */
double tmc_closed_form_burst_blocking(const tmc_failures *f, long cards, long units,
                                      double single, double burst, double repair_s);

/* The smallest pool, in nodes, whose P(wait) above is below p (at most 1e7). */
long tmc_closed_form_burst_pool_for(const tmc_failures *f, long cards, double single,
                                    double burst, double repair_s, double p);

/* The closed-form picture of one experiment. */
typedef struct {
    double compute_s;         /* mu, per-card compute per step, s */
    double emax_coeff;        /* (E[max_i X_i] - mu) / sigma: c_N for independent
                                 normal jitter (0 without jitter) */
    double step_s;            /* expected step time t_s, s, pauses included; a
                                 forecast at the observed pace: progress.step_s */
    double plan_step_s;       /* t_s at job.efficiency (the plan's pace), s */
    double observed_plan_step_s; /* the same on the cards progress.step_s was seen
                                 on (progress.cards; 0: job.cards): what it is
                                 compared with, s */
    double pace_efficiency;   /* the efficiency t_s is at: job.efficiency, or the
                                 one that gives progress.step_s (job.pace) */
    double pause_per_step_s;  /* what periodic pauses add to t_s, s */
    long interval_steps;      /* K */
    double interval_s;        /* tau = K t_s, s */
    long segments;            /* ceil(S / K): saves per run without interruptions */
    double failure_free_s;    /* S t_s, s */
    double before_s;          /* a forecast's elapsed time (progress), s; 0 without */
    double remaining_free_s;  /* (S - steps done) t_s: the work the overheads are
                                 over, s; S t_s without a forecast */
    double left_mtbf_s;       /* a forecast: M at the posterior mean rates, s (0 without) */
    double left_young_interval_s, left_daly_interval_s; /* a forecast: the optima at
                                 them, s (0 without) */
    double uninterrupted_s;   /* S t_s + segments x save: the wall time if nothing strikes */
    double mtbf_s;            /* M: mean time between interruptions of any kind, s */
    double rework_mtbf_s;     /* the same over those that lose work (all but outages
                                 with notice of at least a save, docs/model.md
                                 3.8): the M of Young's and Daly's optimum, s */
    double restore_mean_s;    /* restore time averaged over interruptions, s */
    double delay_mean_s;      /* wait before a restore (downtime, detection, repair)
                                 averaged over interruptions, s */
    double rate_failures;     /* failures per second: N / MTBF_card, plus per-node and
                                 per-job rates (docs/model.md 3.13) */
    double rate_outages;      /* common outages per second */
    double rate_spikes;       /* loss spikes per second */
    double rate_limits;       /* time limits per second of allocation: 1 / limit
                                 (docs/model.md 3.9) */
    double overhead_young;    /* L = c / tau + (tau/2 + r + D) / M (mean r and D) */
    double overhead_daly;     /* Daly wall / failure-free - 1 */
    double young_interval_s;  /* tau* = sqrt(2 c M) */
    double daly_interval_s;   /* Daly's tau_opt */
    double daly_wall_s;       /* Daly expected wall time, s */
    double completion_days;   /* reserve + S t_s (1 + L) / 86400 (docs/model.md 1) */
    double completion_days_daly; /* reserve + Daly wall / 86400 */
    double budget_step_s;     /* (deadline - reserve) x 86400 / S (docs/model.md 1: 67.9 s) */
    int write_backlog;        /* async saves: 1 if a write takes longer than
                                 write_period_s, so the write queue grows
                                 without bound (docs/model.md 3.3) */
    double write_period_s;    /* between two snapshots written: the interval + copy;
                                 with two levels m intervals, m - 1 local copies
                                 and a persistent one, s */
    double save_timeout_p;    /* q = P(a save runs past checkpoint.save_timeout_s) */
    double save_timeouts_mean; /* segments x q / (1 - q): save timeouts per run
                                  without other interruptions (docs/model.md 3.12) */
    double save_cost_s;       /* what a segment's save costs without other
                                 interruptions: c, or with random saves and a
                                 timeout (tau + E[min(C, T)] + q r) / (1 - q) - tau, s */
    double spare_wait_p;      /* a finite pool: the chance that a failure taking
                                 hardware finds it empty, Erlang's B(U, a)
                                 (docs/model.md 3.21); 1 with P = 0 (or
                                 fewer cards than a failure takes: U = 0);
                                 0 with unlimited spares */
    double spare_wait_per_failure_s; /* what the pool's waits add to the delay D of
                                 a failure, averaged over all failures, s (in
                                 delay_mean_s already; with P = 0 the rest of
                                 the own repair; 0 with unlimited spares) */
    double spare_wait_s;      /* the expected total spare wait per run: failures per
                                 run (Daly's count) x the wait per failure, s (in
                                 Young's and Daly's T already) */
    int spare_finite;         /* 1 with failures and finite spares (failures.spares
                                 >= 0, 0 included: every failure that takes
                                 hardware waits for a repair, P(wait) 1): the
                                 three spare_wait_ fields are reported */
    tmc_slowdown_costs slowdown; /* a run that slows down (slowdown.h): its mean
                                 extra a step is in Daly's step time, its refresh
                                 restarts added to Young's and Daly's T */
    int daly_exact;           /* 1 when the engine's semantics are Daly's exactly:
                                 no jitter, spikes or pauses; exponential
                                 lifetimes, one restore time, no spare pool */
} tmc_closed_form;

/* 1 when x is a forecast whose steps run at the observed pace: a progress
 * section with step_s > 0 and job.pace "observed" (issue 32 item 4). */
int tmc_closed_form_paced(const tmc_experiment *x);

/* The lowest mean step time any efficiency gives: exposed_comm_s +
 * input_wait_s + a pause's share (duration_s / every_steps), the limit of
 * t_s as the compute time mu goes to 0, s. An observed step at or below it
 * is refused (config_progress.c). */
double tmc_closed_form_step_floor_s(const tmc_experiment *x);

/* The efficiency e' at which the plan's step law, on the cards the step
 * was observed on (progress.cards; 0: job.cards), has mean step_s s: the
 * compute part (mu, its jitter's maximum, a one-card pause's overlap)
 * scales with 1 / e', the exposed communication, the input wait and the
 * pauses do not. Without one-card pauses t_s - F is proportional to 1 / e
 * (F = exposed_comm_s + input_wait_s + duration_s / every_steps), so
 * e' = e (t_plan - F) / (step_s - F) exactly (docs/model.md 3.15); with
 * them, by bisection to 1e-13 of e'. NAN when step_s does not exceed
 * tmc_closed_form_step_floor_s (no efficiency gives it). e' may lie
 * outside job.efficiency's range (above 1 for a step faster than the
 * plan's at efficiency 1): the loader refuses such a step at the observed
 * pace (tmc_config_pace_step_range) and the plan-pace report does not name
 * it. A what-if on job.cards then runs the steps
 * left at e' on the new cards; e' does not depend on job.efficiency, so a
 * what-if on the efficiency does not act at the observed pace. */
double tmc_closed_form_efficiency_for_step(const tmc_experiment *x, double step_s);

/* 1 when key ("job.efficiency") does not act at the observed pace: the
 * forecast runs at e' (tmc_closed_form_efficiency_for_step), and since e'
 * is proportional to job.efficiency x the compute time t_c =
 * flop_per_step / (cards x peak_flops x efficiency), the compute time at
 * e' is the one that gives progress.step_s whatever job.efficiency,
 * job.peak_flops and job.flop_per_step are. A what-if on one of them
 * (sweep --vary, sensitivity's inputs) is refused there
 * (tmc_sweep_check_pace_key); at job.pace "plan" they act. */
int tmc_closed_form_pace_fixes_key(const char *key);

/* The mean step time, s, of x's step law at efficiency e on the cards the
 * step was observed on (progress.cards; 0: job.cards), pauses included:
 * the inverse of tmc_closed_form_efficiency_for_step, falling as e grows;
 * +INFINITY for e <= 0. */
double tmc_closed_form_step_at_efficiency(const tmc_experiment *x, double e);

/* Fill *cf from a validated experiment. With a progress section (a
 * forecast, docs/model.md 3.15) K, M and the rates are the whole run's,
 * and Young's and Daly's T, the overheads and Daly's wall time are the
 * elapsed time plus theirs for the steps not yet done, at the posterior
 * mean failure rate (forecast.h). At the observed pace
 * (tmc_closed_form_paced) every figure is the one at the efficiency that
 * gives progress.step_s, so the engine, which reads compute_s and K from
 * here, runs the steps left at that pace. */
void tmc_closed_form_compute(const tmc_experiment *x, tmc_closed_form *cf);

/* The time an interruption keeps the job where nothing strikes it, s: the
 * mean delay D, and with checkpoint.restore_immune the mean restore r too
 * (the restart count, the spare waits and the dropped arrivals use it). */
double tmc_closed_form_down_s(const tmc_experiment *x, const tmc_closed_form *cf);

/* The simulated overhead of a run that took wall_s in all (s): the wall
 * time after a forecast's start over the work left, minus 1 (without a
 * forecast, wall / (S t_s) - 1); NaN when no step is left. */
double tmc_closed_form_overhead(const tmc_closed_form *cf, double wall_s);

/* Elastic replica groups (docs/model.md 3.14, closed_form_elastic.c). Each
 * group alternates up (exponential, mean MTBF_card G / N) and down (its
 * spare wait, heal_s and the rest of a step); by renewal-reward its
 * availability is A = up / (up + down), the groups are independent while
 * global restarts are rare, and the run progresses g / G of a step per
 * step completed on g groups, a failure cutting the step under way. */
typedef struct {
    int enabled;
    double up_s;            /* mean time a group is up, MTBF_card G / N, s */
    double down_s;          /* mean time a group is out: spare wait (0 with unlimited
                               spares, the repair mean R without, R P(Poisson(rate R) >
                               spares) with a pool) + heal_s + t_s / 2, s */
    double availability;    /* A = up / (up + down): the mean fraction of groups up */
    double p_global;        /* P(fewer than min_groups of G up), Binomial(G, A): the
                               closed form holds while this is small (<= 0.01) */
    double global_rate;     /* global restarts per second: the up groups fall from
                               m = min_groups to m - 1 at P(m up) m / up_s (Binomial
                               (G, A)); a checkpoint segment of w seconds then needs
                               e^(w x this) attempts (docs/model.md 3.14) */
    double wall_s;          /* S / E[rate(g)] + segments x save, g ~ Binomial(G, A),
                               rate(g) = (g / G) lambda_g / (e^(lambda_g t_s) - 1),
                               lambda_g = g (N / G) / MTBF_card (a failure cuts the
                               step under way); times 1 + (tau / (2A) + r + D) / M_o
                               for outages and spikes (M_o), s */
    double completion_days; /* reserve + wall_s / 86400 */
    double overhead;        /* wall_s / (S t_s) - 1 */
} tmc_elastic_form;

/* Fill *out from a validated experiment and its closed form (enabled = 0
 * without an elastic section). */
void tmc_closed_form_elastic(const tmc_experiment *x, const tmc_closed_form *cf,
                             tmc_elastic_form *out);

/* Two levels of snapshots (checkpoint.persistent_every m > 1; docs/model.md
 * 3.23): the first-order waste of Di, Robert, Vivien and Cappello ("Optimization
 * of multi-level checkpoint model for large scale HPC applications", IPDPS
 * 2014) and of Benoit, Cavelan, Robert and Sun (two-level checkpointing),
 * a period of m segments of tau seconds with m - 1 local saves c1 and one
 * persistent save c2:
 *   W(tau, m) = ((m - 1) c1 + c2) / (m tau) + l1 (tau / 2 + r1)
 *             + l2 (m tau / 2 + r2) + D / M,
 * l1 the rate of interruptions a local snapshot restores (failures of level
 * local), l2 of those that need a persistent one (outages, loss spikes and
 * failures of level persistent; an outage with notice loses no work, only
 * r2), D / M the delays before restores. Left out: a failure whose partner
 * node failed since the newest snapshot (second order: the simulation has
 * it), and what strikes saves and restores. For a given m the best tau is
 * sqrt(2 ((m - 1) c1 + c2) / (m (l1 + m l2))); m by enumeration, up to the
 * snapshots the run holds (a larger m is the same: only the last snapshot
 * persistent). With m = 1 every restore takes r2 (one level, as the engine
 * reads it); a job of one node has no partner, so its failures that take
 * hardware count in l2. Time limits and a slowdown's refresh restarts are
 * added as to Young's T (docs/model.md 3.9, 3.22). */
typedef struct {
    int enabled;            /* 1: persistent_every > 1 */
    long m;                 /* the experiment's persistent_every */
    double c1, c2, r1, r2;  /* local and persistent save and restore, s */
    double lambda1, lambda2; /* interruptions restored from each level, per s */
    double overhead;        /* W at the experiment's tau and m */
    double completion_days; /* reserve + (before + (S - done) t_s (1 + W) + refreshes
                               + limits) / 86400 */
    double best_interval_s; /* tau* at best_m, s */
    long best_m;            /* the m of least W (1 to TMC_LEVELS_M_MAX, and no more than
                               the run's snapshots at that tau) */
    double best_overhead;   /* W there */
    double one_level_overhead; /* W with m = 1 at its own best tau (every snapshot
                               persistent): what the second level saves */
} tmc_levels_form;

#define TMC_LEVELS_M_MAX 1000

/* What time limits add to a run of wall time w, s (docs/model.md 3.9): the
 * requeue waits, restores and work lost at each limit, a limit without a
 * save losing the work since the last snapshot it can restore, seg s apart
 * (tau + c; with two levels the persistent period). 0 without a limit;
 * INFINITY if an allocation cannot hold any work. */
double tmc_closed_form_limits_added_s(const tmc_experiment *x, const tmc_closed_form *cf,
                                      double w, double seg);

/* The first-order waste W(tau, m), tau in s (INFINITY when tau <= 0). */
/* The first-order failure rate of each part (card, node with bad nodes'
 * faults, job; experiment.h's TMC_PART_*) into r, 1/s; returns their sum,
 * cf->rate_failures. */
double tmc_closed_form_part_rates(const tmc_experiment *x, const tmc_closed_form *cf,
                                  double r[TMC_FAILURE_PARTS]);

/* Cause i's share of all failures: its share of each part weighted by the
 * parts' rates (its card share when none has a rate). */
double tmc_closed_form_cause_share(const tmc_experiment *x, const tmc_closed_form *cf, int i);

double tmc_closed_form_levels_waste(const tmc_levels_form *f, double tau_s, long m);

/* The best tau for a given m, s: where W's derivative in tau is 0
 * (INFINITY when nothing loses work). */
double tmc_closed_form_levels_interval(const tmc_levels_form *f, long m);

/* Fill *out from a validated experiment and its closed form (enabled = 0
 * with one level). */
void tmc_closed_form_levels(const tmc_experiment *x, const tmc_closed_form *cf,
                            tmc_levels_form *out);

/* The higher-order T a plot or a table sets beside a run, days: Daly's,
 * or with two levels of snapshots the two-level form's; *name "Daly" or
 * "two-level". */
double tmc_closed_form_beside_days(const tmc_experiment *x, const tmc_closed_form *cf,
                                   const char **name);

/* Erlang's loss formula B(w, a): the share of Poisson arrivals, a per
 * mean service time, that find all w servers busy; B(0, a) = 1. By the
 * recursion B(j) = a B(j - 1) / (j + a B(j - 1)); it holds for any service
 * law of that mean (Kleinrock, Queueing Systems vol. 1, 1975, 3.6 and the
 * M/G/m/m system). Returns NaN for w < 0 or a < 0. */
double tmc_closed_form_erlang_b(long w, double a);

/* A failure that finds all U units of the pool in repair waits, after a
 * detection delay d (s), until the first of the U + 1 repairs in progress
 * (its own included) ends: E[(min(R_own, R_e1, ..., R_eU) - d)+], the R_e
 * the repairs' equilibrium residuals (survival S_e(x) = E[(R - x)+] /
 * E[R]), i.e. the integral from d of S(x) S_e(x)^U dx = E[R] S_e(d)^(U + 1)
 * / (U + 1) for any repair law (docs/model.md 3.21): R / (U + 1) e^(-(U +
 * 1) d / R) exponential, R / (U + 1) ((1 - d / R)+)^(U + 1) fixed; with
 * silent failures (share f) divided by 1 - f, first order. Seconds. */
double tmc_closed_form_blocked_wait_s(const tmc_failures *f, long units, double d);

/* A finite spare pool's closed form (docs/model.md 3.21): the units (cards,
 * or a node's g) in repair while the job runs are an Erlang loss system
 * (Engset's finite-source model with the job's units constant while it
 * runs: Poisson arrivals at the rate of the failures that take hardware,
 * per second of the job up; a failure that finds all U units out waits for
 * the first to come back and the count stays U). Exact for exponential
 * repairs and no detection delay; first order otherwise. */
typedef struct {
    int enabled;            /* failures that take hardware exist (the pool may be
                               unlimited: the sizes below still hold) */
    double unit_cards;      /* cards a failure takes: 1, a node's g, or their rate-
                               weighted mean when both occur */
    long units;             /* U = floor(pool cards / unit_cards); -1 unlimited */
    double rate;            /* failures that go to the pool, per second up */
    double repair_s;        /* the mean time a unit is out: (A + (1 - a) M) / (1 - f), s */
    double in_repair_mean;  /* a = rate x repair_s: units in repair on average with
                               unlimited spares (M/G/infinity, Poisson(a)) */
    double wait_p_steady;   /* B(U, a): in the long run; 0 unlimited */
    double wait_p;          /* the same averaged over the run's failures, the pool
                               full at the start (exact for exponential repairs);
                               tends to B(U, a) for a run long against R */
    double wait_blocked_s;  /* a failure that finds the pool empty waits this on
                               average (no detection delay), s */
    double burst_share;     /* bursts: their share of `rate` (0: none; docs/model.md 3.24) */
    double burst_nodes;     /* bursts: the nodes one takes on average */
    long units_1pct;        /* the smallest U with B(U, a) < 0.01 */
    long units_10pct;       /* ... < 0.10 */
} tmc_spare_pool_form;

/* Fill *out from a validated experiment and its closed form (its rates). */
void tmc_closed_form_spare_pool(const tmc_experiment *x, const tmc_closed_form *cf,
                                tmc_spare_pool_form *out);

/* The mean time until a failure's replacement card is ready, s, for a
 * failure that takes hardware: the standby's swap for the share that finds
 * one, a cold card's provisioning for the rest (docs/model.md 3.20); 0
 * without standbys or provisioning. Needs cf's failure rate and
 * failure-free time. */
double tmc_closed_form_ready_s(const tmc_experiment *x, const tmc_closed_form *cf);

#endif
