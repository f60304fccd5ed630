/* options.c - the one table of command-line options (options.h): each row
 * is an option with the commands that take it, its line in their --help,
 * and how its value is parsed and where it is kept (as Redis's config.c
 * keeps its settings). getopt_long's arguments, the help, the man page and
 * the bash completion are made from it, so an option is written once. */
#include "options.h"

#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "number.h"
#include "text.h"
#include "importance.h"

typedef struct option_row option_row;

/* Store arg (NULL for a flag) in o; 0, 2 after a usage error, or
 * TMC_CLI_HELP_SHOWN. */
typedef int (*option_parser)(const option_row *r, const char *arg, tmc_cli_options *o);

/* An option's line in --help, for the commands (TMC_CLI_* bits) that print
 * it: most say the same everywhere, a few differ by command. The text names
 * its bounds and words only by placeholder ({range}, {key range},
 * {choices}: see placeholder), so that a row states them once. */
typedef struct {
    unsigned commands;
    const char *text;
} option_help;

struct option_row {
    const char *name;    /* long name, without "--" */
    char letter;         /* short letter; 0: none */
    const char *arg;     /* its value's name in --help; NULL: a flag */
    option_help help[7]; /* the commands that take it, and what it says there (--html: seven) */
    option_parser parse;
    size_t offset;     /* of its value in tmc_cli_options */
    double lo, hi;     /* bounds of its value, or of each --cards item */
    int lo_open;       /* a number: lo itself excluded */
    const char *bounds_key; /* not NULL: lo, hi and lo_open are this key's (its row's) */
    const char *choices; /* parse_choice: its words, ", "-separated */
    const char *key;   /* the experiment key it overrides in commands that read one */
    size_t set_offset; /* ... through this buffer */
    int role;          /* TMC_CLI_PATH_INPUT or _OUTPUT: its value names a file; 0: not */
};

#define OFF(field) offsetof(tmc_cli_options, field)
#define HELP_COLUMN 24
#define HELP_WIDTH 80
#define MAX_SEED 9007199254740991.0 /* 2^53 - 1, as monte_carlo.seed */

/* ---------- bounds ---------- */

typedef struct {
    char s[64];
} bounds_text;

/* A bound as a user would type it: 2^53-1 (the largest seed), else as
 * tmc_config_bound_text writes it (1e7, 0.2). */
static void bound(char *buf, size_t n, double x)
{
    snprintf(buf, n, "%s", x == MAX_SEED ? "2^53-1" : tmc_config_bound_text(x).s);
}

/* "[lo, hi]", or "(lo, hi]" when lo is excluded. */
static bounds_text bounds(double lo, double hi, int lo_open)
{
    char a[24], b[24];
    bounds_text t;
    bound(a, sizeof a, lo);
    bound(b, sizeof b, hi);
    snprintf(t.s, sizeof t.s, "%c%s, %s]", lo_open ? '(' : '[', a, b);
    return t;
}

/* The row's bounds: its own, or its bounds_key's row's. */
static option_row with_bounds(const option_row *r)
{
    option_row b = *r;
    if (r->bounds_key)
        tmc_config_key_bounds(r->bounds_key, &b.lo, &b.hi, &b.lo_open);
    return b;
}

static bounds_text row_bounds(const option_row *r)
{
    option_row b = with_bounds(r);
    return bounds(b.lo, b.hi, b.lo_open);
}

/* ---------- parsers ---------- */

static void *field(const option_row *r, tmc_cli_options *o)
{
    return (char *)o + r->offset;
}

static int parse_flag(const option_row *r, const char *arg, tmc_cli_options *o)
{
    (void)arg;
    *(int *)field(r, o) = 1;
    return 0;
}

static int parse_text(const option_row *r, const char *arg, tmc_cli_options *o)
{
    *(const char **)field(r, o) = arg;
    return 0;
}

static int parse_integer(const option_row *r, const char *arg, tmc_cli_options *o)
{
    option_row b = with_bounds(r);
    if (tmc_cli_parse_long(arg, (long)b.lo, (long)b.hi, field(r, o)))
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not an integer in %s",
                                   r->name, arg, row_bounds(r).s);
    return 0;
}

/* A finite number in the row's bounds that fills all of arg. */
static int parse_number(const option_row *r, const char *arg, tmc_cli_options *o)
{
    double v = NAN; /* decimal only (number.h): not 0x10, inf or nan */
    int bad = tmc_number_parse(arg, &v);
    int below = r->lo_open ? v <= r->lo : v < r->lo;
    if (bad || below || v > r->hi)
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not a number in %s",
                                   r->name, arg, row_bounds(r).s);
    *(double *)field(r, o) = v;
    return 0;
}

/* --replicas, --seed: in a command that reads an experiment, an override of
 * its key, so that the experiment's validation table checks the value with
 * its own bounds and messages; elsewhere (emax) an integer. */
static int parse_key_or_integer(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (!o->command->operand)
        return parse_integer(r, arg, o);
    char *set = (char *)o + r->set_offset;
    /* cut short, a value could change meaning ("1.00...01" into "1.00") */
    if (snprintf(set, TMC_CLI_SET_LEN, "%s=%s", r->key, arg) >= TMC_CLI_SET_LEN)
        return tmc_cli_usage_error(o->command->name, "--%s: '%.40s...' is too long", r->name,
                                   arg);
    return 0;
}

static int parse_set(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (o->n_sets >= TMC_CLI_MAX_SETS)
        return tmc_cli_usage_error(o->command->name, "--%s: more than %d overrides", r->name,
                                   TMC_CLI_MAX_SETS);
    o->sets[o->n_sets++] = arg;
    return 0;
}

static int parse_vary(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (o->n_vary == TMC_SWEEP_MAX_KEYS)
        return tmc_cli_usage_error(o->command->name, "--%s: at most %d keys (a grid)", r->name,
                                   TMC_SWEEP_MAX_KEYS);
    o->vary[o->n_vary++] = arg;
    return 0;
}

/* A comma-separated list of integers in the row's bounds. */
static int parse_cards(const option_row *r, const char *list, tmc_cli_options *o)
{
    const char *cmd = o->command->name;
    option_row b = with_bounds(r);
    o->n_cards = 0;
    for (const char *p = list;; p += strcspn(p, ",") + 1) {
        size_t len = strcspn(p, ",");
        char item[32] = ""; /* all zero: a copy shorter than 32 is terminated */
        if (len < sizeof item)
            memcpy(item, p, len);
        if (o->n_cards == TMC_CLI_MAX_CARDS)
            return tmc_cli_usage_error(cmd, "--%s: more than %d card counts", r->name,
                                       TMC_CLI_MAX_CARDS);
        if (len >= sizeof item ||
            tmc_cli_parse_long(item, (long)b.lo, (long)b.hi, &o->cards[o->n_cards++]))
            return tmc_cli_usage_error(cmd, "--%s: '%.*s' is not an integer in %s", r->name,
                                       (int)len, p, row_bounds(r).s);
        if (p[len] == '\0')
            return 0;
    }
}

static int parse_importance(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (strcmp(arg, "auto") != 0 && tmc_importance_parse_tilt(arg, NULL))
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is neither auto nor three or "
                                   "five positive multipliers F,O,S[,R,D]", r->name, arg);
    o->importance = arg;
    return 0;
}

static int parse_precision(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (tmc_precision_parse(arg, &o->precision))
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not METRIC:abs=X or "
                                   "METRIC:rel=X with X > 0, METRIC deadline.probability or "
                                   "completion_days.mean", r->name, arg);
    o->has_precision = 1;
    return 0;
}

/* One of the row's words ("json, csv"). */
static int parse_choice(const option_row *r, const char *arg, tmc_cli_options *o)
{
    size_t len = strlen(arg);
    for (const char *p = r->choices; *p; p += strspn(p, ", ")) {
        size_t n = strcspn(p, ",");
        if (len && n == len && !strncmp(p, arg, n)) {
            *(const char **)field(r, o) = arg;
            return 0;
        }
        p += n;
    }
    return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not one of: %s", r->name, arg,
                               r->choices);
}

/* fit --exclude-cause, repeatable: a non-empty cause. */
static int parse_exclude(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (o->n_exclude == TMC_CLI_MAX_EXCLUDE)
        return tmc_cli_usage_error(o->command->name, "--%s: more than %d causes", r->name,
                                   TMC_CLI_MAX_EXCLUDE);
    if (!*arg)
        return tmc_cli_usage_error(o->command->name, "--%s: an empty cause", r->name);
    tmc_error err; /* the cause is printed in the report and its --json */
    char where[64];
    snprintf(where, sizeof where, "--%s", r->name);
    if (tmc_text_require(arg, o->command->name, where, &err))
        return tmc_cli_usage_error(o->command->name, "%s", err.msg);
    o->exclude[o->n_exclude++] = arg;
    return 0;
}

/* cheapest --lever, repeatable: KEY=VALUES (cheapest.h checks them). */
static int parse_lever(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (o->n_search_levers == TMC_CLI_MAX_LEVERS)
        return tmc_cli_usage_error(o->command->name, "--%s: at most %d (one per lever)",
                                   r->name, TMC_CLI_MAX_LEVERS);
    o->search_levers[o->n_search_levers++] = arg;
    return 0;
}

/* forecast --committed-step N: 0 is a value, so whether it was given is kept. */
static int parse_committed_step(const option_row *r, const char *arg, tmc_cli_options *o)
{
    o->has_committed_step = 1;
    return parse_integer(r, arg, o);
}

/* fit --sacct-map STATE=CAUSE, repeatable; fit --sacct checks each against
 * the state table (sacct.h), which gives the message. */
static int parse_sacct_map(const option_row *r, const char *arg, tmc_cli_options *o)
{
    if (o->n_sacct_map == TMC_CLI_MAX_SACCT_MAP)
        return tmc_cli_usage_error(o->command->name, "--%s: more than %d states", r->name,
                                   TMC_CLI_MAX_SACCT_MAP);
    o->sacct_map[o->n_sacct_map++] = arg;
    return 0;
}

static int print_help(const option_row *r, const char *arg, tmc_cli_options *o);

/* ---------- the table ---------- */

#define RUN TMC_CLI_RUN
#define PLAN TMC_CLI_PLAN
#define EMAX TMC_CLI_EMAX
#define SWEEP TMC_CLI_SWEEP
#define RESCUE TMC_CLI_RESCUE
#define SENSITIVITY TMC_CLI_SENSITIVITY
#define CHEAPEST TMC_CLI_CHEAPEST
#define FIT TMC_CLI_FIT
#define FORECAST TMC_CLI_FORECAST

static const option_row table[] = {
    {.name = "vary", .arg = "KEY=VALUES", .parse = parse_vary,
     .help = {{SWEEP, "a numeric experiment key (dotted path, as for --set) and its values: "
                      "V1,V2,... or START:STOP:STEP (STOP included); twice: the full grid; "
                      "at most 1000 settings in all"}}},
    {.name = "target", .arg = "T", .parse = parse_text, .offset = OFF(target),
     .help = {{SWEEP, "METRIC>=VALUE or METRIC<=VALUE, METRIC one of deadline.probability, "
                      "completion_days.mean, overhead.mean, goodput.mean; needs one --vary "
                      "KEY=LO:HI (integer key) or KEY=LO:HI:TOL"},
              {RESCUE, "METRIC>=VALUE or METRIC<=VALUE, METRIC one of deadline.probability, "
                       "completion_days.mean, overhead.mean, goodput.mean (default "
                       "deadline.probability>=0.9)"},
              {CHEAPEST, "P or deadline.probability>=P, P in (0, 1): the plan must meet "
                         "P(T <= deadline) >= P (default 0.9)"}}},
    {.name = "inputs", .arg = "FILE.json", .parse = parse_text, .offset = OFF(inputs_path),
     .role = TMC_CLI_PATH_INPUT,
     .help = {{SENSITIVITY, "the inputs and their ranges, {\"KEY\": [LOW, HIGH], ...}: numeric "
                            "experiment keys, or interconnect.link_gb_per_s (prefetch "
                            "working) and interconnect.link_gb_per_s:prefetch_failed "
                            "(default: eight inputs, README)"}}},
    {.name = "compound", .arg = "KEY=V,...", .parse = parse_text, .offset = OFF(compound),
     .help = {{SENSITIVITY, "also a compound case: these degradations at once, each alone, and "
                            "the gain from fixing each one alone (KEY as for --inputs)"}}},
    {.name = "levers", .arg = "KEYS", .parse = parse_text, .offset = OFF(levers),
     .help = {{RESCUE, "the levers to move, comma-separated, among job.steps, deadline.days, "
                       "job.efficiency, job.cards, the experiment's checkpoint interval key, "
                       "checkpoint.restore_s, failures.causes[I].detection_s, "
                       "failures.causes[I].restore_s, elastic.heal_s, "
                       "failures.spare_provision_s, failures.repair_mean_hours (default: the "
                       "first five and every recovery lever that applies)"}}},
    {.name = "lever", .arg = "KEY=VALUES", .parse = parse_lever,
     .help = {{CHEAPEST, "a lever and its values, repeatable: job.cards=LO:HI (default half "
                         "to twice the experiment's), the experiment's checkpoint interval "
                         "key, failures.spares, failures.standbys, slowdown.refresh_hours or "
                         "checkpoint.persistent_every with V1,V2,... or START:STOP:STEP, "
                         "checkpoint.mode=sync,async"}}},
    {.name = "async-copy-s", .arg = "S", .parse = parse_number, .offset = OFF(async_copy_s),
     .lo = 0, .hi = 1e7,
     .help = {{CHEAPEST, "for async plans of a sync experiment: the seconds an async save "
                         "blocks training (its copy), {range}; the write takes "
                         "checkpoint.save_s"}}},
    {.name = "cards", .letter = 'c', .arg = "LIST", .parse = parse_cards,
     .bounds_key = "job.cards", /* a card count, as an experiment's */
     .help = {{EMAX, "card counts N, comma-separated, each in {range} (default "
                     "2,8,48,1024,16384: "
                     "docs/model.md 2's table)"},
              {FIT, "with --steps on a training log: the cards N whose slowest card's time "
                    "each printed step time is, one count in {range} (required there)"}}},
    {.name = "replicas", .letter = 'n', .arg = "N", .parse = parse_key_or_integer,
     .offset = OFF(replicas), .lo = 2, .hi = 1e9,
     .key = "monte_carlo.replicas", .set_offset = OFF(replicas_set),
     .help = {{RUN | FORECAST, "replicas (overrides monte_carlo.replicas), {key range}"},
              {SWEEP | RESCUE | SENSITIVITY | CHEAPEST, "replicas per setting (overrides "
                                                        "monte_carlo.replicas), {range}"},
              {EMAX, "simulated maxima per N, {range} (default 1000000)"}}},
    {.name = "seed", .letter = 's', .arg = "S", .parse = parse_key_or_integer,
     .offset = OFF(seed), .lo = 0, .hi = MAX_SEED,
     .key = "monte_carlo.seed", .set_offset = OFF(seed_set),
     .help = {{RUN | SWEEP | RESCUE | SENSITIVITY | CHEAPEST | FORECAST,
               "run seed (overrides monte_carlo.seed), {key range}"},
              {EMAX, "run seed, {range} (default 1)"}}},
    {.name = "threads", .letter = 't', .arg = "T", .parse = parse_integer,
     .offset = OFF(threads), .lo = 1, .hi = 1024,
     .help = {{RUN | EMAX | SWEEP | RESCUE | SENSITIVITY | CHEAPEST | FORECAST,
               "worker threads, {range} (default: all cores); the numbers are identical "
               "whatever T is"}}},
    {.name = "mu", .arg = "SECONDS", .parse = parse_number, .offset = OFF(mu_s),
     .lo = 0, .hi = 1e7, .lo_open = 1,
     .help = {{EMAX, "mean per-card compute time per step, {range}; with --sigma or --cv, "
                     "adds the step time"}}},
    {.name = "sigma", .arg = "SECONDS", .parse = parse_number, .offset = OFF(sigma_s),
     .lo = 0, .hi = 1e7,
     .help = {{EMAX, "sigma, the per-card sd of compute time, {range} (or --cv)"}}},
    {.name = "cv", .arg = "CV", .parse = parse_number, .offset = OFF(cv), .lo = 0, .hi = 1,
     .help = {{EMAX, "sigma as a fraction of mu, {range} (or --sigma)"}}},
    {.name = "fixed-s", .arg = "SECONDS", .parse = parse_number, .offset = OFF(fixed_s),
     .lo = 0, .hi = 86400,
     .help = {{EMAX, "per-step time outside compute (communication, input), {range} "
                     "(default 0)"}}},
    {.name = "nodes", .arg = "N", .parse = parse_integer, .offset = OFF(nodes),
     .lo = 1, .hi = 1e8,
     .help = {{FIT, "nodes watched, failed or not (required for a fault log: nodes that "
                    "never failed are not in the log)"}}},
    {.name = "cards-per-node", .arg = "N", .parse = parse_integer,
     .offset = OFF(cards_per_node),
     .bounds_key = "failures.cards_per_node", /* g, as an experiment's */
     .help = {{FIT, "cards (GPUs) per node (required for a fault log; with --sacct, the "
                    "cards_per_node --write's per-node failures need)"}}},
    {.name = "span-days", .arg = "D", .parse = parse_number, .offset = OFF(span_days),
     .lo = 0, .hi = 1e7, .lo_open = 1,
     .help = {{FIT, "days watched from time 0 (default: the last event)"}}},
    {.name = "format", .arg = "F", .parse = parse_choice, .offset = OFF(format),
     .choices = "json, csv",
     .help = {{FIT, "one of {choices} (default: csv for a .csv name, else json)"}}},
    {.name = "node", .arg = "COL", .parse = parse_text, .offset = OFF(node_col),
     .help = {{FIT, "CSV: the node column (default node)"}}},
    {.name = "start", .arg = "COL", .parse = parse_text, .offset = OFF(start_col),
     .help = {{FIT, "CSV: the fault start column (default start)"}}},
    {.name = "end", .arg = "COL", .parse = parse_text, .offset = OFF(end_col),
     .help = {{FIT, "CSV: the repair end column, empty: not repaired (default: end, if the "
                    "header has it)"}}},
    {.name = "cause", .arg = "COL", .parse = parse_text, .offset = OFF(cause_col),
     .help = {{FIT, "CSV: the cause column (default: cause, if present)"}}},
    {.name = "time-unit", .arg = "U", .parse = parse_choice, .offset = OFF(time_unit),
     .choices = "days, hours",
     .help = {{FIT, "CSV: the times' unit, one of {choices} (default days)"}}},
    {.name = "exclude-cause", .arg = "T", .parse = parse_exclude,
     .help = {{FIT, "leave out faults whose Class or Desc is T (case ignored); repeatable"}}},
    {.name = "dedupe", .parse = parse_flag, .offset = OFF(dedupe),
     .help = {{FIT, "drop faults that repeat an earlier one exactly (node, start, end, "
                    "cause); without it such a log is refused"}}},
    {.name = "bursts", .parse = parse_flag, .offset = OFF(bursts),
     .help = {{FIT, "faults on several nodes starting within --simultaneous-s of each other "
                    "are bursts: --write writes failures.burst_* and the single-node rate "
                    "without their faults"}}},
    {.name = "window-days", .arg = "D", .parse = parse_number, .offset = OFF(window_days),
     .lo = 0, .hi = 1e6, .lo_open = 1,
     .help = {{FIT, "counts per window of D days (default 7)"}}},
    {.name = "simultaneous-s", .arg = "S", .parse = parse_number, .offset = OFF(simultaneous_s),
     .lo = 0, .hi = 1e7, .lo_open = 1,
     .help = {{FIT, "faults on different nodes starting within S seconds are simultaneous "
                    "(default 60)"}}},
    {.name = "steps", .parse = parse_flag, .offset = OFF(steps),
     .help = {{FIT, "the log is a step-time log (CSV: step, rank, seconds, or a step column "
                    "and one column per rank), or a training log (Megatron-LM's iteration "
                    "lines, or --step-regex's; with --cards N): fit the per-card jitter "
                    "instead"}}},
    {.name = "sacct", .parse = parse_flag, .offset = OFF(sacct),
     .help = {{FIT, "the log is SLURM accounting, `sacct --parsable2` output with a header "
                    "(JobID, JobName, State, Start, End, Elapsed, NNodes, NodeList): "
                    "interruptions per node-hour and job-hour, requeue waits, the time limit"}}},
    {.name = "sacct-map", .arg = "STATE=CAUSE", .parse = parse_sacct_map,
     .help = {{FIT, "with --sacct: map a job state to a cause (node, job, outage, "
                    "time_limit, completed, ignored) in place of the table's; repeatable"}}},
    {.name = "confidence", .arg = "C", .parse = parse_number, .offset = OFF(confidence),
     .lo = 0.5, .hi = 0.9999,
     .help = {{FIT, "of every interval and test, {range} (default 0.95)"}}},
    {.name = "json", .letter = 'j', .arg = "FILE", .parse = parse_text, .offset = OFF(json_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{RUN | EMAX | SWEEP | RESCUE | SENSITIVITY | CHEAPEST | FORECAST,
               "also write the results "
                                                                     "as JSON to "
                                                          "FILE "
                                            "(atomically)"},
              {PLAN, "also write the board as JSON to FILE (atomically)"},
              {FIT, "also write the report as JSON to FILE (atomically)"}}},
    {.name = "write", .arg = "FILE", .parse = parse_text, .offset = OFF(write_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{FIT, "write a distribution file an experiment can name (atomically): of a "
                    "fault log its \"failures\", with --steps its \"jitter\"; with --sacct an "
                    "experiment fragment (failures, outages, time_limit)"}}},
    {.name = "law", .arg = "L", .parse = parse_choice, .offset = OFF(law),
     .choices = "exponential, weibull",
     .help = {{FIT, "the lifetime law --write uses: exponential (the Poisson rate; default) "
                    "or weibull (the fitted shape)"}}},
    {.name = "csv", .arg = "FILE", .parse = parse_text, .offset = OFF(csv_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{SWEEP, "also write the table as CSV to FILE (atomically): every column, "
                      "quantiles included"},
              {EMAX, "also write the tables as CSV to FILE (atomically), a row per N"}}},
    {.name = "plot", .arg = "FILE.svg", .parse = parse_text, .offset = OFF(plot_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{RUN, "also draw the completion time's histogram and CDF, deadline marked, "
                    "as SVG to FILE (atomically; needs gnuplot)"},
              {SWEEP, "also draw mean T and P(deadline) against the first key, with "
                      "intervals and the closed form, as SVG to FILE (needs gnuplot)"},
              {SENSITIVITY, "also draw the tornado chart (each input's low and high end "
                            "against the base, for T and P) as SVG to FILE (atomically)"},
              {CHEAPEST, "also draw every plan's expected cost against its P(deadline), the "
                         "frontier and the chosen plan, as SVG to FILE (atomically)"},
              {FORECAST, "also draw P(deadline) at each snapshot against its elapsed day, "
                         "with its Wilson 95 % interval, as SVG to FILE (atomically)"}}},
    {.name = "html", .arg = "FILE", .parse = parse_text, .offset = OFF(html_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{RUN, "also write the report to share as one self-contained HTML file (no "
                    "network, no script): the answer first, what the run assumes, the "
                    "completion time's histogram and CDF, the wall-time split, the "
                    "experiment, the command (atomically; needs gnuplot)"},
              {SWEEP, "also write the report to share as one self-contained HTML file: "
                      "the lowest mean T and the highest P first, what the reference "
                      "setting assumes, the sweep's curve, every setting, the experiment, "
                      "the command (a grid; atomically; needs gnuplot)"},
              {FORECAST, "also write the report to share as one self-contained HTML file: "
                         "P(deadline) at the latest snapshot and its change first, what "
                         "that run assumes, the history's picture, every snapshot, the "
                         "experiment, the command (atomically)"},
              {SENSITIVITY, "also write the report to share as one self-contained HTML "
                            "file: the base's P(deadline) and the inputs that move T and P "
                            "most first, what the base assumes, the tornado, the tables, "
                            "the experiment, the command (atomically)"},
              {CHEAPEST, "also write the report to share as one self-contained HTML file: "
                         "the cheapest plan that meets the target with its P(deadline) and "
                         "cost first, its T beside the closed forms, what it assumes, the "
                         "cost-probability frontier, the final comparison, the tables, the "
                         "experiment, the command (atomically)"},
              {RESCUE, "also write the report to share as one self-contained HTML file: the "
                       "plan's metric and each lever's smallest change that meets the target "
                       "first, the plan's T beside the closed forms, what it assumes, each "
                       "lever's bisection, the experiment, the command (atomically)"},
              {FIT, "also write the report to share as one self-contained HTML file: the "
                    "answer first (the rates with their intervals; with --steps the jitter; "
                    "with --sacct the interruptions per cause), every part of the text "
                    "report, what --write wrote, the command (atomically)"}}},
    {.name = "samples", .arg = "FILE", .parse = parse_text, .offset = OFF(samples_path),
     .role = TMC_CLI_PATH_OUTPUT,
     .help = {{RUN, "also write every replica (completion time, events, wall-time split) "
                    "as CSV to FILE (atomically)"}}},
    {.name = "progress", .arg = "FILE", .parse = parse_text, .offset = OFF(progress_path),
     .role = TMC_CLI_PATH_INPUT,
     .help = {{RUN, "forecast from where a run stands: FILE is a JSON object with the keys "
                    "of the progress section (what a training job writes), which replaces "
                    "the experiment's; checked as that section is"}}},
    {.name = "history", .arg = "FILE.jsonl", .parse = parse_text, .offset = OFF(history_path),
     .role = TMC_CLI_PATH_INPUT,
     .help = {{FORECAST, "the snapshots, one JSON object a line with the keys of the "
                         "progress section (blank lines skipped); this or --log is "
                         "required"}}},
    {.name = "log", .arg = "LOG", .parse = parse_text, .offset = OFF(log_path),
     .role = TMC_CLI_PATH_INPUT,
     .help = {{FORECAST, "forecast from a running job's own training log instead of a "
                         "history: Megatron-LM's iteration lines (or --step-regex's) give "
                         "the progress section, which is then run as `trainmc run "
                         "--progress` runs it"}}},
    {.name = "step-regex", .arg = "REGEX", .parse = parse_text, .offset = OFF(step_regex),
     .help = {{FORECAST, "with --log: its iteration lines as an extended regular "
                               "expression with named groups (?P<step>...) and (?P<ms>...) "
                               "or (?P<s>...), optionally (?P<time>...) (default: "
                               "Megatron-LM's lines)"},
              {FIT, "with --steps: the log is a training log whose iteration lines this "
                    "extended regular expression reads, as forecast --log's (default: "
                    "Megatron-LM's lines, when the log is no CSV with a step column)"}}},
    {.name = "elapsed-days", .arg = "D", .parse = parse_number, .offset = OFF(elapsed_days),
     .lo = 0, .hi = 1e6, .lo_open = 1,
     .help = {{FORECAST, "with --log: the wall time since the job started, days (default: "
                         "from the log's stamps; required without them)"}}},
    {.name = "committed-step", .arg = "N", .parse = parse_committed_step,
     .offset = OFF(committed_step), .lo = 0, .hi = 1e9,
     .help = {{FORECAST, "with --log: the newest checkpoint's step (default: the log's last "
                         "checkpoint line; required without one)"}}},
    {.name = "write-progress", .arg = "FILE", .parse = parse_text,
     .offset = OFF(write_progress_path), .role = TMC_CLI_PATH_OUTPUT,
     .help = {{FORECAST, "with --log: also write the progress object made from the log to "
                         "FILE (atomically), which `trainmc run --progress FILE` reads"}}},
    {.name = "set", .arg = "KEY=VALUE", .parse = parse_set,
     .help = {{RUN | PLAN | FORECAST, "override a key of the experiment (a dotted path) before "
                           "validation, e.g. job.cards=64 or checkpoint.interval_s=900; VALUE "
                           "is JSON (number, null, object) or a string"},
              {SWEEP | RESCUE | SENSITIVITY | CHEAPEST, "override a key of the experiment "
                                                        "at every "
                                             "setting (as "
                               "`trainmc run`)"}}},
    {.name = "quiet", .letter = 'q', .parse = parse_flag, .offset = OFF(quiet),
     .help = {{RUN | SWEEP | RESCUE | SENSITIVITY | CHEAPEST | FORECAST, "no progress bar"}}},
    {.name = "detail", .letter = 'v', .parse = parse_flag, .offset = OFF(detail),
     .help = {{RUN, "the full report: the job, checkpoint and interrupt lines, the histogram "
                    "of T, every event count and every wall-time row (default: the answer "
                    "first, about 15 lines)"}}},
    {.name = "force", .letter = 'f', .parse = parse_flag, .offset = OFF(force),
     .help = {{RUN | FORECAST, "run even if the training state does not fit in memory"},
              {SWEEP | RESCUE | SENSITIVITY | CHEAPEST, "run even if a setting's training "
                                                        "state does "
                                             "not fit in memory"}}},
    {.name = "importance", .arg = "auto|F,O,S[,R,D]", .parse = parse_importance,
     .help = {{RUN, "also estimate a small P(miss) by importance sampling: rates of failures, "
                    "outages, spikes (and the means of repairs, downtimes) multiplied by a "
                    "tilt chosen by cross-entropy (auto) or given (e.g. 1,4,1)"},
              {SWEEP, "also estimate each setting's P(miss) by importance sampling (as "
                      "`trainmc run`; not with --target)"}}},
    {.name = "importance-pilot", .arg = "N", .parse = parse_integer, .offset = OFF(pilot),
     .lo = 100, .hi = 100000000,
     .help = {{RUN | SWEEP, "replicas per cross-entropy level, {range} (default 1000)"}}},
    {.name = "importance-plain-max", .arg = "N", .parse = parse_integer,
     .offset = OFF(plain_max), .lo = 1, .hi = 1000000000,
     .help = {{RUN | SWEEP, "when the importance estimate's weights are too heavy-tailed for "
                            "its interval (k-hat > 0.5), run plain replicas in its place if a "
                            "10 % relative error needs at most N, {range} (default 1e7)"}}},
    {.name = "precision", .arg = "TARGET", .parse = parse_precision,
     .help = {{RUN, "add replicas in batches of 1000 until the 95 % interval is this narrow, "
                    "within --replicas: e.g. deadline.probability:abs=0.001, "
                    "completion_days.mean:rel=1e-4"},
              {SWEEP, "replicas in batches of 1000 until every setting's 95 % interval is "
                      "this narrow (as `trainmc run`), within --replicas"}}},
    {.name = "help", .letter = 'h', .parse = print_help,
     .help = {{RUN | PLAN | EMAX | SWEEP | RESCUE | FIT | SENSITIVITY | CHEAPEST | FORECAST,
               "this help"}}},
};

#define N_ROWS (sizeof table / sizeof table[0])

/* What row r says in command's help; NULL: command does not take r. */
static const char *row_help(const option_row *r, unsigned command)
{
    for (size_t i = 0; i < sizeof r->help / sizeof r->help[0]; i++)
        if (r->help[i].commands & command)
            return r->help[i].text;
    return NULL;
}

/* ---------- help ---------- */

/* The words a help text's placeholder stands for: "{range}" the row's
 * bounds, "{key range}" those of the experiment key it overrides (its
 * validation table's row), "{choices}" the row's words; NULL: none here. */
static const char *placeholder(const option_row *r, const char *p, size_t *len,
                               bounds_text *t)
{
    double lo, hi;
    int lo_open;
    if (!strncmp(p, "{range}", *len = 7))
        return (*t = row_bounds(r)).s;
    if (!strncmp(p, "{choices}", *len = 9))
        return r->choices;
    if (!strncmp(p, "{key range}", *len = 11) && r->key &&
        !tmc_config_key_bounds(r->key, &lo, &hi, &lo_open))
        return (*t = bounds(lo, hi, lo_open)).s;
    return NULL;
}

/* text with its placeholders filled in, into buf[n]. */
static const char *expand(const option_row *r, const char *text, char *buf, size_t n)
{
    size_t used = 0, len;
    bounds_text t;
    for (const char *p = text; *p && used + 1 < n;) {
        const char *words = *p == '{' ? placeholder(r, p, &len, &t) : NULL;
        if (words) {
            used += (size_t)snprintf(buf + used, n - used, "%s", words);
            p += len;
        } else {
            buf[used++] = *p++;
        }
    }
    buf[used < n ? used : n - 1] = '\0';
    return buf;
}

/* text from HELP_COLUMN, its words wrapped before HELP_WIDTH */
static void print_wrapped(FILE *f, const char *text, int col)
{
    while (*text) {
        int len = (int)strcspn(text, " ");
        if (col > HELP_COLUMN && col + 1 + len > HELP_WIDTH)
            col = fprintf(f, "\n%*s", HELP_COLUMN, "") - 1;
        else if (col > HELP_COLUMN)
            col += fprintf(f, " ");
        col += fprintf(f, "%.*s", len, text);
        text += len + strspn(text + len, " ");
    }
    fputc('\n', f);
}

/* "  -n, --replicas N" then its text; a longer name than the column puts
 * the text on the next line. */
static void print_option(FILE *f, const option_row *r, const char *text)
{
    char help[512];
    text = expand(r, text, help, sizeof help);
    int col = r->letter ? fprintf(f, "  -%c, ", r->letter) : fprintf(f, "%6s", "");
    col += fprintf(f, "--%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
    if (col >= HELP_COLUMN)
        col = fprintf(f, "\n") - 1;
    print_wrapped(f, text, col + fprintf(f, "%*s", HELP_COLUMN - col, ""));
}

/* Set by describe (below): --help then hands its command over instead of
 * printing. */
static int describing;
static const tmc_cli_command *described;

static int print_help(const option_row *r, const char *arg, tmc_cli_options *o)
{
    (void)r, (void)arg;
    unsigned command = o->command->bit;
    if (describing) {
        described = o->command;
        return TMC_CLI_HELP_SHOWN;
    }
    fputs(o->command->about, stdout);
    fputs("\noptions:\n", stdout);
    for (size_t i = 0; i < N_ROWS; i++)
        if (row_help(&table[i], command))
            print_option(stdout, &table[i], row_help(&table[i], command));
    return TMC_CLI_HELP_SHOWN;
}

/* ---------- man page and bash completion ---------- */

#define MAX_COMMANDS 16

/* e's command as its own --help knows it (print_help); NULL: none. */
static const tmc_cli_command *describe(const tmc_cli_entry *e)
{
    char name[32], help[] = "--help";
    char *argv[] = {name, help, NULL};
    snprintf(name, sizeof name, "%s", e->name);
    described = NULL;
    describing = 1;
    e->fn(2, argv);
    describing = 0;
    return described;
}

/* The n commands into out; -1 with a message if one cannot be described. */
static int describe_all(const tmc_cli_entry *commands, size_t n, const tmc_cli_command **out)
{
    for (size_t i = 0; i < n; i++)
        if (i >= MAX_COMMANDS || !(out[i] = describe(&commands[i]))) {
            fprintf(stderr, "trainmc: cannot describe command '%s'\n", commands[i].name);
            return -1;
        }
    return 0;
}

/* s[0, len) as roff text: '\' as \e, '-' as \- (an option's dashes stay
 * ASCII), a leading '.' or '\'' guarded by \& (not a request). */
static void roff_text(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (i == 0 && (s[i] == '.' || s[i] == '\''))
            fputs("\\&", f);
        if (s[i] == '\\' || s[i] == '-')
            fputs(s[i] == '\\' ? "\\e" : "\\-", f);
        else
            fputc(s[i], f);
    }
}

static void roff_string(FILE *f, const char *s)
{
    roff_text(f, s, strlen(s));
}

/* roff source written with plain dashes: each '-' as \-, the rest as is. */
static void roff_dashes(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
}

static const char *next_line(const char *p)
{
    p += strcspn(p, "\n");
    return *p ? p + 1 : p;
}

/* cmd's usage lines from its help ("usage: " and indents dropped). */
static void man_usage(FILE *f, const tmc_cli_command *cmd)
{
    for (const char *p = cmd->about; *p && *p != '\n'; p = next_line(p)) {
        p += strspn(p, " ");
        if (!strncmp(p, "usage: ", 7))
            p += 7;
        size_t prog = strncmp(p, "trainmc ", 8) ? 0 : 8;
        fputs(prog ? "\\fBtrainmc\\fR " : "", f);
        roff_text(f, p + prog, strcspn(p, "\n") - prog);
        fputs("\n.br\n", f);
    }
}

/* The description in cmd's help, after its usage lines and a blank line;
 * a blank line starts a paragraph. */
static void man_description(FILE *f, const tmc_cli_command *cmd)
{
    const char *p = strstr(cmd->about, "\n\n");
    for (p = p ? p + 2 : ""; *p; p = next_line(p)) {
        size_t len = strcspn(p, "\n");
        if (len)
            roff_text(f, p, len);
        fputs(len ? "\n" : ".PP\n", f);
    }
}

/* Row r's entry: "-n, --replicas N", then text. */
static void man_option(FILE *f, const option_row *r, const char *text)
{
    char help[512];
    text = expand(r, text, help, sizeof help);
    fputs(".TP\n", f);
    if (r->letter)
        fprintf(f, "\\fB\\-%c\\fR, ", r->letter);
    fputs("\\fB\\-\\-", f);
    roff_string(f, r->name);
    fputs(r->arg ? "\\fR \\fI" : "", f);
    roff_string(f, r->arg ? r->arg : "");
    fputs("\\fR\n", f);
    roff_string(f, text);
    fputc('\n', f);
}

static void man_options(FILE *f, const tmc_cli_command *cmd)
{
    fprintf(f, ".SS \"Options of trainmc %s\"\n", cmd->name);
    for (size_t i = 0; i < N_ROWS; i++)
        if (row_help(&table[i], cmd->bit))
            man_option(f, &table[i], row_help(&table[i], cmd->bit));
}

static const char man_intro[] =
    ".SH DESCRIPTION\n"
    "\\fBtrainmc\\fR answers whether a large-model training run finishes by its deadline,\n"
    "with what probability, and where the time goes. An experiment, a JSON file, describes\n"
    "the job, its cards, checkpoints, failures, outages, loss spikes and stragglers;\n"
    "\\fBtrainmc\\fR simulates the run replica by replica and prints every figure beside\n"
    "its closed form (Young, Daly).\n"
    ".PP\n"
    "Each command takes the options listed for it under OPTIONS;\n"
    "\\fBtrainmc\\fR \\fICOMMAND\\fR \\fB--help\\fR prints the same list.\n"
    ".SH COMMANDS\n";

static const char man_tail[] =
    ".SH EXIT STATUS\n"
    ".TP\n.B 0\ndone\n"
    ".TP\n.B 1\nany other failure, a report that could not be written included\n"
    "(a full disk, a closed pipe)\n"
    ".TP\n.B 2\nbad usage or a bad experiment (the message names the option or key)\n"
    ".TP\n.B 130\nstopped by SIGINT, SIGTERM or SIGHUP; no output file is left\n"
    ".SH FILES\n"
    ".TP\n.I EXPERIMENT.json\n"
    "the experiment (run, plan, sweep), with the distribution and trace files it names\n"
    ".TP\n.I LOG\n"
    "a cluster's fault log, or with --steps a step-time log, that fit reads (docs/fit.md)\n"
    ".TP\n.I FILE.jsonl\n"
    "a history of progress snapshots, one JSON object a line, that forecast reads\n"
    ".TP\n.IR PREFIX /share/bash-completion/completions/trainmc\n"
    "bash completion, made like this page from the option table\n"
    ".PP\n"
    "Output files (\\fB--json\\fR, \\fB--csv\\fR, ...) are written atomically: a temporary\n"
    "file beside each is renamed when complete, and a failed or stopped run leaves none.\n"
    ".SH SEE ALSO\n"
    ".IR README.md ,\n"
    ".I docs/model.md\n"
    "(the model) and\n"
    ".I docs/reference/simulation-semantics.md\n"
    "(its rules one by one) in trainmc's source tree.\n";

/* .TH, NAME (summary without its full stop) and SYNOPSIS. */
static void man_head(FILE *f, const char *summary, const tmc_cli_command **cmds, size_t n)
{
    size_t len = strlen(summary);
    fprintf(f, ".TH TRAINMC 1 \"\" \"trainmc %s\" \"User Commands\"\n", TMC_VERSION);
    fputs(".nh\n.SH NAME\ntrainmc \\- ", f); /* .nh: no option split at a line's end */
    roff_text(f, summary, len && summary[len - 1] == '.' ? len - 1 : len);
    fputs("\n.SH SYNOPSIS\n", f);
    for (size_t i = 0; i < n; i++)
        man_usage(f, cmds[i]);
    fputs("\\fBtrainmc\\fR \\-\\-help | \\-\\-version\n", f);
}

int tmc_cli_print_man(const tmc_cli_entry *commands, size_t n, const char *summary)
{
    const tmc_cli_command *cmds[MAX_COMMANDS];
    if (describe_all(commands, n, cmds))
        return 1;
    man_head(stdout, summary, cmds, n);
    roff_dashes(stdout, man_intro);
    for (size_t i = 0; i < n; i++) {
        printf(".SS %s\n", cmds[i]->name);
        man_description(stdout, cmds[i]);
    }
    fputs(".SH OPTIONS\n", stdout);
    for (size_t i = 0; i < n; i++)
        man_options(stdout, cmds[i]);
    roff_dashes(stdout, man_tail);
    return 0;
}

enum { WORDS_ALL, WORDS_FILE, WORDS_VALUE };

/* 1 when row r belongs to `which`: any row; one whose value is a file
 * (FILE, FILE.svg); one whose value is anything else. */
static int row_in(const option_row *r, int which)
{
    int file = r->arg && !strncmp(r->arg, "FILE", 4);
    return which == WORDS_ALL || (r->arg && file == (which == WORDS_FILE));
}

/* "var='--name -l ...'": the rows of command bit in `which`. */
static void bash_words(FILE *f, const char *var, unsigned bit, int which)
{
    const char *sep = "";
    fprintf(f, "        %s='", var);
    for (size_t i = 0; i < N_ROWS; i++) {
        const option_row *r = &table[i];
        if (!row_help(r, bit) || !row_in(r, which))
            continue;
        fprintf(f, "%s--%s", sep, r->name);
        if (r->letter)
            fprintf(f, " -%c", r->letter);
        sep = " ";
    }
    fputs("'\n", f);
}

static const char bash_head[] =
    "# bash completion for trainmc, made by `trainmc help-bash-completion` from its\n"
    "# option table (src/cli/options.c): do not edit.\n"
    "_trainmc()\n"
    "{\n"
    "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
    "    local opts= files= values= operand=\n"
    "    [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD-2]} # --json=FILE\n"
    "    [[ $cur == = ]] && cur=\n"
    "    if ((COMP_CWORD == 1)); then\n"
    "        COMPREPLY=($(compgen -W '";

static const char bash_commands[] =
    "-h --help -V --version' -- \"$cur\"))\n"
    "        return\n"
    "    fi\n"
    "    case ${COMP_WORDS[1]} in\n";

static const char bash_tail[] =
    "    *) return ;;\n"
    "    esac\n"
    "    if [[ -n $prev && \" $files \" == *\" $prev \"* ]]; then\n"
    "        local IFS=$'\\n'\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "    elif [[ -n $prev && \" $values \" == *\" $prev \"* ]]; then\n"
    "        COMPREPLY=() # a value: nothing to offer\n"
    "    elif [[ $cur == -* || -z $operand ]]; then\n"
    "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
    "    elif [[ $operand == json ]]; then\n"
    "        local IFS=$'\\n'\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        COMPREPLY=($(compgen -f -X '!*.json' -- \"$cur\") $(compgen -d -- \"$cur\"))\n"
    "    else\n"
    "        local IFS=$'\\n'\n"
    "        compopt -o filenames 2>/dev/null\n"
    "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
    "    fi\n"
    "}\n"
    "complete -F _trainmc trainmc\n";

/* cmd's arm of the case: its options, those that take a file or another
 * value, and its operand: json (an EXPERIMENT.json), file (any file: fit's
 * LOG) or none. */
static void bash_command(FILE *f, const tmc_cli_command *cmd)
{
    fprintf(f, "    %s)\n", cmd->name);
    bash_words(f, "opts", cmd->bit, WORDS_ALL);
    bash_words(f, "files", cmd->bit, WORDS_FILE);
    bash_words(f, "values", cmd->bit, WORDS_VALUE);
    size_t len = cmd->operand ? strlen(cmd->operand) : 0;
    fprintf(f, "        operand=%s ;;\n", !len ? ""
                                          : len > 5 && !strcmp(cmd->operand + len - 5, ".json")
                                          ? "json" : "file");
}

int tmc_cli_print_bash_completion(const tmc_cli_entry *commands, size_t n)
{
    const tmc_cli_command *cmds[MAX_COMMANDS];
    if (describe_all(commands, n, cmds))
        return 1;
    fputs(bash_head, stdout);
    for (size_t i = 0; i < n; i++)
        printf("%s ", cmds[i]->name);
    fputs(bash_commands, stdout);
    for (size_t i = 0; i < n; i++)
        bash_command(stdout, cmds[i]);
    fputs(bash_tail, stdout);
    return 0;
}

/* ---------- the files a command names ---------- */

int tmc_cli_option_paths(const tmc_cli_options *o, int role, tmc_cli_path *out, int max)
{
    int n = 0;
    if (role == TMC_CLI_PATH_INPUT && o->command->operand && o->experiment && n < max)
        out[n++] = (tmc_cli_path){o->command->operand, o->experiment, 1};
    for (size_t i = 0; i < N_ROWS && n < max; i++) {
        const option_row *r = &table[i];
        const char *path = r->role == role && row_help(r, o->command->bit)
                               ? *(const char *const *)((const char *)o + r->offset) : NULL;
        if (path)
            out[n++] = (tmc_cli_path){r->name, path, 0};
    }
    return n;
}

/* cmd's file options, as tmc_cli_print_paths prints them. */
static void print_command_paths(FILE *f, const tmc_cli_command *cmd)
{
    if (cmd->operand)
        fprintf(f, "%s input %s\n", cmd->name, cmd->operand);
    for (int role = TMC_CLI_PATH_INPUT; role <= TMC_CLI_PATH_OUTPUT; role++)
        for (size_t i = 0; i < N_ROWS; i++)
            if (table[i].role == role && row_help(&table[i], cmd->bit))
                fprintf(f, "%s %s --%s %s\n", cmd->name,
                        role == TMC_CLI_PATH_INPUT ? "input" : "output", table[i].name,
                        table[i].arg);
}

int tmc_cli_print_paths(const tmc_cli_entry *commands, size_t n)
{
    const tmc_cli_command *cmds[MAX_COMMANDS];
    if (describe_all(commands, n, cmds))
        return 1;
    for (size_t i = 0; i < n; i++)
        print_command_paths(stdout, cmds[i]);
    return 0;
}

/* ---------- parsing ---------- */

/* getopt_long's arguments for the rows command takes. A row without a
 * letter answers 256 + its index, above every character. */
static void build_getopt(unsigned command, struct option *longs, char *shorts)
{
    size_t n = 0, k = 0;
    shorts[k++] = ':'; /* a missing value returns ':', told apart from an unknown option */
    for (size_t i = 0; i < N_ROWS; i++) {
        const option_row *r = &table[i];
        if (!row_help(r, command))
            continue;
        int val = r->letter ? r->letter : 256 + (int)i;
        longs[n++] = (struct option){r->name, r->arg ? required_argument : no_argument, NULL, val};
        if (r->letter) {
            shorts[k++] = r->letter;
            if (r->arg)
                shorts[k++] = ':';
        }
    }
    longs[n] = (struct option){0, 0, 0, 0};
    shorts[k] = '\0';
}

/* The row getopt_long's answer c stands for (getopt only answers letters
 * and values of the command's rows); NULL: an unknown option. */
static const option_row *find_row(int c)
{
    if (c >= 256)
        return &table[c - 256];
    for (size_t i = 0; i < N_ROWS; i++)
        if (table[i].letter == c) /* c is never 0, a row's "no letter" */
            return &table[i];
    return NULL;
}

/* The flags that override experiment keys come after every --set: the
 * flag wins whatever the order on the command line. */
static void append_flag_sets(tmc_cli_options *o)
{
    for (size_t i = 0; i < N_ROWS; i++) {
        const char *set = table[i].key ? (const char *)o + table[i].set_offset : "";
        if (set[0])
            o->sets[o->n_sets++] = set;
    }
}

static int parse_operands(int argc, char **argv, tmc_cli_options *o)
{
    const tmc_cli_command *cmd = o->command;
    if (!cmd->operand) {
        if (optind < argc)
            return tmc_cli_usage_error(cmd->name, "%s takes no arguments ('%s')", cmd->name,
                                       argv[optind]);
        return 0;
    }
    if (optind != argc - 1)
        return tmc_cli_usage_error(cmd->name, "%s %s one %s", cmd->name,
                                   optind >= argc ? "needs" : "takes", cmd->operand);
    o->experiment = argv[optind];
    return 0;
}

/* 1 when a shell reads arg as it is, unquoted. */
static int plain_word(const char *arg)
{
    if (!*arg)
        return 0;
    for (; *arg; arg++)
        if (!isalnum((unsigned char)*arg) && !strchr("_./=:,+-@%", *arg))
            return 0;
    return 1;
}

/* "trainmc COMMAND ARGS..." into o->command_line, each argument quoted
 * where a shell would need it (before getopt_long reorders argv); cut with
 * "..." when it does not fit. */
static void keep_command_line(int argc, char **argv, tmc_cli_options *o)
{
    char *at = o->command_line, *end = at + sizeof o->command_line - 4;
    at += snprintf(at, (size_t)(end - at), "trainmc");
    for (int i = 0; i < argc && at < end; i++) {
        *at++ = ' ';
        if (plain_word(argv[i])) {
            at += snprintf(at, (size_t)(end - at), "%s", argv[i]);
            continue;
        }
        *at++ = '\'';
        for (const char *c = argv[i]; *c && at < end; c++)
            at += *c == '\'' ? snprintf(at, (size_t)(end - at), "'\\''") : (*at = *c, 1);
        if (at < end)
            *at++ = '\'';
    }
    if (at >= end)
        strcpy(end, "...");
    else
        *at = 0;
}

int tmc_cli_parse_options(const tmc_cli_command *cmd, int argc, char **argv,
                          tmc_cli_options *o)
{
    keep_command_line(argc, argv, o);
    struct option longs[N_ROWS + 1];
    char shorts[2 * N_ROWS + 2];
    int c, rc;
    build_getopt(cmd->bit, longs, shorts);
    o->command = cmd;
    opterr = 0; /* the messages are ours */
    optind = 1;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const option_row *r = find_row(c);
        if (c == ':')
            return tmc_cli_usage_error(cmd->name, "option %s needs a value", argv[optind - 1]);
        if (!r)
            return tmc_cli_usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        if ((rc = r->parse(r, optarg, o)))
            return rc;
    }
    append_flag_sets(o);
    if ((rc = parse_operands(argc, argv, o)))
        return rc;
    if ((o->pilot || o->plain_max) && !o->importance) /* they would do nothing */
        return tmc_cli_usage_error(cmd->name, "--%s needs --importance",
                                   o->pilot ? "importance-pilot" : "importance-plain-max");
    return tmc_cli_check_option_paths(o);
}
