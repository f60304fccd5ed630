/* ks.h - the two-sample Kolmogorov-Smirnov statistic, shared by the tests
 * that compare two simulated distributions (modes-1, failures-1). */
#ifndef TMC_TEST_KS_H
#define TMC_TEST_KS_H

#include <math.h>

/* sup |F_a - F_b| for two sorted samples of the same size n. */
static inline double ks_statistic(const double *a, const double *b, long n)
{
    long i = 0, j = 0;
    double d = 0;
    while (i < n && j < n) {
        double x = a[i] <= b[j] ? a[i] : b[j];
        while (i < n && a[i] <= x)
            i++;
        while (j < n && b[j] <= x)
            j++;
        d = fmax(d, fabs((double)(i - j) / n));
    }
    return d;
}

/* Its critical value at alpha = 0.001: c sqrt(2 / n), c = sqrt(-ln(alpha/2)/2). */
#define KS_CRITICAL_001(n) (1.9495 * sqrt(2.0 / (n)))

#endif
