/* poisson_ci.c - Garwood's exact Poisson interval (poisson_ci.h). */
#include "poisson_ci.h"

#include <math.h>
#include <gsl/gsl_cdf.h>

int tmc_poisson_ci_compute(long n, double confidence, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n < 0 || !(confidence > 0 && confidence < 1))
        return -1;
    double a = 1 - confidence;
    *lo = n == 0 ? 0 : 0.5 * gsl_cdf_chisq_Pinv(a / 2, 2.0 * (double)n);
    *hi = 0.5 * gsl_cdf_chisq_Pinv(1 - a / 2, 2.0 * (double)n + 2);
    return isfinite(*lo) && isfinite(*hi) ? 0 : -1;
}

int tmc_poisson_ci_rate(long n, double exposure, double confidence, double *rate, double *lo,
                        double *hi)
{
    *rate = NAN;
    if (!(exposure > 0) || !isfinite(exposure)) {
        *lo = *hi = NAN;
        return -1;
    }
    if (tmc_poisson_ci_compute(n, confidence, lo, hi))
        return -1;
    *rate = (double)n / exposure;
    *lo /= exposure;
    *hi /= exposure;
    return 0;
}
