/* csv.h - CSV text built in memory (RFC 4180 numbers and rows), for the
 * --csv and --samples files, which are then written atomically (output.h). */
#ifndef TMC_CSV_H
#define TMC_CSV_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f; /* write the rows here */
    char *text;
    size_t size;
} tmc_csv;

/* Start the text. Returns 0, or -1 if memory runs out. */
int tmc_csv_open(tmc_csv *c);

/* ",v" with the fewest significant digits (15 to 17) that read back as v
 * exactly (1.42, not 1.4199999999999999), or "," (an empty field) when v
 * is not a finite number. */
void tmc_csv_number(FILE *f, double v);

/* The whole text (malloc'd; the caller frees), or NULL if memory ran out. */
char *tmc_csv_close(tmc_csv *c);

#endif
