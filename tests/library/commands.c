/* commands.c - the commands beyond run, sweep and emax through an installed
 * libtrainmc (trainmc.h): forecast, fit, cheapest, sensitivity and rescue.
 * tests/check_library.sh builds it with pkg-config, runs it, and compares
 * each document it writes with the installed program's --json for the same
 * files, overrides, replicas and seed (equal, key for key).
 * Usage: commands SOURCE_DIR OUT_DIR
 * Writes OUT_DIR/{forecast,fit,cheapest,sensitivity,rescue}.json; prints
 * nothing on success (the library never prints, so any output on stdout or
 * stderr is a failure), else a line per broken promise and exits 1. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trainmc.h>

static int failures;
static char src[4096], out[4096];

static void expect(int ok, const char *what, const tmc_status *st)
{
    if (!ok) {
        fprintf(stderr, "commands: %s (status %d: %s)\n", what, st ? st->code : -1,
                st ? st->message : "");
        failures++;
    }
}

static const char *at(char *buf, const char *dir, const char *name)
{
    snprintf(buf, 4096, "%s/%s", dir, name);
    return buf;
}

/* d's JSON into OUT_DIR/name.json; its text must not be empty. */
static void save(tmc_document *d, const char *name, const tmc_status *st)
{
    char path[4096], file[4096];
    expect(d != NULL, name, st);
    if (!d)
        return;
    expect(tmc_document_text(d) && strlen(tmc_document_text(d)) > 100,
           "the document has the command's report", st);
    snprintf(file, sizeof file, "%s.json", name);
    FILE *f = fopen(at(path, out, file), "w");
    if (f) {
        fputs(tmc_document_json(d), f);
        fclose(f);
    }
    tmc_document_free(d);
}

static tmc_run_options options(long replicas, unsigned long long seed)
{
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.replicas = replicas;
    o.has_seed = 1;
    o.seed = seed;
    o.threads = 2;
    return o;
}

static void forecast(void)
{
    char exp[4096], hist[4096];
    tmc_status st;
    tmc_command_options c;
    tmc_command_options_init(&c);
    c.history = at(hist, src, "experiments/forecast-history-design-48.jsonl");
    tmc_run_options o = options(60, 3);
    at(exp, src, "experiments/forecast-design-48-day9.json");
    save(tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st), "forecast", &st);
    /* the history is required; a bad one is refused at its line */
    c.history = NULL;
    tmc_document *d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_command_options.history"),
           "forecast without history: TMC_ERR_INPUT naming tmc_command_options.history", &st);
    c.history = at(hist, src, "tests/invalid/forecast-history-syntax/history.jsonl");
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "history.jsonl:"),
           "a bad history line: TMC_ERR_INPUT naming FILE:LINE", &st);
    /* an option of another command is refused */
    c.history = at(hist, src, "experiments/forecast-history-design-48.jsonl");
    c.compound = "job.efficiency=0.3";
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_command_options.compound"),
           "forecast with compound: TMC_ERR_INPUT naming the field", &st);
}

static void fit(void)
{
    char log[4096];
    tmc_status st;
    tmc_fit_log_options f;
    tmc_fit_log_options_init(&f);
    f.nodes = 400;
    f.cards_per_node = 8;
    at(log, src, "distributions/infinitehbd-fault-trace/fault_trace.json");
    tmc_document *d = tmc_fit_log(log, &f, &st);
    expect(d && tmc_document_number(d, "faults.read") == 584,
           "fit reads the shipped log's 584 faults", &st);
    save(d, "fit", &st);
    f.nodes = 0;
    d = tmc_fit_log(log, &f, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_fit_log_options.nodes = 0"),
           "fit without nodes: TMC_ERR_INPUT naming tmc_fit_log_options.nodes", &st);
    f.nodes = 400;
    const char *causes[] = {"no such cause at all"};
    f.exclude_causes = causes;
    f.n_exclude_causes = 1;
    d = tmc_fit_log(log, &f, &st);
    expect(d != NULL, "an exclusion that matches nothing leaves the log", &st);
    tmc_document_free(d);
    /* a step-time log and SLURM accounting, as fit --steps and --sacct */
    tmc_fit_log_options_init(&f);
    f.kind = "steps";
    save(tmc_fit_log(at(log, src, "tests/fit/steps-hand.csv"), &f, &st), "fit-steps", &st);
    f.nodes = 3;
    d = tmc_fit_log(log, &f, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_fit_log_options.nodes is "
                                                    "given"),
           "a step-time log with nodes: TMC_ERR_INPUT naming the field", &st);
    tmc_fit_log_options_init(&f);
    f.kind = "sacct";
    const char *map[] = {"TIMEOUT=node"};
    f.sacct_map = map;
    f.n_sacct_map = 1;
    save(tmc_fit_log(at(log, src, "tests/fit/sacct-hand.txt"), &f, &st), "fit-sacct", &st);
}

static void cheapest(void)
{
    char exp[4096];
    tmc_status st;
    tmc_command_options c;
    tmc_command_options_init(&c);
    const char *levers[] = {"job.cards=32:96"};
    c.levers = levers;
    c.n_levers = 1;
    c.target = "0.5";
    tmc_run_options o = options(40, 5);
    at(exp, src, "experiments/design-48.json");
    save(tmc_experiment_cheapest(exp, NULL, 0, &c, &o, &st), "cheapest", &st);
    levers[0] = "job.cards=1:1";
    tmc_document *d = tmc_experiment_cheapest(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.levers job.cards=1:1: ", 41),
           "a bad lever: TMC_ERR_INPUT naming tmc_command_options.levers", &st);
    levers[0] = "job.cards=32:96";
    c.target = "1.5";
    d = tmc_experiment_cheapest(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_command_options.target"),
           "a target past 1: TMC_ERR_INPUT naming tmc_command_options.target", &st);
}

static void sensitivity(void)
{
    char exp[4096];
    tmc_status st;
    tmc_command_options c;
    tmc_command_options_init(&c);
    c.compound = "job.efficiency=0.35,jitter.cv=0.08";
    tmc_run_options o = options(40, 7);
    at(exp, src, "experiments/design-48.json");
    save(tmc_experiment_sensitivity(exp, NULL, 0, &c, &o, &st), "sensitivity", &st);
    c.compound = "job.nope=1";
    tmc_document *d = tmc_experiment_sensitivity(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.compound job.nope=1: ", 41),
           "a bad compound: TMC_ERR_INPUT naming tmc_command_options.compound", &st);
    o.precision = "deadline.probability:abs=0.01";
    c.compound = NULL;
    d = tmc_experiment_sensitivity(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_run_options.precision"),
           "precision: TMC_ERR_INPUT naming tmc_run_options.precision", &st);
}

static void rescue(void)
{
    char exp[4096];
    tmc_status st;
    tmc_command_options c;
    tmc_command_options_init(&c);
    const char *levers[] = {"deadline.days", "job.steps"};
    c.levers = levers;
    c.n_levers = 2;
    const char *sets[] = {"deadline.days=24"};
    tmc_run_options o = options(30, 2);
    at(exp, src, "experiments/design-48-stress.json");
    save(tmc_experiment_rescue(exp, sets, 1, &c, &o, &st), "rescue", &st);
    levers[1] = "job.cardz";
    tmc_document *d = tmc_experiment_rescue(exp, sets, 1, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.levers job.cardz: not a lever", 49),
           "a bad lever: TMC_ERR_INPUT naming tmc_command_options.levers", &st);
    /* a stop flag set stops the search: no document */
    static volatile sig_atomic_t stop = 1;
    levers[1] = "job.steps";
    o.stop = &stop;
    d = tmc_experiment_rescue(exp, sets, 1, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_STOPPED, "a stopped rescue: TMC_ERR_STOPPED", &st);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: commands SOURCE_DIR OUT_DIR\n");
        return 2;
    }
    snprintf(src, sizeof src, "%s", argv[1]);
    snprintf(out, sizeof out, "%s", argv[2]);
    forecast();
    fit();
    cheapest();
    sensitivity();
    rescue();
    return failures ? 1 : 0;
}
