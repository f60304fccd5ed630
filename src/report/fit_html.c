/* fit_html.c - `trainmc fit --html` (fit_html.h). The headline and the
 * tables are the result's fields; every other part is the text report's
 * own lines (fit.h, step_fit.h, sacct_output.h), so the page and the
 * terminal say the same. */
#define _POSIX_C_SOURCE 200809L
#include "fit_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- what the three pages share ---------- */

/* A figure with its interval: the printed value (%.4g) and data-* with
 * every digit, for a reader that compares them with --json. An infinite
 * end prints as "inf" (--json's null). */
static void figure(FILE *f, const char *what, double v, double lo, double hi)
{
    fprintf(f, "<strong data-what=\"%s\" data-value=\"%.17g\" data-lo=\"%.17g\" "
               "data-hi=\"%.17g\">%.4g</strong> [%.4g, %.4g]", what, v, lo, hi, v, lo, hi);
}

/* A table cell holding v [lo, hi] to 4 digits. */
static void interval_cell(FILE *f, double v, double lo, double hi)
{
    fprintf(f, "<td class=\"num\">%.4g [%.4g, %.4g]</td>", v, lo, hi);
}

/* The length of a block's heading: its first line, and the lines after it
 * that continue it (an open parenthesis not yet closed, or a line that
 * starts "/ ", the rest of a fraction). */
static size_t heading_length(const char *block, size_t len)
{
    int open = 0;
    size_t i = 0;
    for (;;) {
        for (; i < len && block[i] != '\n'; i++)
            open += (block[i] == '(') - (block[i] == ')');
        if (i >= len)
            return len;
        const char *next = block + i + 1 + strspn(block + i + 1, " ");
        if (open <= 0 && strncmp(next, "/ ", 2))
            return i;
        i++;
    }
}

/* One block of the text report: its heading (heading_length; its lines
 * joined) and the rest as printed. Blocks are separated by blank lines. */
static void text_block(FILE *f, int index, const char *block, size_t len)
{
    size_t head = heading_length(block, len);
    char id[32], *heading = strndup(block, head);
    char *body = head < len ? strndup(block + head + 1, len - head - 1) : NULL;
    if (heading) /* the lines joined by one space */
        for (char *r = heading, *w = heading;; r++) {
            if (*r == '\n') {
                r += strspn(r + 1, " ");
                *r = ' ';
            }
            if (!(*w++ = *r))
                break;
        }
    snprintf(id, sizeof id, "part-%d", index);
    tmc_html_section(f, id, heading ? heading : "");
    if (body && *body)
        tmc_html_pre(f, "lines", body);
    tmc_html_section_end(f);
    free(heading);
    free(body);
}

/* 1 when the block starts with one of skip's prefixes (NULL-terminated):
 * a part the page shows as a table of its own. */
static int skipped(const char *block, const char *const *skip)
{
    for (; skip && *skip; skip++)
        if (!strncmp(block, *skip, strlen(*skip)))
            return 1;
    return 0;
}

/* The text report's parts after its first (the log and its exposure, shown
 * at the top), but the one that starts "Answer:" (the headline's) and
 * those in skip. */
static void text_parts(FILE *f, const char *text, const char *const *skip)
{
    int index = 0;
    for (const char *p = text; *p;) {
        const char *end = strstr(p, "\n\n");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len && p[len - 1] == '\n')
            len--;
        if (index > 0 && len && strncmp(p, "Answer:", 7) && !skipped(p, skip))
            text_block(f, index, p, len);
        index++;
        p += end ? (size_t)(end - p) + 2 : strlen(p);
        p += strspn(p, "\n");
    }
}

/* The text report's first part (what was read) as the page's lead, and
 * its "Answer:" part below the headline. */
static void text_first(FILE *f, const char *text, int answer)
{
    const char *end = strstr(text, "\n\n");
    if (!answer) {
        char *first = strndup(text, end ? (size_t)(end - text) : strlen(text));
        tmc_html_pre(f, "lines", first ? first : "");
        free(first);
        return;
    }
    const char *a = strstr(text, "\nAnswer:");
    if (!a)
        return;
    a++;
    const char *stop = strstr(a, "\n\n");
    char *part = strndup(a, stop ? (size_t)(stop - a) : strlen(a));
    tmc_html_pre(f, "lines", part ? part : "");
    free(part);
}

/* The words of a line before its first ':' or '(' (at most cap - 1),
 * trailing spaces dropped. */
static void label_of(char *out, size_t cap, const char *line)
{
    size_t n = strcspn(line, ":(\n");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), line);
    for (size_t k = strlen(out); k && out[k - 1] == ' ';)
        out[--k] = '\0';
}

/* Every "-> ..." line of the text report, after the heading of its part
 * and the label of the line it concludes ("  per node: ..."): the
 * report's verdicts as a list. */
static void verdicts(FILE *f, const char *text)
{
    char heading[256] = "", sub[128] = "";
    int n = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *t = p + strspn(p, " ");
        if (p[0] != ' ' && len) {
            label_of(heading, sizeof heading, p);
            sub[0] = '\0';
        } else if (!strncmp(t, "-> ", 3)) {
            fputs(n++ ? "" : "<ul class=\"assumed\">\n", f);
            fputs("<li><strong>", f);
            tmc_html_put_text(f, heading);
            if (sub[0]) {
                fputs(", ", f);
                tmc_html_put_text(f, sub);
            }
            fputs(":</strong> ", f);
            char *line = strndup(t + 3, len - (size_t)(t + 3 - p));
            tmc_html_put_text(f, line ? line : "");
            free(line);
            fputs("</li>\n", f);
        } else if (t - p == 2 && len > 2)
            label_of(sub, sizeof sub, t);
        p += len + (end != NULL);
    }
    if (n)
        fputs("</ul>\n", f);
}

/* The lines of the text report's part that starts with prefix, but its
 * heading, as a list, each line's leading blanks dropped. */
static void text_list(FILE *f, const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    const char *p = !strncmp(text, prefix, n) ? text : NULL;
    for (const char *q = strstr(text, "\n\n"); !p && q; q = strstr(q + 1, "\n\n"))
        if (!strncmp(q + 2, prefix, n))
            p = q + 2;
    const char *q = p ? strchr(p, '\n') : NULL;
    if (!q)
        return;
    const char *stop = strstr(q, "\n\n");
    stop = stop ? stop : q + strlen(q);
    fputs("<ul class=\"assumed\">\n", f);
    for (q++; q < stop;) {
        const char *e = memchr(q, '\n', (size_t)(stop - q));
        e = e ? e : stop;
        const char *t = q + strspn(q, " ");
        char *item = t < e ? strndup(t, (size_t)(e - t)) : NULL;
        if (item) {
            fputs("<li>", f);
            tmc_html_put_text(f, item);
            fputs("</li>\n", f);
        }
        free(item);
        q = e + 1;
    }
    fputs("</ul>\n", f);
}

/* The document --write wrote, as written. */
static void written(FILE *f, const tmc_fit_html_written *w, const char *what)
{
    if (!w || !w->doc)
        return;
    tmc_html_section(f, "written", "What --write wrote");
    fputs("<p>", f);
    tmc_html_put_text(f, what);
    fputs(", written to <code>", f);
    tmc_html_put_text(f, w->path);
    fputs("</code>:</p>\n", f);
    char *text = cJSON_Print(w->doc);
    for (char *t = text; t && *t; t++) /* cJSON indents with tabs: a tab is wide */
        if (*t == '\t')
            *t = ' ';
    tmc_html_pre(f, "lines", text ? text : "(out of memory)");
    free(text);
    tmc_html_section_end(f);
}

/* The page's top: title, the log, what was read. */
static void top(FILE *f, const char *title, const char *path, const char *text)
{
    char t[512];
    snprintf(t, sizeof t, "%s: %s", title, path);
    tmc_html_begin(f, t);
    fputs("<p class=\"lead\">What was read:</p>\n", f);
    text_first(f, text, 0);
}

/* The rest after the answer: the verdicts, the text's parts, --write's
 * document, the version and the command (no experiment). */
static void bottom(FILE *f, const char *text, const char *const *skip,
                   const tmc_fit_html_written *w, const char *what, const tmc_html_meta *m)
{
    text_parts(f, text, skip);
    written(f, w, what);
    tmc_html_end(f, NULL, m);
}

/* ---------- a fault log ---------- */

typedef struct {
    const tmc_fit_result *r;
    const tmc_fit_html_written *w;
} fault_page;

static void fault_text(FILE *f, const void *r)
{
    tmc_fit_output_text(f, r);
}

static void fault_rates(FILE *f, const tmc_fit_result *r)
{
    fprintf(f, "<table class=\"rates\">\n<thead><tr><th>who</th><th>faults per day up [%g %%]</th>"
               "<th>days up between faults [%g %%]</th><th>calendar days between faults "
               "(down time included)</th></tr></thead>\n<tbody>\n",
            100 * r->opt.confidence, 100 * r->opt.confidence);
    const char *who[] = {"cluster (every node up)", "a node", "a card"};
    const tmc_fit_interval *rate[] = {&r->rate_cluster, &r->rate_node, &r->rate_card};
    const tmc_fit_interval *mtbf[] = {&r->mtbf_cluster, &r->mtbf_node, &r->mtbf_card};
    const double calendar[] = {r->calendar_cluster, r->calendar_node, r->calendar_card};
    for (int i = 0; i < 3; i++) {
        fprintf(f, "<tr><td>%s</td>", who[i]);
        interval_cell(f, rate[i]->value, rate[i]->lo, rate[i]->hi);
        interval_cell(f, mtbf[i]->value, mtbf[i]->lo, mtbf[i]->hi);
        fprintf(f, "<td class=\"num\">%.4g</td></tr>\n", calendar[i]);
    }
    fputs("</tbody>\n</table>\n", f);
}

/* The cause mix with a bar per cause (its share: a length, and the number). */
static void fault_causes(FILE *f, const tmc_fit_result *r)
{
    tmc_html_section(f, "causes", "Cause mix");
    fputs("<table class=\"causes\">\n<thead><tr><th>cause (Class)</th><th>faults</th>"
          "<th>share</th><th></th></tr></thead>\n<tbody>\n", f);
    for (int i = 0; i < r->n_causes; i++) {
        double share = r->n_faults ? (double)r->causes[i].count / r->n_faults : 0;
        fputs("<tr><td>", f);
        tmc_html_put_text(f, r->causes[i].name);
        fprintf(f, "</td><td class=\"num\">%d</td><td class=\"num\">%.1f %%</td><td>"
                   "<span class=\"bar\" style=\"width:%.1fpx\"></span></td></tr>\n",
                r->causes[i].count, 100 * share, 1 + 200 * share);
    }
    fputs("</tbody>\n</table>\n", f);
    tmc_html_section_end(f);
}

static void fault_answer(FILE *f, const tmc_fit_result *r, const char *text)
{
    tmc_html_section(f, "answer", "The answer");
    fputs("<p class=\"headline\">A card fails every ", f);
    figure(f, "mtbf_card", r->mtbf_card.value, r->mtbf_card.lo, r->mtbf_card.hi);
    fputs(" days up<br><small>a node every ", f);
    figure(f, "mtbf_node", r->mtbf_node.value, r->mtbf_node.lo, r->mtbf_node.hi);
    fprintf(f, " days up; %g %% exact Poisson intervals (Garwood); %d faults over %.0f "
               "card-days up</small></p>\n", 100 * r->opt.confidence, r->n_faults,
            r->up_card_days);
    text_first(f, text, 1);
    fault_rates(f, r);
    tmc_html_section_end(f);
    tmc_html_section(f, "verdicts", "What the log says of the model");
    if (r->repair_ok) {
        const tmc_repair_fit *p = &r->repair;
        fprintf(f, "<p>Repair time: <strong>%s</strong> by AIC among %d repairs; mean %.4g "
                   "days (%.4g h).</p>\n", p->law[p->best].name, p->n, p->mean_days,
                24 * p->mean_days);
    }
    verdicts(f, text);
    tmc_html_section_end(f);
    fault_causes(f, r);
}

static void fault(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const fault_page *pg = report;
    (void)none;
    char *text = tmc_html_capture(fault_text, pg->r);
    top(f, "trainmc fit", pg->r->opt.log_path, text ? text : "");
    fault_answer(f, pg->r, text ? text : "");
    static const char *const skip[] = {"Failure rate per day up", "Cause mix", NULL};
    bottom(f, text ? text : "", skip, pg->w, "The failures distribution file an experiment "
                                             "names", m);
    free(text);
}

char *tmc_fit_html(const tmc_fit_result *r, const tmc_fit_html_written *w,
                   const tmc_html_meta *m)
{
    fault_page pg = {r, w};
    return tmc_html_page(fault, &pg, NULL, m);
}

/* ---------- a step-time log ---------- */

typedef struct {
    const tmc_step_fit *r;
    const tmc_step_log *log;
    const char *path;
    const tmc_fit_html_written *w;
} step_page;

static void step_text(FILE *f, const void *ctx)
{
    const step_page *pg = ctx;
    tmc_step_fit_output_text(f, pg->r, pg->log, pg->path);
}

static void step_answer(FILE *f, const tmc_step_fit *r)
{
    tmc_html_section(f, "answer", "The answer");
    fputs("<p class=\"headline\">Per-card jitter: cv ", f);
    figure(f, "cv", r->cv, r->cv_lo, r->cv_hi);
    fputs("<br><small>correlation ", f);
    figure(f, "correlation", r->rho, r->rho_lo, r->rho_hi);
    fprintf(f, "; law %s by AIC; %g %% intervals (cv: delta method; correlation: exact F)"
               "</small></p>\n", r->best >= 0 ? r->law[r->best].name : "none",
            100 * r->confidence);
    fprintf(f, "<table class=\"cn\">\n<thead><tr><th>the slowest of %d cards</th><th>c_N</th>"
               "</tr></thead>\n<tbody>\n<tr><td>of the run (mean of the step maxima)</td>"
               "<td class=\"num\">%.4f &plusmn; %.2g (se)</td></tr>\n<tr><td>closed form, "
               "normal</td><td class=\"num\">%.4f</td></tr>\n",
            r->n_kept, r->cn_empirical, r->cn_se, r->cn_normal);
    if (r->best >= 0 && r->best != TMC_STEP_LAW_NORMAL)
        fprintf(f, "<tr><td>closed form, fitted %s</td><td class=\"num\">%.4f</td></tr>\n",
                r->law[r->best].name, r->cn_law);
    fprintf(f, "</tbody>\n</table>\n<p>%d of %d ranks kept (%d persistently slow set "
               "aside); %d steps.</p>\n", r->n_kept, r->n_ranks, r->n_slow, r->n_steps);
    tmc_html_section_end(f);
}

static void steps(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const step_page *pg = report;
    (void)none;
    char *text = tmc_html_capture(step_text, pg);
    top(f, "trainmc fit --steps", pg->path, text ? text : "");
    step_answer(f, pg->r);
    bottom(f, text ? text : "", NULL, pg->w, "The jitter distribution file an experiment "
                                             "names", m);
    free(text);
}

char *tmc_step_fit_html(const tmc_step_fit *r, const tmc_step_log *log, const char *path,
                        const tmc_fit_html_written *w, const tmc_html_meta *m)
{
    step_page pg = {r, log, path, w};
    return tmc_html_page(steps, &pg, NULL, m);
}

/* ---------- a training log (--steps LOG --cards N) ---------- */

static void train_text(FILE *f, const void *ctx)
{
    const tmc_train_step_report *p = ctx;
    tmc_train_step_output_text(f, p->r, p->log, p->path, p->form);
}

static void train_answer(FILE *f, const tmc_train_step_fit *r, const char *text)
{
    tmc_html_section(f, "answer", "The answer");
    fputs("<p class=\"headline\">A card's step time: mu ", f);
    figure(f, "mu_s", r->mu_s.value, r->mu_s.lo, r->mu_s.hi);
    fputs(" s<br><small>cv ", f);
    figure(f, "cv", r->cv.value, r->cv.lo, r->cv.hi);
    fprintf(f, " for the slowest of N = %ld cards; pace ", r->cards);
    figure(f, "pace_s", r->pace_s.value, r->pace_s.lo, r->pace_s.hi);
    fprintf(f, " s per step; %g %% intervals, delta method</small></p>\n",
            100 * r->confidence);
    text_first(f, text, 1);
    tmc_html_section_end(f);
    tmc_html_section(f, "assumes", "What the fit assumes (the log cannot tell)");
    text_list(f, text, "Assumed");
    tmc_html_section_end(f);
}

typedef struct {
    const tmc_train_step_report *p;
    const tmc_fit_html_written *w;
} train_page;

static void train(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const train_page *pg = report;
    (void)none;
    char *text = tmc_html_capture(train_text, pg->p);
    top(f, "trainmc fit --steps", pg->p->path, text ? text : "");
    train_answer(f, pg->p->r, text ? text : "");
    static const char *const skip[] = {"Assumed", NULL};
    bottom(f, text ? text : "", skip, pg->w, "The jitter distribution file an experiment "
                                             "names", m);
    free(text);
}

char *tmc_train_step_html(const tmc_train_step_report *p, const tmc_fit_html_written *w,
                          const tmc_html_meta *m)
{
    train_page pg = {p, w};
    return tmc_html_page(train, &pg, NULL, m);
}

/* ---------- SLURM accounting ---------- */

typedef struct {
    const tmc_sacct_report *p;
    const tmc_fit_html_written *w;
} sacct_page;

static void sacct_text(FILE *f, const void *p)
{
    tmc_sacct_output_text(f, p);
}

static const char *const sacct_what[TMC_SACCT_RATES] = {"A node fails every",
                                                         "the job fails every",
                                                         "an outage every"};

/* The states the table in use maps to cause c, escaped. */
static void sacct_states(FILE *f, const tmc_sacct_map *map, int c)
{
    int n = 0;
    for (int i = 0; i < map->n; i++)
        if ((int)map->row[i].cause == c) {
            fputs(n++ ? ", " : "", f);
            tmc_html_put_text(f, map->row[i].state);
        }
    if (!n)
        fputs("(none)", f);
}

/* Every cause: its allocations, and for the three with a rate its
 * exposure, rate and mean time between, Garwood's interval. */
static void sacct_rates(FILE *f, const tmc_sacct_report *p)
{
    const tmc_sacct_fit *r = p->fit;
    fprintf(f, "<table class=\"rates\">\n<thead><tr><th>cause</th><th>allocations</th>"
               "<th>exposure, hours</th><th>per hour [%g %%]</th><th>hours between "
               "[%g %%]</th><th>states</th></tr></thead>\n<tbody>\n", 100 * r->confidence,
            100 * r->confidence);
    for (int c = 0; c < TMC_SACCT_CAUSES; c++) {
        fprintf(f, "<tr><td>%s</td><td class=\"num\">%d</td>", tmc_sacct_cause_names[c],
                r->count[c]);
        if (c < TMC_SACCT_RATES) {
            const tmc_sacct_rate *x = &r->rate[c];
            fprintf(f, "<td class=\"num\">%.6g %s</td>", x->exposure_hours,
                    c == TMC_SACCT_NODE ? "node" : "job");
            interval_cell(f, x->rate, x->rate_lo, x->rate_hi);
            interval_cell(f, x->mean_hours, x->mean_lo, x->mean_hi);
        } else
            fputs("<td></td><td></td><td></td>", f);
        fputs("<td>", f);
        sacct_states(f, p->map, c);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
}

static void sacct_answer(FILE *f, const tmc_sacct_report *p, const char *text)
{
    const tmc_sacct_fit *r = p->fit;
    tmc_html_section(f, "answer", "The answer");
    fputs("<p class=\"headline\">", f);
    for (int c = 0; c < TMC_SACCT_RATES; c++) {
        const tmc_sacct_rate *x = &r->rate[c];
        fprintf(f, "%s%s ", c ? "<br><small>" : "", sacct_what[c]);
        figure(f, tmc_sacct_cause_names[c], x->mean_hours, x->mean_lo, x->mean_hi);
        fprintf(f, " %s (%d)%s", c == TMC_SACCT_NODE ? "node-hours" : "job-hours", x->count,
                c ? "</small>" : "");
    }
    fprintf(f, "</p>\n<p>%g %% exact Poisson intervals (Garwood); requeue wait %.4g h mean "
               "over %d; time limit %.4g h (the median of %d TIMEOUT).</p>\n",
            100 * r->confidence, r->waits.mean, r->waits.n, r->timeout.median, r->timeout.n);
    text_first(f, text, 1);
    sacct_rates(f, p);
    tmc_html_section_end(f);
}

static void sacct(FILE *f, const void *report, const char *none, const tmc_html_meta *m)
{
    const sacct_page *pg = report;
    (void)none;
    char *text = tmc_html_capture(sacct_text, pg->p);
    top(f, "trainmc fit --sacct", pg->p->path, text ? text : "");
    sacct_answer(f, pg->p, text ? text : "");
    static const char *const skip[] = {"Interruptions per cause", "States and causes", NULL};
    bottom(f, text ? text : "", skip, pg->w, "The experiment fragment (failures, outages, "
                                             "time_limit)", m);
    free(text);
}

char *tmc_sacct_html(const tmc_sacct_report *p, const tmc_fit_html_written *w,
                     const tmc_html_meta *m)
{
    sacct_page pg = {p, w};
    return tmc_html_page(sacct, &pg, NULL, m);
}
