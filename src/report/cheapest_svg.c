/* cheapest_svg.c - the cost-probability picture of `trainmc cheapest --plot`
 * (cheapest_output.h), written as SVG directly, in two panels. Left, every
 * search plan as a grey dot, the frontier joined in blue with its Wilson
 * intervals, the target dashed, the chosen plan (fresh replicas) as a red
 * ring; its cost axis (log when every cost is positive) spans the frontier,
 * the chosen plan and every plan that meets the target, and a dearer plan
 * is an arrowhead at its right edge. Right, the same around the target and
 * the frontier: its plans from the last that misses the target on, and the
 * chosen one (issue 32: plans without spares stretched one linear axis to
 * 1.4e6 card-hours, and every plan that met lay in a few pixels). */
#include "cheapest_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define WIDTH 1280
#define HEIGHT 560
#define LEFT 80
#define MAIN_RIGHT 860    /* the left panel's right edge */
#define ZOOM_LEFT 960
#define RIGHT 30
#define TOP 80
#define BOTTOM 70
#define FRONTIER_COLOUR "#1f77b4"
#define CHOSEN_COLOUR "#d62728"

/* A panel: its box, its cost and P ranges, the class prefix of its marks. */
typedef struct {
    double x0, x1, y0, y1; /* px; y0 the top */
    double lo, hi;         /* cost range */
    double p_lo, p_hi;     /* P range */
    int log;               /* 1: a log cost axis (every cost > 0) */
    const char *prefix;    /* "" (left) or "zoom-" (right) */
} panel;

static double to_axis(const panel *pn, double cost)
{
    return pn->log ? log10(cost) : cost;
}

static double px(const panel *pn, double cost)
{
    return pn->x0 + (to_axis(pn, cost) - to_axis(pn, pn->lo)) /
                        (to_axis(pn, pn->hi) - to_axis(pn, pn->lo)) * (pn->x1 - pn->x0);
}

static double py(const panel *pn, double p)
{
    return pn->y0 + (pn->p_hi - p) / (pn->p_hi - pn->p_lo) * (pn->y1 - pn->y0);
}

/* 1 for a plan the left panel's axis must show: the chosen plan, and the
 * search plans that meet the target or are on the frontier. */
static int shown(const tmc_cheapest *c, int i)
{
    const tmc_cheapest_plan *p = &c->plans[i];
    return !p->refused && (i == c->chosen || (!p->fresh && (p->meets || p->frontier)));
}

/* The cost range [lo, hi] found (lo > hi: none) padded 5 % of the axis on
 * each side; a log axis when every cost is positive. */
static void pad_costs(panel *pn, double lo, double hi)
{
    if (!(hi > lo)) { /* one cost, or none */
        double mid = isfinite(lo) ? lo : 0, half = fmax(1, fabs(mid) * 0.01);
        lo = mid - half;
        hi = mid + half;
    }
    pn->log = lo > 0;
    double a = to_axis(pn, lo), b = to_axis(pn, hi), pad = 0.05 * (b - a);
    pn->lo = pn->log ? pow(10, a - pad) : a - pad;
    pn->hi = pn->log ? pow(10, b + pad) : b + pad;
}

/* The left panel: every P, the costs shown (the cheapest plan run is on
 * the frontier, so none lies below). */
static void fit_main(const tmc_cheapest *c, panel *pn)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < c->n_plans; i++)
        if (shown(c, i)) {
            lo = fmin(lo, c->plans[i].cost);
            hi = fmax(hi, c->plans[i].cost);
        }
    *pn = (panel){LEFT, MAIN_RIGHT, TOP, HEIGHT - BOTTOM, 0, 0, 0, 1, 0, ""};
    pad_costs(pn, lo, hi);
}

/* The right panel: the frontier's plans (idx[n], by cost) from the last
 * that misses the target on, and the chosen one; P over their intervals
 * and the target, padded 5 %, within [0, 1]. */
static void fit_zoom(const tmc_cheapest *c, const int *idx, int n, panel *pn)
{
    int m = 0;
    while (m < n && !c->plans[idx[m]].meets)
        m++;
    double lo = INFINITY, hi = -INFINITY, p_lo = c->target.value, p_hi = c->target.value;
    for (int k = m > 0 ? m - 1 : 0; k <= n; k++) {
        int i = k < n ? idx[k] : c->chosen;
        if (i < 0)
            continue;
        const tmc_cheapest_plan *p = &c->plans[i];
        lo = fmin(lo, p->cost);
        hi = fmax(hi, p->cost);
        p_lo = fmin(p_lo, p->p_lo);
        p_hi = fmax(p_hi, p->p_hi);
    }
    double pad = fmax(0.05 * (p_hi - p_lo), 0.005);
    *pn = (panel){ZOOM_LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM, 0, 0,
                  fmax(0, p_lo - pad), fmin(1, p_hi + pad), 0, "zoom-"};
    pad_costs(pn, lo, hi);
}

/* The cost axis: ticks (tmc_svg_log_ticks, or linear), labelled in one
 * format (tmc_svg_number, 6 digits: a narrow axis's ticks differ in the
 * last ones); P's ticks and grid. */
static void ticks(FILE *f, const panel *pn)
{
    double t[64];
    char label[32];
    int about = (int)((pn->x1 - pn->x0) / 130); /* a 6-digit label is about 50 px */
    int n = pn->log ? tmc_svg_log_ticks(pn->lo, pn->hi, about, t, 64)
                    : tmc_svg_ticks(pn->lo, pn->hi, about, t, 64);
    for (int k = 0; k < n; k++) {
        tmc_svg_number(label, sizeof label, t[k], 6);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                   "<text class=\"%scost-tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                   "%s</text>\n", px(pn, t[k]), pn->y1, px(pn, t[k]), pn->y1 + 5, pn->prefix,
                px(pn, t[k]), pn->y1 + 19, label);
    }
    n = tmc_svg_ticks(pn->p_lo, pn->p_hi, 6, t, 64);
    for (int k = 0; k < n; k++)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", pn->x0,
                py(pn, t[k]), pn->x1, py(pn, t[k]), pn->x0 - 6, py(pn, t[k]) + 4, t[k]);
}

/* A panel's box, ticks, cost label and the target dashed. */
static void axes(FILE *f, const tmc_cheapest *c, const panel *pn)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
               "stroke=\"#000\"/>\n", pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0);
    ticks(f, pn);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">expected cost (%s%s)</text>\n",
            0.5 * (pn->x0 + pn->x1), HEIGHT - 25, tmc_cheapest_name_unit(c),
            pn->log ? ", log scale" : "");
    fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">"
               "P(T &lt;= %g days)</text>\n", pn->x0 - 58, 0.5 * (pn->y0 + pn->y1),
            c->base.x.deadline.days);
    fprintf(f, "<line class=\"%starget\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#555\" stroke-dasharray=\"6,4\"/><text x=\"%.1f\" y=\"%.1f\" "
               "text-anchor=\"end\" fill=\"#555\">target %g</text>\n", pn->prefix, pn->x0,
            py(pn, c->target.value), pn->x1, py(pn, c->target.value), pn->x1 - 4,
            py(pn, c->target.value) - 5, c->target.value);
}

/* The frontier's plans (idx[n], by cost), joined, each with its Wilson
 * interval. */
static void frontier(FILE *f, const tmc_cheapest *c, const panel *pn, const int *idx, int n)
{
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
            FRONTIER_COLOUR);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%.1f,%.1f", k ? " " : "", px(pn, c->plans[idx[k]].cost),
                py(pn, c->plans[idx[k]].p));
    fputs("\"/>\n", f);
    for (int k = 0; k < n; k++) {
        const tmc_cheapest_plan *p = &c->plans[idx[k]];
        double x = px(pn, p->cost);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<circle class=\"%sfrontier\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
                   "fill=\"%s\"/>\n", x, py(pn, p->p_lo), x, py(pn, p->p_hi), FRONTIER_COLOUR,
                pn->prefix, x, py(pn, p->p), FRONTIER_COLOUR);
    }
}

/* The left panel's plans dearer than its axis, as grey arrowheads at its
 * right edge at their P, and how many and how dear they are. */
static void beyond(FILE *f, const tmc_cheapest *c, const panel *pn)
{
    int n = 0;
    double dearest = 0, x = pn->x1 - 1;
    char label[32];
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->fresh || p->refused || p->cost <= pn->hi)
            continue;
        n++;
        dearest = fmax(dearest, p->cost);
        fprintf(f, "<path class=\"beyond\" d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f Z\" "
                   "fill=\"#aaaaaa\"/>\n", x - 8, py(pn, p->p) - 4, x, py(pn, p->p), x - 8,
                py(pn, p->p) + 4);
    }
    if (n == 0)
        return;
    tmc_svg_number(label, sizeof label, dearest, 3);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#777\">&#9656; %d "
               "dearer plan%s beyond the axis, up to %s</text>\n", pn->x1, HEIGHT - 8, n,
            n == 1 ? "" : "s", label);
}

/* A panel's marks: the search plans within its costs, the frontier, the
 * chosen plan; the right panel's clipped to its box. */
static void plans(FILE *f, const tmc_cheapest *c, const panel *pn, const int *idx, int n)
{
    if (pn->prefix[0])
        fprintf(f, "<clipPath id=\"zoom-box\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                   "height=\"%.1f\"/></clipPath>\n<g clip-path=\"url(#zoom-box)\">\n", pn->x0,
                pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0);
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (!p->fresh && !p->refused && p->cost >= pn->lo && p->cost <= pn->hi)
            fprintf(f, "<circle class=\"%splan\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
                       "fill=\"#aaaaaa\"/>\n", pn->prefix, px(pn, p->cost), py(pn, p->p));
    }
    frontier(f, c, pn, idx, n);
    if (c->chosen >= 0)
        fprintf(f, "<circle class=\"%schosen\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" "
                   "fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", pn->prefix,
                px(pn, c->plans[c->chosen].cost), py(pn, c->plans[c->chosen].p),
                CHOSEN_COLOUR);
    fputs(pn->prefix[0] ? "</g>\n" : "", f);
}

static void heading(FILE *f, const tmc_cheapest *c)
{
    char text[512];
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    snprintf(text, sizeof text, "%s: expected cost against P(deadline), target %g; %ld "
                                "replicas a plan", c->base.x.name, c->target.value,
             c->base.x.monte_carlo.replicas);
    fputs("<text x=\"20\" y=\"24\" font-size=\"14\" font-weight=\"bold\">", f);
    tmc_svg_put_text(f, text);
    fprintf(f, "</text>\n<circle cx=\"26\" cy=\"42\" r=\"3\" fill=\"#aaaaaa\"/>"
               "<text x=\"34\" y=\"46\">a plan run (search seed)</text>\n"
               "<circle cx=\"206\" cy=\"42\" r=\"4\" fill=\"%s\"/><text x=\"214\" y=\"46\">"
               "frontier, with Wilson 95 %% intervals</text>\n"
               "<circle cx=\"476\" cy=\"42\" r=\"7\" fill=\"none\" stroke=\"%s\" "
               "stroke-width=\"2\"/><text x=\"488\" y=\"46\" fill=\"%s\">chosen (fresh "
               "replicas)</text>\n", FRONTIER_COLOUR, CHOSEN_COLOUR, CHOSEN_COLOUR);
    if (c->chosen < 0) {
        fputs("<text x=\"20\" y=\"66\" fill=\"#d62728\">no plan meets the target</text>\n", f);
        return;
    }
    char label[400];
    tmc_cheapest_format_plan(c, &c->plans[c->chosen], label, sizeof label);
    fprintf(f, "<text x=\"20\" y=\"66\" fill=\"%s\">chosen: ", CHOSEN_COLOUR);
    tmc_svg_put_text(f, label);
    fputs("</text>\n", f);
}

static void draw(FILE *f, const void *ctx)
{
    const tmc_cheapest *c = ctx;
    int *idx = malloc((size_t)(c->n_plans + 1) * sizeof *idx);
    if (!idx)
        return;
    int n = tmc_cheapest_frontier_order(c, idx);
    panel main, zoom;
    fit_main(c, &main);
    fit_zoom(c, idx, n, &zoom);
    heading(f, c);
    axes(f, c, &main);
    plans(f, c, &main, idx, n);
    beyond(f, c, &main);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">around the target and the "
               "frontier</text>\n", ZOOM_LEFT, TOP - 14);
    axes(f, c, &zoom);
    plans(f, c, &zoom, idx, n);
    free(idx);
}

char *tmc_cheapest_output_svg(const tmc_cheapest_report *r)
{
    return tmc_svg_render(draw, r->c);
}
