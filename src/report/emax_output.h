/* emax_output.h - `trainmc emax`'s results as text (stdout) and JSON (cJSON):
 * quadrature beside every simulated and approximate value of c_N, with the
 * difference in standard errors (keys listed in docs/commands/emax.md). */
#ifndef TMC_EMAX_OUTPUT_H
#define TMC_EMAX_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "emax.h"

/* Everything the report shows; rows borrowed. */
typedef struct {
    const tmc_emax_row *rows;
    int n_rows;
    long replicas;  /* per N */
    uint64_t seed;
    long brute_max; /* brute force ran for N <= brute_max */
    int step;       /* 1: show the step time from mu_s, sigma_s, fixed_s (seconds) */
    double mu_s, sigma_s, fixed_s;
    int threads;      /* text only: JSON is identical whatever the thread count */
    double elapsed_s; /* text only */
} tmc_emax_report;

/* The text tables: mean, sd, approximations, step time (if r->step), and a
 * check line (largest difference in standard errors against 4; the reference
 * design's values against c_N rounded to 2 decimals). */
void tmc_emax_output_text(FILE *f, const tmc_emax_report *r);

/* The JSON document; caller frees with cJSON_Delete. NULL if memory runs out. */
cJSON *tmc_emax_output_json(const tmc_emax_report *r);

/* The tables as CSV, a header and a row per N: n, quadrature_mean and
 * quadrature_sd, the sampler's and brute force's mean, se, sd and sd_se
 * (empty where brute force did not run), blom, gumbel, reference (empty
 * where the reference design gives none), all in units of sigma; with the
 * step time (r->step) also step_s_quadrature, step_s_simulated and
 * step_s_se (seconds). Numbers with 17 digits. Caller frees; NULL if memory
 * runs out. */
char *tmc_emax_output_csv(const tmc_emax_report *r);

#endif
