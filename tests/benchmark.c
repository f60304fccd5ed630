/* benchmark.c - trainmc_bench: the engine's speed against the random-number
 * floor and a naive engine, measured in one run (issue 5). Not a test: run
 *   build/tests/trainmc_bench [--quick] [--numpy] [--out reports/performance.md]
 *                             [--before OLD_BUILD/trainmc]
 * --numpy adds tests/bench_numpy_reference.sh's table (a few minutes).
 * It prints Markdown and writes it atomically to --out. --before times an
 * older build's command line beside this one's (issue 17). Figures are medians
 * over REPS repetitions; ratios are taken between figures of the same run. */
#define _DEFAULT_SOURCE /* wait4 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "output.h"
#include "runner.h"

#define REPS 5

static char report[1 << 16];
static int quick, numpy;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;
    size_t used = strlen(report);
    va_start(ap, fmt);
    vsnprintf(report + used, sizeof report - used, fmt, ap);
    va_end(ap);
    fputs(report + used, stdout);
    fflush(stdout);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double median(double *x, int n)
{
    gsl_sort(x, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(x, 1, (size_t)n);
}

/* ---------- baselines: nanoseconds per step ---------- */

static volatile double sink;

static double floor_pcg(long steps)
{
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 1, 1);
    double t = 0, t0 = now_s();
    for (long i = 0; i < steps; i++)
        t += tmc_rng_pcg_next(r) * 0x1p-32;
    double ns = (now_s() - t0) / steps * 1e9;
    sink = t;
    gsl_rng_free(r);
    return ns;
}

static double floor_ziggurat(long steps)
{
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 1, 1);
    double t = 0, t0 = now_s();
    for (long i = 0; i < steps; i++)
        t += gsl_ran_gaussian_ziggurat(r, 1.0);
    double ns = (now_s() - t0) / steps * 1e9;
    sink = t;
    gsl_rng_free(r);
    return ns;
}

/* The naive engine's step: all n card times drawn, the maximum kept. */
static double naive_step(long n, long steps)
{
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed(r, 1, 1);
    double t = 0, t0 = now_s();
    for (long i = 0; i < steps; i++) {
        double m = -INFINITY;
        for (long k = 0; k < n; k++)
            m = fmax(m, gsl_ran_gaussian_ziggurat(r, 1.0));
        t += 52.178 + 2.6089 * m;
    }
    double ns = (now_s() - t0) / steps * 1e9;
    sink = t;
    gsl_rng_free(r);
    return ns;
}

/* ---------- the engine ---------- */

static tmc_experiment load(const char *name, const char *const *sets, int n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/%s.json", TMC_SOURCE_DIR, name);
    tmc_experiment x;
    tmc_error err = {""};
    if (tmc_config_load(path, sets, n, &x, &err)) {
        fprintf(stderr, "trainmc_bench: %s\n", err.msg);
        exit(1);
    }
    return x;
}

/* Seconds for `replicas` replicas of x on `threads` threads (median). */
/* An engine ready to time, with a buffer for its replicas. */
typedef struct {
    tmc_engine e;
    double *wall;
    long replicas;
} timed_engine;

static void timed_init(timed_engine *t, const tmc_experiment *x, long replicas)
{
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    t->replicas = replicas;
    t->wall = malloc((size_t)replicas * sizeof *t->wall);
    if (!t->wall || tmc_engine_init(&t->e, x, &cf))
        exit(1);
}

/* Seconds to run t's replicas; *steps (may be NULL): the steps simulated. */
static double timed_run(timed_engine *t, int threads, double *steps)
{
    tmc_replica totals;
    tmc_error err = {""};
    double t0 = now_s();
    tmc_runner_run(&t->e, t->replicas, 1, threads, NULL, NULL, t->wall, &totals, &err);
    double seconds = now_s() - t0;
    if (steps)
        *steps = totals.steps_simulated;
    return seconds;
}

static void timed_free(timed_engine *t)
{
    tmc_engine_free(&t->e);
    free(t->wall);
}

/* Seconds for `replicas` replicas of x on 1 and on 2 threads (medians),
 * and their ratio: the two runs alternate, and the ratio is taken within
 * each repetition, so that the machine's drift does not enter it. */
static void time_threads(const tmc_experiment *x, long replicas, double *one, double *two,
                         double *speedup)
{
    timed_engine t;
    double s1[REPS], s2[REPS], r[REPS];
    timed_init(&t, x, replicas);
    for (int i = 0; i < REPS; i++) {
        s1[i] = timed_run(&t, 1, NULL);
        s2[i] = timed_run(&t, 2, NULL);
        r[i] = s1[i] / s2[i];
    }
    timed_free(&t);
    *one = median(s1, REPS), *two = median(s2, REPS), *speedup = median(r, REPS);
}

/* CPU seconds (user + system) of the last run_cli. */
static double cli_cpu_s;

/* Run the trainmc CLI as a child; wall seconds and peak resident set (MiB);
 * its CPU seconds into cli_cpu_s. */
static void run_cli(char *const argv[], double *seconds, double *rss_mib)
{
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    *seconds = now_s() - t0;
    *rss_mib = ru.ru_maxrss / 1024.0;
    cli_cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
                (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "trainmc_bench: %s failed\n", argv[0]);
        exit(1);
    }
}

/* The save interval of the step-cost case: 34 steps whatever the card
 * count, so that every row has segments of the same length (with the
 * experiment's 1,800 s, 8 cards would save every 5 steps, and the cost per
 * segment would swamp the cost per step). */
#define STEP_COST_CHECKPOINT \
    "checkpoint={\"interval_steps\": 34, \"save_s\": 16.38, \"restore_s\": 120}"

/* The old engine's command line (--before), timed like the new one's. */
static const char *before_binary;

/* Seconds of one `trainmc run` of the stress case at `cards` with
 * `replicas` replicas on one thread, less the same run with one replica
 * (start-up: loading, tables, closed form). */
static double cli_seconds(const char *binary, long cards, long replicas)
{
    char path[1024], set[64], n[32];
    snprintf(path, sizeof path, "%s/experiments/design-48-stress.json", TMC_SOURCE_DIR);
    snprintf(set, sizeof set, "job.cards=%ld", cards);
    double t[2], rss;
    for (int k = 0; k < 2; k++) {
        snprintf(n, sizeof n, "%ld", k ? replicas : 1);
        char *argv[] = {(char *)binary, "run", path, "--replicas", n, "--threads", "1",
                        "--quiet", "--force", "--set", set, "--set",
                        "monte_carlo.mode=\"steps\"", "--set", (char *)STEP_COST_CHECKPOINT,
                        NULL};
        run_cli(argv, &t[k], &rss);
    }
    return t[1] - t[0];
}

enum { NC = 4 };
static const long bench_cards[NC] = {8, 48, 1024, 16384};

/* Repetitions go round the card counts, so a slow spell of the machine
 * falls on all of them alike; the floor is measured again right before
 * each engine run and the ratio taken within the repetition, so that the
 * machine's drift between the two does not enter it. */
static void section_step_cost(double zig_ns, double pcg_ns)
{
    long replicas = quick ? 100 : 1000;
    say("\n## Cost per step against the card count (steps mode, 1 thread)\n\n");
    say("The stress case (design-48-stress: jitter, failures, outages and spikes on) at each\n"
        "card count with a save every 34 steps, %ld replicas, median of %d taken in turns.\n"
        "A step is a step simulated, committed or lost (`steps_simulated`). *engine*: the\n"
        "replicas alone; *floor*: one PCG draw + add, measured right before each engine run;\n"
        "*ratio*: engine / floor within each repetition, then the median. *CLI*: `trainmc\n"
        "run --threads 1`, less its start-up (the same run with one replica)%s. The naive\n"
        "engine draws all N card times a step.\n\n",
        replicas, REPS, before_binary ? ", for this build and for the one before (--before)" : "");
    say("| cards | steps per replica | engine ns per step | floor ns | engine / floor |"
        " / ziggurat draw | CLI ns per step%s | naive engine ns per step |\n",
        before_binary ? " | CLI before, ns per step | before / after" : "");
    say("|---|---|---|---|---|---|---|---|%s\n", before_binary ? "---|---|" : "");
    timed_engine t[NC];
    tmc_experiment x[NC]; /* the engines borrow them until timed_free */
    double s[NC][REPS], fl[NC][REPS], ratio[NC][REPS], cli[NC][REPS], old[NC][REPS], steps[NC];
    for (int i = 0; i < NC; i++) {
        char set[64];
        snprintf(set, sizeof set, "job.cards=%ld", bench_cards[i]);
        const char *sets[3] = {set, "monte_carlo.mode=\"steps\"", STEP_COST_CHECKPOINT};
        x[i] = load("design-48-stress", sets, 3);
        timed_init(&t[i], &x[i], replicas);
    }
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < NC; i++) {
            fl[i][r] = floor_pcg(quick ? 10000000 : 50000000);
            s[i][r] = timed_run(&t[i], 1, &steps[i]);
            ratio[i][r] = s[i][r] / steps[i] * 1e9 / fl[i][r];
            cli[i][r] = cli_seconds(TMC_BINARY, bench_cards[i], replicas);
            old[i][r] = before_binary ? cli_seconds(before_binary, bench_cards[i], replicas) : 0;
        }
    double worst = 0;
    for (int i = 0; i < NC; i++) {
        double ns = median(s[i], REPS) / steps[i] * 1e9, cli_ns = median(cli[i], REPS) /
                                                                  steps[i] * 1e9;
        double rt = median(ratio[i], REPS);
        long naive_steps = bench_cards[i] >= 16384 ? 200 : 20000000 / bench_cards[i];
        double naive = naive_step(bench_cards[i], naive_steps);
        worst = fmax(worst, rt);
        say("| %ld | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f |", bench_cards[i],
            steps[i] / replicas, ns, median(fl[i], REPS), rt, ns / zig_ns, cli_ns);
        if (before_binary) {
            double old_ns = median(old[i], REPS) / steps[i] * 1e9;
            say(" %.2f | %.2f |", old_ns, old_ns / cli_ns);
        }
        say(" %.0f |\n", naive);
        timed_free(&t[i]);
        tmc_experiment_release(&x[i]);
    }
    say("\nLargest engine cost per step over the floor: %.2f (the floor of the whole run, "
        "%.2f ns, above).\n", worst, pcg_ns);
}

static void section_replicas(void)
{
    say("\n## Full replicas per second, both modes\n\n");
    say("The engine alone; 1 and 2 threads alternate, medians of %d; the speed-up is\n"
        "taken within each repetition, then the median. *segments*: the default (a\n"
        "segment's sum drawn at once from its exact law, runs of commits a block at a\n"
        "time); *steps*: every step drawn.\n\n",
        REPS);
    say("| experiment | mode | replicas | 1 thread, s | 2 threads, s | replicas/s (2 threads) | "
        "speed-up |\n");
    say("|---|---|---|---|---|---|---|\n");
    static const struct {
        const char *label, *name, *set;
        long replicas;
    } cases[4] = {
        {"design-48 (no jitter)", "design-48", NULL, 100000},
        {"design-48-stress", "design-48-stress", NULL, 10000},
        {"design-48-stress at 1,024 cards", "design-48-stress", "job.cards=1024", 10000},
        {"design-48-stress at 16,384 cards", "design-48-stress", "job.cards=16384", 4000},
    };
    static const char *const modes[2] = {"steps", "segments"};
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 2; k++) {
            char mode[64];
            snprintf(mode, sizeof mode, "monte_carlo.mode=\"%s\"", modes[k]);
            const char *sets[2] = {cases[i].set, mode};
            tmc_experiment x = cases[i].set ? load(cases[i].name, sets, 2)
                                            : load(cases[i].name, sets + 1, 1);
            long n = quick ? cases[i].replicas / 10 : cases[i].replicas;
            double t1, t2, speedup;
            time_threads(&x, n, &t1, &t2, &speedup);
            tmc_experiment_release(&x);
            say("| %s | %s | %ld | %.3f | %.3f | %.0f | %.2fx |\n", cases[i].label, modes[k], n,
                t1, t2, n / t2, speedup);
        }
}

/* The cost of a segment against its length K (segments mode, 1 thread):
 * design-48-stress with K from 1 to 10,000, CPU per segment attempt. */
static void section_lengths(void)
{
    say("\n## Cost against the segment length (segments mode, 1 thread)\n\n");
    say("design-48-stress's jitter with `checkpoint.interval_steps` = K and nothing that\n"
        "interrupts (failures, outages and spikes off: with them a segment of 10,000 steps,\n"
        "6.7 days, is struck about 800 times before it commits), 2,000 replicas, median of\n"
        "%d: the engine's time per segment, ceil(S / K) a replica. With nothing that\n"
        "interrupts, every run of segments goes in blocks of 32 (one draw of the law of\n"
        "32 K steps: docs/reference/modes-and-speed.md), so the cost is a block's over\n"
        "32 segments, plus the replica's own fixed cost over its segments.\n\n", REPS);
    say("| K | s per 2,000 replicas | segments per replica | ns per segment |\n"
        "|---|---|---|---|\n");
    static const char *const ks[] = {"1", "10", "100", "1000", "10000"};
    for (int i = 0; i < 5; i++) {
        char k[64];
        snprintf(k, sizeof k, "checkpoint.interval_steps=%s", ks[i]);
        const char *sets[5] = {k, "monte_carlo.mode=\"segments\"", "failures=null",
                               "outages=null", "loss_spikes=null"};
        tmc_experiment x = load("design-48-stress", sets, 5);
        long n = quick ? 200 : 2000;
        double t1, t2, speedup;
        time_threads(&x, n, &t1, &t2, &speedup);
        double segments = ceil((double)x.job.steps / atof(ks[i]));
        tmc_experiment_release(&x);
        say("| %s | %.3f | %.0f | %.1f |\n", ks[i], t1, segments, t1 / n / segments * 1e9);
    }
}

/* Three runs of argv: the median wall (its range), the CPU of that run and
 * the largest resident set, into one table row with the target beside. */
static void million_row(char *const argv[], const char *what, double target_s)
{
    double wall[3], cpu[3], rss = 0, r;
    for (int i = 0; i < 3; i++) {
        run_cli(argv, &wall[i], &r);
        cpu[i] = cli_cpu_s, rss = fmax(rss, r);
    }
    size_t order[3];
    gsl_sort_index(order, wall, 1, 3);
    say("| %s | %.2f [%.2f, %.2f] | %.2f | %.1f | %s |\n", what, wall[order[1]], wall[order[0]],
        wall[order[2]], cpu[order[1]], rss,
        target_s > 0 ? (wall[order[1]] <= target_s ? "met" : "NOT met") : "");
}

/* The issue-35 targets on the CLI with 2 threads: a million replicas of the
 * stress case (5 s), and cheapest with three levers on a 1,024-card node
 * experiment with jitter, so that every plan builds its segment laws (15 s). */
static void section_million(void)
{
    char path[1024], spares[1024], replicas[32];
    snprintf(path, sizeof path, "%s/experiments/design-48-stress.json", TMC_SOURCE_DIR);
    snprintf(spares, sizeof spares, "%s/experiments/spares-1024.json", TMC_SOURCE_DIR);
    snprintf(replicas, sizeof replicas, "%d", quick ? 100000 : 1000000);
    char *seg[] = {TMC_BINARY, "run", path, "--replicas", replicas, "--quiet", "--threads", "2",
                   "--set", "monte_carlo.mode=\"segments\"", NULL};
    char *steps[] = {TMC_BINARY, "run", path, "--replicas", "10000", "--quiet", "--threads", "2",
                     "--set", "monte_carlo.mode=\"steps\"", NULL};
    char *cheap[] = {TMC_BINARY, "cheapest", spares, "--threads", "2", "--set", "jitter.cv=0.05",
                     "--lever", "job.cards=1024:1280", "--lever",
                     "checkpoint.interval_s=600,1200,2400", "--lever", "failures.spares=8,16,32",
                     NULL};
    say("\n## A million replicas, cheapest, and memory (the trainmc CLI, 2 threads)\n\n");
    say("Each command 3 times: the median wall time (the range in brackets), that run's CPU\n"
        "time (user + system), the largest peak resident set; the target is issue 35's.\n"
        "A CPU time near the wall time means the run had one core (the machine shared).\n\n");
    say("| command | wall s | CPU s | peak RSS MiB | target |\n|---|---|---|---|---|\n");
    char what[128];
    snprintf(what, sizeof what, "`trainmc run design-48-stress --replicas %s` (segments)", replicas);
    million_row(seg, what, quick ? 0 : 5);
    million_row(steps, "`trainmc run design-48-stress --replicas 10000` (steps)", 0);
    million_row(cheap, "`trainmc cheapest spares-1024 --set jitter.cv=0.05` with levers job.cards="
                       "1024:1280, checkpoint.interval_s=600,1200,2400, failures.spares=8,16,32",
                quick ? 0 : 15);
}

/* --numpy: tests/bench_numpy_reference.sh's table (trainmc's CPU against the
 * NumPy reference's, 10,000 replicas of the stress case, one thread each). */
static void section_numpy(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "sh %s/tests/bench_numpy_reference.sh %s %d segments 2>&1",
             TMC_SOURCE_DIR, TMC_BINARY, quick ? 1000 : 10000);
    say("\n## Against the NumPy reference (CPU seconds, 1 thread each)\n\n");
    say("`tests/bench_numpy_reference.sh`: reports/tools/numpy_reference.py draws every\n"
        "step's slowest card as the maximum of N normals (NumPy, vectorised over replicas);\n"
        "trainmc runs the same experiment in its default mode. Issue 35's target: 100 times\n"
        "less CPU.\n\n");
    FILE *p = popen(cmd, "r");
    char line[512];
    size_t top = strlen(TMC_SOURCE_DIR "/");
    while (p && fgets(line, sizeof line, p)) { /* paths from the top folder: no machine's */
        char *at = strstr(line, TMC_SOURCE_DIR "/");
        if (at)
            memmove(at, at + top, strlen(at + top) + 1);
        say("%s", line);
    }
    if (!p || pclose(p) != 0) {
        fprintf(stderr, "trainmc_bench: %s failed\n", cmd);
        exit(1);
    }
}

static void section_machine(void)
{
    char model[256] = "unknown", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (f)
        fclose(f);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    say("# trainmc performance\n\n");
    say("Made by `build/tests/trainmc_bench --numpy --out reports/performance.md` (Release "
        "build) on %s:\n"
        "%s, %ld cores online. Medians of %d repetitions unless stated.\n",
        date, model, sysconf(_SC_NPROCESSORS_ONLN), REPS);
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--numpy"))
            numpy = 1;
        else if (!strcmp(argv[i], "--before") && i + 1 < argc)
            before_binary = argv[++i];
        else {
            fprintf(stderr, "usage: trainmc_bench [--quick] [--numpy] [--out FILE.md] "
                            "[--before OLD_TRAINMC]\n");
            return 2;
        }
    }
    tmc_outfile file;
    tmc_error err = {""};
    if (out && tmc_output_open(&file, out, &err)) {
        fprintf(stderr, "trainmc_bench: %s\n", err.msg);
        return 2;
    }
    section_machine();
    double pcg[REPS], zig[REPS];
    for (int i = 0; i < REPS; i++) {
        pcg[i] = floor_pcg(100000000);
        zig[i] = floor_ziggurat(50000000);
    }
    double pcg_ns = median(pcg, REPS), zig_ns = median(zig, REPS);
    say("\n## Floors\n\n| per step | ns |\n|---|---|\n");
    say("| one PCG draw + one addition | %.2f |\n", pcg_ns);
    say("| one `gsl_ran_gaussian_ziggurat` draw | %.2f |\n", zig_ns);
    section_step_cost(zig_ns, pcg_ns);
    section_replicas();
    section_lengths();
    section_million();
    if (numpy)
        section_numpy();
    if (out && tmc_output_commit(&file, report, &err)) {
        fprintf(stderr, "trainmc_bench: %s\n", err.msg);
        return 1;
    }
    return 0;
}
