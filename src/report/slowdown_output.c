/* slowdown_output.c - a run that slows down, in the report
 * (slowdown_output.h). */
#include "slowdown_output.h"

#include <math.h>

#include "units.h"

/* Daly's T of x without refresh restarts, days. */
static double never_refresh_days(const tmc_experiment *x)
{
    tmc_experiment y = *x; /* a shallow copy: only read */
    y.slowdown.refresh_hours = 0;
    tmc_closed_form cf;
    tmc_closed_form_compute(&y, &cf);
    return cf.completion_days_daly;
}

void tmc_slowdown_output_text(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf)
{
    const tmc_slowdown *d = &x->slowdown;
    if (!d->enabled)
        return;
    const tmc_slowdown_costs *c = &cf->slowdown;
    fprintf(f, "Slowdown: steps %.3gx slower after 1 h since a restart, %.3gx after 24 h "
               "(slowdown.per_hour %.10g%s); ",
            1 + tmc_slowdown_extra(d, TMC_HOUR_S), 1 + tmc_slowdown_extra(d, TMC_DAY_S),
            d->per_hour, d->max_extra > 0 ? ", saturating" : "");
    if (d->refresh_hours > 0)
        fprintf(f, "a refresh restart every %.10g h, %.3g a run (closed form); ",
                d->refresh_hours, c->refreshes);
    else
        fprintf(f, "no refresh restart (slowdown.refresh_hours); ");
    if (isfinite(c->best_refresh_s)) /* the first order is meaningless where none pays */
        fprintf(f, "the closed form's best is every %.3g h (first order %.3g h), ",
                c->best_refresh_s / TMC_HOUR_S, c->first_order_refresh_s / TMC_HOUR_S);
    else
        fprintf(f, "in the closed form no refresh period pays, ");
    fprintf(f, "never refreshing: Daly %.4g days\n", never_refresh_days(x));
}

static cJSON *hours_or_null(double s)
{
    return isfinite(s) ? cJSON_CreateNumber(s / TMC_HOUR_S) : cJSON_CreateNull();
}

cJSON *tmc_slowdown_output_json(const tmc_experiment *x, const tmc_closed_form *cf)
{
    if (!x->slowdown.enabled)
        return cJSON_CreateNull();
    const tmc_slowdown_costs *c = &cf->slowdown;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "step_extra_s", c->step_extra_s);
    cJSON_AddNumberToObject(o, "refreshes", c->refreshes);
    cJSON_AddNumberToObject(o, "refresh_cost_s", c->refresh_cost_s);
    cJSON_AddItemToObject(o, "best_refresh_hours", hours_or_null(c->best_refresh_s));
    cJSON_AddItemToObject(o, "first_order_refresh_hours",
                          hours_or_null(c->first_order_refresh_s));
    cJSON_AddNumberToObject(o, "never_refresh_days", never_refresh_days(x));
    return o;
}
