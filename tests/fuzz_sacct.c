/* fuzz_sacct.c - libFuzzer target for `trainmc fit --sacct`'s reader and
 * estimates (src/fit/sacct.[ch], sacct_fit.[ch]) and its reports
 * (src/report/sacct_output.c).
 *
 * The fuzzed bytes are the text of a `sacct --parsable2` file, parsed in
 * memory by tmc_sacct_parse (no file, as fuzz_text does); an input of odd
 * length is read with --sacct-map RUNNING=ignored and --sacct-map
 * FAILED=outage, so that the mapped and the table's paths both meet it.
 *
 * What must hold: any byte string is accepted or refused with a non-empty
 * message naming the file ("fuzz.txt:"); no crash, leak, undefined
 * behaviour or hang. An accepted file has at least one allocation, each with
 * End >= Start, Elapsed within 60 s of End - Start, NNodes >= 1 and a cause
 * of the table; its fit has non-negative exposures, per cause a rate inside
 * its interval and counts that add up to the allocations, waits >= 0 and a
 * time limit at most the longest TIMEOUT; the text report, the JSON and
 * the fragment are made (in memory, then freed). */
#define _GNU_SOURCE
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sacct.h"
#include "sacct_fit.h"
#include "sacct_output.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_fit(const tmc_sacct_log *log, const tmc_sacct_fit *r)
{
    int total = 0;
    for (int c = 0; c < TMC_SACCT_CAUSES; c++)
        total += r->count[c];
    if (total != log->n_alloc || r->n_alloc != log->n_alloc)
        fuzz_fail("the causes' counts do not add up to the allocations", NULL);
    if (!(r->job_hours >= 0) || !(r->node_hours >= r->job_hours))
        fuzz_fail("an exposure is negative, or node-hours below job-hours", NULL);
    for (int c = 0; c < TMC_SACCT_RATES; c++) {
        const tmc_sacct_rate *x = &r->rate[c];
        if (x->exposure_hours > 0 && !(x->rate_lo <= x->rate && x->rate <= x->rate_hi))
            fuzz_fail("a rate outside its interval", tmc_sacct_cause_names[c]);
    }
    if (r->waits.n && !(r->waits.min >= 0))
        fuzz_fail("a negative wait", NULL);
    if (r->timeout.n && !(r->timeout.median <= r->timeout.max))
        fuzz_fail("the time limit above the longest TIMEOUT", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    tmc_sacct_map map;
    tmc_sacct_map_default(&map);
    tmc_error err = {""};
    if (size % 2 && (tmc_sacct_map_set(&map, "RUNNING=ignored", &err) ||
                     tmc_sacct_map_set(&map, "FAILED=outage", &err)))
        fuzz_fail("a valid --sacct-map refused", err.msg);
    tmc_sacct_log log;
    if (tmc_sacct_parse(text, "fuzz.txt", &map, &log, &err) == 0) {
        if (log.n_alloc < 1)
            fuzz_fail("an accepted file without an allocation", NULL);
        for (int i = 0; i < log.n_alloc; i++) {
            const tmc_sacct_alloc *a = &log.alloc[i];
            if (!(a->end_s >= a->start_s) || fabs(a->elapsed_s - (a->end_s - a->start_s)) > 60 ||
                a->nnodes < 1 || a->cause >= TMC_SACCT_CAUSES)
                fuzz_fail("an accepted allocation breaks the reader's rules", a->job_id);
        }
        tmc_sacct_fit r;
        if (tmc_sacct_fit_compute(&log, 0.95, &r, &err) == 0) {
            check_fit(&log, &r);
            tmc_sacct_report rep = {"fuzz.txt", &log, &map, &r, 8};
            char *buf = NULL; /* the text in memory: fuzz_support's fopen refuses /dev */
            size_t len = 0;
            FILE *mem = open_memstream(&buf, &len);
            if (mem) {
                tmc_sacct_output_text(mem, &rep);
                fclose(mem);
            }
            free(buf);
            cJSON_Delete(tmc_sacct_output_json(&rep));
            cJSON_Delete(tmc_sacct_output_fragment(&rep));
            tmc_sacct_fit_free(&r);
        }
        tmc_sacct_log_free(&log);
    } else if (strncmp(err.msg, "fuzz.txt:", 9)) {
        fuzz_fail("a refusal without a message naming the file", err.msg);
    }
    free(text);
    return 0;
}
