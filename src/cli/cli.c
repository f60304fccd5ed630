/* cli.c - pieces every subcommand shares. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plot.h"
#include "engine.h"
#include "finishable.h"
#include "number.h"
#include "plan.h"
#include "observed_input.h"
#include "ranks.h"

int tmc_cli_fail(int rc, const char *fmt, ...)
{
    tmc_error e;
    char raw[sizeof e.msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tmc_error_set(&e, "%s", raw);
    fprintf(stderr, "trainmc: %s\n", e.msg);
    return rc;
}

int tmc_cli_usage_error(const char *command, const char *fmt, ...)
{
    tmc_error e; /* escaped there: the message echoes an argument */
    char raw[sizeof e.msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    tmc_error_set(&e, "%s", raw);
    fprintf(stderr, "trainmc: %s\n(see `trainmc %s --help`)\n", e.msg, command);
    return 2;
}

int tmc_cli_parse_long(const char *s, long lo, long hi, long *out)
{
    /* a decimal integer, also as the help writes ranges ("1e7"; number.h:
     * no spaces, no hexadecimal); exact below 2^53, beyond every range here */
    double v;
    if (tmc_number_parse(s, &v) || v != floor(v) || v < (double)lo || v > (double)hi)
        return -1;
    *out = (long)v;
    return 0;
}

/* A duration for the progress bar: "42 s", "3 min 05 s", "2 h 07 min". */
static void format_duration(char *buf, size_t size, double s)
{
    long t = s > 0 && s < 1e9 ? (long)(s + 0.5) : 0;
    if (t < 60)
        snprintf(buf, size, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, size, "%ld min %02ld s", t / 60, t % 60);
    else
        snprintf(buf, size, "%ld h %02ld min", t / 3600, t / 60 % 60);
}

void tmc_cli_progress_bar(long done, long total, void *ctx)
{
    (void)ctx;
    /* one bar at a time (the runner's watcher calls this); a new bar starts
     * when the total changes or the count goes back */
    static double start;
    static long last_done = -1, last_total = -1;
    double now = tmc_cli_now_s();
    if (total != last_total || done < last_done)
        start = now;
    last_done = done, last_total = total;
    char elapsed[32], left[48] = "", tail[128];
    format_duration(elapsed, sizeof elapsed, now - start);
    if (done > 0 && done < total) {
        char eta[32];
        format_duration(eta, sizeof eta, (now - start) * (double)(total - done) / (double)done);
        snprintf(left, sizeof left, ", about %s left", eta);
    }
    snprintf(tail, sizeof tail, "%ld/%ld, %s%s", done, total, elapsed, left);
    int width = 24, filled = (int)(width * done / total);
    /* within 79 columns (a wrapped line would scroll), padded: a shorter line
     * must cover the longer one before it */
    fprintf(stderr, "\r[%-*.*s] %3d%% %-47.47s", width, filled, "########################",
            (int)(100 * done / total), tail);
    if (done == total)
        fprintf(stderr, "\r%*s\r", width + 54, "");
    fflush(stderr);
}

double tmc_cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void on_stop_signal(int sig)
{
    (void)sig;
    tmc_stop_request();
    tmc_output_discard_pending(); /* at once: a SIGKILL may follow */
}

void tmc_cli_catch_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL); /* a closed terminal: stop and clean up too */
}

int tmc_cli_check_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "trainmc: cannot write the report to standard output: %s\n",
            strerror(errno));
    return 1;
}

/* The folder of path made absolute (realpath), then its last name. */
static int absolute_name(const char *path, char *out, size_t size)
{
    char dir[TMC_PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    if (!realpath(dir, real))
        return -1;
    return snprintf(out, size, "%s/%s", real, name) >= (int)size ? -1 : 0;
}

/* 1 when a and b name one file: the same name, or the same name once its
 * folder is made absolute (a file not written yet: "./x.json" and
 * "x.json"), or, for files that exist, the same device and inode (a hard
 * link, a symbolic link, ".."). */
static int same_file(const char *a, const char *b)
{
    char x[TMC_PATH_MAX + PATH_MAX], y[TMC_PATH_MAX + PATH_MAX];
    struct stat sa, sb; /* existing files (links followed): the same inode */
    if (!strcmp(a, b) ||
        (!stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino))
        return 1;
    return !absolute_name(a, x, sizeof x) && !absolute_name(b, y, sizeof y) && !strcmp(x, y);
}

/* "--json" for an option, the name as it is for an operand or a file the
 * experiment reads. */
static void path_label(const tmc_cli_path *p, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", p->is_operand ? "" : "--", p->name);
}

int tmc_cli_check_paths(const tmc_cli_path *in, int n_in, const tmc_cli_path *out, int n_out)
{
    char a[64], b[64];
    for (int i = 0; i < n_out; i++) {
        path_label(&out[i], a, sizeof a);
        for (int j = i + 1; j < n_out; j++)
            if (same_file(out[i].path, out[j].path)) {
                path_label(&out[j], b, sizeof b);
                fprintf(stderr, "trainmc: %s and %s name the same file: %s\n", a, b,
                        out[j].path);
                return 2;
            }
        for (int j = 0; j < n_in; j++)
            if (same_file(out[i].path, in[j].path)) {
                path_label(&in[j], b, sizeof b);
                fprintf(stderr, "trainmc: %s %s is an input of the run (%s %s): it would be "
                                "replaced; choose another path\n", a, out[i].path, b,
                        in[j].path);
                return 2;
            }
    }
    return 0;
}

int tmc_cli_check_option_paths(const tmc_cli_options *o)
{
    tmc_cli_path in[TMC_CLI_MAX_PATHS], out[TMC_CLI_MAX_PATHS];
    int n_in = tmc_cli_option_paths(o, TMC_CLI_PATH_INPUT, in, TMC_CLI_MAX_PATHS);
    int n_out = tmc_cli_option_paths(o, TMC_CLI_PATH_OUTPUT, out, TMC_CLI_MAX_PATHS);
    return tmc_cli_check_paths(in, n_in, out, n_out);
}

int tmc_cli_check_not_input(const char *output_path, const tmc_experiment *x)
{
    tmc_cli_path out = {"output file", output_path, 1};
    int rc = 0;
    for (int i = 0; x && i < x->n_inputs && !rc; i++) {
        tmc_cli_path in = {"read by the experiment:", x->inputs[i], 1};
        rc = tmc_cli_check_paths(&in, 1, &out, 1);
    }
    return rc;
}

/* "SETTING: " or "" */
static void setting_prefix(const char *setting, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", setting ? setting : "", setting ? ": " : "");
}

int tmc_cli_check_feasible(const tmc_experiment *x, const char *setting, int force)
{
    char line[512], prefix[300];
    int fits = tmc_plan_feasibility(x, line, sizeof line);
    setting_prefix(setting, prefix, sizeof prefix);
    printf("%s%s\n", prefix, line);
    if (fits != 0 || force)
        return 0;
    fflush(stdout);
    fprintf(stderr, "trainmc: %s: %sthe training state does not fit in memory (see `trainmc "
                    "plan`); --force runs it anyway\n", x->path, prefix);
    return 2;
}

int tmc_cli_check_finishable(const tmc_experiment *x, const char *setting)
{
    char prefix[300], why[1024];
    int rc = tmc_finishable_check(x, why, sizeof why); /* finishable.h */
    if (rc == 0)
        return 0;
    setting_prefix(setting, prefix, sizeof prefix);
    return tmc_cli_fail(rc < 0 ? 1 : 2, "%s: %s%s", x->path, prefix, why);
}

int tmc_cli_is_root(void)
{
    return tmc_ranks_self() == 0;
}

void tmc_cli_quiet_other_ranks(void)
{
    if (tmc_cli_is_root())
        return;
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0)
        return; /* the other ranks then repeat rank 0's lines: noisy, not wrong */
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
}

/* h after FNV-1a over the n bytes at p. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ULL;
    return h;
}

/* FNV-1a over the validated experiment's bytes (zeroed first by the loader,
 * so padding is 0), its heap pointers zeroed (they differ by rank), then
 * over what they point to: the same resolved experiment gives the same
 * digest. */
static uint64_t experiment_digest(const tmc_experiment *x)
{
    tmc_experiment plain; /* a view, never released; memcpy keeps the padding */
    memcpy(&plain, x, sizeof plain);
    plain.path = NULL;
    plain.inputs = plain.overrides = NULL;
    plain.failures.trace_days = plain.outages.trace_days = plain.loss_spikes.trace_days = NULL;
    uint64_t h = fnv1a(1469598103934665603ULL, &plain, sizeof plain);
    h = fnv1a(h, x->path, strlen(x->path));
    for (int i = 0; i < x->n_inputs; i++)
        h = fnv1a(h, x->inputs[i], strlen(x->inputs[i]) + 1);
    for (int i = 0; i < x->n_overrides; i++)
        h = fnv1a(h, x->overrides[i], strlen(x->overrides[i]) + 1);
    h = fnv1a(h, x->failures.trace_days, (size_t)x->failures.n_trace * sizeof(double));
    h = fnv1a(h, x->outages.trace_days, (size_t)x->outages.n_trace * sizeof(double));
    return fnv1a(h, x->loss_spikes.trace_days, (size_t)x->loss_spikes.n_trace * sizeof(double));
}

/* --progress FILE into x, after the --set overrides (none of which may
 * touch the progress section: progress_set_twice): the file is the job's
 * own account of where it stands, so it replaces the experiment's section. Collective as the experiment's load. 0, or 2 after a message. */
static int load_progress(tmc_experiment *x, const char *path)
{
    tmc_error err = {""};
    int rc = tmc_observed_input_load(x, path, &err) ? 2 : 0;
    if ((rc = tmc_ranks_agree(rc, &err))) {
        fprintf(stderr, "trainmc: %s\n", err.msg);
        return rc;
    }
    return tmc_cli_check_same_experiment(x, path);
}

/* --set progress.KEY beside --progress FILE (or a history) would be
 * replaced by the file's section: refused rather than dropped. 0, or 2. */
static int progress_set_twice(const tmc_cli_options *o, const char *given)
{
    for (int i = 0; given && i < o->n_sets; i++)
        if (strncmp(o->sets[i], "progress", 8) == 0 &&
            (o->sets[i][8] == '.' || o->sets[i][8] == '=')) {
            fprintf(stderr, "trainmc: --set %s: the progress section comes whole from %s; "
                            "change it there, or drop the --set\n", o->sets[i], given);
            return 2;
        }
    return 0;
}

int tmc_cli_start(const tmc_cli_command *cmd, int argc, char **argv, tmc_cli_options *o,
                  tmc_experiment *x)
{
    memset(o, 0, sizeof *o);
    int rc = tmc_cli_parse_options(cmd, argc, argv, o);
    if (!rc)
        rc = progress_set_twice(o, o->progress_path ? o->progress_path
                                   : o->history_path ? o->history_path : o->log_path);
    if (rc || (rc = tmc_cli_load_experiment(o->experiment, o->sets, o->n_sets, x)))
        return rc;
    if (o->progress_path && (rc = load_progress(x, o->progress_path)))
        tmc_experiment_release(x);
    return rc;
}

int tmc_cli_main(const tmc_cli_command *cmd, int argc, char **argv, tmc_cli_body body)
{
    tmc_cli_options o;
    tmc_experiment x;
    int rc = tmc_cli_start(cmd, argc, argv, &o, &x);
    if (rc)
        return rc == TMC_CLI_HELP_SHOWN ? 0 : rc; /* x owns nothing */
    rc = body(&x, &o);
    tmc_experiment_release(&x);
    return rc;
}

int tmc_cli_load_experiment(const char *path, const char *const *sets, int n_sets,
                            tmc_experiment *x)
{
    tmc_error err = {""};
    int rc = tmc_config_load(path, sets, n_sets, x, &err) ? 2 : 0;
    if ((rc = tmc_ranks_agree(rc, &err)))
        fprintf(stderr, "trainmc: %s\n", err.msg);
    else
        rc = tmc_cli_check_same_experiment(x, path);
    if (rc) /* this rank's load may have succeeded where another's failed */
        tmc_experiment_release(x);
    return rc;
}

int tmc_cli_check_same_experiment(const tmc_experiment *x, const char *path)
{
    tmc_error err = {""};
    int rc = 0;
    if (!tmc_ranks_same(experiment_digest(x)))
        rc = tmc_error_set(&err, "%s: this rank read another experiment than rank 0 (a "
                                 "different file or distribution file on its node)", path);
    if ((rc = tmc_ranks_agree(rc ? 2 : 0, &err)))
        fprintf(stderr, "trainmc: %s\n", err.msg);
    return rc;
}

int tmc_cli_open_output(tmc_outfile *out, const char *path, const tmc_experiment *x)
{
    tmc_error err = {""};
    int rc = 0;
    if (tmc_cli_is_root()) { /* it prints its own messages */
        rc = tmc_cli_check_not_input(path, x);
        if (!rc && tmc_output_open(out, path, &err)) {
            fprintf(stderr, "trainmc: %s\n", err.msg);
            rc = 2;
        }
    }
    return tmc_ranks_agree(rc, NULL);
}

int tmc_cli_write_text(tmc_outfile *out, char *text)
{
    tmc_error err = {""};
    int rc = 0;
    if (tmc_cli_is_root()) {
        rc = text ? tmc_output_commit(out, text, &err) : tmc_error_set(&err, "out of memory");
        if (rc)
            fprintf(stderr, "trainmc: %s\n", err.msg);
    }
    free(text);
    return rc ? 1 : 0;
}

/* --plot: 0 for a FILE.svg (gnuplot writes SVG, whatever the name), else 2
 * with a message. */
static int check_plot_path(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".svg"))
        return 0;
    return tmc_cli_fail(2, "--plot %s: the file must end in .svg (the picture is SVG)", path);
}

/* --plot: 0 when gnuplot runs, else 2 after saying how to install it. */
static int check_gnuplot(void)
{
    tmc_error err = {""};
    if (!tmc_plot_check_gnuplot(&err))
        return 0;
    fprintf(stderr, "trainmc: %s\n", err.msg);
    return 2;
}

/* Open the outputs asked for; on a failure, none is left open. */
static int open_all(tmc_outfile *const file[], const char *const path[], int n,
                    const tmc_experiment *x)
{
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        if (path[i] && (rc = tmc_cli_open_output(file[i], path[i], x)))
            tmc_cli_abort_outputs(file, path, i);
    return rc;
}

int tmc_cli_open_outputs(tmc_outfile *const file[], const char *const flag[],
                         const char *const path[], int n, const tmc_experiment *x)
{
    int rc = 0; /* distinct from each other and the inputs: tmc_cli_check_option_paths */
    for (int i = 0; i < n && !rc; i++)
        if (path[i] && !strcmp(flag[i], "plot") && !(rc = check_plot_path(path[i])))
            rc = check_gnuplot();
        else if (path[i] && !strcmp(flag[i], "html")) /* it holds gnuplot's pictures */
            rc = check_gnuplot();
    return rc ? rc : open_all(file, path, n, x);
}

int tmc_cli_open_json_svg(tmc_outfile *json, const char *json_path, tmc_outfile *svg,
                          const char *svg_path, const tmc_experiment *x)
{
    tmc_outfile *const file[2] = {json, svg};
    const char *const path[2] = {json_path, svg_path};
    int rc = svg_path ? check_plot_path(svg_path) : 0;
    return rc ? rc : open_all(file, path, 2, x);
}

void tmc_cli_abort_outputs(tmc_outfile *const file[], const char *const path[], int n)
{
    for (int i = 0; i < n; i++)
        if (path[i])
            tmc_output_abort(file[i]);
}

int tmc_cli_finish_plot(tmc_outfile *out, int drawn, const tmc_error *err)
{
    if (!tmc_cli_is_root())
        return 0;
    tmc_error e = *err;
    if (drawn) {
        tmc_output_abort(out);
    } else if (!tmc_output_commit_written(out, &e)) {
        return 0;
    }
    fprintf(stderr, "trainmc: %s\n", e.msg);
    return 1;
}

int tmc_cli_write_json(tmc_outfile *out, cJSON *doc)
{
    char *text = doc && tmc_cli_is_root() ? cJSON_Print(doc) : NULL;
    cJSON_Delete(doc);
    return tmc_cli_write_text(out, text);
}
