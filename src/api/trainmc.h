/* trainmc.h - libtrainmc, the public interface of trainmc (issue 16).
 *
 * Load an experiment (a JSON file or text, with "section.key=value"
 * overrides), run its replicas, read the summary and every replica's
 * figures, compare settings under common random numbers (a sweep), estimate
 * the straggler coefficient c_N (emax), and get the closed forms (Young,
 * Daly). The `trainmc` program is a client of this interface; so is the
 * Python package (python/trainmc).
 *
 * Conventions.
 * - Units are in the names: _s seconds, _days days of 86,400 s. The
 *   experiment's keys and their units: docs/reference/keys.md; the model
 *   behind every figure: docs/model.md and docs/reference/simulation-semantics.md.
 * - Errors: every fallible call takes a tmc_status * (may be NULL) and fills
 *   it with a code and a message naming the file, the JSON path or the
 *   argument, the value and what is allowed; where the command line's
 *   message names one of its flags, this one names the parameter
 *   ("tmc_command_options.levers X: ..." for rescue's --levers X). A call that returns a pointer
 *   returns NULL on error; one that returns int returns the code. The library
 *   never prints and never exits. Accessors given a NULL handle return NULL,
 *   NaN, 0 or TMC_ERR_INPUT.
 * - Documents: results are JSON text, the same documents `trainmc run
 *   --json`, `trainmc sweep --json`, `trainmc emax --json` and the other
 *   commands' --json write (keys: docs/reference/json-output.md,
 *   docs/commands/). tmc_result_number and tmc_sweep_number read a
 *   number from them by dotted path.
 * - Reproducible: the same experiment, seed and replica count give the same
 *   numbers whatever the thread count (docs/reference/simulation-semantics.md).
 * - Threads: handles are independent; calls on different handles may run
 *   in parallel threads. A result is read-only once returned.
 * - The host process: during a call the library reads and writes numbers in
 *   the C locale (uselocale, this thread only), and turns GSL's error
 *   handler off (gsl_set_error_handler_off: the default one aborts), giving
 *   the host's handler back when the last call in progress returns.
 *
 * Link: `pkg-config --cflags --libs trainmc`, or in CMake
 * `find_package(trainmc)` and `target_link_libraries(app trainmc::trainmc)`.
 */
#ifndef TRAINMC_H
#define TRAINMC_H

#include <signal.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(TMC_BUILDING_LIBRARY)
#define TMC_API __attribute__((visibility("default")))
#else
#define TMC_API
#endif

#define TRAINMC_VERSION_MAJOR 0
#define TRAINMC_VERSION_MINOR 1
#define TRAINMC_VERSION_PATCH 0

/* The library's version, "MAJOR.MINOR.PATCH". */
TMC_API const char *tmc_library_version(void);

/* ---------- errors ---------- */

typedef enum {
    TMC_OK = 0,
    TMC_ERR_INPUT = 1,   /* a bad experiment, override or argument */
    TMC_ERR_MEMORY = 2,  /* memory could not be had */
    TMC_ERR_STOPPED = 3, /* the caller's stop flag was set; nothing returned */
    TMC_ERR_RUNTIME = 4  /* a computation failed (e.g. a quadrature, an
                            importance tilt that leaves the law nothing) */
} tmc_code;

typedef struct {
    int code;          /* a tmc_code */
    char message[1024]; /* "" when code is TMC_OK */
} tmc_status;

/* ---------- experiments ---------- */

/* A validated experiment (opaque; the struct is internal). */
typedef struct tmc_experiment tmc_experiment;

/* Read the experiment file at `path`, apply `overrides` (n_overrides strings
 * "section.key=VALUE", VALUE read as JSON, else as a string; checked like the
 * file's own values) and validate it. Distribution files, traces and a base
 * experiment ("base") it names are resolved relative to it. Returns a handle to free with
 * tmc_experiment_free, or NULL with st = TMC_ERR_INPUT ("FILE: PATH:
 * problem", or "FILE:LINE:COL: ..." for JSON syntax) or TMC_ERR_MEMORY. */
TMC_API tmc_experiment *tmc_experiment_load(const char *path, const char *const *overrides,
                                            int n_overrides, tmc_status *st);

/* The same from JSON text in memory. `label` names it in messages (NULL:
 * "<string>"); `base_dir` resolves relative file names in it, its "base"
 * among them (NULL: the current folder). */
TMC_API tmc_experiment *tmc_experiment_parse(const char *json, const char *label,
                                             const char *base_dir,
                                             const char *const *overrides, int n_overrides,
                                             tmc_status *st);

/* Frees x with all it holds (NULL: nothing). A result run from x keeps a
 * copy of its own, so x may be freed first. */
TMC_API void tmc_experiment_free(tmc_experiment *x);

/* The experiment as a JSON object with every key's value in force
 * (defaults included; a process that is off is null). Free with
 * tmc_string_free. NULL if memory runs out. */
TMC_API char *tmc_experiment_to_json(const tmc_experiment *x);

/* The closed forms for the experiment as a JSON object (the "closed_form"
 * object of the run document: step time and c_N, the interval in force,
 * Young's and Daly's optimum intervals, overheads and completion times in
 * days; docs/model.md 2, 3.4, 3.5). Free with tmc_string_free. NULL if
 * memory runs out. */
TMC_API char *tmc_experiment_closed_form(const tmc_experiment *x);

/* Free a string this library returned. */
TMC_API void tmc_string_free(char *s);

/* ---------- running replicas ---------- */

/* Called from the calling thread about ten times a second while replicas
 * run, and once at the end: `done` of `total` replicas finished. */
typedef void (*tmc_progress_callback)(long done, long total, void *ctx);

typedef struct {
    long replicas;      /* 0: the experiment's monte_carlo.replicas; else [1, 1e9] */
    int has_seed;       /* 1: use `seed`; 0: the experiment's monte_carlo.seed */
    uint64_t seed;      /* [0, 2^53 - 1] */
    int threads;        /* 0: one per online processor; else [1, 4096] */
    tmc_progress_callback progress; /* NULL: none */
    void *progress_ctx;
    /* Set *stop to non-zero (another thread, a signal handler) to stop soon:
     * the call then returns TMC_ERR_STOPPED and no result. NULL: never. */
    const volatile sig_atomic_t *stop;
    /* Replicas until a 95 % interval is this narrow (docs/guides/precision.md):
     * "deadline.probability:abs=0.001" or
     * "completion_days.mean:rel=1e-4"; replicas is then the budget. NULL:
     * all replicas. Run only (not sweep). */
    const char *precision;
    /* P(miss) by importance sampling (docs/guides/rare-misses.md): "auto" or
     * the tilts "F,O,S"; pilot_replicas per cross-entropy level (0: 1000).
     * NULL: none. */
    const char *importance;
    long pilot_replicas;
    /* 1: keep only the completion days of each replica, not its counts and
     * split (8 bytes per replica instead of about 200). Run only. */
    int summary_only;
    /* 1: run although the training state does not fit in the cards' memory
     * (the memory line of `trainmc plan`; the command line's --force). A run
     * that cannot finish (its expected wall time past 1000 times the
     * uninterrupted one) is refused all the same. */
    int force;
    /* With importance: when the estimate's weights are too heavy-tailed for
     * its interval (Pareto k-hat > 0.5), plain replicas are run in its place
     * if a 10 % relative error needs at most this many (0: 1e7; else [1,
     * 1e9]); the document says which (docs/guides/rare-misses.md). */
    long importance_plain_max;
} tmc_run_options;

/* All fields zero or NULL: the experiment's replicas and seed, all
 * processors, no progress, no stop flag, no precision target. */
TMC_API void tmc_run_options_init(tmc_run_options *o);

/* The results of one run (opaque). */
typedef struct tmc_result tmc_result;

/* Run the experiment's replicas. o may be NULL (tmc_run_options_init's
 * defaults). Returns a result to free with tmc_result_free, or NULL with st
 * set: TMC_ERR_INPUT (bad options: the field, the value, the range; a
 * training state that does not fit in memory without o->force; a run that
 * cannot finish: docs/reference/limits-and-errors.md),
 * TMC_ERR_MEMORY, TMC_ERR_STOPPED, TMC_ERR_RUNTIME (importance sampling).
 * When the experiment draws rates per replica (failures.mtbf_events,
 * outages.mtbf_events, failures.repair_events) the replicas run twice,
 * the second time with every rate as given, and the document's "plug_in"
 * holds those figures beside the predictive ones (docs/model.md 3.11). */
TMC_API tmc_result *tmc_experiment_run(const tmc_experiment *x, const tmc_run_options *o,
                                       tmc_status *st);

TMC_API void tmc_result_free(tmc_result *r);

/* The run's JSON document, as `trainmc run --json` writes it (owned by r). */
TMC_API const char *tmc_result_json(const tmc_result *r);

/* The report `trainmc run` prints for r: the brief one (detail 0) or
 * --detail's (1), UTF-8 text ending in a newline; free with
 * tmc_string_free. NULL for a NULL r or when memory runs out. */
TMC_API char *tmc_result_text(const tmc_result *r, int detail);

/* The number at a dotted path of that document, e.g.
 * "deadline.probability", "completion_days.mean",
 * "completion_days.quantiles.p95" (array elements by index: "a.0"). NaN if
 * the path names no number. */
TMC_API double tmc_result_number(const tmc_result *r, const char *path);

/* Replicas run (fewer than asked when a precision target was met). */
TMC_API long tmc_result_replicas(const tmc_result *r);

/* The completion time T of every replica in days, in replica order (an
 * array of tmc_result_replicas, owned by r): the deadline's reserve
 * included, so it compares with deadline.days. */
TMC_API const double *tmc_result_completion_days(const tmc_result *r);

/* The other figures of each replica come in families: the event counts of
 * the run (TMC_FIGURE_COUNT: card failures, outages, loss spikes, ...), the
 * split of its wall time (TMC_FIGURE_SPLIT, days; the rows add up to the
 * wall time, T without the reserve), and its state (TMC_FIGURE_STATE:
 * "censored", 1 if it was still running at the horizon, and "weight", its
 * likelihood ratio: 1, as these are the plain replicas; importance
 * sampling's own replicas are summarised in the document, not kept). */
typedef enum {
    TMC_FIGURE_COUNT = 0,
    TMC_FIGURE_SPLIT = 1,
    TMC_FIGURE_STATE = 2
} tmc_figure_family;

/* How many figures the family has (-1 for no such family), and the name of
 * figure i (the run document's key: "card_failures", "useful_compute", ...; NULL
 * if i or family is out of range). */
TMC_API int tmc_figure_count(int family);
TMC_API const char *tmc_figure_name(int family, int i);

/* Copy figure i of the family for every replica, in replica order, into
 * out[tmc_result_replicas(r)]. Returns TMC_OK; TMC_ERR_INPUT if family or i
 * is out of range or the run kept no per-replica figures
 * (tmc_run_options.summary_only). */
TMC_API int tmc_result_copy_figure(const tmc_result *r, int family, int i, double *out);

/* ---------- sweeps: settings under common random numbers ---------- */

/* The results of a sweep (opaque). */
typedef struct tmc_sweep tmc_sweep;

/* Vary one or two numeric keys of the experiment file at `path` (with its
 * overrides) and run every setting with the same replicas and seed, so
 * replica k meets the same failures at every setting (docs/commands/sweep.md).
 * vary[n_vary] (1 or 2) are "KEY=V1,V2,..." or
 * "KEY=START:STOP:STEP". o's replicas, seed, threads, progress and stop
 * apply; precision does not. Returns a handle to free with tmc_sweep_free,
 * or NULL with st as tmc_experiment_load and tmc_experiment_run. */
TMC_API tmc_sweep *tmc_experiment_sweep(const char *path, const char *const *overrides,
                                        int n_overrides, const char *const *vary,
                                        int n_vary, const tmc_run_options *o,
                                        tmc_status *st);

/* The same for an experiment given as JSON text (label and base_dir as in
 * tmc_experiment_parse). */
TMC_API tmc_sweep *tmc_experiment_sweep_text(const char *json, const char *label,
                                             const char *base_dir,
                                             const char *const *overrides, int n_overrides,
                                             const char *const *vary, int n_vary,
                                             const tmc_run_options *o, tmc_status *st);

TMC_API void tmc_sweep_free(tmc_sweep *s);

/* The sweep's JSON document, as `trainmc sweep --json` writes it (owned by s). */
TMC_API const char *tmc_sweep_json(const tmc_sweep *s);

/* The number at a dotted path of that document, e.g.
 * "settings.0.deadline.probability"; NaN if none. */
TMC_API double tmc_sweep_number(const tmc_sweep *s, const char *path);

/* ---------- emax: c_N, the straggler coefficient ---------- */

/* c_N = E[max of N standard normals] for each of cards[n_cards] (each in
 * [1, 1e7]), by quadrature, by simulation with `replicas` (>= 2) maxima
 * drawn with the engine's O(1) sampler (and by brute force for N <=
 * brute_max_cards), and by Blom's and the Gumbel approximation (README.md
 * "trainmc emax"; docs/model.md 2). Returns the JSON document `trainmc emax
 * --json` writes (free with tmc_string_free), or NULL with st. */
TMC_API char *tmc_emax_run(const long *cards, int n_cards, long replicas, uint64_t seed,
                           long brute_max_cards, int threads, tmc_status *st);

/* What tmc_emax_run_result takes. tmc_emax_options_init gives `trainmc
 * emax`'s defaults: 1,000,000 replicas, seed 1, brute force for N <= 64, one
 * thread per online processor, no step time. */
typedef struct {
    long replicas;        /* simulated maxima per N, [2, 1e9] */
    uint64_t seed;        /* [0, 2^53 - 1] */
    long brute_max_cards; /* brute force for N <= this, [0, 1e7]; 0: none */
    int threads;          /* 0: one per online processor; else [1, 4096] */
    /* 1: also the expected step time mu_s + c_N sigma_s + fixed_s in
     * seconds (docs/model.md 2), mu_s > 0, sigma_s >= 0, fixed_s >= 0 */
    int has_step;
    double mu_s, sigma_s, fixed_s;
} tmc_emax_options;

TMC_API void tmc_emax_options_init(tmc_emax_options *o);

/* One simulated estimate of the maximum, in units of sigma. */
typedef struct {
    long replicas; /* 0: not simulated (the rest NaN) */
    double mean;   /* sample mean */
    double se;     /* sd / sqrt(replicas) */
    double sd;     /* sample sd (divisor replicas - 1) */
    double sd_se;  /* the delta-method standard error of sd */
} tmc_emax_estimate_figures;

/* Everything `trainmc emax` reports for one N, in units of sigma. */
typedef struct {
    long n;                                 /* cards */
    double quadrature_mean, quadrature_sd;  /* c_N and the maximum's sd, by quadrature */
    tmc_emax_estimate_figures sampler;      /* the engine's O(1) sampler */
    tmc_emax_estimate_figures brute;        /* N explicit draws; replicas 0 past
                                               brute_max_cards */
    double blom, gumbel;                    /* the approximations */
    double reference;                       /* the reference design's rounded c_N, NaN if none */
} tmc_emax_figures;

/* The results of an emax run (opaque). */
typedef struct tmc_emax_result tmc_emax_result;

/* c_N for each of cards[n_cards] ([1, 1000] of them, each in [1, 1e7]) as
 * tmc_emax_run computes it, o's options (NULL: tmc_emax_options_init's).
 * Returns a result to free with tmc_emax_result_free, or NULL with st:
 * TMC_ERR_INPUT (an argument or option: its name, value and range),
 * TMC_ERR_MEMORY, TMC_ERR_RUNTIME (a quadrature failed), TMC_ERR_STOPPED
 * (the process's stop flag, which `trainmc`'s signal handler sets). */
TMC_API tmc_emax_result *tmc_emax_run_result(const long *cards, int n_cards,
                                             const tmc_emax_options *o, tmc_status *st);

TMC_API void tmc_emax_result_free(tmc_emax_result *r);

/* The number of rows (n_cards), and row i (NULL if i is out of range), in
 * the order of cards; owned by r. */
TMC_API int tmc_emax_result_rows(const tmc_emax_result *r);
TMC_API const tmc_emax_figures *tmc_emax_result_row(const tmc_emax_result *r, int i);

/* The JSON document `trainmc emax --json` writes (compact; owned by r). */
TMC_API const char *tmc_emax_result_json(const tmc_emax_result *r);

/* The report `trainmc emax` prints, and the CSV `trainmc emax --csv`
 * writes, as text to free with tmc_string_free; NULL if memory runs out. */
TMC_API char *tmc_emax_result_text(const tmc_emax_result *r);
TMC_API char *tmc_emax_result_csv(const tmc_emax_result *r);

/* ---------- the other commands: forecast, fit, cheapest, sensitivity, rescue ---------- */

/* What one of these commands gave (opaque): the JSON document its --json
 * writes and the report it prints. */
typedef struct tmc_document tmc_document;

/* What the commands below take beyond tmc_run_options (each reads its own
 * fields; a field another command reads must be left as init sets it). New
 * fields are only ever appended. */
typedef struct {
    /* forecast: a JSON-lines file of progress snapshots (required) */
    const char *history;
    /* rescue: "METRIC>=VALUE" (as a sweep's target); cheapest: "P" or
     * "deadline.probability>=P". NULL: deadline.probability>=0.9 */
    const char *target;
    /* rescue: the lever keys to try (NULL or n_levers 0: every lever that
     * applies); cheapest: "KEY=VALUES" each (0: job.cards over half to twice
     * the experiment's) */
    const char *const *levers;
    int n_levers;
    /* cheapest: the time an asynchronous save copies for, s (NaN: not given) */
    double async_copy_s;
    /* sensitivity: a JSON file of inputs and their ranges (NULL: the default
     * inputs), and a compound case "KEY=V,KEY=V,..." (NULL: none) */
    const char *inputs;
    const char *compound;
    /* forecast, in place of history: a running job's training log, as
     * `trainmc forecast --log` reads it (docs/commands/forecast.md "A
     * training log"): Megatron-LM's iteration lines, or step_regex's (an
     * extended regular expression with named groups (?P<step>...) and
     * (?P<ms>...) or (?P<s>...), optionally (?P<time>...); NULL:
     * Megatron-LM's). Its progress section is made from the log and the
     * experiment run from it: the document is the run's (`trainmc run
     * --json`'s keys), the text what was read then the run's report. */
    const char *log;
    const char *step_regex;
    /* with log: the wall time since the job started, days, (0, 1e6] (0: from
     * the log's stamps; required without them), and the newest checkpoint's
     * step, [0, 1e9] (-1: the log's last checkpoint line; required without
     * one) */
    double elapsed_days;
    long committed_step;
} tmc_command_options;

/* history, target, levers, inputs, compound, log and step_regex NULL,
 * n_levers 0, async_copy_s NaN, elapsed_days 0, committed_step -1. */
TMC_API void tmc_command_options_init(tmc_command_options *c);

/* Run the command on the experiment file at `path` with its overrides, as
 * `trainmc forecast --history` (or --log), `trainmc cheapest`, `trainmc sensitivity`
 * and `trainmc rescue` do (docs/commands/). o's replicas, seed, threads,
 * progress, stop and force apply (replicas and seed become overrides, as the
 * command line's -n and --seed); precision and importance do not. c may be
 * NULL (tmc_command_options_init's) but for forecast, which needs history
 * or log.
 * Returns a document to free with tmc_document_free, or NULL with st:
 * TMC_ERR_INPUT (a bad experiment, override or option: messages name the
 * field, e.g. "tmc_command_options.levers job.cardz: not a lever ..."),
 * TMC_ERR_MEMORY, TMC_ERR_STOPPED (o->stop set), TMC_ERR_RUNTIME. */
TMC_API tmc_document *tmc_experiment_forecast(const char *path, const char *const *overrides,
                                              int n_overrides, const tmc_command_options *c,
                                              const tmc_run_options *o, tmc_status *st);
TMC_API tmc_document *tmc_experiment_cheapest(const char *path, const char *const *overrides,
                                              int n_overrides, const tmc_command_options *c,
                                              const tmc_run_options *o, tmc_status *st);
TMC_API tmc_document *tmc_experiment_sensitivity(const char *path,
                                                 const char *const *overrides, int n_overrides,
                                                 const tmc_command_options *c,
                                                 const tmc_run_options *o, tmc_status *st);
TMC_API tmc_document *tmc_experiment_rescue(const char *path, const char *const *overrides,
                                            int n_overrides, const tmc_command_options *c,
                                            const tmc_run_options *o, tmc_status *st);

/* The same four for an experiment given as JSON text (label and base_dir as
 * in tmc_experiment_parse: label names it in messages, NULL "<string>";
 * base_dir resolves its relative file names, its "base" among them, NULL
 * the current folder), as tmc_experiment_sweep_text is to
 * tmc_experiment_sweep. Every setting a search makes is parsed from the
 * same text, so for the same experiment both give the same document. */
TMC_API tmc_document *tmc_experiment_forecast_text(const char *json, const char *label,
                                                   const char *base_dir,
                                                   const char *const *overrides,
                                                   int n_overrides,
                                                   const tmc_command_options *c,
                                                   const tmc_run_options *o, tmc_status *st);
TMC_API tmc_document *tmc_experiment_cheapest_text(const char *json, const char *label,
                                                   const char *base_dir,
                                                   const char *const *overrides,
                                                   int n_overrides,
                                                   const tmc_command_options *c,
                                                   const tmc_run_options *o, tmc_status *st);
TMC_API tmc_document *tmc_experiment_sensitivity_text(const char *json, const char *label,
                                                      const char *base_dir,
                                                      const char *const *overrides,
                                                      int n_overrides,
                                                      const tmc_command_options *c,
                                                      const tmc_run_options *o,
                                                      tmc_status *st);
TMC_API tmc_document *tmc_experiment_rescue_text(const char *json, const char *label,
                                                 const char *base_dir,
                                                 const char *const *overrides, int n_overrides,
                                                 const tmc_command_options *c,
                                                 const tmc_run_options *o, tmc_status *st);

/* What tmc_fit_log takes: `trainmc fit LOG`'s options (docs/fit.md). */
typedef struct {
    long nodes;            /* nodes watched, >= those in the log (required) */
    long cards_per_node;   /* >= 1 (required) */
    double span_days;      /* 0: the last event's time */
    const char *format;    /* "csv" or "json"; NULL: by the name (.csv) */
    double confidence;     /* of every interval, (0, 1); 0: 0.95 */
    double window_days;    /* counts per window; 0: 7 */
    double simultaneous_s; /* faults starting this close are simultaneous; 0: 60 */
    const char *const *exclude_causes; /* causes left out */
    int n_exclude_causes;
    int dedupe;            /* 1: drop exact duplicate faults (else refused) */
    /* the log's kind: NULL or "faults" (the fields above), "steps" (a
     * step-time log, `fit --steps`: confidence only), "sacct" (SLURM
     * accounting, `fit --sacct`: confidence, cards_per_node if known, and
     * sacct_map) */
    const char *kind;
    /* sacct: "STATE=CAUSE" each, in place of the state table's row */
    const char *const *sacct_map;
    int n_sacct_map;
    /* faults: the lifetime law of the fragment (tmc_document_fragment, `fit
     * --law`): "exponential" (the Poisson rate) or "weibull" (the fitted
     * shape); NULL: exponential */
    const char *law;
    /* faults: 1: faults starting within simultaneous_s of each other are
     * bursts (`fit --bursts`): the single-node rate without their faults,
     * and the fragment's failures.burst_* (with the exponential law only) */
    int bursts;
} tmc_fit_log_options;

/* nodes and cards_per_node 0 (to be given for a fault log), the rest the
 * command line's defaults. */
TMC_API void tmc_fit_log_options_init(tmc_fit_log_options *o);

/* Fit the log at `path` as `trainmc fit LOG` does: a fault log (CSV with
 * columns node, start, end, cause, or JSON lines), or with o->kind a
 * step-time log or SLURM accounting. A field the kind does not read must
 * be left as init sets it. Returns a document to free with
 * tmc_document_free, or NULL with st: TMC_ERR_INPUT ("FILE:LINE: ..." or
 * the option: "tmc_fit_log_options.nodes = 0: ..."), TMC_ERR_MEMORY. */
TMC_API tmc_document *tmc_fit_log(const char *path, const tmc_fit_log_options *o,
                                  tmc_status *st);

TMC_API void tmc_document_free(tmc_document *d);

/* The document, as the command's --json writes it (owned by d; compact). */
TMC_API const char *tmc_document_json(const tmc_document *d);

/* The report the command prints, UTF-8 text (owned by d). */
TMC_API const char *tmc_document_text(const tmc_document *d);

/* The page the command's --html FILE writes, for the commands that have
 * one here: forecast from a history and sensitivity (docs/commands/: one
 * self-contained HTML file, the answer first, its figure inline as SVG, the
 * experiment and what made it; here "libtrainmc: tmc_experiment_forecast"
 * where the program names its command line). UTF-8 text owned by d; NULL
 * for the other commands (cheapest, rescue, fit, forecast from a log). */
TMC_API const char *tmc_document_html(const tmc_document *d);

/* The experiment fragment `trainmc fit --write FILE` writes for the log of
 * a tmc_fit_log document, as JSON text (owned by d; compact): a fault log's
 * failures distribution file (under tmc_fit_log_options.law), a step-time
 * log's jitter distribution file, SLURM accounting's sections failures,
 * outages and time_limit (docs/fit.md, docs/commands/fit.md). An
 * experiment names the first two as its "failures" or "jitter"; the third
 * merges into one. NULL with st = TMC_ERR_INPUT and why when there is none:
 * no law could be fitted, a fitted cv outside the range the law accepts,
 * node failures in accounting without tmc_fit_log_options.cards_per_node,
 * or d not a fit's. */
TMC_API const char *tmc_document_fragment(const tmc_document *d, tmc_status *st);

/* The number at a dotted path of the document ("chosen.probability",
 * "points.0.deadline.probability"); NaN if none. */
TMC_API double tmc_document_number(const tmc_document *d, const char *path);

#ifdef __cplusplus
}
#endif
#endif
