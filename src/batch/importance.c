/* importance.c - cross-entropy tilt and the weighted miss estimate. */
#include "importance.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"
#include "weights.h"
#include "number.h"

#define RHO 0.1
#define MAX_LEVELS 30

static const double untilted[TMC_TILTS] = {1, 1, 1, 1, 1};

/* 1 when the experiment draws what slot k tilts: arrivals of the process,
 * repair times (a spare pool or none), lognormal outage downtimes. */
static int drawn(const tmc_process_model *p, int k)
{
    int outages = p->rate[TMC_TILT_OUTAGES] > 0 || p->trace[TMC_TILT_OUTAGES].n > 0;
    int failures = p->rate[TMC_TILT_FAILURES] > 0 || p->trace[TMC_TILT_FAILURES].n > 0;
    switch (k) {
    case TMC_TILT_REPAIRS:
        return failures && p->failures.spares >= 0;
    case TMC_TILT_DOWNTIMES:
        return outages && p->downtime_s > 0 && p->downtime_sigma > 0;
    default:
        return p->rate[k] > 0 || p->trace[k].n > 0;
    }
}

int tmc_importance_check_tilt(const tmc_engine *e, const double theta[TMC_TILTS],
                              tmc_error *err)
{
    static const char *const what[TMC_TILTS] = {
        "failures (only exponential lifetimes, a Poisson process, can be)",
        "outages (a replayed trace cannot be)", "loss spikes (a replayed trace cannot be)",
        "repair times (only exponential ones can be)", "outage downtimes"};
    if (e->groups) /* tmc_engine_tilt refuses them: no likelihood ratio for the thinning */
        return tmc_error_set(err, "--importance: elastic replica groups (elastic.groups) "
                                  "are not modelled with importance sampling; run without "
                                  "--importance");
    const tmc_process_model *p = &e->processes; /* `run` refuses these first (result.c) */
    if (p->failures.mtbf_events > 0 || p->outage_events > 0 || p->failures.repair_events > 0)
        return tmc_error_set(err, "--importance: this experiment draws a rate or a mean per "
                                  "replica (failures.mtbf_events, outages.mtbf_events or "
                                  "failures.repair_events); importance sampling tilts known "
                                  "ones: run without --importance");
    if (p->failures.bad_share > 0) /* a rate that changes */
        return tmc_error_set(err, "--importance: bad nodes (failures.bad_node_share) draw "
                                  "the job's failure rate per replica and change it as they "
                                  "retire; importance sampling tilts a known, fixed rate: run "
                                  "without --importance");
    if (p->failures.bad_fleet) /* aging or retirement alone: `run` names the key (result.c) */
        return tmc_error_set(err, "--importance: a fleet whose nodes age or retire "
                                  "(failures.node_aging_days, retire_after_failures) changes "
                                  "the job's failure rate or its nodes as it runs; importance "
                                  "sampling tilts a known, fixed rate: run without --importance");
    for (int k = 0; k < TMC_TILTS; k++)
        if (theta[k] != 1 && !tmc_weights_tiltable(&e->processes, k))
            return tmc_error_set(err, "--importance: this experiment's %s cannot be tilted; "
                                      "give 1 for it", what[k]);
    static const char *const none[TMC_TILTS] = {
        "no failures", "no outages", "no loss spikes",
        "no repairs to wait for (failures.spares -1: unlimited)",
        "no outage downtimes drawn (only lognormal ones, outages.downtime_cv > 0, are)"};
    for (int k = 0; k < TMC_TILTS; k++)
        if (theta[k] != 1 && !drawn(p, k)) /* a tilt that would change nothing */
            return tmc_error_set(err, "--importance: this experiment has %s: give 1 for "
                                      "slot %d of the tilt (F,O,S,R,D)", none[k], k + 1);
    return 0;
}

/* One pilot level: replicas run at theta; the level gamma is their (1 - rho)
 * quantile, capped at the deadline; then the same replicas again with that
 * elite level give the cross-entropy sums. *final is 1 at the deadline. */
static int pilot_level(tmc_engine *e, const double theta[TMC_TILTS], long n, long first,
                       uint64_t seed, int threads, double *wall, tmc_replica *sums,
                       int *final, tmc_error *err)
{
    if (tmc_importance_check_tilt(e, theta, err) || tmc_engine_tilt(e, theta, INFINITY))
        return -1;
    int rc = tmc_runner_run_from(e, first, n, seed, threads, NULL, NULL, wall, sums, err);
    if (rc) /* TMC_RUNNER_STOPPED stays what it is: the command exits 130 */
        return rc;
    gsl_sort(wall, 1, (size_t)n);
    double gamma = gsl_stats_quantile_from_sorted_data(wall, 1, (size_t)n, 1 - RHO);
    *final = gamma >= e->deadline_wall_s;
    if (*final)
        gamma = e->deadline_wall_s;
    tmc_engine_tilt(e, theta, gamma);
    return tmc_runner_run_from(e, first, n, seed, threads, NULL, NULL, wall, sums, err);
}

/* The cross-entropy step: each parameter to its weighted maximum-likelihood
 * value over the elite (importance.h). */
static void update_tilt(const tmc_engine *e, const tmc_replica *s, double theta[TMC_TILTS])
{
    const tmc_process_model *m = &e->processes;
    const int rep = TMC_TILT_REPAIRS, down = TMC_TILT_DOWNTIMES;
    for (int k = 0; k < TMC_PROCESSES; k++) /* the rate slots */
        if (m->rate[k] > 0 && s->ce_a[k] > 0 && s->ce_n[k] > 0 && tmc_weights_tiltable(m, k))
            theta[k] = (s->ce_n[k] / s->ce_a[k]) / m->rate[k];
    if (s->ce_n[rep] > 0 && m->failures.repair_mean_s > 0 && tmc_weights_tiltable(m, rep))
        theta[rep] = (s->ce_a[rep] / s->ce_n[rep]) / m->failures.repair_mean_s;
    if (s->ce_n[down] > 0 && m->downtime_sigma > 0)
        theta[down] = exp(s->ce_a[down] / s->ce_n[down] - m->downtime_mu);
}

int tmc_importance_choose(tmc_engine *e, long pilot, uint64_t seed, int threads,
                          tmc_importance *out, tmc_error *err)
{
    int any = 0;
    for (int k = 0; k < TMC_TILTS; k++)
        any |= drawn(&e->processes, k) && tmc_weights_tiltable(&e->processes, k);
    if (!any)
        return tmc_error_set(err, "--importance auto: nothing this experiment draws can be "
                                  "tilted (exponential failures, outages, spikes, exponential "
                                  "repairs with a pool, lognormal downtimes): plain Monte Carlo "
                                  "with more replicas is the way to a small P(miss)"),
               TMC_IMPORTANCE_INVALID;
    double theta[TMC_TILTS] = {1, 1, 1, 1, 1}, *wall = malloc((size_t)pilot * sizeof *wall);
    if (!wall)
        return tmc_error_set(err, "out of memory for %ld pilot replicas", pilot);
    int rc = 0, final = 0, level = 0;
    while (!rc && !final && level < MAX_LEVELS) {
        tmc_replica s;
        long first = TMC_IMPORTANCE_FIRST_PILOT + level * pilot;
        rc = pilot_level(e, theta, pilot, first, seed, threads, wall, &s, &final, err);
        if (!rc && !(s.ce_w > 0))
            rc = tmc_error_set(err, "importance sampling: no pilot replica reached level %d",
                               level + 1);
        if (!rc)
            update_tilt(e, &s, theta);
        level++;
    }
    if (!rc && !final)
        rc = tmc_error_set(err, "importance sampling: the deadline is not reached after %d "
                                "cross-entropy levels", MAX_LEVELS);
    free(wall);
    tmc_engine_tilt(e, untilted, e->deadline_wall_s);
    for (int k = 0; k < TMC_TILTS; k++)
        out->theta[k] = theta[k];
    out->levels = level;
    out->pilot_replicas = pilot;
    return rc;
}

int tmc_gpd_fit(const double *x, long n, int wip, double *k_out, double *sigma_out)
{
    if (n < 5)
        return -1;
    const double prior = 3, dn = (double)n;
    long m = 30 + (long)floor(sqrt(dn));
    double xstar = x[(long)floor(dn / 4 + 0.5) - 1]; /* the first quartile (1-based in the paper) */
    double *theta = malloc((size_t)m * sizeof *theta), *l = malloc((size_t)m * sizeof *l);
    if (!theta || !l) {
        free(theta);
        free(l);
        return -1;
    }
    double lmax = -INFINITY;
    for (long j = 0; j < m; j++) { /* the profile log-likelihood at each grid point */
        theta[j] = 1 / x[n - 1] + (1 - sqrt((double)m / ((double)j + 0.5))) / prior / xstar;
        double kj = 0;
        for (long i = 0; i < n; i++)
            kj += log1p(-theta[j] * x[i]);
        kj /= dn;
        l[j] = dn * (log(-theta[j] / kj) - kj - 1);
        if (isnan(l[j]))
            l[j] = -INFINITY; /* theta 0: k 0 too, a point of no weight */
        if (l[j] > lmax)
            lmax = l[j];
    }
    double sw = 0, st = 0;
    for (long j = 0; j < m; j++) {
        double w = exp(l[j] - lmax);
        sw += w;
        st += w * theta[j];
    }
    free(theta);
    free(l);
    if (!(sw > 0))
        return -1;
    double th = st / sw, k = 0;
    for (long i = 0; i < n; i++)
        k += log1p(-th * x[i]);
    k /= dn;
    *sigma_out = -k / th;
    if (wip)
        k = k * dn / (dn + 10) + 10 * 0.5 / (dn + 10);
    *k_out = isnan(k) ? INFINITY : k;
    return 0;
}

double tmc_importance_pareto_k(double *v, long n)
{
    if (n < 6)
        return NAN;
    gsl_sort(v, 1, (size_t)n);
    long m = (long)ceil(fmin(0.2 * (double)n, 3 * sqrt((double)n)));
    if (m > n - 1)
        m = n - 1;
    double cut = v[n - m - 1], k, sigma;
    long first = n - m;
    while (first < n && !(v[first] > cut)) /* ties with the cut: no exceedance */
        first++;
    double *x = v + first;
    long nx = n - first;
    for (long i = 0; i < nx; i++)
        x[i] -= cut;
    return tmc_gpd_fit(x, nx, 1, &k, &sigma) ? NAN : k;
}

int tmc_importance_estimate(tmc_engine *e, long replicas, uint64_t seed, int threads,
                            tmc_importance *out, tmc_error *err)
{
    double *wall = malloc((size_t)replicas * sizeof *wall),
           *w = malloc((size_t)replicas * sizeof *w);
    if (!wall || !w) {
        free(wall);
        free(w);
        return tmc_error_set(err, "out of memory for %ld replicas", replicas);
    }
    tmc_replica t;
    tmc_runner_out ro = {.wall_s = wall, .weight = w};
    int rc = tmc_importance_check_tilt(e, out->theta, err) ||
                     tmc_engine_tilt(e, out->theta, e->deadline_wall_s)
        ? -1 : tmc_runner_run_samples(e, 0, replicas, seed, threads, NULL, NULL, &ro, &t, err);
    tmc_engine_tilt(e, untilted, e->deadline_wall_s);
    if (rc) {
        free(wall);
        free(w);
        return rc;
    }
    double n = (double)replicas, p = t.w_miss / n;
    out->replicas = replicas;
    out->p_miss = p;
    out->se = sqrt(fmax(t.w2_miss / n - p * p, 0) / n);
    out->ess = t.w2 > 0 ? t.w * t.w / t.w2 : 0;
    /* The tail diagnostic: the estimate sums w 1{miss} (not self-normalised),
     * so the tail that matters is that of those terms, PSIS's k-hat for the
     * functional h w with h the miss indicator (Vehtari et al. 2024, the
     * k-hat of a specific functional, for a non-self-normalised estimate);
     * the weights' own k-hat is kept for comparison. wall[] then holds the
     * terms, w[] is sorted. */
    out->misses = 0;
    for (long i = 0; i < replicas; i++) {
        int miss = wall[i] > e->deadline_wall_s; /* as weights.c counts it */
        out->misses += miss;
        wall[i] = miss ? w[i] : 0;
    }
    out->pareto_k = tmc_importance_pareto_k(wall, replicas);
    out->pareto_k_weights = tmc_importance_pareto_k(w, replicas);
    free(wall);
    free(w);
    return 0;
}

int tmc_importance_trusted(const tmc_importance *out)
{
    return out->pareto_k <= TMC_PARETO_K_CAUTION; /* NaN (under 5 misses): not */
}

/* The caller's progress over all the plain replicas, from each batch's. */
typedef struct {
    tmc_progress_fn progress;
    void *ctx;
    long first, total;
} plain_progress;

static void batch_progress(long done, long total, void *ctx)
{
    (void)total;
    const plain_progress *p = ctx;
    p->progress(p->first + done, p->total, p->ctx);
}

/* Misses among plain replicas p->first .. p->first + n - 1. 0, or a runner
 * code. */
static int plain_misses(tmc_engine *e, plain_progress *p, long n, uint64_t seed, int threads,
                        double *wall, long *misses, tmc_error *err)
{
    tmc_replica t;
    tmc_runner_out ro = {.wall_s = wall};
    int rc = tmc_runner_run_samples(e, p->first, n, seed, threads,
                                    p->progress ? batch_progress : NULL, p, &ro, &t, err);
    for (long i = 0; !rc && i < n; i++)
        *misses += wall[i] > e->deadline_wall_s; /* as tmc_importance_estimate */
    return rc;
}

int tmc_importance_check_plain(tmc_engine *e, long max_replicas, uint64_t seed, int threads,
                               tmc_progress_fn progress, void *ctx, tmc_importance *out,
                               tmc_error *err)
{
    out->plain_needed = out->plain_replicas = out->plain_misses = 0;
    out->plain_max = max_replicas;
    if (tmc_importance_trusted(out) || !(out->p_miss > 0))
        return 0;
    double need = ceil(100 / out->p_miss);
    out->plain_needed = need < 1e15 ? (long)need : (long)1e15;
    if (out->plain_needed > max_replicas)
        return 0;
    enum { BATCH = 1 << 20 }; /* 8 MB of wall times at a time, whatever N */
    long n = out->plain_needed, misses = 0;
    double *wall = malloc((size_t)(n < BATCH ? n : BATCH) * sizeof *wall);
    int rc = wall ? 0 : tmc_error_set(err, "out of memory for %ld plain replicas", n);
    plain_progress p = {progress, ctx, 0, n};
    for (; !rc && p.first < n; p.first += BATCH)
        rc = plain_misses(e, &p, n - p.first < BATCH ? n - p.first : BATCH, seed, threads,
                          wall, &misses, err);
    free(wall);
    if (rc)
        return rc;
    out->plain_replicas = n;
    out->plain_misses = misses;
    out->plain_p = (double)misses / (double)n;
    tmc_stats_wilson(misses, n, 0.95, &out->plain_lo, &out->plain_hi);
    return 0;
}

int tmc_importance_parse_tilt(const char *s, double theta[TMC_TILTS])
{
    double t[TMC_TILTS] = {1, 1, 1, 1, 1};
    int n = 0;
    for (const char *p = s;; n++) { /* numbers, each ended by a comma or the end */
        char buf[64]; /* one number, read as a decimal one (number.h) */
        const char *end = p + strcspn(p, ",");
        if (n == TMC_TILTS || (size_t)(end - p) >= sizeof buf)
            return -1;
        memcpy(buf, p, (size_t)(end - p));
        buf[end - p] = '\0';
        if (tmc_number_parse(buf, &t[n]))
            return -1;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    if (n + 1 != TMC_PROCESSES && n + 1 != TMC_TILTS) /* the rates alone, or every slot */
        return -1;
    for (int k = 0; k < TMC_TILTS; k++)
        if (!(t[k] > 0 && isfinite(t[k])))
            return -1;
    if (theta)
        memcpy(theta, t, sizeof t);
    return 0;
}

int tmc_importance_prepare(tmc_engine *e, const char *mode, long pilot, uint64_t seed,
                           int threads, tmc_importance *out, tmc_error *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(mode, "auto") == 0)
        return tmc_importance_choose(e, pilot, seed, threads, out, err);
    if (tmc_importance_parse_tilt(mode, out->theta))
        return tmc_error_set(err, "--importance: '%s' is neither auto nor F,O,S[,R,D]", mode),
               TMC_IMPORTANCE_INVALID;
    return tmc_importance_check_tilt(e, out->theta, err) ? TMC_IMPORTANCE_INVALID : 0;
}

int tmc_importance_run(tmc_engine *e, const char *mode, long pilot, long replicas,
                       uint64_t seed, int threads, tmc_importance *out, tmc_error *err)
{
    int rc = tmc_importance_prepare(e, mode, pilot, seed, threads, out, err);
    return rc ? rc : tmc_importance_estimate(e, replicas, seed, threads, out, err);
}
