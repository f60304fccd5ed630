/* forecast_history_svg.c - the picture of `trainmc forecast --plot`
 * (forecast_history_output.h), written as SVG directly as cheapest_svg.c
 * draws its frontier: P(deadline) at each snapshot against the elapsed day,
 * joined in file order, each with its Wilson 95 % interval and its line
 * number. The P axis spans the intervals (not always [0, 1]) so that the
 * changes a history is read for stay visible. */
#include "forecast_history_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define WIDTH 900
#define HEIGHT 560
#define LEFT 80
#define RIGHT 30
#define TOP 70
#define BOTTOM 70
#define COLOUR "#1f77b4"

typedef struct {
    double lo, hi; /* a span, padded */
} span;

typedef struct {
    span day, p;
} scale;

static double px(const scale *sc, double day)
{
    return LEFT + (day - sc->day.lo) / (sc->day.hi - sc->day.lo) * (WIDTH - LEFT - RIGHT);
}

static double py(const scale *sc, double p)
{
    return TOP + (sc->p.hi - p) / (sc->p.hi - sc->p.lo) * (HEIGHT - TOP - BOTTOM);
}

/* Ticks 1, 2 or 5 x 10^k apart, about six over the span. */
static double tick_step(const span *s)
{
    double raw = (s->hi - s->lo) / 6, mag = pow(10, floor(log10(raw)));
    return raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                               : 10 * mag;
}

/* The k-th tick from the first multiple of step at or above lo, counted
 * rather than summed (no drift), and 0 printed as 0, not -0. */
static double tick(const span *s, double step, int k)
{
    double t = (ceil(s->lo / step - 1e-9) + k) * step;
    return fabs(t) < 1e-9 * step ? 0 : t;
}

/* A span of at least `least` around [lo, hi], padded 5 % each side. */
static void pad(span *s, double lo, double hi, double least)
{
    if (!(hi - lo >= least)) {
        double mid = 0.5 * (lo + hi);
        lo = mid - 0.5 * least;
        hi = mid + 0.5 * least;
    }
    double d = 0.05 * (hi - lo);
    s->lo = lo - d;
    s->hi = hi + d;
}

/* The days of the snapshots; P over their intervals, within [0, 1]. */
static void fit_scale(const tmc_forecast_history *h, scale *sc)
{
    double d0 = INFINITY, d1 = -INFINITY, p0 = 1, p1 = 0;
    for (int i = 0; i < h->n; i++) {
        const tmc_forecast_point *p = &h->points[i];
        d0 = fmin(d0, p->snap.observed.elapsed_days);
        d1 = fmax(d1, p->snap.observed.elapsed_days);
        p0 = fmin(p0, p->days.ci_lo);
        p1 = fmax(p1, p->days.ci_hi);
    }
    pad(&sc->day, d0, d1, 1);
    pad(&sc->p, p0, p1, 0.01);
    sc->p.lo = fmax(sc->p.lo, 0);
    sc->p.hi = fmin(sc->p.hi, 1);
    if (sc->p.hi - sc->p.lo < 0.01) /* pinned at 0 or 1 */
        sc->p.hi > 0.5 ? (sc->p.lo = sc->p.hi - 0.01) : (sc->p.hi = sc->p.lo + 0.01);
}

static void axes(FILE *f, const tmc_forecast_history *h, const scale *sc)
{
    double step = tick_step(&sc->day), y0 = HEIGHT - BOTTOM, x1 = WIDTH - RIGHT;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
               "stroke=\"#000\"/>\n", LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    for (int k = 0; tick(&sc->day, step, k) <= sc->day.hi; k++) {
        double t = tick(&sc->day, step, k);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
                px(sc, t), y0, px(sc, t), y0 + 5, px(sc, t), y0 + 19, t);
    }
    step = tick_step(&sc->p);
    for (int k = 0; tick(&sc->p, step, k) <= sc->p.hi + 1e-12; k++) {
        double t = tick(&sc->p, step, k);
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                LEFT, py(sc, t), x1, py(sc, t), LEFT - 6, py(sc, t) + 4, t);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">elapsed time at the "
               "snapshot (days)</text>\n", 0.5 * (LEFT + x1), HEIGHT - 25);
    fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\">"
               "P(T &lt;= %g days)</text>\n", 0.5 * (TOP + y0), h->base->deadline.days);
}

/* The snapshots in file order, joined; each with its interval and line. */
static void points(FILE *f, const tmc_forecast_history *h, const scale *sc)
{
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", COLOUR);
    for (int i = 0; i < h->n; i++)
        fprintf(f, "%s%.1f,%.1f", i ? " " : "", px(sc, h->points[i].snap.observed.elapsed_days),
                py(sc, h->points[i].days.p_met));
    fputs("\"/>\n", f);
    for (int i = 0; i < h->n; i++) {
        const tmc_forecast_point *p = &h->points[i];
        double x = px(sc, p->snap.observed.elapsed_days);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                   "<circle class=\"snapshot\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">%ld</text>\n",
                x, py(sc, p->days.ci_lo), x, py(sc, p->days.ci_hi), COLOUR,
                x - 4, py(sc, p->days.ci_lo), x + 4, py(sc, p->days.ci_lo), COLOUR,
                x - 4, py(sc, p->days.ci_hi), x + 4, py(sc, p->days.ci_hi), COLOUR,
                x, py(sc, p->days.p_met), COLOUR, x + 7, py(sc, p->days.p_met) - 7,
                p->snap.line);
    }
}

static void heading(FILE *f, const tmc_forecast_history *h)
{
    char text[512];
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    const char *slash = strrchr(h->path, '/'); /* the folder is in the JSON */
    snprintf(text, sizeof text, "%s: P(deadline) at each snapshot of %s", h->base->name,
             slash ? slash + 1 : h->path);
    fputs("<text x=\"20\" y=\"24\" font-size=\"14\" font-weight=\"bold\">", f);
    tmc_svg_put_text(f, text);
    fprintf(f, "</text>\n<circle cx=\"26\" cy=\"42\" r=\"4\" fill=\"%s\"/><text x=\"34\" "
               "y=\"46\">P(T &lt;= deadline) with its Wilson 95 %% interval, %ld replicas "
               "and seed %llu at every snapshot; the number is its line in the history"
               "</text>\n", COLOUR, h->base->monte_carlo.replicas,
            (unsigned long long)h->base->monte_carlo.seed);
}

static void draw(FILE *f, const void *ctx)
{
    const tmc_forecast_history *h = ctx;
    scale sc;
    fit_scale(h, &sc);
    heading(f, h);
    axes(f, h, &sc);
    points(f, h, &sc);
}

char *tmc_forecast_history_output_svg(const tmc_forecast_history_report *r)
{
    return tmc_svg_render(draw, r->h);
}
