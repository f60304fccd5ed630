/* svg.c - shared pieces of trainmc's own SVG pictures (svg.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "svg.h"

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
