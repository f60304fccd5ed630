/* plot.h - pictures of one's own experiment (--plot FILE.svg), drawn by
 * gnuplot (an external program, Debian package gnuplot-nox): the script and
 * its data go through a pipe, gnuplot writes the SVG to its standard output,
 * which is the output's temporary file (no file name reaches gnuplot), and
 * the caller renames it (output.h: atomic, nothing left behind). User text
 * in the pictures (names, keys) keeps only characters gnuplot gives no
 * meaning to. */
#ifndef TMC_PLOT_H
#define TMC_PLOT_H

#include "closed_form.h"
#include "config.h"
#include "error.h"
#include "sweep_output.h"

/* 0 when `gnuplot --version` runs; -1 with err saying how to install it. */
int tmc_plot_check_gnuplot(tmc_error *err);

/* `trainmc run --plot`: the histogram of the completion time T (40 equal
 * bins, GSL's histogram) over its empirical CDF, with the deadline and the
 * closed form's T (Daly) marked where they fall inside the range of T.
 * days: the n >= 1 completion times, days, in any order; out_fd: the
 * open file gnuplot writes. Returns 0, or -1 with err if gnuplot fails or
 * its picture is incomplete (a full disk). */
int tmc_plot_run(int out_fd, const double *days, long n, const tmc_experiment *x,
                 const tmc_closed_form *cf, double p_met, double ci_lo, double ci_hi,
                 tmc_error *err);

/* `trainmc sweep --plot`: against the first swept key, the mean T with its
 * 95 % interval (+- 1.96 se) and the closed form's T (Daly) above, and
 * P(T <= deadline) with its Wilson 95 % interval below; one line per value
 * of the second key, if any. Returns 0, or -1 with err if gnuplot fails. */
int tmc_plot_sweep(int out_fd, const tmc_sweep_report *r, tmc_error *err);

/* The same pictures as text, for the HTML report (html.h): gnuplot writes
 * them into an anonymous temporary file, read back whole; a malloc'ed
 * string the caller frees, or NULL with err. */
char *tmc_plot_run_text(const double *days, long n, const tmc_experiment *x,
                        const tmc_closed_form *cf, double p_met, double ci_lo, double ci_hi,
                        tmc_error *err);
char *tmc_plot_sweep_text(const tmc_sweep_report *r, tmc_error *err);

#endif
