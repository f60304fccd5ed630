/* emax.c - approximations of c_N and the step time they imply. See emax.h
 * for sources; the simulation of the maximum is batch/emax_sim.c. */
#include "emax.h"

#include <math.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>


double tmc_emax_blom(long n)
{
    if (n < 1)
        return NAN;
    /* Phi^-1(p) through the upper tail 1 - p = 0.625 / (N + 0.25), which keeps
     * its precision where p is within rounding of 1 (large N). */
    return gsl_cdf_ugaussian_Qinv(0.625 / ((double)n + 0.25));
}

double tmc_emax_gumbel(long n)
{
    if (n < 2)
        return NAN;
    double l = log((double)n), s = sqrt(2 * l);
    return s - (log(l) + log(4 * M_PI)) / (2 * s) + M_EULER / s;
}

double tmc_emax_reference(long n)
{
    switch (n) {
    case 8: return 1.42;
    case 48: return 2.23;
    case 1024: return 3.25;
    default: return NAN;
    }
}

double tmc_emax_step_time(double c, double mu_s, double sigma_s, double fixed_s)
{
    return mu_s + c * sigma_s + fixed_s;
}
