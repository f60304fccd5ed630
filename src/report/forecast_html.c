/* forecast_html.c - `trainmc forecast --html` (forecast_html.h). The
 * sentences come from the text report's functions, the picture from
 * --plot's (forecast_history_output.h). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "forecast_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* P(deadline) at the latest snapshot, data-* unrounded (for a reader that
 * compares them with --json's snapshots[n - 1]), and its change. */
static void headline(FILE *f, const tmc_forecast_history *h)
{
    const tmc_forecast_point *p = &h->points[h->n - 1];
    const tmc_observed *s = &p->snap.observed;
    fprintf(f, "<p class=\"headline\">At the latest snapshot (line %ld, day %.3f, step %ld):"
               "<br>P(T &le; %g days) = <strong data-setting=\"%d\" data-p=\"%.17g\" "
               "data-lo=\"%.17g\" data-hi=\"%.17g\">%.4f</strong> [%.4f, %.4f] Wilson 95 %%"
               "<br><small>", p->snap.line, s->elapsed_days, s->steps_done,
            h->base->deadline.days, h->n - 1, p->days.p_met, p->days.ci_lo, p->days.ci_hi,
            p->days.p_met, p->days.ci_lo, p->days.ci_hi);
    if (isnan(p->change))
        fputs("the only snapshot", f);
    else
        fprintf(f, "%+.4f &plusmn; %.4f since line %ld", p->change, p->change_se,
                h->points[h->n - 2].snap.line);
    fprintf(f, "; mean T %.4f &plusmn; %.4f days, %.4f left</small></p>\n", p->days.mean,
            p->days.se, p->left_mean);
}

static void assumed_lines(FILE *f, const void *h)
{
    tmc_forecast_history_output_assumed_text(f, h);
}

static void table_lines(FILE *f, const void *r)
{
    tmc_forecast_history_output_table_text(f, r);
}

static void page(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const tmc_forecast_history_report *r = report;
    (void)none; /* its history is drawn here */
    const tmc_forecast_history *h = r->h;
    char title[sizeof h->base->name + 24];
    snprintf(title, sizeof title, "trainmc forecast: %s", h->base->name);
    tmc_html_begin(f, title);
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, h->base->path);
    fputs(", the snapshots of ", f);
    tmc_html_put_text(f, h->path);
    fprintf(f, ": %d snapshots, %ld replicas each, seed %llu.</p>\n", h->n,
            h->base->monte_carlo.replicas, (unsigned long long)h->base->monte_carlo.seed);
    tmc_html_section(f, "answer", "The answer");
    headline(f, h);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", "What the run at the latest snapshot assumes");
    char *text = tmc_html_capture(assumed_lines, h);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
    tmc_html_section(f, "figures", "The history");
    char *svg = tmc_forecast_history_output_svg(r);
    tmc_html_figure(f, "fig-history", "P(deadline) at each snapshot against its elapsed day, "
                                      "with its Wilson 95 % interval", svg);
    free(svg);
    tmc_html_section_end(f);
    tmc_html_section(f, "snapshots", "Every snapshot, as the text report prints it");
    text = tmc_html_capture(table_lines, r);
    tmc_html_pre(f, "table", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_end(f, h->base, m);
}

char *tmc_forecast_html(const tmc_forecast_history_report *r, const tmc_html_meta *m)
{
    return r->h->n > 0 ? tmc_html_page(page, r, NULL, m) : strdup("");
}
