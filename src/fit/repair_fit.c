/* repair_fit.c - repair-time laws by maximum likelihood (repair_fit.h). */
#include "repair_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include <stdint.h>
#include <gsl/gsl_rng.h>

#include "ks.h"
#include "laws.h"
#include "lifetime_fit.h"
#include "rng_pcg.h"

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double cdf_lognormal(double x, void *ctx)
{
    const tmc_repair_law *l = ctx;
    return gsl_cdf_lognormal_P(x, l->p1, l->p2);
}

static double cdf_weibull(double x, void *ctx)
{
    const tmc_repair_law *l = ctx;
    return gsl_cdf_weibull_P(x, l->p2, l->p1);
}

static double cdf_exponential(double x, void *ctx)
{
    const tmc_repair_law *l = ctx;
    return gsl_cdf_exponential_P(x, l->p1);
}

int tmc_repair_fit_times(const double *t, int n, tmc_repair_fit *out, tmc_error *err)
{
    if (n < 2)
        return tmc_error_set(err, "%d positive repair time%s: a repair law needs at least 2",
                             n, n == 1 ? "" : "s");
    double *x = malloc(sizeof *x * (size_t)n);
    if (!x)
        return tmc_error_set(err, "out of memory");
    memcpy(x, t, sizeof *x * (size_t)n);
    qsort(x, (size_t)n, sizeof *x, ascending);
    if (!(x[0] > 0)) {
        double bad = x[0];
        free(x);
        return tmc_error_set(err, "a repair time of %g days; the laws need times > 0", bad);
    }
    out->n = n;
    double sum = 0, sum_log = 0, ss = 0;
    for (int i = 0; i < n; i++)
        sum += x[i], sum_log += log(x[i]);
    double mu = sum_log / n, mean = sum / n;
    for (int i = 0; i < n; i++)
        ss += (log(x[i]) - mu) * (log(x[i]) - mu);
    double sigma = sqrt(ss / n);
    out->mean_days = mean;
    out->median_days = n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    out->max_days = x[n - 1];

    tmc_repair_law *l = &out->law[TMC_REPAIR_LAW_LOGNORMAL];
    *l = (tmc_repair_law){tmc_law_lognormal->name, 2, mu, sigma, exp(mu + sigma * sigma / 2), NAN, NAN,
                          NAN, NAN, sigma > 0};
    if (l->ok) {
        l->loglik = -sum_log - n * log(sigma) - 0.5 * n * log(2 * M_PI) - 0.5 * n;
        l->ks_d = tmc_ks_compute_statistic(x, n, cdf_lognormal, l);
    }

    l = &out->law[TMC_REPAIR_LAW_WEIBULL];
    tmc_weibull_fit w;
    tmc_error werr = {""};
    int wok = !tmc_lifetime_fit_weibull(x, n, NULL, 0, &w, &werr);
    *l = (tmc_repair_law){tmc_law_weibull->name, 2, w.shape, w.scale, w.mean, w.loglik, NAN, NAN, NAN,
                          wok};
    if (l->ok)
        l->ks_d = tmc_ks_compute_statistic(x, n, cdf_weibull, l);

    l = &out->law[TMC_REPAIR_LAW_EXPONENTIAL];
    *l = (tmc_repair_law){tmc_law_exponential->name, 1, mean, NAN, mean, -n * log(mean) - n, NAN, NAN,
                          NAN, 1};
    l->ks_d = tmc_ks_compute_statistic(x, n, cdf_exponential, l);

    out->best = -1;
    for (int i = 0; i < TMC_REPAIR_LAWS; i++) {
        l = &out->law[i];
        if (!l->ok)
            continue;
        l->aic = 2 * l->n_params - 2 * l->loglik;
        l->ks_p = tmc_ks_pvalue(l->ks_d, n);
        if (out->best < 0 || l->aic < out->law[out->best].aic)
            out->best = i;
    }
    free(x);
    return 0;
}

/* Above TMC_REPAIR_BOOTSTRAP_MAX times: xbar -+ t_(1-a/2; n-1) s / sqrt n,
 * in one pass (repair_fit.h says why that suffices there). */
static int t_interval(const double *t, int n, double confidence, double *lo, double *hi)
{
    double mean = 0, ss = 0;
    for (int i = 0; i < n; i++)
        mean += t[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        ss += (t[i] - mean) * (t[i] - mean);
    double se = sqrt(ss / (n - 1) / n);
    if (!(se > 0))
        return -1;
    double q = gsl_cdf_tdist_Pinv(1 - (1 - confidence) / 2, n - 1.0);
    *lo = mean - q * se;
    *hi = mean + q * se;
    return 0;
}

int tmc_repair_mean_interval(const double *t, int n, double confidence, double *lo,
                             double *hi)
{
    enum { B = 2000 };
    *lo = *hi = NAN;
    if (n < 2 || !(confidence > 0 && confidence < 1))
        return -1;
    if (n > TMC_REPAIR_BOOTSTRAP_MAX)
        return t_interval(t, n, confidence, lo, hi);
    double *tb = malloc(sizeof *tb * B);
    gsl_rng *rng = gsl_rng_alloc(tmc_rng_pcg32);
    if (!tb || !rng) {
        free(tb);
        if (rng)
            gsl_rng_free(rng);
        return -1;
    }
    tmc_rng_pcg_seed(rng, 1, 0);
    double mean = 0, ss = 0;
    for (int i = 0; i < n; i++)
        mean += t[i] / n;
    for (int i = 0; i < n; i++)
        ss += (t[i] - mean) * (t[i] - mean);
    double se = sqrt(ss / (n - 1) / n);
    int nb = 0;
    for (int b = 0; b < B; b++) {
        double sum = 0, sum2 = 0;
        for (int i = 0; i < n; i++) {
            /* an index in [0, n): the high word of a 32 x 32-bit product */
            double x = t[((uint64_t)tmc_rng_pcg_next(rng) * (uint64_t)n) >> 32];
            sum += x, sum2 += x * x;
        }
        double m = sum / n, v = (sum2 - n * m * m) / (n - 1);
        if (v > 0) /* a resample of one repeated value has no t */
            tb[nb++] = (m - mean) / sqrt(v / n);
    }
    gsl_rng_free(rng);
    if (nb < 2 || !(se > 0)) {
        free(tb);
        return -1;
    }
    qsort(tb, (size_t)nb, sizeof *tb, ascending);
    double alpha = 1 - confidence, q[2];
    for (int e = 0; e < 2; e++) { /* quantiles, linear between order statistics */
        double h = (e ? 1 - alpha / 2 : alpha / 2) * (nb - 1);
        int k = (int)h < nb - 1 ? (int)h : nb - 2;
        q[e] = tb[k] + (h - k) * (tb[k + 1] - tb[k]);
    }
    free(tb);
    *lo = mean - q[1] * se;
    *hi = mean - q[0] * se;
    return 0;
}

/* The positive repair times of log into a malloc'd array (NULL: no memory)
 * and their count, the open and zero-length ones counted. */
static double *positive_times(const tmc_fault_log *log, int *n, int *open, int *zero,
                              int *repaired, double *sum_all)
{
    double *t = malloc(sizeof *t * (size_t)(log->n_faults + 1));
    *n = *open = *zero = *repaired = 0;
    *sum_all = 0;
    if (!t)
        return NULL;
    for (int i = 0; i < log->n_faults; i++) {
        const tmc_fault *f = &log->faults[i];
        if (isnan(f->end_days)) {
            ++*open;
            continue;
        }
        double d = f->end_days - f->start_days;
        ++*repaired;
        *sum_all += d;
        if (d > 0)
            t[(*n)++] = d;
        else
            ++*zero;
    }
    return t;
}

int tmc_repair_fit_mean_interval(const tmc_fault_log *log, double confidence, double *lo,
                                 double *hi)
{
    int n, open, zero, repaired;
    double sum_all, *t = positive_times(log, &n, &open, &zero, &repaired, &sum_all);
    int rc = t ? tmc_repair_mean_interval(t, n, confidence, lo, hi) : -1;
    free(t);
    return rc;
}

int tmc_repair_fit_laws(const tmc_fault_log *log, tmc_repair_fit *out, tmc_error *err)
{
    memset(out, 0, sizeof *out);
    out->n_faults = log->n_faults;
    int n, repaired;
    double sum_all, *t = positive_times(log, &n, &out->n_open, &out->n_zero, &repaired,
                                        &sum_all);
    if (!t)
        return tmc_error_set(err, "out of memory");
    out->mean_all_days = repaired ? sum_all / repaired : NAN;
    int rc = tmc_repair_fit_times(t, n, out, err);
    free(t);
    return rc;
}
