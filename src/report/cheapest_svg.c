/* cheapest_svg.c - the cost-probability picture of `trainmc cheapest --plot`
 * (cheapest_output.h), written as SVG directly: every search plan as a
 * grey dot, the frontier joined in blue with its Wilson intervals, the
 * target dashed, the chosen plan (fresh replicas) as a red ring. */
#include "cheapest_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define WIDTH 900
#define HEIGHT 560
#define LEFT 80
#define RIGHT 30
#define TOP 80
#define BOTTOM 70
#define FRONTIER_COLOUR "#1f77b4"
#define CHOSEN_COLOUR "#d62728"

typedef struct {
    double lo, hi; /* cost range */
} scale;

static double px(const scale *sc, double cost)
{
    return LEFT + (cost - sc->lo) / (sc->hi - sc->lo) * (WIDTH - LEFT - RIGHT);
}

static double py(double p)
{
    return TOP + (1 - p) * (HEIGHT - TOP - BOTTOM);
}

/* The span of the plans' costs run (the chosen one's too), padded 5 %. */
static void fit_scale(const tmc_cheapest *c, scale *sc)
{
    sc->lo = INFINITY;
    sc->hi = -INFINITY;
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (p->refused || (p->fresh && i != c->chosen))
            continue;
        sc->lo = fmin(sc->lo, p->cost);
        sc->hi = fmax(sc->hi, p->cost);
    }
    if (!(sc->hi > sc->lo)) { /* one cost, or none */
        double mid = isfinite(sc->lo) ? sc->lo : 0, half = fmax(1, fabs(mid) * 0.01);
        sc->lo = mid - half;
        sc->hi = mid + half;
    }
    double pad = 0.05 * (sc->hi - sc->lo);
    sc->lo -= pad;
    sc->hi += pad;
}

/* Axes: ticks 1, 2 or 5 x 10^k apart on the cost, 0.1 apart on P. */
static void axes(FILE *f, const tmc_cheapest *c, const scale *sc)
{
    double raw = (sc->hi - sc->lo) / 6, mag = pow(10, floor(log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                                      : 10 * mag;
    double y0 = py(0), x1 = WIDTH - RIGHT;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#000\"/>\n", LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    for (double t = ceil(sc->lo / step) * step; t <= sc->hi; t += step)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
                px(sc, t), y0, px(sc, t), y0 + 5, px(sc, t), y0 + 19, t);
    for (int k = 0; k <= 10; k++)
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n",
                LEFT, py(k / 10.0), x1, py(k / 10.0), LEFT - 6, py(k / 10.0) + 4, k / 10.0);
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">expected cost (%s)</text>\n",
            0.5 * (LEFT + x1), HEIGHT - 25, tmc_cheapest_name_unit(c));
    fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\">"
               "P(T &lt;= %g days)</text>\n", 0.5 * (TOP + y0), c->base.x.deadline.days);
    fprintf(f, "<line class=\"target\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
               "stroke=\"#555\" stroke-dasharray=\"6,4\"/><text x=\"%.1f\" y=\"%.1f\" "
               "text-anchor=\"end\" fill=\"#555\">target %g</text>\n", LEFT,
            py(c->target.value), x1, py(c->target.value), x1 - 4, py(c->target.value) - 5,
            c->target.value);
}

/* The frontier's plans by cost, joined, each with its Wilson interval. */
static void frontier(FILE *f, const tmc_cheapest *c, const scale *sc)
{
    int *idx = malloc((size_t)c->n_plans * sizeof *idx);
    if (!idx)
        return;
    int n = tmc_cheapest_frontier_order(c, idx);
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
            FRONTIER_COLOUR);
    for (int k = 0; k < n; k++)
        fprintf(f, "%s%.1f,%.1f", k ? " " : "", px(sc, c->plans[idx[k]].cost),
                py(c->plans[idx[k]].p));
    fputs("\"/>\n", f);
    for (int k = 0; k < n; k++) {
        const tmc_cheapest_plan *p = &c->plans[idx[k]];
        double x = px(sc, p->cost);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<circle class=\"frontier\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n",
                x, py(p->p_lo), x, py(p->p_hi), FRONTIER_COLOUR, x, py(p->p), FRONTIER_COLOUR);
    }
    free(idx);
}

static void plans(FILE *f, const tmc_cheapest *c, const scale *sc)
{
    for (int i = 0; i < c->n_plans; i++) {
        const tmc_cheapest_plan *p = &c->plans[i];
        if (!p->fresh && !p->refused)
            fprintf(f, "<circle class=\"plan\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
                       "fill=\"#aaaaaa\"/>\n", px(sc, p->cost), py(p->p));
    }
    frontier(f, c, sc);
    if (c->chosen < 0)
        return;
    const tmc_cheapest_plan *p = &c->plans[c->chosen];
    fprintf(f, "<circle class=\"chosen\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" "
               "stroke=\"%s\" stroke-width=\"2\"/>\n", px(sc, p->cost), py(p->p),
            CHOSEN_COLOUR);
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
    scale sc;
    fit_scale(c, &sc);
    heading(f, c);
    axes(f, c, &sc);
    plans(f, c, &sc);
}

char *tmc_cheapest_output_svg(const tmc_cheapest_report *r)
{
    return tmc_svg_render(draw, r->c);
}
