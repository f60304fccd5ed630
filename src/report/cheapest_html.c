/* cheapest_html.c - `trainmc cheapest --html` (cheapest_html.h). The
 * sentences come from the text report's functions, the picture from
 * --plot's (cheapest_output.h), T's table from run's (html.h). */
#define _POSIX_C_SOURCE 200809L
#include "cheapest_html.h"

#include <stdlib.h>

#include "assumed_output.h"

static int count_fresh(const tmc_cheapest *c, int fresh)
{
    int n = 0;
    for (int i = 0; i < c->n_plans; i++)
        n += c->plans[i].fresh == fresh;
    return n;
}

/* The chosen plan in one paragraph: its label, P(deadline) and its cost with
 * their intervals, data-* unrounded (for a reader that compares them with
 * --json's chosen), and the closed form's verdict on its T. */
static void chosen_line(FILE *f, const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    const tmc_cheapest_plan *p = &c->plans[c->chosen];
    double d = c->base.x.deadline.days, lo = p->cost - 1.96 * p->cost_se,
           hi = p->cost + 1.96 * p->cost_se;
    char label[400], verdict[48];
    tmc_cheapest_format_plan(c, p, label, sizeof label);
    fprintf(f, "<p class=\"headline\" id=\"answer-line\">The cheapest plan whose P(T &le; %g "
               "days) is at least %.10g:<br><code id=\"chosen-plan\">", d, c->target.value);
    tmc_html_put_text(f, label);
    fprintf(f, "</code><br>P(T &le; %g days) = <strong id=\"p-deadline\" data-p=\"%.17g\" "
               "data-lo=\"%.17g\" data-hi=\"%.17g\">%.4f</strong> [%.4f, %.4f] Wilson 95 %%"
               "<br>expected cost (%s) <strong id=\"cost\" data-cost=\"%.17g\" "
               "data-cost-lo=\"%.17g\" data-cost-hi=\"%.17g\">%.2f</strong> [%.2f, %.2f] 95 %%, "
               "%ld cards held<br><small>on fresh replicas (seed %llu), which played no part in "
               "making it a finalist; mean T %.4f days; closed form: ",
            d, p->p, p->p_lo, p->p_hi, p->p, p->p_lo, p->p_hi, tmc_cheapest_name_unit(c),
            p->cost, lo, hi, p->cost, lo, hi, p->cards_held, (unsigned long long)c->fresh_seed,
            p->result.days.mean);
    if (r->chosen)
        tmc_html_put_text(f, tmc_assumed_output_verdict(&r->chosen->x, &r->chosen->cf,
                                                        &p->result.days, verdict,
                                                        sizeof verdict));
    fputs("</small></p>\n", f);
}

/* No plan chosen: why, in one line (the text lines below say more). */
static void none_line(FILE *f, const tmc_cheapest *c)
{
    fputs("<p class=\"headline\" id=\"answer-line\">", f);
    if (c->n_finalists)
        fputs("No finalist meets ", f);
    else if (c->n_undecided)
        fputs("Undecided: no plan run meets ", f);
    else
        fputs("No plan meets ", f);
    fputs("<code>", f);
    tmc_html_put_text(f, c->target.text);
    fprintf(f, "</code><br><small>%s; %d plans run</small></p>\n",
            c->n_finalists  ? "on the fresh replicas: the boundary is not resolved"
            : c->n_undecided ? "some combinations were not searched to the end"
                             : "within the levers' ranges",
            count_fresh(c, 0));
}

static void answer_lines(FILE *f, const void *r)
{
    tmc_cheapest_output_answer_text(f, r);
}

static void assumed_lines(FILE *f, const void *r)
{
    tmc_cheapest_output_assumed_text(f, r);
}

static void table_lines(FILE *f, const void *r)
{
    tmc_cheapest_output_tables_text(f, r);
}

/* The answer, the chosen plan's T beside the closed forms, the answer's
 * lines as printed; then what the chosen plan assumes. */
static void answer(FILE *f, const tmc_cheapest_report *r)
{
    const tmc_cheapest *c = r->c;
    tmc_html_section(f, "answer", "The answer");
    if (c->chosen >= 0) {
        chosen_line(f, r);
        if (r->chosen)
            tmc_html_t_table(f, &r->chosen->x, &r->chosen->cf, &c->plans[c->chosen].result.days,
                             INFINITY);
    } else {
        none_line(f, c);
    }
    char *text = tmc_html_capture(answer_lines, r);
    fputs("<h3>As the text report says it</h3>\n", f);
    tmc_html_pre(f, "lines", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", c->chosen >= 0 ? "What the chosen plan assumes"
                                                  : "What the experiment assumes");
    text = tmc_html_capture(assumed_lines, r);
    if (!tmc_html_lines(f, "assumed", text ? text : ""))
        fputs("<p>No optimistic default or time-limit warning is in force.</p>\n", f);
    free(text);
    tmc_html_section_end(f);
}

/* The final comparison: each fresh plan's P and cost, cheapest first. */
static void finalists(FILE *f, const tmc_cheapest *c)
{
    int idx[2 * TMC_CHEAPEST_FINALISTS], n = tmc_cheapest_output_finalists(c, idx);
    fprintf(f, "<table id=\"finalists\">\n<caption>The %d cheapest plans that meet on the "
               "search replicas, each also with one %s more, re-run on fresh replicas (seed "
               "%llu)</caption>\n<thead><tr><th>plan</th><th>P(T &le; %g days), Wilson 95 %%"
               "</th><th>expected cost (%s) &plusmn; se</th><th>cards held</th>"
               "<th>meets the target</th></tr></thead>\n<tbody>\n", TMC_CHEAPEST_FINALISTS,
            c->levers.card_step > 1 ? "node" : "card", (unsigned long long)c->fresh_seed,
            c->base.x.deadline.days, tmc_cheapest_name_unit(c));
    for (int k = 0; k < n; k++) {
        const tmc_cheapest_plan *p = &c->plans[idx[k]];
        char label[400];
        tmc_cheapest_format_plan(c, p, label, sizeof label);
        fputs("<tr><td><code>", f);
        tmc_html_put_text(f, label);
        fprintf(f, "</code>%s</td>", idx[k] == c->chosen ? " <strong>(chosen)</strong>" : "");
        if (p->refused) {
            fputs("<td colspan=\"4\">refused: ", f);
            tmc_html_put_text(f, p->why);
            fputs("</td></tr>\n", f);
            continue;
        }
        fprintf(f, "<td class=\"num\"><span class=\"p\" data-p=\"%.17g\" data-lo=\"%.17g\" "
                   "data-hi=\"%.17g\">%.4f</span> [%.4f, %.4f]</td><td class=\"num\">%.2f "
                   "&plusmn; %.2f</td><td class=\"num\">%ld</td><td>%s</td></tr>\n",
                p->p, p->p_lo, p->p_hi, p->p, p->p_lo, p->p_hi, p->cost, p->cost_se,
                p->cards_held, p->meets ? "yes" : "no");
    }
    fputs("</tbody>\n</table>\n", f);
}

static void lead(FILE *f, const tmc_cheapest *c)
{
    const tmc_experiment *x = &c->base.x;
    fputs("<p class=\"lead\">", f);
    tmc_html_put_text(f, x->path);
    fprintf(f, ": the plan of lowest expected cost (%s) whose P(T &le; %g days) is at least "
               "%.10g, searched over job.cards %ld to %ld", tmc_cheapest_name_unit(c),
            x->deadline.days, c->target.value, c->levers.cards_lo, c->levers.cards_hi);
    if (c->n_combos > 1)
        fprintf(f, " and %d combinations of the other levers", c->n_combos);
    fprintf(f, "; %d plans on %ld replicas (seed %llu)", count_fresh(c, 0),
            x->monte_carlo.replicas, (unsigned long long)x->monte_carlo.seed);
    if (count_fresh(c, 1))
        fprintf(f, ", then %d on fresh replicas (seed %llu)", count_fresh(c, 1),
                (unsigned long long)c->fresh_seed);
    fputs("; common random numbers.", f);
    if (x->source[0]) {
        fputs(" Source: ", f);
        tmc_html_put_text(f, x->source);
    }
    fputs("</p>\n", f);
}

static void page(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const tmc_cheapest_report *r = report;
    (void)none; /* its frontier is drawn here */
    const tmc_cheapest *c = r->c;
    char title[sizeof c->base.x.name + 24];
    snprintf(title, sizeof title, "trainmc cheapest: %s", c->base.x.name);
    tmc_html_begin(f, title);
    lead(f, c);
    answer(f, r);
    tmc_html_section(f, "figures", "The cost-probability frontier");
    char *svg = tmc_cheapest_output_svg(r);
    const char *caption = c->chosen >= 0 ? "Every plan's expected cost against its "
                                           "P(deadline): the frontier with its Wilson 95 % "
                                           "intervals, the target dashed, the chosen plan ringed"
                                         : "Every plan's expected cost against its "
                                           "P(deadline): the frontier with its Wilson 95 % "
                                           "intervals, the target dashed (no plan chosen)";
    tmc_html_figure(f, "fig-frontier", caption, svg);
    free(svg);
    tmc_html_section_end(f);
    tmc_html_section(f, "plans", "The plans");
    if (c->n_finalists)
        finalists(f, c);
    fputs("<h3>The search, the final comparison and the frontier, as the text report prints "
          "them</h3>\n", f);
    char *text = tmc_html_capture(table_lines, r);
    tmc_html_pre(f, "table", text ? text : "");
    free(text);
    tmc_html_section_end(f);
    tmc_html_end(f, &c->base.x, m);
}

char *tmc_cheapest_html(const tmc_cheapest_report *r, const tmc_html_meta *m)
{
    return tmc_html_page(page, r, NULL, m);
}
