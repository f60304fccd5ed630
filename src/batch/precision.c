/* precision.c - precision targets (precision.h). */
#include "precision.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "restarts.h"
#include "stats.h"
#include "number.h"

int tmc_precision_parse(const char *s, tmc_precision *p)
{
    static const char *const metrics[2] = {"deadline.probability:", "completion_days.mean:"};
    for (int m = 0; m < 2; m++) {
        size_t len = strlen(metrics[m]);
        if (strncmp(s, metrics[m], len) != 0)
            continue;
        const char *kind = s + len;
        double v = NAN;
        int rel = strncmp(kind, "rel=", 4) == 0;
        /* decimal only (number.h): sscanf's %lf takes 0x10 and leading spaces */
        if ((rel || strncmp(kind, "abs=", 4) == 0) && !tmc_number_parse(kind + 4, &v) &&
            v > 0) {
            p->metric = (tmc_precision_metric)m;
            p->relative = rel;
            p->target = v;
            snprintf(p->text, sizeof p->text, "%s", s);
            return 0;
        }
    }
    return -1;
}

int tmc_precision_met(const tmc_precision *p, const double *wall_s, const double *restarts,
                      long n, const tmc_deadline *d, double *half_width, double *value)
{
    if (p->metric == TMC_PRECISION_PROBABILITY) {
        long met = 0;
        for (long k = 0; k < n; k++)
            met += tmc_restarts_met(d->reserve_days + wall_s[k] / TMC_DAY_S, restarts[k], d);
        double lo, hi;
        tmc_stats_wilson(met, n, 0.95, &lo, &hi);
        *value = (double)met / n;
        *half_width = (hi - lo) / 2;
    } else {
        double mean = gsl_stats_mean(wall_s, 1, (size_t)n);
        double sd = n > 1 ? gsl_stats_sd_m(wall_s, 1, (size_t)n, mean) : INFINITY;
        *value = d->reserve_days + mean / TMC_DAY_S;
        *half_width = 1.959963984540054 * sd / sqrt((double)n) / TMC_DAY_S;
    }
    double limit = p->relative ? p->target * fabs(*value) : p->target;
    return *half_width <= limit;
}
