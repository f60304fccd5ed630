/* sweep_target.c - --target: the key value where a simulated metric crosses
 * a target, by bisection (sweep.h). */
#include "sweep.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <gsl/gsl_cdf.h>

void tmc_sweep_estimate_metric(const tmc_sweep_result *r, tmc_sweep_metric m,
                               double *value, double *lo, double *hi)
{
    double z = gsl_cdf_ugaussian_Pinv(0.975), se;
    if (m == TMC_SWEEP_PROBABILITY) {
        *value = r->days.p_met;
        *lo = r->days.ci_lo;
        *hi = r->days.ci_hi;
        return;
    }
    *value = m == TMC_SWEEP_COMPLETION ? r->days.mean : r->overhead;
    se = m == TMC_SWEEP_COMPLETION ? r->days.se : r->overhead_se;
    *lo = *value - z * se;
    *hi = *value + z * se;
    if (m == TMC_SWEEP_GOODPUT) { /* 1 / (1 + x) turns the overhead's interval round */
        double ov_lo = *lo;
        *value = 1 / (1 + *value);
        *lo = 1 / (1 + *hi);
        *hi = 1 / (1 + ov_lo);
    }
}

int tmc_sweep_meets_target(const tmc_sweep_target *t, double value)
{
    return t->at_least ? value >= t->value : value <= t->value;
}

int tmc_sweep_is_unresolved(const tmc_sweep_target *t, const tmc_sweep_result *r)
{
    double v, lo, hi;
    tmc_sweep_estimate_metric(r, t->metric, &v, &lo, &hi);
    return lo <= t->value && t->value <= hi;
}

int tmc_sweep_check_bracket(const tmc_sweep_bracket *b, int integer, const char *spec,
                            tmc_error *err)
{
    if (integer && b->tol > 0)
        return tmc_error_set(err, "--vary %s: %s is an integer key: bisection runs to "
                                  "adjacent integers; give LO:HI", spec, b->key);
    if (!integer && b->tol == 0)
        return tmc_error_set(err, "--vary %s: %s is not an integer key; give LO:HI:TOL, "
                                  "TOL the width of the bracket to stop at", spec, b->key);
    /* a TOL below the spacing of doubles at the ends could never be reached */
    if (!integer && b->tol < 4 * DBL_EPSILON * fmax(fabs(b->lo), fabs(b->hi)))
        return tmc_error_set(err, "--vary %s: TOL %.10g is below what numbers near %.10g can "
                                  "resolve", spec, b->tol, fmax(fabs(b->lo), fabs(b->hi)));
    if (!integer && (b->hi - b->lo) / b->tol > ldexp(1, TMC_SWEEP_MAX_BISECTIONS))
        return tmc_error_set(err, "--vary %s: TOL %.10g needs more than %d halvings of "
                                  "[%.10g, %.10g]", spec, b->tol, TMC_SWEEP_MAX_BISECTIONS,
                             b->lo, b->hi);
    return 0;
}

static int refuse_unbracketed(const tmc_sweep_target *t, const tmc_sweep_bracket *b,
                              double m_lo, double m_hi, tmc_error *err)
{
    int met = tmc_sweep_meets_target(t, m_lo);
    /* two ends alone do not show where the metric crosses: it can rise and
     * fall inside (P(deadline) over job.cards: more cards, more failures) */
    tmc_error_set(err, "--target %s: %s end meets it (%s=%.10g gives %.6g, %s=%.10g gives "
                       "%.6g); undecided: bisection needs exactly one end that meets, and "
                       "the values inside [%.10g, %.10g] were not examined (a metric that "
                       "rises and falls can cross the target there); give a bracket with "
                       "one end on each side",
                  t->text, met ? "each" : "neither", b->key, b->lo, m_lo, b->key, b->hi,
                  m_hi, b->lo, b->hi);
    return 1;
}

int tmc_sweep_bisect(const tmc_sweep_target *t, const tmc_sweep_bracket *b, int integer,
                     tmc_sweep_eval_fn eval, void *ctx, tmc_sweep_bisection *out,
                     tmc_error *err)
{
    double m_lo, m_hi, m;
    if (eval(b->lo, ctx, &m_lo, err) || eval(b->hi, ctx, &m_hi, err))
        return -1;
    out->evaluations = 2;
    int met_lo = tmc_sweep_meets_target(t, m_lo);
    if (met_lo == tmc_sweep_meets_target(t, m_hi))
        return refuse_unbracketed(t, b, m_lo, m_hi, err);
    /* invariant: `yes` meets the target, `no` does not */
    double yes = met_lo ? b->lo : b->hi, no = met_lo ? b->hi : b->lo;
    double width = integer ? 1 : b->tol;
    while (fabs(yes - no) > width) {
        double mid = integer ? floor((yes + no) / 2) : (yes + no) / 2;
        if (mid == yes || mid == no) /* no number between them: as close as it gets */
            break;
        if (eval(mid, ctx, &m, err))
            return -1;
        out->evaluations++;
        if (tmc_sweep_meets_target(t, m))
            yes = mid;
        else
            no = mid;
    }
    out->found = yes;
    out->neighbour = no;
    out->smallest = !met_lo;
    return 0;
}
