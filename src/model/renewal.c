/* renewal.c - the renewal function on a grid (renewal.h). */
#include "renewal.h"

#include <math.h>
#include <stdlib.h>

/* P(min of n lifetimes <= x) = 1 - S(x)^n, accurate when F(x) is small. */
static double min_cdf(const tmc_law_type *law, const tmc_law *life, double n, double x)
{
    return -expm1(n * log1p(-law->cdf(life, x)));
}

int tmc_renewal_build(tmc_renewal_table *t, const tmc_law_type *law, const tmc_law *life,
                      double n, double t_max)
{
    *t = (tmc_renewal_table){0};
    if (!law->cdf || !law->min_mean || !(t_max >= 0))
        return -1;
    t->mu = law->min_mean(life, n);
    if (!isfinite(t->mu) || !(t->mu > 0))
        return -1;
    /* a regular law's density is narrow beside its mean: steps per gap too */
    t->k = (int)fmin(fmax(TMC_RENEWAL_GRID, ceil(TMC_RENEWAL_PER_GAP * t_max / t->mu)),
                     TMC_RENEWAL_GRID_MAX);
    t->h = t_max / t->k;
    int k = t->k;
    double *F = malloc((size_t)(k + 1) * sizeof *F), *m = malloc((size_t)(k + 1) * sizeof *m);
    if (!F || !m) {
        free(F), free(m);
        return -1;
    }
    for (int i = 0; i <= k; i++)
        F[i] = min_cdf(law, life, n, i * t->h);
    m[0] = F[0];
    /* m_i = F_i + sum_j (F_j - F_(j-1)) (m_(i-j) + m_(i-j+1)) / 2; the j = 1
     * term holds m_i itself, moved to the left */
    double half = (F[1] - F[0]) / 2;
    for (int i = 1; i <= k; i++) {
        double sum = F[i] + half * m[i - 1];
        for (int j = 2; j <= i; j++)
            sum += (F[j] - F[j - 1]) * (m[i - j] + m[i - j + 1]) / 2;
        m[i] = sum / (1 - half);
    }
    free(F);
    for (int i = 0; i <= k; i++) /* the forward time, in place */
        m[i] = t->mu * (1 + m[i]) - i * t->h;
    t->fwd = m;
    return 0;
}

double tmc_renewal_forward_at(const tmc_renewal_table *t, double d)
{
    if (!(d > 0) || t->h <= 0)
        return t->mu;
    double x = d / t->h;
    if (x >= t->k)
        return t->fwd[t->k];
    int i = (int)x;
    return t->fwd[i] + (x - i) * (t->fwd[i + 1] - t->fwd[i]);
}

/* The u-th midpoint quantile of X, plus shift. */
static double point(const tmc_law_type *law, const tmc_law *l, double shift, int i)
{
    return shift + law->quantile(l, (i + 0.5) / TMC_RENEWAL_QUANTILES);
}

double tmc_renewal_forward_mean(const tmc_renewal_table *t, const tmc_law_type *law,
                                const tmc_law *l, double shift)
{
    if (!law->quantile)
        return tmc_renewal_forward_at(t, shift + l->mean);
    double sum = 0;
    for (int i = 0; i < TMC_RENEWAL_QUANTILES; i++)
        sum += tmc_renewal_forward_at(t, point(law, l, shift, i));
    return sum / TMC_RENEWAL_QUANTILES;
}

double tmc_renewal_reach(const tmc_law_type *law, const tmc_law *l, double shift)
{
    return law->quantile ? point(law, l, shift, TMC_RENEWAL_QUANTILES - 1) : shift + l->mean;
}

void tmc_renewal_free(tmc_renewal_table *t)
{
    free(t->fwd);
    t->fwd = NULL;
}
