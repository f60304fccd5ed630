/* commands.c - the commands beyond run, sweep and emax through an installed
 * libtrainmc (trainmc.h): forecast, fit, cheapest, sensitivity and rescue.
 * tests/check_library.sh builds it with pkg-config, runs it, and compares
 * each document it writes with the installed program's --json for the same
 * files, overrides, replicas and seed (equal, key for key).
 * Usage: commands SOURCE_DIR OUT_DIR
 * Each command runs twice, on the file and on its text (the _text calls:
 * the file's bytes, labelled with its path, file names resolved against its
 * folder); both documents must equal the program's. forecast also reads a
 * training log (tmc_command_options.log, `forecast --log`).
 * Writes OUT_DIR/{forecast,fit,cheapest,sensitivity,rescue}.json (and
 * NAME-text.json, forecast-log.json, and fit's fragments, --write's files:
 * fit-write*.json, fit-steps-write.json, fit-sacct-write.json; the --html
 * pages tmc_document_html gives, forecast.html and sensitivity.html); prints
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
    snprintf(file, sizeof file, "%s.html", name); /* the --html page, where it has one */
    if (tmc_document_html(d) && (f = fopen(at(path, out, file), "w"))) {
        fputs(tmc_document_html(d), f);
        fclose(f);
    }
    tmc_document_free(d);
}

/* The file at path as text (malloc'd; NULL after a message). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = f ? calloc(1, 1 << 20) : NULL;
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    if (f)
        fclose(f);
    if (!n) {
        fprintf(stderr, "commands: cannot read %s\n", path);
        failures++;
        free(text);
        return NULL;
    }
    return text;
}

/* A refusal's message names the library's parameters, not a flag. */
static void expect_no_flag(const tmc_status *st)
{
    expect(!strstr(st->message, "--"), "a message names a parameter, not a flag", st);
}

typedef tmc_document *(*text_call)(const char *, const char *, const char *,
                                   const char *const *, int, const tmc_command_options *,
                                   const tmc_run_options *, tmc_status *);

/* The command on the text of the experiment at exp, saved as NAME-text. */
static void save_text(text_call call, const char *exp, const char *const *sets, int n,
                      const tmc_command_options *c, const tmc_run_options *o,
                      const char *name)
{
    char dir[4096], file[256];
    tmc_status st;
    snprintf(dir, sizeof dir, "%s", exp);
    *strrchr(dir, '/') = '\0';
    snprintf(file, sizeof file, "%s-text", name);
    char *text = slurp(exp);
    if (text)
        save(call(text, exp, dir, sets, n, c, o, &st), file, &st);
    free(text);
}

/* d's fragment (tmc_document_fragment) into OUT_DIR/name.json; it must
 * have one. */
static void save_fragment(const tmc_document *d, const char *name)
{
    char path[4096], file[4096];
    tmc_status st;
    const char *frag = tmc_document_fragment(d, &st);
    expect(frag && st.code == TMC_OK, name, &st);
    snprintf(file, sizeof file, "%s.json", name);
    FILE *f = frag ? fopen(at(path, out, file), "w") : NULL;
    if (f) {
        fputs(frag, f);
        fclose(f);
    }
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
    save_text(tmc_experiment_forecast_text, exp, NULL, 0, &c, &o, "forecast");
    /* a text with a name no file has: the message names its label */
    tmc_document *t = tmc_experiment_forecast_text("{\"job\": 1}", "inline", NULL, NULL, 0, &c,
                                                   &o, &st);
    expect(!t && st.code == TMC_ERR_INPUT && !strncmp(st.message, "inline", 6),
           "a bad text: TMC_ERR_INPUT naming its label", &st);
    t = tmc_experiment_forecast_text(NULL, NULL, NULL, NULL, 0, &c, &o, &st);
    expect(!t && st.code == TMC_ERR_INPUT &&
               strstr(st.message, "tmc_experiment_forecast_text: json = NULL"),
           "no text: TMC_ERR_INPUT naming json", &st);
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
    expect(!tmc_document_html(NULL), "no document, no page", NULL);
}

/* forecast --log: the progress from a training log, then the run. */
static void forecast_log(void)
{
    char exp[4096], log[4096], bare[4096];
    tmc_status st;
    tmc_command_options c;
    tmc_command_options_init(&c);
    expect(c.committed_step == -1 && c.elapsed_days == 0 && !c.log && !c.step_regex,
           "init: no log, committed_step -1", NULL);
    c.log = at(log, src, "tests/fit/train-megatron.log");
    tmc_run_options o = options(60, 3);
    at(exp, src, "experiments/forecast-design-48-day9.json");
    tmc_document *d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(d && tmc_document_text(d) &&
               strstr(tmc_document_text(d), "1 restart (lines 12); 2 saves, 1 load") &&
               strstr(tmc_document_text(d), "P(T <= 27 days)"),
           "forecast --log: the reading, then the run's report", &st);
    expect(d && !tmc_document_html(d), "forecast --log: no page (its run's needs gnuplot)",
           &st);
    save(d, "forecast-log", &st);
    save_text(tmc_experiment_forecast_text, exp, NULL, 0, &c, &o, "forecast-log");
    /* the same log through a pattern: the same document but its reading */
    c.step_regex = "iteration +(?P<step>[0-9]+)/.*per iteration \\(ms\\): (?P<ms>[0-9.]+)";
    c.elapsed_days = 0.088287037037037;
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(d && tmc_document_number(d, "inputs.progress.steps_done") == 90,
           "forecast --log --step-regex reads the iterations", &st);
    tmc_document_free(d);
    c.step_regex = NULL;
    c.elapsed_days = -1;
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               strstr(st.message, "tmc_command_options.elapsed_days = -1"),
           "a negative elapsed_days: TMC_ERR_INPUT naming the field", &st);
    c.elapsed_days = 0;
    c.history = log;
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "both given"),
           "history and log: TMC_ERR_INPUT", &st);
    c.history = NULL;
    /* a log without checkpoint lines: the message names committed_step */
    FILE *f = fopen(at(bare, out, "bare.log"), "w");
    if (f) {
        fputs(" [2026-03-01 10:00:00] iteration       10/     100 | elapsed time per "
              "iteration (ms): 1000.0 |\n", f);
        fclose(f);
    }
    c.log = bare;
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               strstr(st.message, "give tmc_command_options.committed_step N"),
           "a log without checkpoints: TMC_ERR_INPUT naming committed_step", &st);
    expect_no_flag(&st);
    c.committed_step = 5;
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(d && tmc_document_number(d, "inputs.progress.committed_step") == 5,
           "committed_step given: the progress holds it", &st);
    tmc_document_free(d);
    c.step_regex = "iteration (?P<nope>[0-9]+)";
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT, "a pattern without step: TMC_ERR_INPUT", &st);
    expect_no_flag(&st);
    /* step_regex is an option of a log, not of a history */
    c.log = NULL;
    c.history = at(log, src, "experiments/forecast-history-design-48.jsonl");
    d = tmc_experiment_forecast(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_command_options.step_regex"),
           "history with step_regex: TMC_ERR_INPUT naming the field", &st);
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
    save_fragment(d, "fit-write");
    save(d, "fit", &st);
    /* the Weibull law's fragment, and bursts beside exponential lifetimes */
    f.law = "weibull";
    d = tmc_fit_log(log, &f, &st);
    save_fragment(d, "fit-write-weibull");
    tmc_document_free(d);
    f.law = NULL;
    f.bursts = 1;
    d = tmc_fit_log(log, &f, &st);
    save_fragment(d, "fit-write-bursts");
    save(d, "fit-bursts", &st);
    f.law = "weibull";
    d = tmc_fit_log(log, &f, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_fit_log_options.bursts"),
           "bursts with the Weibull law: TMC_ERR_INPUT naming the fields", &st);
    f.law = "gamma";
    f.bursts = 0;
    d = tmc_fit_log(log, &f, &st);
    expect(!d && st.code == TMC_ERR_INPUT && strstr(st.message, "tmc_fit_log_options.law"),
           "an unknown law: TMC_ERR_INPUT naming the field", &st);
    f.law = NULL;
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
    d = tmc_fit_log(at(log, src, "tests/fit/steps-hand.csv"), &f, &st);
    save_fragment(d, "fit-steps-write");
    save(d, "fit-steps", &st);
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
    d = tmc_fit_log(at(log, src, "tests/fit/sacct-hand.txt"), &f, &st);
    /* node failures (TIMEOUT mapped to node) without cards_per_node: none */
    expect(d && !tmc_document_fragment(d, &st) && st.code == TMC_ERR_INPUT &&
               strstr(st.message, "give tmc_fit_log_options.cards_per_node N"),
           "a fragment of node failures without cards_per_node: refused, naming it", &st);
    expect_no_flag(&st);
    save(d, "fit-sacct", &st);
    f.cards_per_node = 4;
    d = tmc_fit_log(log, &f, &st);
    save_fragment(d, "fit-sacct-write");
    tmc_document_free(d);
    expect(!tmc_document_fragment(NULL, &st) && st.code == TMC_ERR_INPUT,
           "no document, no fragment", &st);
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
    save_text(tmc_experiment_cheapest_text, exp, NULL, 0, &c, &o, "cheapest");
    levers[0] = "job.cards=1:1";
    tmc_document *d = tmc_experiment_cheapest(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.levers job.cards=1:1: ", 41),
           "a bad lever: TMC_ERR_INPUT naming tmc_command_options.levers", &st);
    expect_no_flag(&st);
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
    save_text(tmc_experiment_sensitivity_text, exp, NULL, 0, &c, &o, "sensitivity");
    c.compound = "job.nope=1";
    tmc_document *d = tmc_experiment_sensitivity(exp, NULL, 0, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.compound job.nope=1: ", 41),
           "a bad compound: TMC_ERR_INPUT naming tmc_command_options.compound", &st);
    expect_no_flag(&st);
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
    save_text(tmc_experiment_rescue_text, exp, sets, 1, &c, &o, "rescue");
    levers[1] = "job.cardz";
    tmc_document *d = tmc_experiment_rescue(exp, sets, 1, &c, &o, &st);
    expect(!d && st.code == TMC_ERR_INPUT &&
               !strncmp(st.message, "tmc_command_options.levers job.cardz: not a lever", 49),
           "a bad lever: TMC_ERR_INPUT naming tmc_command_options.levers", &st);
    expect_no_flag(&st);
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
    forecast_log();
    fit();
    cheapest();
    sensitivity();
    rescue();
    return failures ? 1 : 0;
}
