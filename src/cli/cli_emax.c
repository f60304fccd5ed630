/* cli_emax.c - `trainmc emax`: c_N = E[max of N standard normals] by
 * quadrature, by the engine's O(1) sampler, by brute force and by asymptotic
 * formulas, side by side; and the step time it implies (MODEL.md 2). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emax.h"
#include "emax_output.h"
#include "output.h"
#include "runner.h"

#define MAX_CARDS 64                /* card counts in one --cards list */
#define MAX_N 10000000L             /* as job.cards */
#define MAX_SEED 9007199254740991L  /* 2^53 - 1, as monte_carlo.seed */
#define BRUTE_MAX 64                /* brute force costs N draws per replica */

static const char *usage_emax =
    "usage: trainmc emax [options]\n"
    "\n"
    "For each N: c_N = E[max of N standard normals] by quadrature, simulated\n"
    "with the engine's O(1) maximum sampler and (N <= 64) by N explicit draws,\n"
    "each with its standard error and its distance from quadrature in standard\n"
    "errors; the standard deviation of the maximum; the reference design's\n"
    "rounded values; Blom's and Gumbel's approximations. Results are in units\n"
    "of sigma; --mu with --sigma or --cv adds the expected step time\n"
    "mu + c_N sigma + fixed in seconds (MODEL.md 2).\n"
    "\n"
    "options:\n"
    "  -c, --cards LIST      card counts N, comma-separated, 1..1e7\n"
    "                        (default 2,8,48,1024,16384: MODEL.md 2's table)\n"
    "  -n, --replicas R      simulated maxima per N, 2..1e9 (default 1000000)\n"
    "  -s, --seed S          run seed, 0..2^53-1 (default 1)\n"
    "  -t, --threads T       worker threads, 1..1024 (default: all cores); the\n"
    "                        numbers are identical whatever T is\n"
    "      --mu SECONDS      mean per-card compute time per step, (0, 1e7]\n"
    "      --sigma SECONDS   sigma, the per-card sd of compute time, [0, 1e7];\n"
    "      --cv CV           or sigma as a fraction of mu, [0, 1] (one of the two)\n"
    "      --fixed-s SECONDS per-step time outside compute (communication,\n"
    "                        input), [0, 86400] (default 0)\n"
    "  -j, --json FILE       also write the results as JSON to FILE (atomically)\n"
    "  -h, --help            this help\n";

typedef struct {
    long cards[MAX_CARDS];
    int n_cards;
    long replicas;
    long seed;
    int threads;
    double mu_s, sigma_s, cv, fixed_s; /* NaN: not given */
    const char *json_path;
} emax_options;

enum { OPT_MU = 256, OPT_SIGMA, OPT_CV, OPT_FIXED };

/* A finite number in [lo, hi] (lo excluded if lo_open) that fills all of s,
 * into *out; else a usage error (2). */
static int parse_number(const char *flag, const char *s, double lo, double hi, int lo_open,
                        double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > hi || (lo_open && v == lo))
        return tmc_cli_usage_error("emax", "%s: '%s' is not a number in %c%.10g, %.10g]", flag, s,
                                   lo_open ? '(' : '[', lo, hi);
    *out = v;
    return 0;
}

static int parse_cards(const char *list, emax_options *o)
{
    o->n_cards = 0;
    for (const char *p = list;; p += strcspn(p, ",") + 1) {
        size_t len = strcspn(p, ",");
        char item[32] = ""; /* all zero: a copy shorter than 32 is terminated */
        if (len < sizeof item)
            memcpy(item, p, len);
        if (o->n_cards == MAX_CARDS)
            return tmc_cli_usage_error("emax", "--cards: more than %d card counts", MAX_CARDS);
        if (len >= sizeof item || tmc_cli_parse_long(item, 1, MAX_N, &o->cards[o->n_cards++]))
            return tmc_cli_usage_error("emax", "--cards: '%.*s' is not an integer in [1, %ld]",
                                       (int)len, p, MAX_N);
        if (p[len] == '\0')
            return 0;
    }
}

/* The step-time flags go together: --mu with exactly one of --sigma, --cv. */
static int check_step_flags(emax_options *o)
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

static int parse_option(int c, const char *arg, emax_options *o)
{
    long v;
    switch (c) {
    case 'c': return parse_cards(arg, o);
    case 'n':
        if (tmc_cli_parse_long(arg, 2, 1000000000L, &o->replicas))
            return tmc_cli_usage_error("emax", "--replicas: '%s' is not an integer in [2, 1e9]", arg);
        return 0;
    case 's':
        if (tmc_cli_parse_long(arg, 0, MAX_SEED, &o->seed))
            return tmc_cli_usage_error("emax", "--seed: '%s' is not an integer in [0, 2^53-1]", arg);
        return 0;
    case 't':
        if (tmc_cli_parse_long(arg, 1, 1024, &v))
            return tmc_cli_usage_error("emax", "--threads: '%s' is not an integer in [1, 1024]", arg);
        o->threads = (int)v;
        return 0;
    case OPT_MU: return parse_number("--mu", arg, 0, 1e7, 1, &o->mu_s);
    case OPT_SIGMA: return parse_number("--sigma", arg, 0, 1e7, 0, &o->sigma_s);
    case OPT_CV: return parse_number("--cv", arg, 0, 1, 0, &o->cv);
    case OPT_FIXED: return parse_number("--fixed-s", arg, 0, 86400, 0, &o->fixed_s);
    default: o->json_path = arg; return 0; /* 'j', the only value left */
    }
}

static int parse_emax_options(int argc, char **argv, emax_options *o)
{
    static const struct option longs[] = {
        {"cards", required_argument, 0, 'c'},  {"replicas", required_argument, 0, 'n'},
        {"seed", required_argument, 0, 's'},   {"threads", required_argument, 0, 't'},
        {"mu", required_argument, 0, OPT_MU},  {"sigma", required_argument, 0, OPT_SIGMA},
        {"cv", required_argument, 0, OPT_CV},  {"fixed-s", required_argument, 0, OPT_FIXED},
        {"json", required_argument, 0, 'j'},   {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":c:n:s:t:j:h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_emax, stdout);
            exit(tmc_cli_check_stdout()); /* 1 if the help could not be written */
        }
        if (c == ':')
            return tmc_cli_usage_error("emax", "option %s needs a value", argv[optind - 1]);
        if (c == '?')
            return tmc_cli_usage_error("emax", "unknown option '%s'", argv[optind - 1]);
        if ((rc = parse_option(c, optarg, o)))
            return rc;
    }
    if (optind < argc)
        return tmc_cli_usage_error("emax", "emax takes no arguments ('%s')", argv[optind]);
    return check_step_flags(o);
}

static void init_options(emax_options *o)
{
    static const long table[] = {2, 8, 48, 1024, 16384}; /* MODEL.md 2 */
    memset(o, 0, sizeof *o);
    memcpy(o->cards, table, sizeof table);
    o->n_cards = 5;
    o->replicas = 1000000;
    o->seed = 1;
    o->threads = tmc_runner_default_threads();
    o->mu_s = o->sigma_s = o->cv = o->fixed_s = NAN;
}

/* Print the text report; write the JSON file if asked. 0, or 1. */
static int report(const emax_options *o, const tmc_emax_row *rows, double elapsed_s,
                  tmc_outfile *out)
{
    tmc_emax_report r = {.rows = rows, .n_rows = o->n_cards, .replicas = o->replicas,
                         .seed = (uint64_t)o->seed, .brute_max = BRUTE_MAX,
                         .step = !isnan(o->mu_s), .mu_s = o->mu_s, .sigma_s = o->sigma_s,
                         .fixed_s = o->fixed_s, .threads = o->threads, .elapsed_s = elapsed_s};
    tmc_emax_output_text(stdout, &r);
    return o->json_path ? tmc_cli_write_json(out, tmc_emax_output_json(&r)) : 0;
}

int tmc_cli_emax(int argc, char **argv)
{
    emax_options o;
    init_options(&o);
    int rc = parse_emax_options(argc, argv, &o);
    if (rc)
        return rc;
    tmc_error err = {""};
    tmc_outfile out = {0};
    if (o.json_path && (rc = tmc_cli_open_output(&out, o.json_path, NULL)))
        return rc;
    tmc_emax_row rows[MAX_CARDS];
    double t0 = tmc_cli_now_s();
    for (int i = 0; i < o.n_cards && !rc; i++)
        rc = tmc_emax_compute(o.cards[i], o.replicas, (uint64_t)o.seed, o.threads, BRUTE_MAX,
                              &rows[i], &err);
    if (rc)
        fprintf(stderr, "trainmc: %s\n", err.msg);
    else
        rc = report(&o, rows, tmc_cli_now_s() - t0, &out);
    if (o.json_path && rc)
        tmc_output_abort(&out);
    return rc ? 1 : 0;
}
