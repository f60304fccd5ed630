/* samples.c - every replica as CSV (samples.h). */
#include "samples.h"

#include <stdio.h>
#include <stdlib.h>

#include "closed_form.h"
#include "csv.h"
#include "restarts.h"

static void header(FILE *f)
{
    fputs("replica,completion_days,met_deadline,censored", f);
    for (int i = 0; i < tmc_accounting_count_rows; i++)
        fprintf(f, ",%s", tmc_accounting_counts[i].key);
    for (int i = 0; i < tmc_accounting_split_rows; i++)
        fprintf(f, ",%s_days", tmc_accounting_split[i].key);
    fputc('\n', f);
}

static void row(FILE *f, long k, const tmc_sample *s, const tmc_experiment *x)
{
    double days = x->deadline.reserve_days + s->wall_s / TMC_DAY_S;
    fprintf(f, "%ld,%.17g,%d,%.0f", k, days,
            tmc_restarts_met(days, tmc_accounting_sample_restarts(s), &x->deadline), s->censored);
    for (int i = 0; i < TMC_COUNT_N; i++)
        tmc_csv_number(f, s->count[i]);
    for (int i = 0; i < TMC_SPLIT_N; i++)
        tmc_csv_number(f, s->split[i] / TMC_DAY_S);
    fputc('\n', f);
}

char *tmc_samples_csv(const tmc_sample *samples, long n, const tmc_experiment *x)
{
    tmc_csv c;
    if (tmc_csv_open(&c))
        return NULL;
    header(c.f);
    for (long k = 0; k < n; k++)
        row(c.f, k, &samples[k], x);
    return tmc_csv_close(&c);
}
