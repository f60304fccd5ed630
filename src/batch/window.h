/* window.h - goodput over a calendar window (issue 19 item 6;
 * docs/reference/simulation-semantics.md 11, docs/model.md 3.18): from each replica's
 * committed steps at the window's end, the fraction of the window that was
 * productive, with the closed form's long-run figure beside it. */
#ifndef TMC_WINDOW_H
#define TMC_WINDOW_H

#include "accounting.h"
#include "closed_form.h"
#include "config.h"

typedef struct {
    double days;          /* W, days */
    long n;               /* replicas */
    double steps_mean;    /* committed steps at W, mean over replicas */
    double steps_se;
    double goodput_mean;  /* G = steps x t_s / W (t_s: cf->step_s, stragglers included) */
    double goodput_se;
    double ci_lo, ci_hi;  /* mean +- 1.96 se */
    double p10, p50, p90; /* quantiles of G across replicas */
    double compute_mean;  /* steps x mu / W (mu: cf->compute_s, no stragglers, no
                             communication or input wait) */
    double compute_se;
    double closed_young;  /* long-run goodput 1 / (1 + L), L Young's overhead */
    double closed_daly;   /* the same with Daly's */
    double edge;          /* K t_s / W: one interval's worth of the window, the most
                             that work not committed at W can take off G */
    long finished;        /* replicas that finished job.steps inside the window */
    double open_days;     /* mean time under way at W (window_open_s), days */
} tmc_window_summary;

/* w from steps[n] (replica order; each replica's window_steps) and the sums
 * over the replicas. 0, or -1 if memory runs out. */
int tmc_window_summarize(const tmc_experiment *x, const tmc_closed_form *cf,
                         const double *steps, long n, const tmc_replica *totals,
                         tmc_window_summary *w);

#endif
