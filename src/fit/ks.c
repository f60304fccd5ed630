/* ks.c - Kolmogorov-Smirnov (ks.h). */
#include "ks.h"

#include <math.h>

double tmc_ks_compute_statistic(const double *sorted, int n, double (*cdf)(double, void *),
                                void *ctx)
{
    if (n < 1)
        return NAN;
    double d = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && sorted[j] == sorted[i])
            j++; /* values i .. j-1 are equal */
        double f = cdf(sorted[i], ctx);
        double below = f - (double)i / n, above = (double)j / n - f;
        if (below > d)
            d = below;
        if (above > d)
            d = above;
        i = j;
    }
    return d;
}

double tmc_ks_kolmogorov_q(double x)
{
    if (!(x > 0))
        return 1;
    if (x < 1.18) {
        double s = 0, c = M_PI * M_PI / (8 * x * x);
        for (int j = 1; j <= 20; j++)
            s += exp(-(2.0 * j - 1) * (2.0 * j - 1) * c);
        double p = sqrt(2 * M_PI) / x * s;
        return 1 - p;
    }
    double s = 0;
    for (int j = 1; j <= 100; j++) {
        double term = exp(-2.0 * j * j * x * x);
        s += (j % 2 ? term : -term);
        if (term < 1e-17)
            break;
    }
    return 2 * s;
}

double tmc_ks_pvalue(double d, int n)
{
    if (n < 1 || isnan(d))
        return NAN;
    double rn = sqrt((double)n);
    return tmc_ks_kolmogorov_q((rn + 0.12 + 0.11 / rn) * d);
}
