/* emax_output.c - text tables and JSON of `trainmc emax`. */
#include "emax_output.h"

#include <math.h>

#include "csv.h"

#define TOL_SE 4.0 /* the check line's limit, in standard errors */

/* (simulated - quadrature) / se: how far the simulation is from the exact
 * value, in its own standard errors (quadrature error is ~1e-10). */
static double diff_se(double simulated, double exact, double se)
{
    return (simulated - exact) / se;
}

/* One "value +- se  diff" cell; nothing when not computed (brute force for
 * large N, always the last column). */
static void text_estimate(FILE *f, double value, double se, double exact)
{
    if (!isnan(value))
        fprintf(f, "  %8.5f +- %.5f  %+5.2f se", value, se, diff_se(value, exact, se));
}

static void text_header(FILE *f, const char *ref)
{
    fprintf(f, "%8s  %10s  %4s  %-19s  %8s  %-19s  %8s\n", "N", "quadrature", ref,
            "O(1) sampler +- se", "diff", "brute force +- se", "diff");
}

static void text_means(FILE *f, const tmc_emax_report *r)
{
    fprintf(f, "\nMean of the maximum, c_N; diff = (simulated - quadrature) / se\n");
    text_header(f, "ref.");
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        char ref[8] = "";
        if (!isnan(w->reference))
            snprintf(ref, sizeof ref, "%.2f", w->reference);
        fprintf(f, "%8ld  %10.5f  %4s", w->n, w->quad_mean, ref);
        text_estimate(f, w->sampler.mean, w->sampler.se, w->quad_mean);
        text_estimate(f, w->brute.mean, w->brute.se, w->quad_mean);
        fprintf(f, "\n");
    }
}

static void text_sds(FILE *f, const tmc_emax_report *r)
{
    fprintf(f, "\nStandard deviation of the maximum; diff in standard errors of the sample sd\n");
    text_header(f, "");
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        fprintf(f, "%8ld  %10.5f  %4s", w->n, w->quad_sd, "");
        text_estimate(f, w->sampler.sd, w->sampler.sd_se, w->quad_sd);
        text_estimate(f, w->brute.sd, w->brute.sd_se, w->quad_sd);
        fprintf(f, "\n");
    }
}

static void text_approximations(FILE *f, const tmc_emax_report *r)
{
    fprintf(f, "\nAsymptotic approximations of c_N; error = approximation - quadrature\n"
               "  Blom (1958): Phi^-1((N - 0.375) / (N + 0.25)); Gumbel (Cramer 1946, 28.6):\n"
               "  sqrt(2 ln N) - (ln ln N + ln 4 pi) / (2 sqrt(2 ln N)) + gamma / sqrt(2 ln N)\n");
    fprintf(f, "%8s  %10s  %10s  %9s  %10s  %9s\n", "N", "quadrature", "Blom", "error", "Gumbel",
            "error");
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        fprintf(f, "%8ld  %10.5f  %10.5f  %+9.5f", w->n, w->quad_mean, w->blom,
                w->blom - w->quad_mean);
        if (isnan(w->gumbel)) /* N = 1: ln ln N undefined */
            fprintf(f, "  %10s  %9s\n", "-", "-");
        else
            fprintf(f, "  %10.5f  %+9.5f\n", w->gumbel, w->gumbel - w->quad_mean);
    }
}

static void text_steps(FILE *f, const tmc_emax_report *r)
{
    fprintf(f, "\nExpected step time mu + c_N sigma + fixed (docs/model.md 2): mu %g s, sigma %g s"
               " (cv %.4g), fixed %g s\n",
            r->mu_s, r->sigma_s, r->sigma_s / r->mu_s, r->fixed_s);
    fprintf(f, "%8s  %14s  %s\n", "N", "quadrature (s)", "O(1) sampler (s, +- 1 se)");
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        fprintf(f, "%8ld  %14.4f  %.4f +- %.4f\n", w->n,
                tmc_emax_step_time(w->quad_mean, r->mu_s, r->sigma_s, r->fixed_s),
                tmc_emax_step_time(w->sampler.mean, r->mu_s, r->sigma_s, r->fixed_s),
                w->sampler.se * r->sigma_s);
    }
}

/* Track the largest |diff| in standard errors and where it is. */
static void worst_of(double z, const tmc_emax_row *w, const char *what, double *worst,
                     const tmc_emax_row **at, const char **at_what)
{
    if (!isnan(z) && fabs(z) > *worst)
        *worst = fabs(z), *at = w, *at_what = what;
}

static void text_check(FILE *f, const tmc_emax_report *r)
{
    double worst = -1;
    const tmc_emax_row *at = NULL;
    const char *what = "";
    int refs = 0, matches = 0;
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        worst_of(diff_se(w->sampler.mean, w->quad_mean, w->sampler.se), w, "sampler mean",
                 &worst, &at, &what);
        worst_of(diff_se(w->sampler.sd, w->quad_sd, w->sampler.sd_se), w, "sampler sd",
                 &worst, &at, &what);
        worst_of(diff_se(w->brute.mean, w->quad_mean, w->brute.se), w, "brute-force mean",
                 &worst, &at, &what);
        worst_of(diff_se(w->brute.sd, w->quad_sd, w->brute.sd_se), w, "brute-force sd",
                 &worst, &at, &what);
        refs += !isnan(w->reference);
        matches += fabs(round(100 * w->quad_mean) / 100 - w->reference) < 1e-9;
    }
    fprintf(f, "\nCheck: largest |diff| %.2f se (N = %ld, %s): %s %.0f se", worst, at->n, what,
            worst <= TOL_SE ? "within" : "OUTSIDE", TOL_SE);
    if (refs)
        fprintf(f, "; reference design's values equal c_N to 2 decimals: %d of %d", matches, refs);
    fprintf(f, "\n");
}

void tmc_emax_output_text(FILE *f, const tmc_emax_report *r)
{
    fprintf(f, "trainmc emax: c_N = E[max of N standard normals], in units of sigma "
               "(docs/model.md 2)\n");
    fprintf(f, "  %ld replicas per N, seed %llu, %d thread%s, %.2f s; brute force for N <= %ld\n",
            r->replicas, (unsigned long long)r->seed, r->threads, r->threads == 1 ? "" : "s",
            r->elapsed_s, r->brute_max);
    text_means(f, r);
    text_sds(f, r);
    text_approximations(f, r);
    if (r->step)
        text_steps(f, r);
    text_check(f, r);
}

/* ---------- JSON ---------- */

/* NaN (not computed, not defined) becomes null. */
static void add_number(cJSON *o, const char *key, double v)
{
    if (isnan(v))
        cJSON_AddNullToObject(o, key);
    else
        cJSON_AddNumberToObject(o, key, v);
}

static void json_estimate(cJSON *parent, const char *key, const tmc_emax_estimate *e,
                          const tmc_emax_row *w)
{
    if (e->replicas == 0) {
        cJSON_AddNullToObject(parent, key);
        return;
    }
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    add_number(o, "mean", e->mean);
    add_number(o, "se", e->se);
    add_number(o, "mean_diff_se", diff_se(e->mean, w->quad_mean, e->se));
    add_number(o, "sd", e->sd);
    add_number(o, "sd_se", e->sd_se);
    add_number(o, "sd_diff_se", diff_se(e->sd, w->quad_sd, e->sd_se));
}

static void json_approximation(cJSON *parent, const char *key, double value, double exact)
{
    cJSON *o = cJSON_AddObjectToObject(parent, key);
    add_number(o, "value", value);
    add_number(o, "error", value - exact);
}

static cJSON *json_row(const tmc_emax_report *r, const tmc_emax_row *w)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)w->n);
    cJSON *q = cJSON_AddObjectToObject(o, "quadrature");
    cJSON_AddNumberToObject(q, "mean", w->quad_mean);
    cJSON_AddNumberToObject(q, "sd", w->quad_sd);
    add_number(o, "reference", w->reference);
    json_estimate(o, "sampler", &w->sampler, w);
    json_estimate(o, "brute_force", &w->brute, w);
    json_approximation(o, "blom", w->blom, w->quad_mean);
    json_approximation(o, "gumbel", w->gumbel, w->quad_mean);
    if (r->step) {
        cJSON *s = cJSON_AddObjectToObject(o, "step_s");
        cJSON_AddNumberToObject(s, "quadrature", tmc_emax_step_time(w->quad_mean, r->mu_s,
                                                                    r->sigma_s, r->fixed_s));
        cJSON_AddNumberToObject(s, "simulated", tmc_emax_step_time(w->sampler.mean, r->mu_s,
                                                                   r->sigma_s, r->fixed_s));
        cJSON_AddNumberToObject(s, "se", w->sampler.se * r->sigma_s);
    }
    return o;
}

cJSON *tmc_emax_output_json(const tmc_emax_report *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "command", "emax");
    cJSON_AddStringToObject(root, "source", "docs/model.md 2");
    cJSON_AddNumberToObject(root, "replicas", (double)r->replicas);
    char seed[24]; /* raw: cJSON rounds integers near 2^53 */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)r->seed);
    cJSON_AddRawToObject(root, "seed", seed);
    cJSON_AddNumberToObject(root, "brute_force_max_cards", (double)r->brute_max);
    if (r->step) {
        cJSON *s = cJSON_AddObjectToObject(root, "step");
        cJSON_AddNumberToObject(s, "mu_s", r->mu_s);
        cJSON_AddNumberToObject(s, "sigma_s", r->sigma_s);
        cJSON_AddNumberToObject(s, "fixed_s", r->fixed_s);
    }
    cJSON *cards = cJSON_AddArrayToObject(root, "cards");
    for (int i = 0; i < r->n_rows; i++)
        cJSON_AddItemToArray(cards, json_row(r, &r->rows[i]));
    return root;
}

/* ---------- CSV ---------- */

char *tmc_emax_output_csv(const tmc_emax_report *r)
{
    tmc_csv c;
    if (tmc_csv_open(&c))
        return NULL;
    FILE *f = c.f;
    fputs("n,quadrature_mean,quadrature_sd,sampler_mean,sampler_se,sampler_sd,sampler_sd_se,"
          "brute_mean,brute_se,brute_sd,brute_sd_se,blom,gumbel,reference", f);
    fputs(r->step ? ",step_s_quadrature,step_s_simulated,step_s_se\n" : "\n", f);
    for (int i = 0; i < r->n_rows; i++) {
        const tmc_emax_row *w = &r->rows[i];
        fprintf(f, "%ld", w->n);
        double v[] = {w->quad_mean, w->quad_sd, w->sampler.mean, w->sampler.se, w->sampler.sd,
                      w->sampler.sd_se, w->brute.mean, w->brute.se, w->brute.sd,
                      w->brute.sd_se, w->blom, w->gumbel, w->reference};
        for (size_t k = 0; k < sizeof v / sizeof *v; k++)
            tmc_csv_number(f, v[k]);
        if (r->step) {
            tmc_csv_number(f, tmc_emax_step_time(w->quad_mean, r->mu_s, r->sigma_s, r->fixed_s));
            tmc_csv_number(f, tmc_emax_step_time(w->sampler.mean, r->mu_s, r->sigma_s, r->fixed_s));
            tmc_csv_number(f, w->sampler.se * r->sigma_s);
        }
        fputc('\n', f);
    }
    return tmc_csv_close(&c);
}
