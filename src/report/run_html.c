/* run_html.c - `trainmc run --html` (run_html.h): the answer first, then
 * what the run assumes, the completion time's picture, the wall-time split
 * and the experiment. Its sentences come from the functions that write the
 * text report (brief.h, assumed_output.h), its figures from those that
 * write --plot (plot.h), its numbers from the same report (output.h). */
#define _POSIX_C_SOURCE 200809L
#include "run_html.h"

#include <math.h>
#include <stdlib.h>

#include "accounting.h"
#include "assumed_output.h"
#include "brief.h"

/* The answer in one line: P(deadline) with its interval and the closed
 * form's verdict (a calendar window: its goodput). data-* hold the figures
 * unrounded, for a reader that compares them with --json. */
static void headline(FILE *f, const tmc_report *r)
{
    if (r->window) {
        const tmc_window_summary *w = r->window;
        fprintf(f, "<p class=\"headline\" id=\"answer-line\">goodput over %.6g days: "
                   "<strong>%.5f</strong> [%.5f, %.5f] 95 %%</p>\n", w->days, w->goodput_mean,
                w->ci_lo, w->ci_hi);
        return;
    }
    const tmc_summary *d = r->days;
    char verdict[48];
    fprintf(f, "<p class=\"headline\" id=\"answer-line\">P(T &le; %g days) = "
               "<strong id=\"p-deadline\" data-p=\"%.17g\" data-lo=\"%.17g\" "
               "data-hi=\"%.17g\">%.4f</strong> [%.4f, %.4f] Wilson 95 %%",
            r->x->deadline.days, d->p_met, d->ci_lo, d->ci_hi, d->p_met, d->ci_lo, d->ci_hi);
    if (r->x->observed.enabled)
        fprintf(f, ", from day %.3f", r->x->observed.elapsed_days);
    fputs("<br><small>closed form: ", f);
    tmc_html_put_text(f, tmc_assumed_output_verdict(r->x, r->cf, d, verdict, sizeof verdict));
    fputs("</small></p>\n", f);
}

static void answer_lines(FILE *f, const void *r)
{
    tmc_brief_answer(f, r);
}

static void assumed_lines(FILE *f, const void *ctx)
{
    const tmc_report *r = ctx;
    tmc_assumed_output_text(f, r->x, r->cf);
}

static void event_lines(FILE *f, const void *r)
{
    tmc_brief_events(f, r);
}

/* The events per run as the text report prints them. */
static void events(FILE *f, const tmc_report *r)
{
    char *text = tmc_html_capture(event_lines, r);
    tmc_html_section(f, "events", "What happened in a run");
    tmc_html_pre(f, "events-lines", text ? text : "");
    free(text);
    tmc_html_section_end(f);
}

static void fleet_short_line(FILE *f, const void *r)
{
    tmc_brief_fleet_short(f, r);
}

static void answer(FILE *f, const tmc_report *r)
{
    tmc_html_section(f, "answer", "The answer");
    headline(f, r);
    if (r->totals->fleet_depleted > 0) { /* why some runs never finish: before any figure */
        char *text = tmc_html_capture(fleet_short_line, r);
        fputs("<p class=\"headline\" id=\"fleet-short\">", f);
        tmc_html_put_text(f, text ? text : "");
        fputs("</p>\n", f);
        free(text);
    }
    if (!r->window)
        tmc_html_t_table(f, r->x, r->cf, r->days,
                         r->totals->censored > 0 ? r->horizon_s / TMC_DAY_S * (1 - 1e-12)
                                                 : INFINITY);
    char *text = tmc_html_capture(answer_lines, r);
    fputs("<h3>As the text report says it</h3>\n", f);
    tmc_html_pre(f, "lines", text ? text : "");
    free(text);
    tmc_html_section_end(f);
}

static void assumes(FILE *f, const tmc_report *r)
{
    tmc_html_section(f, "assumes", "What the run assumes");
    char *text = tmc_html_capture(assumed_lines, r);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force for this "
              "run.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
}

/* The rows of the wall-time split (tmc_accounting_split) that are not
 * zero, each share as a bar too; the ones at zero named in a line. */
static void wall_split(FILE *f, const tmc_report *r)
{
    const tmc_replica *t = r->totals;
    double n = (double)r->replicas, wall = t->wall_s / n;
    int zero = 0;
    tmc_html_section(f, "wall-time", "Where the wall time goes");
    fprintf(f, "<table id=\"wall-split\">\n<caption>Mean per run, %.4f days in all"
               "</caption>\n<thead><tr><th>part</th><th>days</th><th>share</th><th></th>"
               "</tr></thead>\n<tbody>\n", wall / TMC_DAY_S);
    for (int i = 0; i < tmc_accounting_split_rows; i++) {
        double s = tmc_accounting_get(t, &tmc_accounting_split[i]) / n;
        double share = wall > 0 ? 100 * s / wall : 0;
        if (s == 0)
            continue;
        fputs("<tr><td>", f);
        tmc_html_put_text(f, tmc_accounting_split[i].label);
        fprintf(f, "</td><td class=\"num\">%.4f</td><td class=\"num\">%.3f %%</td>"
                   "<td><span class=\"bar\" style=\"width:%.1fpx\"></span></td></tr>\n",
                s / TMC_DAY_S, share, 2 * share);
    }
    fputs("</tbody>\n</table>\n", f);
    for (int i = 0; i < tmc_accounting_split_rows; i++)
        if (tmc_accounting_get(t, &tmc_accounting_split[i]) == 0) {
            fputs(zero++ ? ", " : "<p>None in any run: ", f);
            tmc_html_put_text(f, tmc_accounting_split[i].label);
        }
    if (zero)
        fputs(".</p>\n", f);
    tmc_html_section_end(f);
}

static void lead(FILE *f, const tmc_report *r)
{
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, r->x->path);
    fprintf(f, ": %ld replicas, seed %llu, %s.", r->replicas, (unsigned long long)r->seed,
            r->mode == TMC_MODE_SEGMENTS ? "segment draws (exact)" : "every step drawn");
    if (r->x->source[0]) {
        fputs(" Source: ", f);
        tmc_html_put_text(f, r->x->source);
    }
    fputs("</p>\n", f);
}

static void page(FILE *f, const void *report, const char *svg, const tmc_html_meta *m)
{
    const tmc_report *r = report;
    char title[sizeof r->x->name + 16];
    snprintf(title, sizeof title, "trainmc run: %s", r->x->name);
    tmc_html_begin(f, title);
    lead(f, r);
    answer(f, r);
    assumes(f, r);
    if (svg) {
        tmc_html_section(f, "figures", "Completion time");
        tmc_html_figure(f, "fig-completion", "Completion time T: histogram of the replicas "
                                             "and its CDF, the deadline marked", svg);
        tmc_html_section_end(f);
    }
    events(f, r);
    wall_split(f, r);
    tmc_html_end(f, r->x, m);
}

char *tmc_run_html(const tmc_report *r, const char *svg, const tmc_html_meta *m)
{
    return tmc_html_page(page, r, svg, m);
}
