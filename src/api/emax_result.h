/* emax_result.h - what an emax run leaves behind (trainmc.h's
 * tmc_emax_result), open to the command line, which writes the report, the
 * CSV and the JSON from it through the report layer (emax_output.h). Not
 * installed. */
#ifndef TMC_EMAX_RESULT_H
#define TMC_EMAX_RESULT_H

#include "api_internal.h"
#include "emax.h"
#include "emax_output.h"
#include "trainmc.h"

struct tmc_emax_result {
    tmc_emax_row *rows;          /* [report.n_rows], in the order of the cards asked */
    tmc_emax_figures *figures;   /* the same rows as trainmc.h shows them */
    tmc_emax_report report;      /* points at rows; threads, elapsed_s: text only */
    tmc_api_document document;   /* the JSON document */
};

#endif
