/* csv.c - CSV text built in memory (csv.h). */
#include "csv.h"

#include <math.h>
#include <stdlib.h>

int tmc_csv_open(tmc_csv *c)
{
    c->text = NULL;
    c->size = 0;
    c->f = open_memstream(&c->text, &c->size);
    return c->f ? 0 : -1;
}

void tmc_csv_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.17g", v);
    else
        fputc(',', f);
}

char *tmc_csv_close(tmc_csv *c)
{
    if (fclose(c->f) != 0) {
        free(c->text);
        return NULL;
    }
    return c->text;
}
