/* sweep_html.c - `trainmc sweep --html` (sweep_html.h). The sentences come
 * from the functions of the text report (sweep_output.h, assumed_output.h),
 * the picture from --plot's (plot.h). */
#define _POSIX_C_SOURCE 200809L
#include "sweep_html.h"

#include <stdlib.h>

#include "assumed_output.h"
#include "sweep_output.h"

/* P(deadline) of setting i with its interval, data-* unrounded (for a
 * reader that compares them with --json's settings[i]). */
static void p_cell(FILE *f, const tmc_sweep_report *r, int i, const char *tag)
{
    const tmc_summary *d = &r->results[i].days;
    fprintf(f, "<%s class=\"p\" data-setting=\"%d\" data-p=\"%.17g\" data-lo=\"%.17g\" "
               "data-hi=\"%.17g\">%.4f</%s> [%.4f, %.4f]", tag, i, d->p_met, d->ci_lo,
            d->ci_hi, d->p_met, tag, d->ci_lo, d->ci_hi);
}

/* "WHAT LABEL: P(T <= D days) = P [LO, HI] Wilson 95 %, T MEAN +- SE days". */
static void answer_line(FILE *f, const tmc_sweep_report *r, const char *what, int i)
{
    const tmc_summary *d = &r->results[i].days;
    fputs("<p class=\"headline\">", f);
    tmc_html_put_text(f, what);
    fputs(" <code>", f);
    tmc_html_put_text(f, r->settings[i].label);
    fprintf(f, "</code>:<br>P(T &le; %g days) = ", r->settings[i].x.deadline.days);
    p_cell(f, r, i, "strong");
    fprintf(f, " Wilson 95 %%<br><small>mean T %.4f &plusmn; %.4f days</small></p>\n",
            d->mean, d->se);
}

static void assumed_lines(FILE *f, const void *ctx)
{
    const tmc_sweep_setting *s = ctx;
    tmc_assumed_output_text(f, &s->x, &s->cf);
}

static void table_lines(FILE *f, const void *r)
{
    tmc_sweep_output_table_text(f, r);
}

static void answer(FILE *f, const tmc_sweep_report *r)
{
    tmc_html_section(f, "answer", "The answer");
    answer_line(f, r, "The lowest mean T at", r->reference);
    int p = tmc_sweep_output_best_p(r);
    if (p != r->reference)
        answer_line(f, r, "The highest P(deadline) at", p);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", "What the reference setting assumes");
    char *text = tmc_html_capture(assumed_lines, &r->settings[r->reference]);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force for this "
              "setting.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
}

/* Every setting's T and P beside Daly's T (the closed form drawn dashed):
 * a column per swept key (a two-key label in one cell wrapped unreadably). */
static void settings_table(FILE *f, const tmc_sweep_report *r)
{
    tmc_html_section(f, "settings", "Every setting");
    fputs("<table id=\"settings\">\n<thead><tr>", f);
    for (int a = 0; a < r->n_axes; a++) {
        fputs("<th><code>", f);
        tmc_html_put_text(f, r->axes[a].key);
        fputs("</code></th>", f);
    }
    fputs("<th>mean T (days)</th><th>Daly's T (days)</th><th>P(T &le; deadline), Wilson 95 %"
          "</th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < r->n; i++) {
        const tmc_summary *d = &r->results[i].days;
        fputs("<tr>", f);
        for (int a = 0; a < r->n_axes; a++)
            fprintf(f, "<td class=\"num\">%.10g%s</td>", r->settings[i].value[a],
                    a == r->n_axes - 1 && i == r->reference ? " (reference)" : "");
        fprintf(f, "<td class=\"num\">%.4f &plusmn; %.4f</td><td class=\"num\">%.3f</td>"
                   "<td class=\"num\">", d->mean, d->se, r->settings[i].cf.completion_days_daly);
        p_cell(f, r, i, "span");
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n<h3>As the text report prints it</h3>\n", f);
    char *text = tmc_html_capture(table_lines, r);
    tmc_html_pre(f, "table", text ? text : "");
    free(text);
    tmc_html_section_end(f);
}

static void page(FILE *f, const void *report, const char *svg, const tmc_html_meta *m)
{
    const tmc_sweep_report *r = report;
    const tmc_experiment *x = &r->base->x;
    char title[sizeof x->name + 16];
    snprintf(title, sizeof title, "trainmc sweep: %s", x->name);
    tmc_html_begin(f, title);
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, x->path);
    fprintf(f, ": %d settings of ", r->n);
    for (int a = 0; a < r->n_axes; a++) {
        fputs(a ? " &times; <code>" : "<code>", f);
        tmc_html_put_text(f, r->axes[a].key);
        fputs("</code>", f);
    }
    fprintf(f, ", %ld replicas each, seed %llu; replica k meets the same interruptions at "
               "every setting (common random numbers).</p>\n", x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed);
    answer(f, r);
    char caption[3 * TMC_SWEEP_KEY_LEN + 160];
    snprintf(caption, sizeof caption, "Mean T and P(deadline) against %s%s%s, with their 95 %% "
             "intervals and the closed form", r->axes[0].key,
             r->n_axes > 1 ? ", a line per value of " : "", r->n_axes > 1 ? r->axes[1].key : "");
    tmc_html_section(f, "figures", "The sweep");
    tmc_html_figure(f, "fig-sweep", caption, svg);
    tmc_html_section_end(f);
    settings_table(f, r);
    tmc_html_end(f, x, m);
}

char *tmc_sweep_html(const tmc_sweep_report *r, const char *svg, const tmc_html_meta *m)
{
    return tmc_html_page(page, r, svg, m);
}
