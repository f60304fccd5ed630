/* train_step_output.c - `trainmc fit --steps` on a training log: its text
 * and JSON reports and its jitter distribution file (train_step_fit.h). */
#include "train_step_fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "experiment.h"

/* What the log cannot tell, and the key that changes each (the report's
 * and the file's words). */
static const char assumed_rho[] =
    "jitter.correlation 0: a part of the spread common to every card of a step would "
    "widen the steps without making the slowest card slower; the log cannot tell it from "
    "a larger cv (with rho, sd = mu cv sqrt(rho + (1 - rho) s_N^2) and mean = mu (1 + "
    "sqrt(1 - rho) c_N cv)): a per-rank log (fit --steps on a CSV) measures it";
static const char assumed_law[] =
    "jitter.distribution normal: a skewed per-card law (lognormal, gamma) changes c_N and "
    "s_N; two moments of the step maxima cannot tell the laws apart";
static const char assumed_fixed[] =
    "no time outside compute: job.exposed_comm_s and job.input_wait_s, if the run has "
    "them, are inside mu as fitted (subtract them to get a card's compute time)";

static void figure_text(FILE *f, const tmc_train_step_figure *x, int prec)
{
    fprintf(f, "%.*g [%.*g, %.*g]", prec, x->value, prec, x->lo, prec, x->hi);
}

void tmc_train_step_output_text(FILE *f, const tmc_train_step_fit *r, const tmc_train_log *log,
                                const char *path, const char *form)
{
    fprintf(f, "trainmc fit --steps: %s (a training log: %s's iteration lines)\n", path, form);
    fprintf(f, "lines      %d iteration lines of %ld lines; %d restart%s", r->lines,
            log->n_lines, r->restarts, r->restarts == 1 ? "" : "s");
    for (int i = 0; i < r->restarts && i < 8; i++)
        fprintf(f, "%s%ld", i ? ", " : r->restarts == 1 ? " (line " : " (lines ",
                log->restart_line[i]);
    fprintf(f, "%s\n", r->restarts > 8 ? ", ...)" : r->restarts ? ")" : "");
    fprintf(f, "fitted     %d printed times, each the mean of L = %ld", r->intervals, r->l_min);
    if (r->l_max != r->l_min)
        fprintf(f, " to %ld", r->l_max);
    fprintf(f, " steps (the log interval), %ld steps; ", r->iterations);
    if (r->restarts)
        fprintf(f, "each of the %d starts' first line left out (its start-up)\n\n",
                r->restarts + 1);
    else
        fprintf(f, "the first line left out (the start-up)\n\n");

    fprintf(f, "Answer: mu ");
    figure_text(f, &r->mu_s, 5);
    fprintf(f, " s, cv ");
    figure_text(f, &r->cv, 4);
    fprintf(f, " (%g %%, delta method) for N = %ld cards; pace %.6g s per step\n",
            100 * r->confidence, r->cards, r->pace_s.value);
    fprintf(f, "  keys (--write's jitter file): distribution normal, cv %.4g, correlation 0\n\n",
            r->cv.value);

    fprintf(f, "The slowest of N cards (T = mu (1 + cv M_N), M_N the maximum of N standard "
               "normals)\n");
    fprintf(f, "  c_%ld = E[M_N] %.4f, s_%ld = sd[M_N] %.4f (quadrature)\n", r->cards, r->c_n,
            r->cards, r->s_n);
    fprintf(f, "  mean step       m = mu (1 + c_N cv)   %.6g s [%.6g, %.6g] (se %.2g)\n",
            r->pace_s.value, r->pace_s.lo, r->pace_s.hi, r->pace_s.se);
    fprintf(f, "  sd of one step  sigma = mu cv s_N     %.6g s (the printed values' spread "
               "x sqrt(L))\n", r->step_sd_s);
    fprintf(f, "  mu = m - c_N sigma / s_N             %.6g s (se %.2g)\n", r->mu_s.value,
            r->mu_s.se);
    fprintf(f, "  cv = sigma / (s_N mu)                %.5g (se %.2g)\n", r->cv.value,
            r->cv.se);

    fprintf(f, "\nAssumed (the log cannot tell)\n");
    fprintf(f, "  %s\n  %s\n  %s\n", assumed_rho, assumed_law, assumed_fixed);
}

static cJSON *figure_json(const tmc_train_step_figure *x)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", x->value);
    cJSON_AddNumberToObject(o, "se", x->se);
    cJSON_AddNumberToObject(o, "lo", x->lo);
    cJSON_AddNumberToObject(o, "hi", x->hi);
    return o;
}

cJSON *tmc_train_step_output_json(const tmc_train_step_fit *r, const tmc_train_log *log,
                                  const char *path, const char *form)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "log", path);
    cJSON_AddStringToObject(root, "form", form);
    cJSON_AddNumberToObject(root, "confidence", r->confidence);
    cJSON_AddNumberToObject(root, "cards", (double)r->cards);
    cJSON_AddNumberToObject(root, "lines", (double)log->n_lines);
    cJSON_AddNumberToObject(root, "iteration_lines", r->lines);
    cJSON_AddNumberToObject(root, "restarts", r->restarts);
    cJSON *lines = cJSON_AddArrayToObject(root, "restart_lines");
    for (int i = 0; i < r->restarts && i < 8; i++)
        cJSON_AddItemToArray(lines, cJSON_CreateNumber((double)log->restart_line[i]));
    cJSON_AddNumberToObject(root, "intervals", r->intervals);
    cJSON_AddNumberToObject(root, "steps", (double)r->iterations);
    cJSON *l = cJSON_AddObjectToObject(root, "log_interval");
    cJSON_AddNumberToObject(l, "min", (double)r->l_min);
    cJSON_AddNumberToObject(l, "max", (double)r->l_max);
    cJSON_AddNumberToObject(root, "c_n", r->c_n);
    cJSON_AddNumberToObject(root, "s_n", r->s_n);
    cJSON_AddItemToObject(root, "pace_s", figure_json(&r->pace_s));
    cJSON_AddNumberToObject(root, "step_sd_s", r->step_sd_s);
    cJSON_AddItemToObject(root, "mu_s", figure_json(&r->mu_s));
    cJSON_AddItemToObject(root, "cv", figure_json(&r->cv));
    cJSON_AddStringToObject(root, "method", "delta");
    cJSON *a = cJSON_AddObjectToObject(root, "assumed");
    cJSON_AddNumberToObject(a, "correlation", 0);
    cJSON_AddStringToObject(a, "distribution", "normal");
    cJSON_AddNumberToObject(a, "outside_compute_s", 0);
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "assumed")) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

cJSON *tmc_train_step_output_distribution(const tmc_train_step_fit *r, const char *path,
                                          const char *form)
{
    double lo, hi; /* jitter.cv's range for the normal law, as the loader checks it */
    if (tmc_config_jitter_cv_range(TMC_JITTER_NORMAL, &lo, &hi) ||
        !(r->cv.value >= lo && r->cv.value <= hi))
        return NULL;
    char source[512], desc[2048];
    snprintf(source, sizeof source, "trainmc fit --steps of %s (%s's iteration lines): %d "
             "printed step times of %ld steps, the slowest of N = %ld cards; mu %.6g s, pace "
             "%.6g s per step", path, form, r->intervals, r->iterations, r->cards,
             r->mu_s.value, r->pace_s.value);
    snprintf(desc, sizeof desc, "cv %.4g [%.4g, %.4g] and mu %.6g s [%.6g, %.6g] (%g %%, "
             "delta method) from the mean and sd of the step maxima, T = mu (1 + cv M_N), "
             "c_N %.4f, s_N %.4f; %d restarts' first lines left out. Assumed: %s. %s. %s.",
             r->cv.value, r->cv.lo, r->cv.hi, r->mu_s.value, r->mu_s.lo, r->mu_s.hi,
             100 * r->confidence, r->c_n, r->s_n, r->restarts, assumed_rho, assumed_law,
             assumed_fixed);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "source", source);
    cJSON_AddStringToObject(root, "description", desc);
    cJSON_AddStringToObject(root, "distribution", "normal");
    cJSON_AddNumberToObject(root, "cv", r->cv.value);
    cJSON_AddNumberToObject(root, "correlation", 0);
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "correlation")) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
