/* csv.c - CSV text built in memory (csv.h). */
#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>

int tmc_csv_open(tmc_csv *c)
{
    c->text = NULL;
    c->size = 0;
    c->f = open_memstream(&c->text, &c->size);
    return c->f ? 0 : -1;
}

void tmc_csv_number(FILE *f, double v)
{
    if (!isfinite(v)) {
        fputc(',', f);
        return;
    }
    char text[32];
    for (int digits = 15; digits <= 17; digits++) { /* 17 always reads back exactly */
        snprintf(text, sizeof text, "%.*g", digits, v);
        if (strtod(text, NULL) == v)
            break;
    }
    fprintf(f, ",%s", text);
}

char *tmc_csv_close(tmc_csv *c)
{
    int bad = ferror(c->f); /* a write that ran out of memory */
    if (fclose(c->f) != 0 || bad) {
        free(c->text);
        return NULL;
    }
    return c->text;
}
