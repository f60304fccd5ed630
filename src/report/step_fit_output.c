/* step_fit_output.c - `trainmc fit --steps`'s text and JSON reports and
 * its jitter distribution file (step_fit.h). */
#include "step_fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *rho_meaning(const tmc_step_fit *r)
{
    if (r->f_p >= 1 - r->confidence)
        return "no variance common to the cards of a step is detected: independent\n"
               "    jitter (correlation 0) fits";
    return "part of the variance is common to every card of a step: it lengthens steps but\n"
           "    adds nothing to the wait for the slowest card (jitter.correlation); the spread\n"
           "    of whole steps typed as an independent per-card cv would overstate the\n"
           "    straggler cost";
}

static const char *law_note(const tmc_step_fit *r)
{
    if (r->best != TMC_STEP_LAW_NORMAL && r->f_p < 1 - r->confidence)
        return " (an experiment's lognormal or gamma jitter has no correlation: the common "
               "part is left out of a written file)";
    return "";
}

void tmc_step_fit_output_text(FILE *f, const tmc_step_fit *r, const tmc_step_log *log,
                              const char *path)
{
    double cl = 100 * r->confidence;
    fprintf(f, "trainmc fit --steps: %s\n", path);
    fprintf(f, "times      %d steps x %d ranks; mean %.6g s per card and step\n\n", r->n_steps,
            r->n_ranks, r->grand_mean_s);

    fprintf(f, "Persistently slow ranks (z of a rank's mean against the other ranks'; slow "
               "above\n  z = %.3g: one-sided, %g %% with Bonferroni over %d ranks)\n",
            r->z_threshold, 100 - cl, r->n_ranks);
    double zmax = -INFINITY;
    int imax = 0;
    for (int i = 0; i < r->n_ranks; i++)
        if (r->rank_z[i] > zmax)
            zmax = r->rank_z[i], imax = i;
    if (!r->n_slow)
        fprintf(f, "  none; the largest z is %.3g (rank %s)\n", zmax, log->rank[imax]);
    double sum = 0;
    for (int i = 0; i < r->n_ranks; i++)
        sum += r->rank_mean[i];
    double kept = 0, factor = 0;
    for (int i = 0; i < r->n_ranks; i++)
        kept += r->slow[i] ? 0 : r->rank_mean[i] / r->n_kept;
    for (int i = 0; i < r->n_ranks; i++)
        if (r->slow[i]) {
            fprintf(f, "  rank %-8s mean %.6g s = %.4g x the others', z = %.4g\n", log->rank[i],
                    r->rank_mean[i],
                    r->rank_mean[i] * (r->n_ranks - 1) / (sum - r->rank_mean[i]), r->rank_z[i]);
            factor += r->rank_mean[i] / kept / r->n_slow;
        }
    if (r->n_slow)
        fprintf(f, "  %d slow rank%s left out of the jitter below; in an experiment: slow_cards\n"
                   "  fraction %.4g, factor %.4g (its mean over the kept ranks' mean)\n",
                r->n_slow, r->n_slow == 1 ? "" : "s", (double)r->n_slow / r->n_ranks, factor);

    fprintf(f, "\nJitter of the %d ranks kept (one-way random effects, steps the groups; "
               "%g %% intervals)\n", r->n_kept, cl);
    fprintf(f, "  cv            %.5g [%.5g, %.5g] (se %.2g)   sd of a card's time / mean\n",
            r->cv, r->cv_lo, r->cv_hi, r->cv_se);
    fprintf(f, "  correlation   %.5g [%.5g, %.5g]   share of the variance common to a step\n",
            r->rho, r->rho_lo, r->rho_hi);
    fprintf(f, "  F = MSB / MSW = %.5g on (%d, %.0f) dof, p = %.3g:\n    %s\n", r->f,
            r->n_steps - 1, (double)r->n_steps * (r->n_kept - 1), r->f_p, rho_meaning(r));
    fprintf(f, "  components    between steps %.4g s^2, within %.4g s^2\n", r->sigma_b2,
            r->sigma_w2);

    fprintf(f, "\nLaw of a card's time within its step (ML on x / step mean)\n");
    fprintf(f, "  %-11s %-34s %14s %12s\n", "law", "parameters", "log-lik", "AIC");
    for (int i = 0; i < TMC_STEP_LAWS; i++) {
        const tmc_step_law *l = &r->law[i];
        char par[64];
        if (!l->ok) {
            fprintf(f, "  %-11s (no fit)\n", l->name);
            continue;
        }
        if (i == TMC_STEP_LAW_GAMMA)
            snprintf(par, sizeof par, "shape %.5g scale %.4g", l->p1, l->p2);
        else if (i == TMC_STEP_LAW_LOGNORMAL)
            snprintf(par, sizeof par, "mu %.4g sigma %.4g (ln)", l->p1, l->p2);
        else
            snprintf(par, sizeof par, "mean %.4g sd %.4g", l->p1, l->p2);
        fprintf(f, "  %-9s %s %-34s %14.2f %12.2f\n", l->name, i == r->best ? "*" : " ", par,
                l->loglik, l->aic);
    }
    if (r->best >= 0)
        fprintf(f, "  * lowest AIC: %s%s\n", r->law[r->best].name, law_note(r));

    fprintf(f, "\nThe slowest card: c_N = (mean over steps of the max over ranks - mean)\n"
               "  / within-step sd\n");
    fprintf(f, "  c_%d of the run   %.4f +- %.2g (se)\n", r->n_kept, r->cn_empirical, r->cn_se);
    fprintf(f, "  c_%d closed form  %.4f (normal)", r->n_kept, r->cn_normal);
    if (r->best >= 0 && r->best != TMC_STEP_LAW_NORMAL)
        fprintf(f, ", %.4f (fitted %s)", r->cn_law, r->law[r->best].name);
    fprintf(f, "\n  slowest card per step %.6g s (sd %.4g s); step mean sd %.4g s\n",
            r->step_max_mean_s, r->step_max_sd_s, r->step_mean_sd_s);
}

static cJSON *interval_json(double v, double lo, double hi)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "value", v);
    cJSON_AddNumberToObject(o, "lo", lo);
    cJSON_AddNumberToObject(o, "hi", hi);
    return o;
}

cJSON *tmc_step_fit_output_json(const tmc_step_fit *r, const tmc_step_log *log,
                                const char *path)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "log", path);
    cJSON_AddNumberToObject(root, "confidence", r->confidence);
    cJSON_AddNumberToObject(root, "steps", r->n_steps);
    cJSON_AddNumberToObject(root, "ranks", r->n_ranks);
    cJSON_AddNumberToObject(root, "mean_s", r->grand_mean_s);
    cJSON *s = cJSON_AddObjectToObject(root, "slow_ranks");
    cJSON_AddNumberToObject(s, "z_threshold", r->z_threshold);
    cJSON *list = cJSON_AddArrayToObject(s, "slow");
    for (int i = 0; i < r->n_ranks; i++)
        if (r->slow[i]) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "rank", log->rank[i]);
            cJSON_AddNumberToObject(o, "mean_s", r->rank_mean[i]);
            cJSON_AddNumberToObject(o, "z", r->rank_z[i]);
            cJSON_AddItemToArray(list, o);
        }
    cJSON *z = cJSON_AddArrayToObject(s, "z");
    for (int i = 0; i < r->n_ranks; i++)
        cJSON_AddItemToArray(z, cJSON_CreateNumber(r->rank_z[i]));
    cJSON *j = cJSON_AddObjectToObject(root, "jitter");
    cJSON_AddNumberToObject(j, "ranks_kept", r->n_kept);
    cJSON_AddItemToObject(j, "cv", interval_json(r->cv, r->cv_lo, r->cv_hi));
    cJSON_AddNumberToObject(j, "cv_se", r->cv_se);
    cJSON_AddItemToObject(j, "correlation", interval_json(r->rho, r->rho_lo, r->rho_hi));
    cJSON_AddNumberToObject(j, "msb", r->msb);
    cJSON_AddNumberToObject(j, "msw", r->msw);
    cJSON_AddNumberToObject(j, "sigma_between2", r->sigma_b2);
    cJSON_AddNumberToObject(j, "sigma_within2", r->sigma_w2);
    cJSON_AddNumberToObject(j, "f", r->f);
    cJSON_AddNumberToObject(j, "f_p", r->f_p);
    cJSON_AddStringToObject(j, "best", r->best >= 0 ? r->law[r->best].name : "none");
    cJSON *laws = cJSON_AddObjectToObject(j, "laws");
    for (int i = 0; i < TMC_STEP_LAWS; i++) {
        const tmc_step_law *l = &r->law[i];
        cJSON *o = cJSON_AddObjectToObject(laws, l->name);
        cJSON_AddBoolToObject(o, "ok", l->ok);
        if (!l->ok)
            continue;
        cJSON_AddNumberToObject(o, i == TMC_STEP_LAW_GAMMA ? "shape" : i ? "mu" : "mean", l->p1);
        cJSON_AddNumberToObject(o, i == TMC_STEP_LAW_GAMMA ? "scale" : i ? "sigma" : "sd", l->p2);
        cJSON_AddNumberToObject(o, "loglik", l->loglik);
        cJSON_AddNumberToObject(o, "aic", l->aic);
    }
    cJSON *c = cJSON_AddObjectToObject(root, "c_n");
    cJSON_AddNumberToObject(c, "n", r->n_kept);
    cJSON_AddNumberToObject(c, "empirical", r->cn_empirical);
    cJSON_AddNumberToObject(c, "se", r->cn_se);
    cJSON_AddNumberToObject(c, "closed_form_normal", r->cn_normal);
    cJSON_AddNumberToObject(c, "closed_form_law", r->cn_law);
    cJSON_AddNumberToObject(c, "step_max_mean_s", r->step_max_mean_s);
    cJSON_AddNumberToObject(c, "step_max_sd_s", r->step_max_sd_s);
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "c_n")) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

cJSON *tmc_step_fit_output_distribution(const tmc_step_fit *r, const char *path,
                                        const char **why)
{
    /* the ranges of jitter.cv (docs/reference/experiment-keys.md, Jitter) */
    static const double lo[] = {1e-6, 1e-6, 0.005}, hi[] = {0.2, 2, 2};
    *why = NULL;
    if (r->best < 0) {
        *why = "no law could be fitted";
        return NULL;
    }
    if (!(r->cv >= lo[r->best] && r->cv <= hi[r->best])) {
        *why = "the fitted cv is outside the range an experiment's jitter.cv accepts for "
               "this law";
        return NULL;
    }
    int normal = r->best == TMC_STEP_LAW_NORMAL;
    char source[512], desc[1536];
    snprintf(source, sizeof source, "trainmc fit --steps of %s: %d steps x %d ranks (%d slow "
             "rank%s left out), mean %.6g s per card and step", path, r->n_steps, r->n_ranks,
             r->n_slow, r->n_slow == 1 ? "" : "s", r->grand_mean_s);
    snprintf(desc, sizeof desc, "per-card law %s by AIC (normal %.1f, lognormal %.1f, gamma "
             "%.1f); cv %.4g [%.4g, %.4g] (%g %%, delta-method se %.2g); correlation %.4g "
             "[%.4g, %.4g] (exact F interval; F = %.4g, p = %.3g)%s; c_%d of the run %.4f +- "
             "%.2g against %.4f closed form (normal).",
             r->law[r->best].name, r->law[0].ok ? r->law[0].aic : NAN,
             r->law[1].ok ? r->law[1].aic : NAN, r->law[2].ok ? r->law[2].aic : NAN, r->cv,
             r->cv_lo, r->cv_hi, 100 * r->confidence, r->cv_se, r->rho, r->rho_lo, r->rho_hi,
             r->f, r->f_p, normal ? "" : " (not written: jitter.correlation is normal only)",
             r->n_kept, r->cn_empirical, r->cn_se, r->cn_normal);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "source", source);
    cJSON_AddStringToObject(root, "description", desc);
    cJSON_AddStringToObject(root, "distribution", r->law[r->best].name);
    cJSON_AddNumberToObject(root, "cv", r->cv);
    if (normal)
        cJSON_AddNumberToObject(root, "correlation", r->rho);
    if (cJSON_IsInvalid(root) || !cJSON_GetObjectItem(root, "cv")) {
        cJSON_Delete(root);
        *why = "out of memory";
        return NULL;
    }
    return root;
}
