/* sensitivity_html.c - `trainmc sensitivity --html` (sensitivity_html.h).
 * The sentences come from the text report's functions, the tornado from
 * --plot's (sensitivity_output.h). */
#define _POSIX_C_SOURCE 200809L
#include "sensitivity_html.h"

#include <stdlib.h>

#include "assumed_output.h"

static void answer_lines(FILE *f, const void *s)
{
    tmc_sensitivity_output_answer_text(f, s);
}

static void assumed_lines(FILE *f, const void *ctx)
{
    const tmc_sensitivity *s = ctx;
    tmc_assumed_output_text(f, &s->base.setting.x, &s->base.setting.cf);
}

static void table_lines(FILE *f, const void *r)
{
    tmc_sensitivity_output_tables_text(f, r);
}

/* The base's P(deadline), data-* unrounded (--json's base), then the
 * answer's sentence. */
static void answer(FILE *f, const tmc_sensitivity *s)
{
    const tmc_summary *d = &s->base.result.days;
    tmc_html_section(f, "answer", "The answer");
    fprintf(f, "<p class=\"headline\">At the base: P(T &le; %g days) = <strong data-p=\"%.17g\" "
               "data-lo=\"%.17g\" data-hi=\"%.17g\">%.4f</strong> [%.4f, %.4f] Wilson 95 %%"
               "<br><small>mean T %.4f &plusmn; %.4f days</small></p>\n",
            s->base.setting.x.deadline.days, d->p_met, d->ci_lo, d->ci_hi, d->p_met, d->ci_lo,
            d->ci_hi, d->mean, d->se);
    char *text = tmc_html_capture(answer_lines, s);
    tmc_html_pre(f, "lines", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", "What the base assumes");
    text = tmc_html_capture(assumed_lines, s);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
}

static void page(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const tmc_sensitivity_report *r = report;
    (void)none; /* its tornado is drawn here */
    const tmc_sensitivity *s = r->s;
    const tmc_experiment *x = &s->base.setting.x;
    char title[sizeof x->name + 24];
    snprintf(title, sizeof title, "trainmc sensitivity: %s", x->name);
    tmc_html_begin(f, title);
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, x->path);
    fprintf(f, ": %d inputs, each at its two ends, %ld replicas a setting, seed %llu (common "
               "random numbers).</p>\n", s->n_inputs, x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed);
    answer(f, s);
    tmc_html_section(f, "figures", "The tornado");
    char *svg = tmc_sensitivity_output_svg(r);
    tmc_html_figure(f, "fig-tornado", "Each input's low and high end against the base, for "
                                      "T and for P(deadline)", svg);
    free(svg);
    tmc_html_section_end(f);
    tmc_html_section(f, "tables", "Every input, as the text report prints it");
    char *text = tmc_html_capture(table_lines, r);
    tmc_html_pre(f, "table", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_end(f, x, m);
}

char *tmc_sensitivity_html(const tmc_sensitivity_report *r, const tmc_html_meta *m)
{
    return tmc_html_page(page, r, NULL, m);
}
