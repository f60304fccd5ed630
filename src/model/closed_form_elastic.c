/* closed_form_elastic.c - the closed form of elastic replica groups
 * (closed_form.h, tmc_elastic_form; docs/model.md 3.14).
 *
 * Sources: renewal-reward (an alternating renewal process is up a fraction
 * E[up] / (E[up] + E[down]) of the time: S. M. Ross, Stochastic Processes,
 * 2nd ed., Wiley 1996, 3.4.1 and 3.6); torchft's per-group recovery
 * (https://github.com/pytorch/torchft). Exact as the number of steps grows
 * when global restarts never happen, there is no jitter and the spares are
 * unlimited (with standbys or provisioning, their mean wait is added to a
 * group's down time, first order); rough when P(fewer than min_groups up)
 * is not small. */
#include "closed_form.h"
#include "laws.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

/* Mean spare wait of a group failure: none with unlimited spares, the
 * repair mean R without a pool, and with P spares (first order) R times
 * P(more than P cards in repair), the cards in repair Poisson of mean
 * rate x R (an M/G/infinity queue at the full failure rate: an upper
 * bound). */
static double spare_wait_s(const tmc_failures *f, double rate)
{
    double r = f->repair_mean_hours * 3600;
    if (f->spares < 0)
        return 0;
    return f->spares == 0 ? r : r * tmc_laws_poisson_over((unsigned)f->spares, rate * r);
}

/* Progress per second of compute with g of G groups up, in steps: g / G
 * per completed step, a step of t_s completing only if no failure (rate
 * lambda_g = g (N / G) / MTBF) cuts it, so a completed step costs
 * (e^(lambda_g t_s) - 1) / lambda_g (Daly's segment, docs/model.md 3.5). */
static double progress_rate(double g, double groups, double per_group_rate, double ts)
{
    double lambda = g * per_group_rate;
    if (g <= 0)
        return 0;
    return g / groups * (lambda > 0 ? lambda / expm1(lambda * ts) : 1 / ts);
}

/* Its mean over g ~ Binomial(G, A) (the groups independent), counting no
 * progress with fewer than m = min_groups up (the job is down then), or at
 * g = A G past TMC_ELASTIC_EXACT_GROUPS groups. */
#define TMC_ELASTIC_EXACT_GROUPS 10000
static double mean_progress_rate(long groups, long m, double a, double per_group_rate,
                                 double ts)
{
    double G = (double)groups;
    if (groups > TMC_ELASTIC_EXACT_GROUPS || a >= 1)
        return a * G >= (double)m ? progress_rate(a * G, G, per_group_rate, ts) : 0;
    double sum = 0;
    for (long g = m > 1 ? m : 1; g <= groups; g++)
        sum += gsl_ran_binomial_pdf((unsigned)g, a, (unsigned)groups) *
               progress_rate((double)g, G, per_group_rate, ts);
    return sum;
}

void tmc_closed_form_elastic(const tmc_experiment *x, const tmc_closed_form *cf,
                             tmc_elastic_form *out)
{
    memset(out, 0, sizeof *out);
    const tmc_elastic *el = &x->elastic;
    if (!el->enabled)
        return;
    out->enabled = 1;
    double n = (double)x->job.cards, g = (double)el->groups, ts = cf->step_s;
    /* per card; a trace's own average rate (closed_form.c) spread over the cards */
    double mtbf = cf->rate_failures > 0 ? n / cf->rate_failures : INFINITY;
    out->up_s = mtbf * g / n;
    /* a group failure takes one card: a standby's swap or a cold card's
     * provisioning beside the repair wait (first order) */
    out->down_s = x->failures.enabled ? spare_wait_s(&x->failures, cf->rate_failures) +
                                            tmc_closed_form_ready_s(x, cf) + el->heal_s + ts / 2
                                      : 0;
    out->availability = isinf(out->up_s) ? 1 : out->up_s / (out->up_s + out->down_s);
    out->p_global = el->min_groups > 0 && out->availability < 1
        ? gsl_cdf_binomial_P((unsigned)(el->min_groups - 1), out->availability,
                             (unsigned)el->groups)
        : 0;
    /* a global restart when the up groups fall from m = min_groups to m - 1:
     * in the long run P(m up) m / up of them a second (the groups
     * independent, each up or down as an alternating renewal process) */
    long m = el->min_groups;
    out->global_rate = m > 0 && m <= el->groups && !isinf(out->up_s)
        ? gsl_ran_binomial_pdf((unsigned)m, out->availability, (unsigned)el->groups) *
              (double)m / out->up_s
        : 0;
    double rate = mean_progress_rate(el->groups, m, out->availability, n / g / mtbf, ts);
    double wall = (double)x->job.steps / rate + (double)cf->segments * x->checkpoint.save_s;
    /* outages, spikes and global restarts: each loses half an interval and
     * restores, first order */
    double rate_o = cf->rate_outages + cf->rate_spikes + out->global_rate;
    if (rate_o > 0) {
        double down = cf->rate_outages > 0 ? x->outages.downtime_s * cf->rate_outages / rate_o
                                           : 0;
        wall *= 1 + rate_o * (cf->interval_s / (2 * out->availability) +
                              x->checkpoint.restore_s + down);
    }
    out->wall_s = wall;
    out->completion_days = x->deadline.reserve_days + wall / TMC_DAY_S;
    out->overhead = wall / cf->failure_free_s - 1;
}
