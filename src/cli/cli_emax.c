/* cli_emax.c - `trainmc emax`: c_N = E[max of N standard normals] by
 * quadrature, by the engine's O(1) sampler, by brute force and by asymptotic
 * formulas, side by side; and the step time it implies (docs/model.md 2). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "emax_output.h"
#include "emax_result.h"
#include "options.h"
#include "trainmc.h"

static const tmc_cli_command command = {
    "emax", TMC_CLI_EMAX, NULL,
    "usage: trainmc emax [options]\n"
    "\n"
    "For each N: c_N = E[max of N standard normals] by quadrature, simulated\n"
    "with the engine's O(1) maximum sampler and (N <= 64) by N explicit draws,\n"
    "each with its standard error and its distance from quadrature in standard\n"
    "errors; the standard deviation of the maximum; the reference design's\n"
    "rounded values; Blom's and Gumbel's approximations. Results are in units\n"
    "of sigma; --mu with --sigma or --cv adds the expected step time\n"
    "mu + c_N sigma + fixed in seconds (docs/model.md 2).\n"};

/* The step-time flags go together: --mu with exactly one of --sigma, --cv. */
static int check_step_flags(tmc_cli_options *o)
{
    int has_sigma = !isnan(o->sigma_s), has_cv = !isnan(o->cv);
    if (has_sigma && has_cv)
        return tmc_cli_usage_error("emax", "give --sigma or --cv, not both");
    if (isnan(o->mu_s) && (has_sigma || has_cv || !isnan(o->fixed_s)))
        return tmc_cli_usage_error("emax", "--sigma, --cv and --fixed-s need --mu");
    if (isnan(o->mu_s))
        return 0;
    if (!has_sigma && !has_cv)
        return tmc_cli_usage_error("emax", "--mu needs --sigma SECONDS or --cv CV");
    if (has_cv)
        o->sigma_s = o->cv * o->mu_s;
    if (isnan(o->fixed_s))
        o->fixed_s = 0;
    return 0;
}

static void init_options(tmc_cli_options *o)
{
    static const long table[] = {2, 8, 48, 1024, 16384}; /* docs/model.md 2 */
    memset(o, 0, sizeof *o);
    memcpy(o->cards, table, sizeof table);
    o->n_cards = 5;
    o->replicas = 1000000;
    o->seed = 1;
    o->mu_s = o->sigma_s = o->cv = o->fixed_s = NAN;
}

/* The library's emax options for the command's flags (--cv is sigma = cv mu
 * by now); brute force stays tmc_emax_options_init's N <= 64. */
static void emax_options(const tmc_cli_options *o, tmc_emax_options *eo)
{
    tmc_emax_options_init(eo);
    eo->replicas = o->replicas;
    eo->seed = (uint64_t)o->seed;
    eo->threads = o->threads;
    eo->has_step = !isnan(o->mu_s);
    eo->mu_s = o->mu_s;
    eo->sigma_s = o->sigma_s;
    eo->fixed_s = o->fixed_s;
}

/* Print the text report; write the JSON and CSV files if asked. 0, or 1. */
static int report(const tmc_cli_options *o, const tmc_emax_result *res, tmc_outfile *out,
                  tmc_outfile *csv)
{
    const tmc_emax_report *r = &res->report;
    tmc_emax_output_text(stdout, r);
    if (tmc_cli_check_stdout()) /* the report is lost: no JSON of it either */
        return 1;
    if (o->csv_path && tmc_cli_write_text(csv, tmc_emax_output_csv(r)))
        return 1;
    return o->json_path ? tmc_cli_write_json(out, tmc_emax_output_json(r)) : 0;
}

/* The exit code of a run that failed, after its message. */
static int emax_failed(const tmc_status *st)
{
    int stopped = st->code == TMC_ERR_STOPPED;
    fprintf(stderr, "trainmc: %s%s\n", st->message, stopped ? "; no results written" : "");
    return stopped ? 130 : st->code == TMC_ERR_INPUT ? 2 : 1;
}

int tmc_cli_emax(int argc, char **argv)
{
    tmc_cli_options o;
    init_options(&o);
    int rc = tmc_cli_parse_options(&command, argc, argv, &o);
    if (!rc)
        rc = check_step_flags(&o);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    tmc_outfile out = {0}, csv = {0}, *files[] = {&out, &csv};
    const char *flags[] = {"json", "csv"}, *paths[] = {o.json_path, o.csv_path};
    if ((rc = tmc_cli_open_outputs(files, flags, paths, 2, NULL)))
        return rc;
    tmc_cli_catch_stop_signals(); /* SIGINT: stop, remove the temporary file, exit 130 */
    tmc_emax_options eo;
    emax_options(&o, &eo);
    tmc_status st;
    tmc_emax_result *res = tmc_emax_run_result(o.cards, o.n_cards, &eo, &st);
    rc = res ? report(&o, res, &out, &csv) : emax_failed(&st);
    tmc_emax_result_free(res);
    if (rc)
        tmc_cli_abort_outputs(files, paths, 2);
    return rc;
}
