/* plot.c - gnuplot pictures of a run and of a sweep (plot.h). */
#include "plot.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_sort_double.h>

#define RUN_BINS 40
#define CDF_POINTS 2000 /* the CDF is drawn through at most this many ranks */

int tmc_plot_check_gnuplot(tmc_error *err)
{
    FILE *p = popen("gnuplot --version >/dev/null 2>&1", "r");
    if (!p || pclose(p) != 0)
        return tmc_error_set(err, "--plot needs gnuplot, which is not installed here "
                                  "(Debian: apt-get install gnuplot-nox)");
    return 0;
}

/* User text (an experiment's name, a key) for a gnuplot string: only
 * characters that gnuplot gives no meaning to inside double quotes are
 * kept (no quote, backslash, backquote, '@' or '$': command substitution,
 * macros, escapes); any other becomes '?'. */
static const char *safe_text(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++)
        out[n++] = isalnum((unsigned char)*s) || strchr(" ._,:;=+-/()[]%<>#*~", *s) ? *s : '?';
    out[n] = 0;
    return out;
}

/* gnuplot reading its script from a pipe and writing the SVG to out_fd (the
 * output's temporary file, output.h): no file name reaches gnuplot, so none
 * can be taken as a command ('|...') or a path elsewhere. */
typedef struct {
    FILE *in;
    pid_t pid;
    int out_fd;
} gnuplot_run;

static int start(gnuplot_run *g, int out_fd, int height, tmc_error *err)
{
    int p[2];
    if (pipe(p) != 0)
        return tmc_error_set(err, "--plot: cannot start gnuplot: %s", strerror(errno));
    g->out_fd = out_fd;
    g->pid = fork();
    if (g->pid == 0) {
        dup2(p[0], STDIN_FILENO);
        dup2(out_fd, STDOUT_FILENO);
        close(p[0]), close(p[1]);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    close(p[0]);
    g->in = g->pid > 0 ? fdopen(p[1], "w") : NULL;
    if (!g->in) {
        close(p[1]);
        if (g->pid > 0)
            waitpid(g->pid, NULL, 0);
        return tmc_error_set(err, "--plot: cannot start gnuplot");
    }
    fprintf(g->in, "set terminal svg size 900,%d dynamic font 'sans,12'\n"
                   "set termoption noenhanced\nset grid lc rgb '#dddddd'\nset key below\n",
            height);
    return 0;
}

/* 1 when the file at fd ends with the SVG's closing tag (gnuplot wrote it
 * whole: not cut by a full disk or a failing gnuplot). */
static int svg_complete(int fd)
{
    char tail[64] = "";
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 16)
        return 0;
    off_t at = st.st_size > (off_t)sizeof tail - 1 ? st.st_size - (off_t)sizeof tail + 1 : 0;
    ssize_t n = pread(fd, tail, sizeof tail - 1, at);
    if (n <= 0)
        return 0;
    tail[n] = 0;
    return strstr(tail, "</svg>") != NULL;
}

static int finish(gnuplot_run *g, tmc_error *err)
{
    fputs("unset multiplot\n", g->in);
    int bad = ferror(g->in);
    bad |= fclose(g->in) != 0;
    int status = 0;
    if (waitpid(g->pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return tmc_error_set(err, "--plot: gnuplot failed (exit status %d; its messages, if "
                                  "any, are above)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (bad || !svg_complete(g->out_fd))
        return tmc_error_set(err, "--plot: the picture is incomplete (a full disk, or gnuplot "
                                  "stopped early)");
    return 0;
}

/* A vertical line at x, dashed as gnuplot's dash type `dash` (the
 * deadline and the closed form differ in dash, not only in colour: they
 * stay apart printed in grey), with a legend entry, or only the legend entry
 * (saying where x is) when x lies outside [lo, hi]. */
static void marker(FILE *g, int id, double x, double lo, double hi, const char *what,
                   const char *colour, int dash)
{
    int inside = x >= lo && x <= hi;
    if (inside)
        fprintf(g, "set arrow %d from %.17g, graph 0 to %.17g, graph 1 nohead dt %d lw 2 "
                   "lc rgb '%s'\n", id, x, x, dash, colour);
    fprintf(g, "m%d = \"%s %.4g days%s\"\n", id, what, x, inside ? "" : " (outside the range)");
}

/* A horizontal dashed line for the deadline at y = d when d lies in
 * [lo, hi], and the legend text m3 saying where it is. */
static void marker_y(FILE *g, double d, double lo, double hi)
{
    int inside = d >= lo && d <= hi;
    if (inside)
        fprintf(g, "set arrow 3 from graph 0, first %.17g to graph 1, first %.17g nohead "
                   "dt 2 lw 2 lc rgb '#d62728'\n", d, d);
    fprintf(g, "m3 = \"deadline %.4g days%s\"\n", d, inside ? "" : " (outside the range)");
}

/* The histogram's bins through GSL, written as a data block $H (centre,
 * count). Returns the bin width, or -1 if memory runs out. */
static double histogram_block(FILE *g, const double *days, long n, double lo, double hi)
{
    gsl_histogram *h = gsl_histogram_alloc(RUN_BINS);
    if (!h)
        return -1;
    gsl_histogram_set_ranges_uniform(h, lo, hi);
    for (long k = 0; k < n; k++)
        gsl_histogram_increment(h, days[k]); /* lo < days[k] < hi: the range is padded */
    fputs("$H << EOD\n", g);
    for (size_t i = 0; i < RUN_BINS; i++) {
        double a, b;
        gsl_histogram_get_range(h, i, &a, &b);
        fprintf(g, "%.17g %.17g\n", 0.5 * (a + b), gsl_histogram_get(h, i));
    }
    fputs("EOD\n", g);
    double width = (hi - lo) / RUN_BINS;
    gsl_histogram_free(h);
    return width;
}

/* The empirical CDF at up to CDF_POINTS ranks (always the first and last):
 * data block $C (T, rank / n). */
static void cdf_block(FILE *g, const double *days, long n)
{
    long step = n > CDF_POINTS ? n / CDF_POINTS : 1;
    fputs("$C << EOD\n", g);
    for (long k = 0; k < n; k += step)
        fprintf(g, "%.17g %.17g\n", days[k], (double)(k + 1) / n);
    if ((n - 1) % step)
        fprintf(g, "%.17g 1\n", days[n - 1]);
    fputs("EOD\n", g);
}

/* The plot of days[n], sorted ascending (tmc_plot_run). */
static int plot_sorted(int out_fd, const double *days, long n, const tmc_experiment *x,
                       const tmc_closed_form *cf, double p_met, double ci_lo, double ci_hi,
                       tmc_error *err)
{
    double lo = days[0], hi = days[n - 1], pad = hi > lo ? 0.02 * (hi - lo) : 0.5;
    lo -= pad, hi += pad;
    gnuplot_run run;
    if (start(&run, out_fd, 680, err))
        return -1;
    FILE *g = run.in;
    if (histogram_block(g, days, n, lo, hi) < 0) {
        tmc_error e;
        finish(&run, &e);
        return tmc_error_set(err, "--plot: out of memory");
    }
    cdf_block(g, days, n);
    marker(g, 1, x->deadline.days, lo, hi, "deadline", "#d62728", 2);
    const char *form;
    double beside = tmc_closed_form_beside_days(x, cf, &form);
    char label[48];
    snprintf(label, sizeof label, "closed form (%s)", form);
    marker(g, 2, beside, lo, hi, label, "#2ca02c", 4);
    char name[sizeof x->name];
    fprintf(g, "set multiplot layout 2,1 title \"%s: completion time T, %ld replicas; "
               "P(T <= %g days) = %.4f [%.4f, %.4f] (Wilson 95 %%)\"\n",
            safe_text(x->name, name, sizeof name), n, x->deadline.days, p_met, ci_lo, ci_hi);
    fprintf(g, "set xrange [%.17g:%.17g]\nset ylabel 'replicas per bin'\n"
               "set style fill solid 0.5 border\n"
               "plot $H using 1:2 with boxes lc rgb '#1f77b4' title 'simulated', "
               "NaN with lines dt 2 lw 2 lc rgb '#d62728' title m1, "
               "NaN with lines dt 4 lw 2 lc rgb '#2ca02c' title m2\n", lo, hi);
    fputs("set xlabel 'completion time T (days)'\nset ylabel 'P(T <= t)'\n"
          "set yrange [0:1]\nunset key\n"
          "plot $C using 1:2 with steps lw 2 lc rgb '#1f77b4'\n", g);
    return finish(&run, err);
}

int tmc_plot_run(int out_fd, const double *days, long n, const tmc_experiment *x,
                 const tmc_closed_form *cf, double p_met, double ci_lo, double ci_hi,
                 tmc_error *err)
{
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return tmc_error_set(err, "--plot: out of memory");
    memcpy(sorted, days, (size_t)n * sizeof *sorted);
    gsl_sort(sorted, 1, (size_t)n);
    int rc = plot_sorted(out_fd, sorted, n, x, cf, p_met, ci_lo, ci_hi, err);
    free(sorted);
    return rc;
}

/* Line j of the sweep (the settings along the first key) as data set j of
 * block $L (sets apart by two blank lines, gnuplot's `index`): x, mean T,
 * its 95 % half-width, the closed form's T (Daly's, or two-level), P,
 * Wilson low, Wilson high. */
static void sweep_block(FILE *g, const tmc_sweep_report *r, int j, const int *idx)
{
    if (j > 0)
        fputs("\n\n", g);
    for (int v = 0; v < r->axes[0].n; v++) {
        const tmc_sweep_result *res = &r->results[idx[v]];
        const tmc_sweep_setting *st = &r->settings[idx[v]];
        const char *form;
        fprintf(g, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", st->value[0],
                res->days.mean, 1.96 * res->days.se,
                tmc_closed_form_beside_days(&st->x, &st->cf, &form), res->days.p_met,
                res->days.ci_lo, res->days.ci_hi);
    }
}

/* The closed form the sweep's dashed lines draw: Daly's, two-level, or
 * both along a persistent_every axis. */
static const char *forms(const tmc_sweep_report *r)
{
    int levels = 0, one = 0;
    for (int i = 0; i < r->n; i++) {
        levels |= r->settings[i].x.checkpoint.persistent_every > 1;
        one |= r->settings[i].x.checkpoint.persistent_every <= 1;
    }
    return levels && one ? "Daly; two-level where m > 1" : levels ? "two-level" : "Daly";
}

/* The legend of line j: the second key's value, or "simulated". */
static void line_title(FILE *g, const tmc_sweep_report *r, int j, const int *idx)
{
    char key[TMC_SWEEP_KEY_LEN];
    if (r->n_axes == 2)
        fprintf(g, "t%d = \"%s = %.10g\"\n", j, safe_text(r->axes[1].key, key, sizeof key),
                r->settings[idx[0]].value[1]);
    else
        fprintf(g, "t%d = \"simulated\"\n", j);
}

/* The deadline across the mean-T panel when it lies within the intervals'
 * span (else it would squash them), and its legend entry either way. */
static void deadline_line(FILE *g, const tmc_sweep_report *r)
{
    double lo = INFINITY, hi = -INFINITY, d = r->base->x.deadline.days;
    for (int i = 0; i < r->n; i++) {
        const tmc_summary *t = &r->results[i].days;
        lo = fmin(lo, t->mean - 1.96 * t->se);
        hi = fmax(hi, t->mean + 1.96 * t->se);
    }
    marker_y(g, d, lo, hi);
}

int tmc_plot_sweep(int out_fd, const tmc_sweep_report *r, tmc_error *err)
{
    int lines = tmc_sweep_count_lines(r->axes, r->n_axes, 0);
    int *idx = malloc((size_t)r->axes[0].n * sizeof *idx);
    gnuplot_run run;
    if (!idx || start(&run, out_fd, 760, err)) {
        free(idx);
        return idx ? -1 : tmc_error_set(err, "--plot: out of memory");
    }
    FILE *g = run.in;
    char name[sizeof r->base->x.name], key[TMC_SWEEP_KEY_LEN];
    fputs("$L << EOD\n", g);
    for (int j = 0; j < lines; j++) {
        tmc_sweep_get_line(r->axes, r->n_axes, 0, j, idx);
        sweep_block(g, r, j, idx);
    }
    fputs("EOD\n", g);
    for (int j = 0; j < lines; j++) {
        tmc_sweep_get_line(r->axes, r->n_axes, 0, j, idx);
        line_title(g, r, j, idx);
    }
    free(idx);
    fputs("set autoscale xfix\nset offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05\n",
          g);
    deadline_line(g, r);
    /* each line its own mark (filled, then open: circle, square, triangles,
     * diamond), so the lines of a second key part in grey print too */
    fputs("array PT[10] = [7, 5, 9, 11, 13, 6, 4, 8, 10, 12]\n", g);
    fprintf(g, "set multiplot layout 2,1 title \"%s: %d settings, %ld replicas each "
               "(common random numbers)\"\n",
            safe_text(r->base->x.name, name, sizeof name), r->n, r->base->x.monte_carlo.replicas);
    fprintf(g, "set ylabel 'mean T (days), 95 %%'\nset xlabel ''\n"
               "plot for [j=0:%d] $L index j using 1:2:3 with yerrorlines "
               "pt PT[j %% 10 + 1] ps 0.8 lc j+1 title value(sprintf('t%%d', j)), "
               "for [j=0:%d] $L index j using 1:4 with lines dt 2 lc j+1 notitle, "
               "NaN with lines dt 2 lc rgb '#555555' title 'closed form (%s), dashed', "
               "NaN with lines dt 2 lw 2 lc rgb '#d62728' title m3\n",
            lines - 1, lines - 1, forms(r));
    fputs("unset arrow 3\n", g);
    fprintf(g, "set ylabel 'P(T <= %g days), Wilson 95 %%'\nset yrange [-0.03:1.03]\n"
               "set xlabel \"%s\"\nunset key\n"
               "plot for [j=0:%d] $L index j using 1:5:6:7 with yerrorlines "
               "pt PT[j %% 10 + 1] ps 0.8 lc j+1\n", r->base->x.deadline.days,
            safe_text(r->axes[0].key, key, sizeof key), lines - 1);
    return finish(&run, err);
}

/* The picture gnuplot wrote into t, from its start, as a malloc'ed string;
 * NULL with err on a read error or no memory. t is closed. */
static char *read_back(FILE *t, tmc_error *err)
{
    long size = fseek(t, 0, SEEK_END) == 0 ? ftell(t) : -1;
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    rewind(t);
    if (!text || fread(text, 1, (size_t)size, t) != (size_t)size) {
        free(text);
        fclose(t);
        tmc_error_set(err, "--html: cannot read back gnuplot's picture");
        return NULL;
    }
    text[size] = 0;
    fclose(t);
    return text;
}

char *tmc_plot_run_text(const double *days, long n, const tmc_experiment *x,
                        const tmc_closed_form *cf, double p_met, double ci_lo, double ci_hi,
                        tmc_error *err)
{
    FILE *t = tmpfile();
    if (!t) {
        tmc_error_set(err, "--html: cannot make a temporary file: %s", strerror(errno));
        return NULL;
    }
    if (tmc_plot_run(fileno(t), days, n, x, cf, p_met, ci_lo, ci_hi, err)) {
        fclose(t);
        return NULL;
    }
    return read_back(t, err);
}

char *tmc_plot_sweep_text(const tmc_sweep_report *r, tmc_error *err)
{
    FILE *t = tmpfile();
    if (!t) {
        tmc_error_set(err, "--html: cannot make a temporary file: %s", strerror(errno));
        return NULL;
    }
    if (tmc_plot_sweep(fileno(t), r, err)) {
        fclose(t);
        return NULL;
    }
    return read_back(t, err);
}
