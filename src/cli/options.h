/* options.h - the command-line options of every subcommand: one table (in
 * options.c) that drives getopt_long and prints `trainmc COMMAND --help`,
 * and the values it fills. A subcommand describes itself (tmc_cli_command)
 * and takes the options whose table row names it. The man page and the bash
 * completion are printed from the same table (`trainmc help-man`,
 * `trainmc help-bash-completion`). */
#ifndef TMC_CLI_OPTIONS_H
#define TMC_CLI_OPTIONS_H

#include <stddef.h>

#include "precision.h"
#include "sweep.h"

#define TMC_CLI_MAX_SETS 64  /* --set overrides in one command */
#define TMC_CLI_MAX_CARDS 64 /* card counts in one emax --cards list */
#define TMC_CLI_SET_LEN 128  /* "monte_carlo.replicas=N" made from a flag */
#define TMC_CLI_MAX_EXCLUDE 64 /* fit --exclude-cause causes */
#define TMC_CLI_MAX_SACCT_MAP 32 /* fit --sacct-map overrides */
#define TMC_CLI_MAX_LEVERS 4  /* cheapest --lever: one per lever */
#define TMC_CLI_COMMAND_LINE 4096 /* the command line kept for --html; longer is cut */

/* tmc_cli_parse_options' return when it printed the help: the command is
 * done, and exits 0 (or 1 if standard output failed, as any report). */
#define TMC_CLI_HELP_SHOWN (-1)

/* The subcommands, as bits: a table row lists the commands that take it. */
enum { TMC_CLI_RUN = 1, TMC_CLI_PLAN = 2, TMC_CLI_EMAX = 4, TMC_CLI_SWEEP = 8,
       TMC_CLI_RESCUE = 16, TMC_CLI_FIT = 32, TMC_CLI_SENSITIVITY = 64,
       TMC_CLI_CHEAPEST = 128, TMC_CLI_FORECAST = 256 };

typedef struct {
    const char *name;    /* "run": in messages and `trainmc run --help` */
    unsigned bit;        /* TMC_CLI_RUN, ... */
    const char *operand; /* "EXPERIMENT.json", the one it needs; NULL: none */
    const char *about;   /* --help's usage lines and description, before the options */
} tmc_cli_command;

/* Every option's value. The command sets defaults first (zero for most);
 * the parser writes those of the options given. */
typedef struct {
    const tmc_cli_command *command;
    const char *experiment; /* the operand */
    const char *json_path;  /* --json; NULL: none */
    const char *csv_path;   /* --csv (sweep, emax); NULL: none */
    const char *samples_path; /* --samples (run); NULL: none */
    const char *plot_path;  /* --plot (run, sweep); NULL: none */
    const char *html_path;  /* --html: the report to share; NULL: none */
    char command_line[TMC_CLI_COMMAND_LINE]; /* "trainmc run ...", as typed (quoted
                                                for a shell), for the --html report */
    const char *progress_path; /* run --progress: the progress section's file; NULL: none */
    const char *history_path;  /* forecast --history: snapshots, JSON lines; NULL: none */
    const char *log_path;      /* forecast --log: a training log; NULL: none */
    const char *step_regex;    /* forecast --log --step-regex; NULL: Megatron-LM's lines */
    const char *write_progress_path; /* forecast --log --write-progress FILE; NULL: none */
    double elapsed_days;       /* forecast --log --elapsed-days; 0: from the log's stamps */
    long committed_step;       /* forecast --log --committed-step */
    int has_committed_step;    /* 1: --committed-step given */
    /* --set, then --replicas and --seed of a command that reads an
     * experiment: they override its keys, after the --set ones */
    const char *sets[TMC_CLI_MAX_SETS + 2];
    int n_sets;
    char replicas_set[TMC_CLI_SET_LEN], seed_set[TMC_CLI_SET_LEN];
    const char *vary[TMC_SWEEP_MAX_KEYS]; /* sweep --vary */
    int n_vary;
    const char *target; /* sweep --target; NULL: a grid */
    const char *levers; /* rescue --levers; NULL: all that apply */
    const char *inputs_path; /* sensitivity --inputs; NULL: the default inputs */
    const char *compound;    /* sensitivity --compound; NULL: none */
    const char *search_levers[TMC_CLI_MAX_LEVERS]; /* cheapest --lever KEY=VALUES */
    int n_search_levers;
    double async_copy_s;     /* cheapest --async-copy-s; NaN: not given */
    long threads;       /* 0: all cores (emax sets them first) */
    int quiet, force;
    int detail;             /* run --detail (-v): the full report, not the brief one */
    const char *importance; /* NULL: off */
    long pilot;             /* 0: the default, 1000 */
    long plain_max;         /* --importance-plain-max; 0: the default, 1e7 */
    int has_precision;
    tmc_precision precision;
    /* emax, which reads no experiment */
    long cards[TMC_CLI_MAX_CARDS];
    int n_cards;
    long replicas, seed;
    double mu_s, sigma_s, cv, fixed_s; /* NaN: not given */
    /* fit, which reads a log (cli_fit.c sets the defaults) */
    long nodes, cards_per_node;       /* --nodes, --cards-per-node; 0: not given */
    double span_days, window_days, simultaneous_s, confidence;
    const char *format, *time_unit, *law; /* --format, --time-unit, --law */
    /* --node, --start, --end, --cause: CSV column names; NULL: not given */
    const char *node_col, *start_col, *end_col, *cause_col;
    const char *exclude[TMC_CLI_MAX_EXCLUDE]; /* --exclude-cause */
    int n_exclude;
    const char *write_path; /* --write; NULL: none */
    int steps;              /* --steps: the log is a step-time log */
    int dedupe;             /* --dedupe: drop a fault log's exact duplicate faults */
    int bursts;             /* --bursts: a fault log's simultaneous groups as bursts */
    int sacct;              /* --sacct: the log is SLURM accounting (sacct --parsable2) */
    const char *sacct_map[TMC_CLI_MAX_SACCT_MAP]; /* --sacct-map STATE=CAUSE */
    int n_sacct_map;
} tmc_cli_options;

/* What an option's value (or the operand) names: a file the command reads,
 * or one it writes (the option table's role column). */
enum { TMC_CLI_PATH_INPUT = 1, TMC_CLI_PATH_OUTPUT = 2 };

/* A file named on the command line: its option's name without "--" (the
 * operand: its placeholder, e.g. "EXPERIMENT.json", with is_operand 1). */
typedef struct {
    const char *name;
    const char *path;
    int is_operand;
} tmc_cli_path;

/* The files of `role` given to o's command, in table order (an input: the
 * operand first), into out[max]. Returns how many (at most max). */
int tmc_cli_option_paths(const tmc_cli_options *o, int role, tmc_cli_path *out, int max);

/* Parse argv (argv[0]: the subcommand) into o for cmd: its options, then
 * its operand, then the files they name (tmc_cli_check_paths, cli.h: no
 * output names an input or another output). 0; 2 after a usage error on
 * stderr; TMC_CLI_HELP_SHOWN after printing cmd's help on stdout. */
int tmc_cli_parse_options(const tmc_cli_command *cmd, int argc, char **argv,
                          tmc_cli_options *o);

/* A subcommand on the command line: its name and entry point (cli.h). */
typedef struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} tmc_cli_entry;

/* Print trainmc's manual page (roff, man(7)) on stdout: summary (a sentence)
 * as its NAME; the n commands' usage lines, descriptions and options, taken
 * from their own --help (each runs with --help and hands over its
 * tmc_cli_command) and the table. 0, or 1 if a command has no --help. */
int tmc_cli_print_man(const tmc_cli_entry *commands, size_t n, const char *summary);

/* Print a bash completion script on stdout, made the same way: `complete -F
 * _trainmc trainmc` completes the command names, then a command's long
 * options and letters, file names after an option whose value is a FILE,
 * and *.json files for an EXPERIMENT.json operand. 0, or 1 as above. */
int tmc_cli_print_bash_completion(const tmc_cli_entry *commands, size_t n);

/* Print, for tests (tests/check_output_paths.py), each command's file
 * options from the table, a line each: "COMMAND input|output --NAME ARG",
 * and "COMMAND input OPERAND" for an operand. 0, or 1 as above. */
int tmc_cli_print_paths(const tmc_cli_entry *commands, size_t n);

#endif
