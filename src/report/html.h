/* html.h - the pieces of a report to share (--html FILE, issue 37): one
 * self-contained HTML file, readable without JavaScript and without the
 * network (inline CSS, the pictures as inline SVG: the very ones --plot
 * writes, not drawn again), real text, a title per figure, and marks that
 * do not rest on colour alone. Each command's page (run_html.h, ...)
 * is made of these, and ends with the experiment itself (every key in
 * force, defaults marked), the version and the command line. */
#ifndef TMC_HTML_H
#define TMC_HTML_H

#include <stdio.h>

#include "closed_form.h"
#include "experiment.h"
#include "stats.h"

/* What made the report, for its last lines. */
typedef struct {
    const char *version; /* "0.1.0" */
    const char *command; /* the command line, quoted as a shell would read it */
} tmc_html_meta;

/* Write s escaped for HTML text and attribute values. */
void tmc_html_put_text(FILE *f, const char *s);

/* The document's start, up to and including the <h1> (title, escaped),
 * with the page's CSS inline. */
void tmc_html_begin(FILE *f, const char *title);

/* A section with its heading <h2> (id: the section's anchor); closed by
 * tmc_html_section_end. */
void tmc_html_section(FILE *f, const char *id, const char *heading);
void tmc_html_section_end(FILE *f);

/* text (lines) as one preformatted block, escaped; cls "lines" (long lines
 * wrap) or "table" (columns kept: a smaller font, scrolled when wider). */
void tmc_html_pre(FILE *f, const char *cls, const char *text);

/* Each line of text as an item of a list (<ul class="cls">); nothing when
 * text is empty. Returns the number of items. */
int tmc_html_lines(FILE *f, const char *cls, const char *text);

/* A figure: the SVG document svg (its XML prolog and namespace
 * declarations dropped, which the HTML parser supplies; a <title> of its
 * own replaced) inline in a <figure> whose caption and the SVG's <title>
 * are `title`; id names both. Without svg, a line saying it is missing. */
void tmc_html_figure(FILE *f, const char *id, const char *title, const char *svg);

/* The table of T beside the closed forms (id "t-table"): the simulated
 * mean with its standard error and p05/p50/p95 of d beside Young's and
 * Daly's T of cf, and P(T <= x's deadline) beside whether each closed form's
 * T meets it; days. run, cheapest (the chosen plan) and rescue (the plan).
 * A figure at never_days or past reads "never" (runs counted at the horizon,
 * unfinished), and the mean a bound; INFINITY: none. */
void tmc_html_t_table(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf,
                      const tmc_summary *d, double never_days);

/* The experiment section (every key in force, a "default" mark where it
 * holds its default; none when x is NULL, for a command that reads no
 * experiment), the line saying what made the report, and the document's
 * end. */
void tmc_html_end(FILE *f, const tmc_experiment *x, const tmc_html_meta *m);

/* What draw writes into a memory stream, as a malloc'ed string; NULL if
 * memory runs out. */
char *tmc_html_capture(void (*draw)(FILE *f, const void *ctx), const void *ctx);

/* A whole page: what page writes for `report` (its command's report
 * struct), with its picture svg (NULL: none) and meta, as a malloc'ed
 * string; NULL if memory runs out. */
typedef void tmc_html_page_fn(FILE *f, const void *report, const char *svg,
                              const tmc_html_meta *m);
char *tmc_html_page(tmc_html_page_fn *page, const void *report, const char *svg,
                    const tmc_html_meta *m);

#endif
