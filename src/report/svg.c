/* svg.c - shared pieces of trainmc's own SVG pictures (svg.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "svg.h"

#include <math.h>
#include <stdlib.h>

void tmc_svg_put_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

char *tmc_svg_render(void (*draw)(FILE *f, const void *ctx), const void *ctx)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    draw(f, ctx);
    fputs("</svg>\n", f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void tmc_svg_number(char *buf, size_t n, double v, int digits)
{
    static const char suffix[] = " kMGT";
    double carry = 1000 - 0.5 * pow(10, 3 - digits); /* prints as 1000: the next suffix's 1 */
    int k = 0;
    for (; k < 4 && fabs(v) >= carry; k++)
        v /= 1000;
    snprintf(buf, n, "%.*g%.*s", digits, v == 0 ? 0.0 : v, k > 0, suffix + k);
}

int tmc_svg_ticks(double lo, double hi, int about, double *t, int max)
{
    double raw = (hi - lo) / about, mag = pow(10, floor(log10(raw))), r = raw / mag;
    double step = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
    int n = 0;
    for (double k = ceil(lo / step); k * step <= hi && n < max; k++)
        t[n++] = k == 0 ? 0.0 : k * step; /* a whole multiple: no -0, no drift */
    return n;
}

int tmc_svg_log_ticks(double lo, double hi, int about, double *t, int max)
{
    static const double fine[] = {1, 1.5, 2, 3, 4, 5, 6, 8}, coarse[] = {1, 2, 5};
    double ratio = hi / lo;
    if (ratio < 3)
        return tmc_svg_ticks(lo, hi, about, t, max);
    const double *m = ratio < 10 ? fine : coarse;
    int n_m = ratio < 10 ? 8 : log10(ratio) <= 4 ? 3 : 1, n = 0;
    for (double e = floor(log10(lo)); e <= ceil(log10(hi)); e++)
        for (int i = 0; i < n_m; i++) {
            double v = m[i] * pow(10, e);
            if (v >= lo && v <= hi && n < max)
                t[n++] = v;
        }
    return n;
}
