/* svg.h - what the SVG pictures trainmc draws itself share (the tornado of
 * `trainmc sensitivity`, the frontier of `trainmc cheapest`, the history of
 * `trainmc forecast`). */
#ifndef TMC_SVG_H
#define TMC_SVG_H

#include <stdio.h>

/* Write s to f with XML's special characters (& < > ") escaped, for text
 * and attribute values. */
void tmc_svg_put_text(FILE *f, const char *s);

/* The document draw(f, ctx) writes (its elements, up to the closing
 * </svg>, which this adds), as one malloc'ed string the caller frees; NULL
 * if memory runs out. */
char *tmc_svg_render(void (*draw)(FILE *f, const void *ctx), const void *ctx);

/* A value of an axis in one format for all its values: at most `digits`
 * significant digits with a k, M, G or T suffix from a thousand on (950,
 * 400k, 1M, 1.5M, 10.78k), never an exponent; into buf[n]. */
void tmc_svg_number(char *buf, size_t n, double v, int digits);

/* Ticks of a linear axis over [lo, hi] (lo < hi): the multiples of 1, 2 or
 * 5 x 10^k in it, about `about` of them; at most max into t. Returns their
 * count. */
int tmc_svg_ticks(double lo, double hi, int about, double *t, int max);

/* Ticks of a log axis over [lo, hi] (0 < lo < hi): within a factor 3 the
 * linear ones (about `about`); up to a factor 10 the values 1, 1.5, 2, 3,
 * 4, 5, 6, 8 x 10^k; over at most 4 decades 1, 2, 5 x 10^k; beyond, the
 * powers of ten. At most max into t; returns their count. */
int tmc_svg_log_ticks(double lo, double hi, int about, double *t, int max);

#endif
