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

#endif
