/* main.c - the trainmc command line: dispatch to subcommands (cli.h).
 * No model logic here. Exit codes: 0 done, 2 bad usage or bad experiment,
 * 1 any other failure. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_errno.h>

#include "cli.h"
#include "ranks.h"

static const tmc_cli_entry commands[] = {
    {"run", tmc_cli_run},
    {"plan", tmc_cli_plan},
    {"emax", tmc_cli_emax},
    {"sweep", tmc_cli_sweep},
    {"rescue", tmc_cli_rescue},
    {"sensitivity", tmc_cli_sensitivity},
    {"cheapest", tmc_cli_cheapest},
    {"forecast", tmc_cli_forecast},
    {"fit", tmc_cli_fit},
};

#define N_COMMANDS (sizeof commands / sizeof commands[0])
#define SUMMARY "Monte Carlo reliability and straggler analysis of a large-model training run."

static const char *usage_main =
    "usage: trainmc <command> [options]\n"
    "\n"
    SUMMARY "\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.json   simulate full runs: completion-time distribution, P(deadline)\n"
    "  plan EXPERIMENT.json  the design board: memory, step, deadline, storage, input, scaling\n"
    "  emax                  c_N = E[max of N normals]: quadrature, simulation, formulas\n"
    "  sweep EXPERIMENT.json settings (--vary KEY=VALUES) compared under common random\n"
    "                        numbers; --target: where P(deadline), T or overhead crosses a value\n"
    "  rescue EXPERIMENT.json the smallest change of each lever alone (steps, deadline,\n"
    "                        efficiency, cards, interval) that meets a target the plan misses\n"
    "  sensitivity EXPERIMENT.json which input moves T and P(deadline) most (a tornado, common\n"
    "                        random numbers); --compound: several at once, the gain of each fix\n"
    "  cheapest EXPERIMENT.json the cheapest plan (cards, interval, spares, sync or async\n"
    "                        saves) whose P(deadline) meets a target; the cost-P frontier\n"
    "  forecast EXPERIMENT.json P(deadline) from each progress snapshot a training job\n"
    "                        appended (--history FILE.jsonl), under common random numbers\n"
    "  fit LOG               from a cluster's fault log a failure model: rates with exact\n"
    "                        intervals, lifetime and repair laws, overdispersion; with\n"
    "                        --steps from a step-time log the jitter law, cv, correlation\n"
    "\n"
    "options:\n"
    "  -h, --help            this help; `trainmc run --help` for the command\n"
    "  -V, --version         print the version\n"
    "\n"
    "exit codes: 0 done, 2 bad usage or bad experiment, 1 other failure\n";

/* Descriptors 0-2 closed at start-up would be taken by the first files
 * opened (an output's temporary file would receive the report): take them
 * with /dev/null opened read-only, so that writing a report to a closed
 * stdout fails (exit 1) instead of landing in a file (issue 13). */
static void reserve_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int got = open("/dev/null", O_RDONLY);
            if (got >= 0 && got != fd) { /* a lower one was free: cannot happen in order */
                dup2(got, fd);
                close(got);
            }
        }
}

/* A command that reported success but whose report could not be written
 * (a full disk, a closed pipe or descriptor) has failed: exit 1. */
static int finish(int rc)
{
    return rc == 0 && tmc_cli_check_stdout() ? 1 : rc;
}

/* Run a subcommand on every rank (ranks.h; one process without MPI); only
 * rank 0 speaks. */
static int run_command(int (*fn)(int argc, char **argv), int argc, char **argv)
{
    tmc_error err = {""};
    if (tmc_ranks_init(&argc, &argv, &err)) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return tmc_ranks_finalize(1);
    }
    tmc_cli_quiet_other_ranks();
    int rc = fn(argc - 1, argv + 1);
    return tmc_ranks_finalize(finish(rc));
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off(); /* GSL's default handler aborts: statuses are checked */
    reserve_standard_descriptors();
    /* a closed pipe is a write error (exit 1, outputs cleaned up), not a
     * silent death that leaves a temporary file */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fputs(usage_main, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage_main, stdout);
        return finish(0);
    }
    if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
        printf("trainmc %s\n", TMC_VERSION);
        return finish(0);
    }
    /* for packagers (CMakeLists.txt installs both): made from the commands'
     * own --help and the option table (options.h) */
    if (!strcmp(cmd, "help-man"))
        return finish(tmc_cli_print_man(commands, N_COMMANDS, SUMMARY));
    if (!strcmp(cmd, "help-bash-completion"))
        return finish(tmc_cli_print_bash_completion(commands, N_COMMANDS));
    /* for tests/check_output_paths.py: each command's input and output files */
    if (!strcmp(cmd, "help-paths"))
        return finish(tmc_cli_print_paths(commands, N_COMMANDS));
    /* for docs/reference/keys.md (the test keys-reference compares them):
     * made from the experiment's validation table (config.h) */
    if (!strcmp(cmd, "help-keys"))
        return finish(tmc_config_print_reference(stdout) ? 1 : 0);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(cmd, commands[i].name))
            return run_command(commands[i].fn, argc, argv);
    return tmc_cli_fail(2, "unknown command '%s' (see `trainmc --help`)", cmd);
}
