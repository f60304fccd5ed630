/* poisson_ci.c - Garwood's exact Poisson interval (poisson_ci.h). */
#include "poisson_ci.h"

#include <math.h>
#include "laws.h"

int tmc_poisson_ci_compute(long n, double confidence, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n < 0 || !(confidence > 0 && confidence < 1))
        return -1;
    double a = 1 - confidence;
    /* chi2_q(2n) / 2 = the q-quantile of Gamma(n, 1) */
    *lo = n == 0 ? 0 : tmc_law_gamma_quantile(a / 2, (double)n, 1);
    *hi = tmc_law_gamma_quantile(1 - a / 2, (double)n + 1, 1);
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
