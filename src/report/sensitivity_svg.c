/* sensitivity_svg.c - the tornado chart of `trainmc sensitivity --plot`
 * (sensitivity_output.h), written as SVG directly: two panels (T and P),
 * one row per input in the order of the swing of T, two bars per row drawn
 * from the base. */
#include "sensitivity_output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define WIDTH 1000
#define ROW 40          /* px per input */
#define TOP 70          /* px above the first panel: title and legend */
#define PANEL_HEAD 34   /* px above a panel's rows: its title */
#define PANEL_FOOT 46   /* px below a panel's rows: its axis */
#define CHAR_PX 7.0     /* width of a character of the 12 px labels, about */
#define LOW_COLOUR "#1f77b4"
#define HIGH_COLOUR "#ff7f0e"

/* A panel's horizontal scale: [lo, hi] onto [x0, x1] px. */
typedef struct {
    double lo, hi, x0, x1;
} scale;

static double px(const scale *sc, double v)
{
    return sc->x0 + (v - sc->lo) / (sc->hi - sc->lo) * (sc->x1 - sc->x0);
}

/* The span of 0 and every end's difference (met: of P, else of T), padded
 * on both sides for the value labels; a span of 0 becomes [-1, 1] (nothing
 * moved). */
static void fit_scale(const tmc_sensitivity *s, int met, scale *sc)
{
    double lo = 0, hi = 0;
    for (int j = 0; j < s->n_ranked; j++)
        for (int e = 0; e < 2; e++) {
            const tmc_sensitivity_input *in = &s->inputs[s->by_days[j]];
            double d = met ? in->met[e].mean : in->days[e].mean;
            lo = fmin(lo, d);
            hi = fmax(hi, d);
        }
    if (hi - lo <= 0)
        lo = -1, hi = 1;
    double pad = 0.12 * (hi - lo); /* both sides: a label at 0 goes either way */
    sc->lo = lo - pad;
    sc->hi = hi + pad;
}

/* Ticks 1, 2 or 5 x 10^k apart, about 6 across the scale. */
static void axis(FILE *f, const scale *sc, double y, const char *label)
{
    double raw = (sc->hi - sc->lo) / 6, mag = pow(10, floor(log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                                      : 10 * mag;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n",
            sc->x0, y, sc->x1, y);
    for (double t = ceil(sc->lo / step) * step; t <= sc->hi + 1e-9 * step; t += step) {
        double x = px(sc, t), v = fabs(t) < 1e-9 * step ? 0 : t;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s%g</text>\n",
                x, y, x, y + 5, x, y + 18, v > 0 ? "+" : "", v);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", 0.5 * (sc->x0 + sc->x1),
            y + 36);
    tmc_svg_put_text(f, label);
    fputs("</text>\n", f);
}

/* One bar from the base (0) to d, in the upper (low end) or lower half of
 * the row at y, labelled with the input's value v at its far end. */
static void bar(FILE *f, const scale *sc, const char *name, int high, double d, double v,
                double y)
{
    double x0 = px(sc, 0), x1 = px(sc, d), top = y + (high ? ROW / 2.0 : 5);
    fprintf(f, "<rect class=\"bar %s\" data-input=\"", high ? "high" : "low");
    tmc_svg_put_text(f, name);
    fprintf(f, "\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>\n",
            fmin(x0, x1), top, fabs(x1 - x0), ROW / 2.0 - 5, high ? HIGH_COLOUR : LOW_COLOUR);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"%s\">%.4g</text>\n",
            x1 + (d < 0 ? -4 : 4), top + ROW / 2.0 - 9, d < 0 ? "end" : "start", v);
}

/* A panel (met: P, else T) whose rows start at y; returns the y below it. */
static double panel(FILE *f, const tmc_sensitivity *s, int met, double label_px, double y)
{
    const tmc_summary *b = &s->base.result.days;
    scale sc = {0, 0, label_px, WIDTH - 30};
    char text[160];
    fit_scale(s, met, &sc);
    if (met)
        snprintf(text, sizeof text, "P(T <= %g days): P(end) - P(base); base %.4f",
                 s->base.setting.x.deadline.days, b->p_met);
    else
        snprintf(text, sizeof text, "mean completion time: T(end) - T(base), days; base "
                                    "%.4f days", b->mean);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">", label_px, y + 20);
    tmc_svg_put_text(f, text);
    fputs("</text>\n", f);
    y += PANEL_HEAD;
    for (int j = 0; j < s->n_ranked; j++, y += ROW) {
        const tmc_sensitivity_input *in = &s->inputs[s->by_days[j]];
        fprintf(f, "<g class=\"row\">\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                label_px - 8, y + ROW / 2.0 + 4);
        tmc_svg_put_text(f, in->key.name);
        fprintf(f, "</text>\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"#eeeeee\"/>\n", sc.x0, y + ROW, sc.x1, y + ROW);
        for (int e = 0; e < 2; e++)
            bar(f, &sc, in->key.name, e, met ? in->met[e].mean : in->days[e].mean,
                e ? in->high : in->low, y);
        fputs("</g>\n", f);
    }
    double x = px(&sc, 0);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\" "
               "stroke-width=\"1.5\"/>\n", x, y - s->n_ranked * ROW, x, y);
    axis(f, &sc, y, met ? "P(end) - P(base)" : "T(end) - T(base) (days)");
    return y + PANEL_FOOT;
}

static void heading(FILE *f, const tmc_sensitivity *s, double height)
{
    const tmc_experiment *x = &s->base.setting.x;
    char text[512];
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
               "viewBox=\"0 0 %d %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            WIDTH, height, WIDTH, height);
    snprintf(text, sizeof text, "%s: which input moves T and P(T <= %g days) most; %ld "
                                "replicas per setting, common random numbers", x->name,
             x->deadline.days, x->monte_carlo.replicas);
    fputs("<text x=\"20\" y=\"24\" font-size=\"14\" font-weight=\"bold\">", f);
    tmc_svg_put_text(f, text);
    fprintf(f, "</text>\n"
               "<rect x=\"20\" y=\"40\" width=\"14\" height=\"12\" fill=\"%s\"/>"
               "<text x=\"40\" y=\"51\">low end of the range</text>\n"
               "<rect x=\"200\" y=\"40\" width=\"14\" height=\"12\" fill=\"%s\"/>"
               "<text x=\"220\" y=\"51\">high end</text>\n"
               "<text x=\"300\" y=\"51\">(each bar from the base; the input's value at its "
               "end; rows by the swing of T)</text>\n", LOW_COLOUR, HIGH_COLOUR);
}

static void draw(FILE *f, const void *ctx)
{
    const tmc_sensitivity *s = ctx;
    double label_px = 30;
    for (int j = 0; j < s->n_ranked; j++)
        label_px = fmax(label_px, 30 + CHAR_PX * strlen(s->inputs[s->by_days[j]].key.name));
    double height = TOP + 2 * (PANEL_HEAD + s->n_ranked * ROW + PANEL_FOOT) + 10;
    heading(f, s, height);
    double y = panel(f, s, 0, label_px, TOP);
    panel(f, s, 1, label_px, y);
}

char *tmc_sensitivity_output_svg(const tmc_sensitivity_report *r)
{
    return tmc_svg_render(draw, r->s);
}
