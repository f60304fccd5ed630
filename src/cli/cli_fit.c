/* cli_fit.c - `trainmc fit FAULTLOG`: a failure model fitted to a cluster's
 * fault log (src/fit/fit.h, docs/fit.md). Its options are parsed here, not
 * in the shared table (options.c), so `fit` is dispatched by main.c apart
 * from the commands the man page lists. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fault_log.h"
#include "fit.h"

static const char help[] =
    "usage: trainmc fit FAULTLOG --nodes N --cards-per-node N [options]\n"
    "\n"
    "Fit a failure model to a cluster's fault log: the failure rate per card,\n"
    "per node and for the cluster with exact Poisson intervals; the lifetime\n"
    "law of a node (exponential against Weibull, right-censored, with the\n"
    "likelihood-ratio test of shape 1); the repair-time law (lognormal,\n"
    "Weibull, exponential with Kolmogorov-Smirnov p-values); the cause mix;\n"
    "and the evidence against the Poisson assumption (counts per node and per\n"
    "time window, simultaneous faults). docs/fit.md gives every formula.\n"
    "\n"
    "FAULTLOG is JSON (an array of events or one event a line: node_id,\n"
    "event_time in days, event_type fault_start or fault_end, fault_type\n"
    "{Level, Class, Desc}) or CSV (a header, one fault a line).\n"
    "\n"
    "options:\n"
    "      --nodes N           nodes watched, failed or not (required: nodes\n"
    "                          that never failed are not in the log)\n"
    "      --cards-per-node N  cards (GPUs) per node (required)\n"
    "      --span-days D       days watched from time 0 (default: the last event)\n"
    "      --format F          json or csv (default: csv for a .csv name, else json)\n"
    "      --node COL          CSV: the node column (default node)\n"
    "      --start COL         CSV: the fault start column (default start)\n"
    "      --end COL           CSV: the repair end column, empty: not repaired\n"
    "                          (default: end, if the header has it)\n"
    "      --cause COL         CSV: the cause column (default: cause, if present)\n"
    "      --time-unit U       CSV: days or hours (default days)\n"
    "      --exclude-cause T   leave out faults whose Class or Desc is T (case\n"
    "                          ignored); repeatable\n"
    "      --window-days D     counts per window of D days (default 7)\n"
    "      --simultaneous-s S  faults on different nodes starting within S\n"
    "                          seconds are simultaneous (default 60)\n"
    "      --confidence C      of every interval (default 0.95)\n"
    "      --json FILE         write the report as JSON\n"
    "      --write FILE        write a failures distribution file an experiment\n"
    "                          can name as its \"failures\"\n"
    "      --law L             the lifetime law --write uses: exponential (the\n"
    "                          Poisson rate; default) or weibull (the fitted shape)\n"
    "  -h, --help              this help\n";

enum { O_NODES = 256, O_CARDS, O_SPAN, O_FORMAT, O_NODE, O_START, O_END, O_CAUSE, O_UNIT,
       O_EXCLUDE, O_WINDOW, O_SIMUL, O_CONF, O_JSON, O_WRITE, O_LAW };

static int error(const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a, b);
    return tmc_cli_usage_error("fit", "%s", msg);
}

static int number(const char *name, const char *s, double lo, double hi, int lo_open,
                  double *out)
{
    char *end, range[96];
    double v = strtod(s, &end);
    if (*s && !*end && isfinite(v) && (lo_open ? v > lo : v >= lo) && v <= hi) {
        *out = v;
        return 0;
    }
    snprintf(range, sizeof range, "%c%g, %g]", lo_open ? '(' : '[', lo, hi);
    return tmc_cli_usage_error("fit", "--%s: '%s' is not a number in %s", name, s, range);
}

typedef struct {
    tmc_fit_options fit;
    tmc_fault_log_columns cols;
    const char *format, *json_path, *write_path, *law;
} fit_args;

static int parse(int argc, char **argv, fit_args *a)
{
    static const struct option longs[] = {
        {"nodes", 1, 0, O_NODES}, {"cards-per-node", 1, 0, O_CARDS},
        {"span-days", 1, 0, O_SPAN}, {"format", 1, 0, O_FORMAT}, {"node", 1, 0, O_NODE},
        {"start", 1, 0, O_START}, {"end", 1, 0, O_END}, {"cause", 1, 0, O_CAUSE},
        {"time-unit", 1, 0, O_UNIT}, {"exclude-cause", 1, 0, O_EXCLUDE},
        {"window-days", 1, 0, O_WINDOW}, {"simultaneous-s", 1, 0, O_SIMUL},
        {"confidence", 1, 0, O_CONF}, {"json", 1, 0, O_JSON}, {"write", 1, 0, O_WRITE},
        {"law", 1, 0, O_LAW}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    int c, rc = 0;
    opterr = 0;
    optind = 1;
    while (!rc && (c = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(help, stdout);
            return TMC_CLI_HELP_SHOWN;
        case O_NODES:
            if (tmc_cli_parse_long(optarg, 1, 100000000, &a->fit.nodes))
                rc = error("--nodes: '%s' is not an integer in [1, 1e8]%s", optarg, "");
            break;
        case O_CARDS:
            if (tmc_cli_parse_long(optarg, 1, 1000000, &a->fit.cards_per_node))
                rc = error("--cards-per-node: '%s' is not an integer in [1, 1e6]%s", optarg,
                           "");
            break;
        case O_SPAN:
            rc = number("span-days", optarg, 0, 1e7, 1, &a->fit.span_days);
            break;
        case O_FORMAT:
            if (strcmp(optarg, "json") && strcmp(optarg, "csv"))
                rc = error("--format: '%s' is not one of: json, csv%s", optarg, "");
            a->format = optarg;
            break;
        case O_NODE: a->cols.node = optarg; break;
        case O_START: a->cols.start = optarg; break;
        case O_END:
            a->cols.end = *optarg ? optarg : NULL;
            a->cols.end_optional = 0;
            break;
        case O_CAUSE:
            a->cols.cause = *optarg ? optarg : NULL;
            a->cols.cause_optional = 0;
            break;
        case O_UNIT:
            if (!strcmp(optarg, "hours"))
                a->cols.hours = 1;
            else if (!strcmp(optarg, "days"))
                a->cols.hours = 0;
            else
                rc = error("--time-unit: '%s' is not one of: days, hours%s", optarg, "");
            break;
        case O_EXCLUDE:
            if (a->fit.n_exclude == TMC_FIT_MAX_EXCLUDE)
                rc = error("--exclude-cause: more than 64 causes%s%s", "", "");
            else if (!*optarg)
                rc = error("--exclude-cause: an empty cause%s%s", "", "");
            else
                a->fit.exclude[a->fit.n_exclude++] = optarg;
            break;
        case O_WINDOW:
            rc = number("window-days", optarg, 0, 1e6, 1, &a->fit.window_days);
            break;
        case O_SIMUL:
            rc = number("simultaneous-s", optarg, 0, 1e7, 1, &a->fit.simultaneous_s);
            break;
        case O_CONF:
            rc = number("confidence", optarg, 0.5, 0.9999, 0, &a->fit.confidence);
            break;
        case O_JSON: a->json_path = optarg; break;
        case O_WRITE: a->write_path = optarg; break;
        case O_LAW:
            if (strcmp(optarg, "exponential") && strcmp(optarg, "weibull"))
                rc = error("--law: '%s' is not one of: exponential, weibull%s", optarg, "");
            a->law = optarg;
            break;
        case ':':
            rc = error("option %s needs a value%s", argv[optind - 1], "");
            break;
        default:
            rc = error("unknown option '%s'%s", argv[optind - 1], "");
        }
    }
    if (rc)
        return rc;
    if (optind != argc - 1)
        return error("fit %s one FAULTLOG%s", optind >= argc ? "needs" : "takes", "");
    a->fit.log_path = argv[optind];
    if (!a->fit.nodes || !a->fit.cards_per_node)
        return error("fit needs --nodes N and --cards-per-node N: the exposure a log cannot "
                     "show%s%s", "", "");
    if (!a->format) {
        size_t n = strlen(a->fit.log_path);
        a->format = n > 4 && !strcmp(a->fit.log_path + n - 4, ".csv") ? "csv" : "json";
    }
    return 0;
}

/* 2 with a message when path names the log itself (it would be overwritten). */
static int check_not_log(const char *path, const char *log)
{
    struct stat a, b;
    if (path && !stat(path, &a) && !stat(log, &b) && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return tmc_cli_usage_error("fit", "%s is the fault log: it would be overwritten", path);
    return 0;
}

int tmc_cli_fit(int argc, char **argv)
{
    fit_args a = {.fit = {.confidence = 0.95, .window_days = 7, .simultaneous_s = 60},
                  .cols = {"node", "start", "end", "cause", 0, 1, 1}, /* defaults: if present */
                  .law = "exponential"};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc;
    if ((rc = check_not_log(a.json_path, a.fit.log_path)) ||
        (rc = check_not_log(a.write_path, a.fit.log_path)))
        return rc;
    tmc_outfile out = {0}, dist = {0}, *files[] = {&out, &dist};
    const char *flags[] = {"json", "write"}, *paths[] = {a.json_path, a.write_path};
    if ((rc = tmc_cli_open_outputs(files, flags, paths, 2, NULL)))
        return rc;
    tmc_error err = {""};
    tmc_fault_log log;
    int bad = !strcmp(a.format, "csv") ? tmc_fault_log_read_csv(a.fit.log_path, &a.cols, &log,
                                                                 &err)
                                       : tmc_fault_log_read_json(a.fit.log_path, &log, &err);
    if (bad) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_cli_abort_outputs(files, paths, 2);
        return 2;
    }
    int n_read = log.n_faults, excluded[TMC_FIT_MAX_EXCLUDE] = {0};
    tmc_fault_log_exclude(&log, a.fit.exclude, a.fit.n_exclude, excluded);
    static tmc_fit_result r; /* large: off the stack */
    if (log.n_faults == 0)
        rc = tmc_error_set(&err, "%s: every fault was left out by --exclude-cause",
                           a.fit.log_path);
    else
        rc = tmc_fit_compute(&log, &a.fit, n_read, excluded, &r, &err);
    if (rc) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        tmc_fit_free(&r);
        tmc_fault_log_free(&log);
        tmc_cli_abort_outputs(files, paths, 2);
        return 2;
    }
    if (tmc_cli_is_root())
        tmc_fit_output_text(stdout, &r);
    rc = tmc_cli_check_stdout();
    if (!rc && a.json_path)
        rc = tmc_cli_write_json(&out, tmc_fit_output_json(&r));
    else if (a.json_path)
        tmc_output_abort(&out);
    if (a.write_path) {
        cJSON *doc = rc ? NULL : tmc_fit_output_distribution(&r, a.law);
        if (rc)
            tmc_output_abort(&dist);
        else if (!doc) {
            fprintf(stderr, "trainmc: --write: no %s law could be fitted to %s; nothing "
                    "written\n", a.law, a.fit.log_path);
            tmc_output_abort(&dist);
            rc = 1;
        } else
            rc = tmc_cli_write_json(&dist, doc);
    }
    tmc_fit_free(&r);
    tmc_fault_log_free(&log);
    return rc ? 1 : 0;
}
