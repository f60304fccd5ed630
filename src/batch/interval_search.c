/* interval_search.c - the simulated optimum interval (interval_search.h). */
#include "interval_search.h"

#include "closed_form.h"
#include "engine.h"
#include "finishable.h"
#include "runner.h"

#include <math.h>
#include <stdlib.h>

/* The intervals run so far, their mean wall times and each replica's. */
typedef struct {
    const tmc_experiment *x;
    int threads;
    const volatile sig_atomic_t *stop;
    long replicas;
    int n;
    long k[TMC_INTERVAL_SEARCH_MAX];
    double mean_s[TMC_INTERVAL_SEARCH_MAX]; /* INFINITY: K cannot finish (finishable.h) */
    double *wall_s[TMC_INTERVAL_SEARCH_MAX];
    int failure; /* a run's error: TMC_RUNNER_STOPPED or -1 (err says which) */
} search;

/* x's run at K steps a segment, its interval by number (a view of x: its
 * heap parts are x's). */
static tmc_experiment at_steps(const tmc_experiment *x, long k)
{
    tmc_experiment y = *x;
    y.checkpoint.interval_steps = k;
    y.checkpoint.interval_s = 0;
    y.checkpoint.interval_rule = TMC_INTERVAL_GIVEN;
    return y;
}

/* Run K on the search's replicas into slot s->n. 0, or as the runner. */
static int run_k(search *s, long k, tmc_error *err)
{
    tmc_experiment y = at_steps(s->x, k);
    int i = s->n;
    char why[512];
    s->k[i] = k;
    s->mean_s[i] = INFINITY;
    s->wall_s[i] = NULL;
    if (tmc_finishable_check(&y, why, sizeof why) == 1) { /* this K cannot finish */
        s->n++;
        return 0;
    }
    tmc_closed_form cf;
    tmc_closed_form_compute(&y, &cf);
    tmc_engine e;
    double *wall = malloc((size_t)s->replicas * sizeof *wall);
    if (!wall || tmc_engine_init_threads(&e, &y, &cf, s->threads)) {
        free(wall);
        return tmc_error_set(err, "out of memory searching the interval");
    }
    if (s->stop)
        tmc_engine_watch_stop(&e, s->stop);
    tmc_replica totals;
    int rc = tmc_runner_run_from(&e, TMC_INTERVAL_SEARCH_FIRST, s->replicas,
                                 y.monte_carlo.seed, s->threads, NULL, NULL, wall, &totals, err);
    tmc_engine_free(&e);
    if (rc) {
        free(wall);
        return rc;
    }
    double sum = 0;
    for (long r = 0; r < s->replicas; r++)
        sum += wall[r];
    s->mean_s[i] = sum / (double)s->replicas;
    s->wall_s[i] = wall;
    s->n++;
    return 0;
}

/* The slot of K, run when it is new; -1 when no slot is left (the search
 * stops with what it has), -2 on an error (err). */
static int slot(search *s, long k, tmc_error *err)
{
    for (int i = 0; i < s->n; i++)
        if (s->k[i] == k)
            return i;
    if (s->n == TMC_INTERVAL_SEARCH_MAX)
        return -1;
    return (s->failure = run_k(s, k, err)) ? -2 : s->n - 1;
}

/* The slot of lowest mean (the fewest steps among equals: fewer steps lose
 * less to what the replicas did not draw). */
static int best_slot(const search *s)
{
    int b = 0;
    for (int i = 1; i < s->n; i++)
        if (s->mean_s[i] < s->mean_s[b] || (s->mean_s[i] == s->mean_s[b] && s->k[i] < s->k[b]))
            b = i;
    return b;
}

static long k_at(double logk, long lo, long hi)
{
    long k = lround(exp(logk));
    return k < lo ? lo : k > hi ? hi : k;
}

/* Golden-section search of the mean wall time over K in [lo, hi], on log K
 * (the cost curve is about as wide on each side of its minimum there),
 * then every K of the last bracket of at most 4. 0, 1 out of slots, or -2
 * (err). */
static int golden(search *s, long lo, long hi, tmc_error *err)
{
    const double g = 0.6180339887498949;
    double a = log((double)lo), b = log((double)hi);
    double c = b - g * (b - a), d = a + g * (b - a);
    int ic = slot(s, k_at(c, lo, hi), err), id = ic < 0 ? ic : slot(s, k_at(d, lo, hi), err);
    while (ic >= 0 && id >= 0 && k_at(b, lo, hi) - k_at(a, lo, hi) > 3) {
        if (s->mean_s[ic] <= s->mean_s[id]) {
            b = d, d = c, id = ic;
            c = b - g * (b - a);
            ic = slot(s, k_at(c, lo, hi), err);
        } else {
            a = c, c = d, ic = id;
            d = a + g * (b - a);
            id = slot(s, k_at(d, lo, hi), err);
        }
    }
    if (ic == -2 || id == -2)
        return -2;
    for (long k = k_at(a, lo, hi); ic >= 0 && id >= 0 && k <= k_at(b, lo, hi); k++)
        if ((ic = slot(s, k, err)) < 0)
            return ic == -2 ? -2 : 1;
    return ic == -1 || id == -1;
}

/* Search from K0: a quarter to four times it, widened by four on the side
 * where the best stays on the edge (at most four times). 0, or -2 (err). */
static int search_from(search *s, long k0, long steps, long *lo, long *hi, tmc_error *err)
{
    *lo = k0 / 4 > 1 ? k0 / 4 : 1;
    *hi = 4 * k0 < steps ? 4 * k0 : steps;
    for (int widen = 0; widen <= 4; widen++) {
        int rc = golden(s, *lo, *hi, err);
        if (rc)
            return rc < 0 ? rc : 0;
        long best = s->k[best_slot(s)];
        if (best == *lo && *lo > 1)
            *hi = *lo, *lo = *lo / 4 > 1 ? *lo / 4 : 1;
        else if (best == *hi && *hi < steps)
            *lo = *hi, *hi = 4 * *hi < steps ? 4 * *hi : steps;
        else
            return 0;
    }
    return 0;
}

/* K0's mean less K's, per replica, in days: mean and standard error. */
static void paired(const search *s, int form, int best, tmc_interval_search *out)
{
    out->form_minus_days = out->form_minus_se_days = 0;
    if (!s->wall_s[form] || !s->wall_s[best] || form == best)
        return;
    double n = (double)s->replicas, sum = 0, sum2 = 0;
    for (long r = 0; r < s->replicas; r++) {
        double d = (s->wall_s[form][r] - s->wall_s[best][r]) / TMC_DAY_S;
        sum += d, sum2 += d * d;
    }
    double mean = sum / n, var = n > 1 ? (sum2 - n * mean * mean) / (n - 1) : 0;
    out->form_minus_days = mean;
    out->form_minus_se_days = sqrt(fmax(var, 0) / n);
}

int tmc_interval_search_resolve(tmc_experiment *x, int threads,
                                const volatile sig_atomic_t *stop, tmc_interval_search *out,
                                tmc_error *err)
{
    out->searched = 0;
    tmc_checkpoint *cp = &x->checkpoint;
    if (cp->interval_rule != TMC_INTERVAL_OPTIMAL || cp->interval_searched)
        return 0;
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    long replicas = x->monte_carlo.replicas;
    search s = {.x = x, .threads = threads, .stop = stop,
                .replicas = replicas < TMC_INTERVAL_SEARCH_REPLICAS
                                ? replicas : TMC_INTERVAL_SEARCH_REPLICAS};
    long k0 = cf.interval_steps;
    int rc = slot(&s, k0, err) == -2 ? -2 : search_from(&s, k0, x->job.steps, &out->lo,
                                                        &out->hi, err);
    if (rc == 0) {
        int best = best_slot(&s), form = slot(&s, k0, err); /* run first: a slot */
        long lo = out->lo, hi = out->hi;
        *out = (tmc_interval_search){
            .searched = 1, .steps = s.k[best], .interval_s = (double)s.k[best] * cf.step_s,
            .form_steps = k0, .lo = lo, .hi = hi, .evaluations = s.n,
            .replicas = s.replicas, .mean_days = s.mean_s[best] / TMC_DAY_S};
        paired(&s, form, best, out);
        cp->interval_steps = s.k[best];
        cp->interval_s = 0;
        cp->interval_searched = 1;
    }
    for (int i = 0; i < s.n; i++)
        free(s.wall_s[i]);
    return rc == 0 ? 0 : s.failure;
}
