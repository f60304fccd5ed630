/* options.c - the one table of command-line options (options.h): each row
 * is an option with the commands that take it, its line in their --help,
 * and how its value is parsed and where it is kept (as Redis's config.c
 * keeps its settings). getopt_long's arguments and the help are made from
 * it, so an option is written once. */
#include "options.h"

#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "importance.h"

typedef struct option_row option_row;

/* Store arg (NULL for a flag) in o; 0, 2 after a usage error, or
 * TMC_CLI_HELP_SHOWN. */
typedef int (*option_parser)(const option_row *r, const char *arg, tmc_cli_options *o);

/* An option's line in --help, for the commands (TMC_CLI_* bits) that print
 * it: most say the same everywhere, a few differ by command. */
typedef struct {
    unsigned commands;
    const char *text;
} option_help;

struct option_row {
    const char *name;    /* long name, without "--" */
    char letter;         /* short letter; 0: none */
    const char *arg;     /* its value's name in --help; NULL: a flag */
    option_help help[3]; /* the commands that take it, and what it says there */
    option_parser parse;
    size_t offset;     /* of its value in tmc_cli_options */
    double lo, hi;     /* bounds of its value, or of each --cards item */
    int lo_open;       /* a number: lo itself excluded */
    const char *range; /* an integer: the bounds as its message prints them */
    const char *key;   /* the experiment key it overrides in commands that read one */
    size_t set_offset; /* ... through this buffer */
};

#define OFF(field) offsetof(tmc_cli_options, field)
#define HELP_COLUMN 24
#define HELP_WIDTH 80
#define MAX_SEED 9007199254740991.0 /* 2^53 - 1, as monte_carlo.seed */

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
    if (tmc_cli_parse_long(arg, (long)r->lo, (long)r->hi, field(r, o)))
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not an integer in %s",
                                   r->name, arg, r->range);
    return 0;
}

/* A finite number in the row's bounds that fills all of arg. */
static int parse_number(const option_row *r, const char *arg, tmc_cli_options *o)
{
    char *end;
    double v = strtod(arg, &end);
    int below = r->lo_open ? v <= r->lo : v < r->lo;
    if (end == arg || *end || !isfinite(v) || below || v > r->hi)
        return tmc_cli_usage_error(o->command->name, "--%s: '%s' is not a number in "
                                   "%c%.10g, %.10g]", r->name, arg, r->lo_open ? '(' : '[',
                                   r->lo, r->hi);
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
            tmc_cli_parse_long(item, (long)r->lo, (long)r->hi, &o->cards[o->n_cards++]))
            return tmc_cli_usage_error(cmd, "--%s: '%.*s' is not an integer in %s", r->name,
                                       (int)len, p, r->range);
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

static int print_help(const option_row *r, const char *arg, tmc_cli_options *o);

/* ---------- the table ---------- */

#define RUN TMC_CLI_RUN
#define PLAN TMC_CLI_PLAN
#define EMAX TMC_CLI_EMAX
#define SWEEP TMC_CLI_SWEEP

static const option_row table[] = {
    {.name = "vary", .arg = "KEY=VALUES", .parse = parse_vary,
     .help = {{SWEEP, "a numeric experiment key (dotted path, as for --set) and its values: "
                      "V1,V2,... or START:STOP:STEP (STOP included); twice: the full grid; "
                      "at most 1000 settings in all"}}},
    {.name = "target", .arg = "T", .parse = parse_text, .offset = OFF(target),
     .help = {{SWEEP, "METRIC>=VALUE or METRIC<=VALUE, METRIC one of deadline.probability, "
                      "completion_days.mean, overhead.mean; needs one --vary KEY=LO:HI "
                      "(integer key) or KEY=LO:HI:TOL"}}},
    {.name = "cards", .letter = 'c', .arg = "LIST", .parse = parse_cards,
     .lo = 1, .hi = 10000000, .range = "[1, 10000000]",
     .help = {{EMAX, "card counts N, comma-separated, 1..1e7 (default 2,8,48,1024,16384: "
                     "docs/model.md 2's table)"}}},
    {.name = "replicas", .letter = 'n', .arg = "N", .parse = parse_key_or_integer,
     .offset = OFF(replicas), .lo = 2, .hi = 1e9, .range = "[2, 1e9]",
     .key = "monte_carlo.replicas", .set_offset = OFF(replicas_set),
     .help = {{RUN, "replicas (overrides monte_carlo.replicas), 1..1e9"},
              {SWEEP, "replicas per setting (overrides monte_carlo.replicas), 2..1e9"},
              {EMAX, "simulated maxima per N, 2..1e9 (default 1000000)"}}},
    {.name = "seed", .letter = 's', .arg = "S", .parse = parse_key_or_integer,
     .offset = OFF(seed), .lo = 0, .hi = MAX_SEED, .range = "[0, 2^53-1]",
     .key = "monte_carlo.seed", .set_offset = OFF(seed_set),
     .help = {{RUN | SWEEP, "run seed (overrides monte_carlo.seed), 0..2^53-1"},
              {EMAX, "run seed, 0..2^53-1 (default 1)"}}},
    {.name = "threads", .letter = 't', .arg = "T", .parse = parse_integer,
     .offset = OFF(threads), .lo = 1, .hi = 1024, .range = "[1, 1024]",
     .help = {{RUN | EMAX | SWEEP, "worker threads, 1..1024 (default: all cores); the "
                                   "numbers are identical whatever T is"}}},
    {.name = "mu", .arg = "SECONDS", .parse = parse_number, .offset = OFF(mu_s),
     .lo = 0, .hi = 1e7, .lo_open = 1,
     .help = {{EMAX, "mean per-card compute time per step, (0, 1e7]; with --sigma or --cv, "
                     "adds the step time"}}},
    {.name = "sigma", .arg = "SECONDS", .parse = parse_number, .offset = OFF(sigma_s),
     .lo = 0, .hi = 1e7,
     .help = {{EMAX, "sigma, the per-card sd of compute time, [0, 1e7] (or --cv)"}}},
    {.name = "cv", .arg = "CV", .parse = parse_number, .offset = OFF(cv), .lo = 0, .hi = 1,
     .help = {{EMAX, "sigma as a fraction of mu, [0, 1] (or --sigma)"}}},
    {.name = "fixed-s", .arg = "SECONDS", .parse = parse_number, .offset = OFF(fixed_s),
     .lo = 0, .hi = 86400,
     .help = {{EMAX, "per-step time outside compute (communication, input), [0, 86400] "
                     "(default 0)"}}},
    {.name = "json", .letter = 'j', .arg = "FILE", .parse = parse_text, .offset = OFF(json_path),
     .help = {{RUN | EMAX | SWEEP, "also write the results as JSON to FILE (atomically)"},
              {PLAN, "also write the board as JSON to FILE (atomically)"}}},
    {.name = "csv", .arg = "FILE", .parse = parse_text, .offset = OFF(csv_path),
     .help = {{SWEEP, "also write the table as CSV to FILE (atomically): every column, "
                      "quantiles included"},
              {EMAX, "also write the tables as CSV to FILE (atomically), a row per N"}}},
    {.name = "samples", .arg = "FILE", .parse = parse_text, .offset = OFF(samples_path),
     .help = {{RUN, "also write every replica (completion time, events, wall-time split) "
                    "as CSV to FILE (atomically)"}}},
    {.name = "set", .arg = "KEY=VALUE", .parse = parse_set,
     .help = {{RUN | PLAN, "override a key of the experiment (a dotted path) before "
                           "validation, e.g. job.cards=64 or checkpoint.interval_s=900; VALUE "
                           "is JSON (number, null, object) or a string"},
              {SWEEP, "override a key of the experiment at every setting (as `trainmc run`)"}}},
    {.name = "quiet", .letter = 'q', .parse = parse_flag, .offset = OFF(quiet),
     .help = {{RUN | SWEEP, "no progress bar"}}},
    {.name = "force", .letter = 'f', .parse = parse_flag, .offset = OFF(force),
     .help = {{RUN, "run even if the training state does not fit in memory"},
              {SWEEP, "run even if a setting's training state does not fit in memory"}}},
    {.name = "importance", .arg = "auto|F,O,S[,R,D]", .parse = parse_importance,
     .help = {{RUN, "also estimate a small P(miss) by importance sampling: rates of failures, "
                    "outages, spikes (and the means of repairs, downtimes) multiplied by a "
                    "tilt chosen by cross-entropy (auto) or given (e.g. 1,4,1)"},
              {SWEEP, "also estimate each setting's P(miss) by importance sampling (as "
                      "`trainmc run`; not with --target)"}}},
    {.name = "importance-pilot", .arg = "N", .parse = parse_integer, .offset = OFF(pilot),
     .lo = 100, .hi = 100000000, .range = "[100, 100000000]",
     .help = {{RUN | SWEEP, "replicas per cross-entropy level, 100..1e8 (default 1000)"}}},
    {.name = "precision", .arg = "TARGET", .parse = parse_precision,
     .help = {{RUN, "add replicas in batches of 1000 until the 95 % interval is this narrow, "
                    "within --replicas: e.g. deadline.probability:abs=0.001, "
                    "completion_days.mean:rel=1e-4"},
              {SWEEP, "replicas in batches of 1000 until every setting's 95 % interval is "
                      "this narrow (as `trainmc run`), within --replicas"}}},
    {.name = "help", .letter = 'h', .parse = print_help,
     .help = {{RUN | PLAN | EMAX | SWEEP, "this help"}}},
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
    int col = r->letter ? fprintf(f, "  -%c, ", r->letter) : fprintf(f, "%6s", "");
    col += fprintf(f, "--%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
    if (col >= HELP_COLUMN)
        col = fprintf(f, "\n") - 1;
    print_wrapped(f, text, col + fprintf(f, "%*s", HELP_COLUMN - col, ""));
}

static int print_help(const option_row *r, const char *arg, tmc_cli_options *o)
{
    (void)r, (void)arg;
    unsigned command = o->command->bit;
    fputs(o->command->about, stdout);
    fputs("\noptions:\n", stdout);
    for (size_t i = 0; i < N_ROWS; i++)
        if (row_help(&table[i], command))
            print_option(stdout, &table[i], row_help(&table[i], command));
    return TMC_CLI_HELP_SHOWN;
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

int tmc_cli_parse_options(const tmc_cli_command *cmd, int argc, char **argv,
                          tmc_cli_options *o)
{
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
    return parse_operands(argc, argv, o);
}
