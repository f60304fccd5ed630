/* rescue_html.c - `trainmc rescue --html` (rescue_html.h). The sentences
 * come from the text report's functions (rescue_output.h,
 * assumed_output.h), T's table from run's (html.h). */
#define _POSIX_C_SOURCE 200809L
#include "rescue_html.h"

#include <stdlib.h>
#include <string.h>

#include "assumed_output.h"
#include "sweep_output.h"

/* The metric's name: P(T <= D days), or its JSON name. */
static void metric_name(FILE *f, const tmc_rescue *r)
{
    if (r->target.metric == TMC_SWEEP_PROBABILITY)
        fprintf(f, "P(T &le; %g days)", r->plan.x.deadline.days);
    else
        fprintf(f, "<code>%s</code>", tmc_sweep_name_metric(r->target.metric));
}

/* The metric at res as the text prints it, "V [LO, HI]", its V in a
 * <tag> whose data-* hold the figures unrounded (for a reader that compares
 * them with --json); attrs: more attributes, or "". */
static void metric_cell(FILE *f, const tmc_rescue *r, const tmc_sweep_result *res,
                        const char *tag, const char *attrs)
{
    double v, lo, hi;
    char text[96];
    tmc_sweep_estimate_metric(res, r->target.metric, &v, &lo, &hi);
    tmc_sweep_output_metric_text(r->target.metric, res, text, sizeof text);
    char *space = strchr(text, ' ');
    if (space)
        *space = '\0';
    fprintf(f, "<%s%s data-value=\"%.17g\" data-lo=\"%.17g\" data-hi=\"%.17g\">%s</%s>%s%s",
            tag, attrs, v, lo, hi, text, tag, space ? " " : "", space ? space + 1 : "");
}

static int count_found(const tmc_rescue *r)
{
    int n = 0;
    for (int i = 0; i < r->n_levers; i++)
        n += r->levers[i].outcome == TMC_RESCUE_FOUND;
    return n;
}

/* The plan as it stands: its metric with its interval, meets or misses,
 * and the closed form's verdict on its T. */
static void headline(FILE *f, const tmc_rescue *r)
{
    int met = tmc_rescue_plan_meets(r), found = count_found(r);
    char verdict[48];
    fputs("<p class=\"headline\" id=\"answer-line\">The plan as it stands: ", f);
    metric_name(f, r);
    fputs(" = ", f);
    metric_cell(f, r, &r->plan_result, "strong", " id=\"plan-metric\"");
    fprintf(f, " 95 %%, mean T %.4f days: it <strong>%s</strong> <code>", r->plan_result.days.mean,
            met ? "meets" : "misses");
    tmc_html_put_text(f, r->target.text);
    fputs("</code><br><small>", f);
    if (met)
        fputs("No change is needed", f);
    else
        fprintf(f, "%d of the %d levers alone meet%s it (below)", found, r->n_levers,
                found == 1 ? "s" : "");
    if (r->target.metric == TMC_SWEEP_PROBABILITY)
        fputs("; closed form: ", f);
    else /* its verdict is on the deadline, not on the target */
        fprintf(f, "; closed form against the %g-day deadline: ", r->plan.x.deadline.days);
    tmc_html_put_text(f, tmc_assumed_output_verdict(&r->plan.x, &r->plan.cf,
                                                    &r->plan_result.days, verdict,
                                                    sizeof verdict));
    fputs("</small></p>\n", f);
}

/* A lever without a value found: what it reached, or why not, across the
 * columns of the value found, the change and the metric. */
static void lever_outcome(FILE *f, const tmc_rescue *r, const tmc_rescue_lever *l)
{
    fputs("<td colspan=\"3\">", f);
    switch (l->outcome) {
    case TMC_RESCUE_UNREACHED:
        fputs("not reached within its bracket; the best reached: ", f);
        metric_cell(f, r, &l->search.results[l->best], "span", "");
        fprintf(f, " at %.10g", l->search.settings[l->best].value[0]);
        break;
    case TMC_RESCUE_UNDECIDED:
        fputs("undecided (not all examined): ", f);
        tmc_html_put_text(f, l->why);
        break;
    case TMC_RESCUE_REFUSED:
        fputs("refused: ", f);
        tmc_html_put_text(f, l->why);
        break;
    default:
        fputs("does not apply: ", f);
        tmc_html_put_text(f, l->why);
    }
    fputs("</td>", f);
}

/* One row: the key and what moving it does, the current value, the value
 * found, the change, the metric there; a recovery lever's closed form. */
static void lever_row(FILE *f, const tmc_rescue *r, const tmc_rescue_lever *l)
{
    char closed[96], attrs[160];
    fputs("<tr><td class=\"lever\"><code>", f); /* a key unbroken */
    tmc_html_put_text(f, l->bracket.key);
    fputs("</code><br><small>", f);
    tmc_html_put_text(f, tmc_rescue_describe_lever(l));
    if (l->outcome == TMC_RESCUE_NOT_APPLICABLE && l->kind >= TMC_RESCUE_RESTORE)
        fputs("</small></td><td class=\"num\">-</td>", f); /* -1: not given */
    else
        fprintf(f, "</small></td><td class=\"num\">%.10g</td>", l->current);
    if (l->outcome == TMC_RESCUE_FOUND) {
        double v = l->search.settings[l->found].value[0];
        fprintf(f, "<td class=\"num\">%.10g</td><td class=\"num\">%+.3f %%</td>"
                   "<td class=\"num\">", v, 100 * (v / l->current - 1));
        snprintf(attrs, sizeof attrs, " class=\"found\" data-lever=\"%s\" data-found=\"%.17g\"",
                 l->bracket.key, v);
        metric_cell(f, r, &l->search.results[l->found], "span", attrs);
        fprintf(f, "%s</td>", l->unresolved ? " (uncertain)" : "");
    } else {
        lever_outcome(f, r, l);
    }
    tmc_rescue_output_closed_text(r, l, closed, sizeof closed);
    fputs("<td>", f);
    tmc_html_put_text(f, closed[0] ? closed + 2 : ""); /* without its "; " */
    fputs("</td></tr>\n", f);
}

static void lever_table(FILE *f, const tmc_rescue *r)
{
    fputs("<table id=\"levers\">\n<caption>The smallest change of each lever alone that meets "
          "<code>", f);
    tmc_html_put_text(f, r->target.text);
    fputs("</code>, and the metric there</caption>\n<thead><tr><th>lever</th><th>current</th>"
          "<th>found</th><th>change</th><th>", f);
    metric_name(f, r);
    fputs(" there, 95 %</th><th>closed form</th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < r->n_levers; i++)
        lever_row(f, r, &r->levers[i]);
    fputs("</tbody>\n</table>\n<p>Found: the value that meets the target; its neighbour, one "
          "step nearer the plan, misses it (below). <em>uncertain</em>: the target lies "
          "inside a 95 % interval there; more replicas narrow it.</p>\n", f);
}

static void answer_lines(FILE *f, const void *r)
{
    tmc_rescue_output_answer_text(f, r);
}

static void assumed_lines(FILE *f, const void *ctx)
{
    const tmc_rescue *r = ctx;
    tmc_assumed_output_text(f, &r->plan.x, &r->plan.cf);
}

static void lever_lines(FILE *f, const void *r)
{
    tmc_rescue_output_levers_text(f, r);
}

static void answer(FILE *f, const tmc_rescue_report *rep)
{
    const tmc_rescue *r = rep->rescue;
    tmc_html_section(f, "answer", "The answer");
    headline(f, r);
    if (!tmc_rescue_plan_meets(r))
        lever_table(f, r);
    tmc_html_t_table(f, &r->plan.x, &r->plan.cf, &r->plan_result.days, INFINITY);
    char *text = tmc_html_capture(answer_lines, rep);
    fputs("<h3>As the text report says it</h3>\n", f);
    tmc_html_pre(f, "lines", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", "What the plan assumes");
    text = tmc_html_capture(assumed_lines, r);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
}

static void page(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const tmc_rescue_report *rep = report;
    (void)none; /* rescue draws no picture */
    const tmc_rescue *r = rep->rescue;
    const tmc_experiment *x = &r->plan.x;
    char title[sizeof x->name + 24];
    snprintf(title, sizeof title, "trainmc rescue: %s", x->name);
    tmc_html_begin(f, title);
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, x->path);
    int sims = tmc_rescue_output_simulations(r);
    fprintf(f, ": %s; %d simulation%s of %ld replicas, seed %llu (common random numbers: "
               "replica k meets the same interruptions at every value).",
            tmc_rescue_plan_meets(r) ? "the plan as it stands, which meets the target, so no "
                                       "lever is moved"
                                     : "the plan as it stands, then each lever alone bisected "
                                       "to the smallest change that meets the target",
            sims, sims == 1 ? "" : "s", x->monte_carlo.replicas,
            (unsigned long long)x->monte_carlo.seed);
    if (x->source[0]) {
        fputs(" Source: ", f);
        tmc_html_put_text(f, x->source);
    }
    fputs("</p>\n", f);
    answer(f, rep);
    if (!tmc_rescue_plan_meets(r)) {
        tmc_html_section(f, "levers-detail", "Each lever's bisection, as the text report "
                                             "prints it");
        char *text = tmc_html_capture(lever_lines, rep);
        tmc_html_pre(f, "table", text ? text : "");
        free(text);
        tmc_html_section_end(f);
    }
    tmc_html_end(f, x, m);
}

char *tmc_rescue_html(const tmc_rescue_report *r, const tmc_html_meta *m)
{
    return tmc_html_page(page, r, NULL, m);
}
