/* html.c - the pieces of a shared HTML report (html.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "html.h"

#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "config.h"
#include "svg.h"

#define VALUE_CHARS 160 /* a long value (a trace's times, the causes) is cut to this */

/* Dark inks and black text: every mark also differs by shape, dash or word,
 * so the page reads the same printed in grey. */
static const char css[] =
    "body{font:16px/1.45 system-ui,-apple-system,'DejaVu Sans',sans-serif;color:#111;"
    "background:#fff;margin:0}\n"
    "main{max-width:62rem;margin:0 auto;padding:1rem 1.5rem 3rem}\n"
    "h1{font-size:1.6rem;margin:.5rem 0 .2rem}h2{font-size:1.25rem;margin:2rem 0 .5rem;"
    "border-bottom:2px solid #111;padding-bottom:.15rem}h3{font-size:1.05rem}\n"
    ".lead{color:#333;margin:.2rem 0 1rem}\n"
    ".headline{font-size:1.5rem;margin:.6rem 0;padding:.6rem .9rem;border:3px solid #111;"
    "border-radius:4px;background:#f2f2f2}\n"
    ".headline strong{font-size:1.9rem}.headline small strong{font-size:1.15rem}\n"
    "table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}\n"
    "th,td{border:1px solid #888;padding:.25rem .6rem;text-align:left;vertical-align:top}\n"
    "th{background:#e6e6e6}td.num{text-align:right;white-space:nowrap}\n"
    "pre{background:#f6f6f6;border:1px solid #bbb;padding:.6rem;overflow-x:auto;"
    "font-size:.85rem;line-height:1.35;white-space:pre-wrap}\n"
    "ul.assumed li{margin:.3rem 0}\n"
    "figure{margin:1rem 0}figcaption{font-weight:bold;margin-bottom:.3rem}\n"
    "figure svg{max-width:100%;height:auto;display:block;border:1px solid #ccc}\n"
    ".bar{display:inline-block;height:.8rem;background:#333;vertical-align:middle}\n"
    "tr.default td{color:#555}tr.default td.mark{font-style:italic}\n"
    "td.key{font-family:monospace}\n"
    "footer{margin-top:2rem;border-top:1px solid #888;padding-top:.5rem;font-size:.9rem}\n"
    "code{font-family:monospace;overflow-wrap:anywhere}td.lever code{overflow-wrap:normal}\n"
    "pre.table{white-space:pre;font-size:.7rem}\n"
    "@media print{main{max-width:none}figure{break-inside:avoid}"
    "pre.table{white-space:pre-wrap}}\n";

void tmc_html_put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '\'')
            fputs("&#39;", f);
        else if (strchr("&<>\"", *s))
            tmc_svg_put_text(f, (char[]){*s, 0});
        else
            fputc(*s, f);
}

void tmc_html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    tmc_html_put_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<h1>", css);
    tmc_html_put_text(f, title);
    fputs("</h1>\n", f);
}

void tmc_html_section(FILE *f, const char *id, const char *heading)
{
    fprintf(f, "<section id=\"%s\">\n<h2>", id);
    tmc_html_put_text(f, heading);
    fputs("</h2>\n", f);
}

void tmc_html_section_end(FILE *f)
{
    fputs("</section>\n", f);
}

void tmc_html_pre(FILE *f, const char *cls, const char *text)
{
    fprintf(f, "<pre class=\"%s\">", cls);
    tmc_html_put_text(f, text);
    fputs("</pre>\n", f);
}

int tmc_html_lines(FILE *f, const char *cls, const char *text)
{
    int n = 0;
    while (*text) {
        const char *end = strchr(text, '\n');
        int len = end ? (int)(end - text) : (int)strlen(text);
        if (len > 0) {
            if (n++ == 0)
                fprintf(f, "<ul class=\"%s\">\n", cls);
            fputs("<li>", f);
            for (int i = 0; i < len; i++)
                tmc_html_put_text(f, (char[]){text[i], 0});
            fputs("</li>\n", f);
        }
        text += len + (end != NULL);
    }
    if (n)
        fputs("</ul>\n", f);
    return n;
}

/* The root tag's attributes [a, b) without the namespace declarations
 * (xmlns, xmlns:xlink), which HTML's parser supplies for inline SVG. */
static void root_attributes(FILE *f, const char *a, const char *b)
{
    while (a < b) {
        if (!strncmp(a, " xmlns", 6)) {
            const char *q = a + 6;
            while (q < b && *q != '=')
                q++;
            char quote = q + 1 < b ? q[1] : '"';
            const char *close = q + 2 < b ? memchr(q + 2, quote, (size_t)(b - q - 2)) : NULL;
            if (close) {
                a = close + 1;
                continue;
            }
        }
        fputc(*a++, f);
    }
}

void tmc_html_figure(FILE *f, const char *id, const char *title, const char *svg)
{
    const char *root = svg ? strstr(svg, "<svg") : NULL;
    const char *open_end = root ? strchr(root, '>') : NULL;
    fprintf(f, "<figure id=\"%s\">\n<figcaption>", id);
    tmc_html_put_text(f, title);
    fputs("</figcaption>\n", f);
    if (!open_end) {
        fputs("<p>(the picture is missing)</p>\n</figure>\n", f);
        return;
    }
    fprintf(f, "<svg role=\"img\" aria-labelledby=\"%s-title\"", id);
    root_attributes(f, root + 4, open_end);
    fprintf(f, "><title id=\"%s-title\">", id);
    tmc_html_put_text(f, title);
    fputs("</title>", f);
    const char *rest = open_end + 1, *t = rest + strspn(rest, " \t\r\n");
    if (!strncmp(t, "<title>", 7) && strstr(t, "</title>")) /* gnuplot's "Gnuplot" */
        rest = strstr(t, "</title>") + 8;
    fputs(rest, f);
    fputs("</figure>\n", f);
}

void tmc_html_t_table(FILE *f, const tmc_experiment *x, const tmc_closed_form *cf,
                      const tmc_summary *d, double never_days)
{
    fputs("<table id=\"t-table\">\n<caption>Completion time T (days), simulated beside the "
          "closed forms</caption>\n<thead><tr><th></th><th>simulated</th><th>Young</th>"
          "<th>Daly</th></tr></thead>\n<tbody>\n", f);
    if (d->quantile[1] >= never_days) /* no run finished */
        fprintf(f, "<tr><th>mean</th><td class=\"num\">never</td>");
    else if (d->quantile[3] >= never_days) /* some did not: the mean is a bound */
        fprintf(f, "<tr><th>mean</th><td class=\"num\">&ge; %.4f</td>", d->mean);
    else
        fprintf(f, "<tr><th>mean</th><td class=\"num\">%.4f &plusmn; %.4f</td>", d->mean, d->se);
    fprintf(f, "<td class=\"num\">%.3f</td><td class=\"num\">%.3f</td></tr>\n",
            cf->completion_days, cf->completion_days_daly);
    static const char *const q[] = {NULL, "p05", "p50", "p95"};
    for (int i = 1; i <= 3; i++)
        if (d->quantile[i] >= never_days)
            fprintf(f, "<tr><th>%s</th><td class=\"num\">never</td><td></td><td></td></tr>\n",
                    q[i]);
        else
            fprintf(f, "<tr><th>%s</th><td class=\"num\">%.4f</td><td></td><td></td></tr>\n",
                    q[i], d->quantile[i]);
    fprintf(f, "<tr><th>P(T &le; %g days)</th><td class=\"num\">%.4f</td>"
               "<td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
            x->deadline.days, d->p_met,
            cf->completion_days <= x->deadline.days ? "meets" : "misses",
            cf->completion_days_daly <= x->deadline.days ? "meets" : "misses");
    fputs("</tbody>\n</table>\n", f);
}

/* A key's value as JSON, cut to VALUE_CHARS with "..." (a trace). */
static void put_value(FILE *f, const cJSON *v)
{
    char *text = cJSON_PrintUnformatted(v);
    if (!text) {
        fputs("?", f);
        return;
    }
    if (strlen(text) > VALUE_CHARS)
        strcpy(text + VALUE_CHARS - 3, "...");
    tmc_html_put_text(f, text);
    free(text);
}

/* One row: the dotted key, its value and the default mark. */
static void key_row(FILE *f, const char *section, const cJSON *v, int is_default)
{
    fprintf(f, "<tr%s><td class=\"key\">", is_default ? " class=\"default\"" : "");
    if (section[0]) {
        tmc_html_put_text(f, section);
        fputc('.', f);
    }
    tmc_html_put_text(f, v->string);
    fputs("</td><td><code>", f);
    put_value(f, v);
    fprintf(f, "</code></td><td class=\"mark\">%s</td></tr>\n",
            is_default ? "default" : cJSON_IsNull(v) ? "off" : "");
}

/* Every key in force (tmc_config_to_json), a section that is off as one
 * row. */
static void experiment(FILE *f, const tmc_experiment *x)
{
    cJSON *doc = tmc_config_to_json(x);
    tmc_html_section(f, "experiment", "The experiment");
    fputs("<p>Every key in force, as the run read it (docs/reference/keys.md says what "
          "each means). <em>default</em>: the key holds the value it takes when left "
          "out; <em>off</em>: a part the run leaves out (null).</p>\n<table class=\"keys\">\n<thead><tr><th>key</th><th>value</th>"
          "<th>default?</th></tr></thead>\n<tbody>\n", f);
    for (const cJSON *s = doc ? doc->child : NULL; s; s = s->next) {
        if (cJSON_IsObject(s))
            for (const cJSON *k = s->child; k; k = k->next)
                key_row(f, s->string, k, tmc_config_key_is_default(x, s->string, k->string));
        else
            key_row(f, "", s, 0);
    }
    fputs("</tbody>\n</table>\n", f);
    tmc_html_section_end(f);
    cJSON_Delete(doc);
}

void tmc_html_end(FILE *f, const tmc_experiment *x, const tmc_html_meta *m)
{
    if (x) /* NULL: a command that reads no experiment (fit) */
        experiment(f, x);
    fputs("<footer>\n<p>Made by trainmc ", f);
    tmc_html_put_text(f, m->version);
    fputs(" with the command</p>\n<pre class=\"command\">", f);
    tmc_html_put_text(f, m->command);
    fputs("</pre>\n</footer>\n</main>\n</body>\n</html>\n", f);
}

char *tmc_html_capture(void (*draw)(FILE *f, const void *ctx), const void *ctx)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    draw(f, ctx);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

typedef struct {
    tmc_html_page_fn *page;
    const void *report;
    const char *svg;
    const tmc_html_meta *m;
} page_call;

static void draw_page(FILE *f, const void *ctx)
{
    const page_call *c = ctx;
    c->page(f, c->report, c->svg, c->m);
}

char *tmc_html_page(tmc_html_page_fn *page, const void *report, const char *svg,
                    const tmc_html_meta *m)
{
    page_call c = {page, report, svg, m};
    return tmc_html_capture(draw_page, &c);
}
