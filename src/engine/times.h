/* times.h - the earlier and the later of two instants or durations, s.
 *
 * fmin and fmax are calls into libm here (GCC inlines them only when NaN
 * need not be handled), and the event loop takes one at every boundary; the
 * engine's times are never NaN (INFINITY is: no arrival), so a comparison
 * gives the same value. */
#ifndef TMC_TIMES_H
#define TMC_TIMES_H

static inline double tmc_time_min(double a, double b)
{
    return b < a ? b : a;
}

static inline double tmc_time_max(double a, double b)
{
    return b > a ? b : a;
}

#endif
