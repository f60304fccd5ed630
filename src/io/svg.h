/* svg.h - what the SVG pictures trainmc draws itself share (the tornado of
 * `trainmc sensitivity`, the frontier of `trainmc cheapest`). */
#ifndef TMC_SVG_H
#define TMC_SVG_H

#include <stdio.h>

/* Write s to f with XML's special characters (& < > ") escaped, for text
 * and attribute values. */
void tmc_svg_put_text(FILE *f, const char *s);

#endif
