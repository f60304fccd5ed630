/* cli.h - the command line: one function per subcommand (argv[0] is the
 * subcommand's name), and the pieces they share. Each returns the process
 * exit code: 0 done, 2 bad usage or bad experiment, 1 other failure.
 *
 * Under MPI (ranks.h) a subcommand runs on every rank; only rank 0 prints
 * (tmc_cli_quiet_other_ranks) and writes files (tmc_cli_open_output,
 * tmc_cli_write_json). */
#ifndef TMC_CLI_H
#define TMC_CLI_H

#include <cjson/cJSON.h>

#include "closed_form.h"
#include "config.h"
#include "options.h"
#include "output.h"
#include "sweep.h"

#define TMC_VERSION "0.1.0"

int tmc_cli_run(int argc, char **argv);
int tmc_cli_plan(int argc, char **argv);
int tmc_cli_emax(int argc, char **argv);
int tmc_cli_sweep(int argc, char **argv);
int tmc_cli_fit(int argc, char **argv); /* cli_fit.c: fault and step-time logs */
int tmc_cli_rescue(int argc, char **argv);
int tmc_cli_sensitivity(int argc, char **argv);
int tmc_cli_cheapest(int argc, char **argv); /* cli_cheapest.c */
int tmc_cli_forecast(int argc, char **argv); /* cli_forecast.c: a history of forecasts */

/* `trainmc run`'s work on a loaded x (cli_run.c): the checks, the output
 * files o names (--json, --samples, --plot), the replicas and the report.
 * forecast --log runs its progress this way, so it gives what `run
 * --progress` gives. The exit code. */
int tmc_cli_run_experiment(const tmc_experiment *x, const tmc_cli_options *o);

/* forecast --log LOG (cli_forecast_log.c): x's progress section made from
 * the training log o names (train_log.h), then tmc_cli_run_experiment, then
 * --write-progress. The exit code. */
int tmc_cli_forecast_log(tmc_experiment *x, const tmc_cli_options *o);

/* Print "trainmc: MESSAGE" and a pointer to `trainmc COMMAND --help` on
 * stderr; returns 2. */
/* "trainmc: MESSAGE" on stderr, the message escaped as tmc_error_set's (it
 * echoes paths and arguments); returns rc. */
int tmc_cli_fail(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tmc_cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Parse a decimal integer in [lo, hi] that fills all of s, also written with
 * an exponent as the help writes ranges ("1e7"; number.h). 0, or -1. */
int tmc_cli_parse_long(const char *s, long lo, long hi, long *out);

/* A tmc_progress_fn drawing a bar on stderr (ctx unused). */
void tmc_cli_progress_bar(long done, long total, void *ctx);

/* Route SIGINT and SIGTERM to tmc_stop_request, so a long run stops
 * at the next segment boundary (well within a second) and can clean up. */
void tmc_cli_catch_stop_signals(void);

/* Flush stdout; if writing it failed (a full disk, a closed pipe), print why
 * on stderr and return 1, else 0. */
int tmc_cli_check_stdout(void);

/* The most files one command names on its command line (options.h). */
#define TMC_CLI_MAX_PATHS 16

/* The one check that no output replaces an input: 2 after a message on
 * stderr naming both (their flags and paths) when an output names the same
 * file as another output or as an input, else 0. Two paths name the same
 * file when their names match once their folders are made absolute
 * ("./x.json" and "x.json"), or, for files that exist, by device and inode
 * (a hard link, a symbolic link, ".."). in and out may be empty. */
int tmc_cli_check_paths(const tmc_cli_path *in, int n_in, const tmc_cli_path *out, int n_out);

/* tmc_cli_check_paths over every file o's command was given, read from the
 * option table: the operand and each input option against each output
 * option. tmc_cli_parse_options calls it, before any file is read. */
int tmc_cli_check_option_paths(const tmc_cli_options *o);

/* tmc_cli_check_paths of output_path against every file x was read from
 * (the experiment, a distribution or model file, a trace, a progress file,
 * a history), known only once x is loaded. x may be NULL (no inputs). */
int tmc_cli_check_not_input(const char *output_path, const tmc_experiment *x);

/* Print x's memory feasibility line (tmc_plan_feasibility, plan.h) on
 * stdout, after "SETTING: " when setting is not NULL (a sweep's "KEY=VALUE"),
 * and refuse a training state that does not fit unless `force`: the message
 * "trainmc: PATH: [SETTING: ]the training state does not fit in memory ..."
 * on stderr and 2. Returns 0 otherwise. */
int tmc_cli_check_feasible(const tmc_experiment *x, const char *setting, int force);

/* Refuse (message on stderr, 2) a run whose expected wall time (Daly's
 * formula, closed_form.h) exceeds TMC_FINISHABLE_MAX_DALY_FACTOR (finishable.h) times its
 * uninterrupted wall time, with the expected attempts per segment and advice
 * that fits the cause: Daly's optimum interval when it would finish there,
 * else fewer interruptions or faster saves; setting as above. Replayed
 * traces are left out of the judgement: a trace is finite, so it cannot stop
 * a run from finishing. Returns 0 otherwise. */
int tmc_cli_check_finishable(const tmc_experiment *x, const char *setting);

/* A tmc_sweep_check_fn (sweep_search.h; ctx: the tmc_cli_options) for a
 * setting between a bisection's ends: refuse one that does not fit in
 * memory (printing its memory line only then, unless --force) or cannot
 * finish, with the message on stderr. 0, or 2. (cli_sweep.c) */
int tmc_cli_refuse_setting(const tmc_sweep_setting *s, void *ctx, char *why, size_t n);

/* 1 on the rank that prints and writes files (rank 0; the only process
 * without MPI), else 0. */
int tmc_cli_is_root(void);

/* Send the standard output and error of every rank but rank 0 to /dev/null,
 * so a report or a message appears once. Nothing is lost: every rank reads
 * the same input and computes the same results, and a failure that only
 * another rank sees reaches rank 0 through tmc_ranks_agree (ranks.h). */
void tmc_cli_quiet_other_ranks(void);

/* Load the experiment at path with the --set overrides (config.h); on
 * failure print "trainmc: MESSAGE" and return 2 (x owning nothing), else 0
 * (x owning its heap parts: the caller releases them). Collective: a rank
 * that cannot read the file fails every rank, and rank 0 prints its message
 * (ranks.h). */
int tmc_cli_load_experiment(const char *path, const char *const *sets, int n_sets,
                            tmc_experiment *x);

/* The start of a subcommand that reads an experiment: o zeroed, cmd's
 * options parsed into it (tmc_cli_parse_options), then its experiment
 * loaded into x with the --set overrides and, with --progress FILE, its
 * progress section replaced by FILE's (observed_input.h). 0,
 * TMC_CLI_HELP_SHOWN after --help, or the exit code of a usage or loading
 * error (2). x owns its heap parts after 0 (the caller releases them), and
 * nothing otherwise. */
int tmc_cli_start(const tmc_cli_command *cmd, int argc, char **argv, tmc_cli_options *o,
                  tmc_experiment *x);

/* A subcommand whose work is one function of its experiment and options:
 * tmc_cli_start, then body, then the experiment released. The exit code:
 * body's, 0 after --help, or tmc_cli_start's. */
typedef int (*tmc_cli_body)(const tmc_experiment *x, const tmc_cli_options *o);
int tmc_cli_main(const tmc_cli_command *cmd, int argc, char **argv, tmc_cli_body body);

/* Collective: 0 if every rank loaded the same resolved experiment x (a
 * digest of it against rank 0's), else 2 on every rank after rank 0 printed
 * which rank differs: ranks that read different files would otherwise mix
 * their replicas silently. tmc_cli_load_experiment calls it. */
int tmc_cli_check_same_experiment(const tmc_experiment *x, const char *path);

/* Open the output file `path` (tmc_output_open) on rank 0, after refusing
 * any input of x (tmc_cli_check_not_input; x may be NULL).
 * Collective: every rank returns 0, or 2 after rank 0 printed why. Other
 * ranks leave *out as it was (zeroed), which tmc_output_abort accepts. */
int tmc_cli_open_output(tmc_outfile *out, const char *path, const tmc_experiment *x);

/* Print doc (NULL: memory ran out) and commit it to out on rank 0; frees
 * doc. Returns 0, or 1 after printing why (tmc_output_commit); other ranks
 * only free doc and return 0. */
int tmc_cli_write_json(tmc_outfile *out, cJSON *doc);

/* Write text (malloc'd; freed here, NULL: out of memory) to an output
 * opened with tmc_cli_open_output, on rank 0. Returns 0, or 1 with a
 * message. */
int tmc_cli_write_text(tmc_outfile *out, char *text);

/* The n output files of a command, before any work (paths NULL: not asked
 * for; that they name different files tmc_cli_parse_options checked):
 * gnuplot there for the one whose flag is "plot" or "html" (run and sweep
 * embed its pictures), then each opened
 * (tmc_cli_open_output). Returns 0, or 2 with a
 * message and none left open. */
int tmc_cli_open_outputs(tmc_outfile *const file[], const char *const flag[],
                         const char *const path[], int n, const tmc_experiment *x);

/* --json and a --plot that trainmc draws itself as SVG (no gnuplot): the
 * plot's name ends in .svg, both opened
 * (tmc_cli_open_output; paths NULL: not asked for). Returns 0, or 2 with a
 * message and none left open; tmc_cli_abort_outputs removes them. */
int tmc_cli_open_json_svg(tmc_outfile *json, const char *json_path, tmc_outfile *svg,
                          const char *svg_path, const tmc_experiment *x);

/* Remove the temporary files of the first n outputs asked for. */
void tmc_cli_abort_outputs(tmc_outfile *const file[], const char *const path[], int n);

/* A picture drawn into out's temporary file (drawn: the drawing's status,
 * 0 or -1 with err): rename it onto the target on rank 0. Returns 0, or 1
 * with a message (the temporary file removed). */
int tmc_cli_finish_plot(tmc_outfile *out, int drawn, const tmc_error *err);

/* Monotonic clock, seconds. */
double tmc_cli_now_s(void);

#endif
