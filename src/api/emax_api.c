/* emax_api.c - trainmc.h's emax: c_N for a list of card counts, as `trainmc
 * emax` computes and reports it (emax_sim.h, emax_output.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emax_result.h"
#include "config.h"
#include "emax_sim.h"
#include "runner.h"

#define MAX_CARD_COUNTS 1000 /* n_cards */

void tmc_emax_options_init(tmc_emax_options *o)
{
    if (o)
        *o = (tmc_emax_options){.replicas = 1000000, .seed = 1, .brute_max_cards = 64};
}

static int check_step(const tmc_emax_options *o, const char *f, tmc_status *st)
{
    if (!o->has_step)
        return TMC_OK;
    if (!(o->mu_s > 0 && isfinite(o->mu_s)))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: mu_s = %g: must be a number > 0", f,
                             o->mu_s);
    if (!(o->sigma_s >= 0 && isfinite(o->sigma_s)))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: sigma_s = %g: must be a number >= 0", f,
                             o->sigma_s);
    if (!(o->fixed_s >= 0 && isfinite(o->fixed_s)))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: fixed_s = %g: must be a number >= 0", f,
                             o->fixed_s);
    return TMC_OK;
}

/* The arguments checked, the message naming the public function f. */
static int check_emax(const char *f, const long *cards, int n_cards, const tmc_emax_options *o,
                      tmc_status *st)
{
    tmc_api_key_range n = tmc_api_replicas_range(), c = tmc_api_cards_range();
    tmc_bound_text c_lo = tmc_config_bound_text(c.lo), c_hi = tmc_config_bound_text(c.hi);
    if (!cards)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: cards = NULL: must hold n_cards card "
                                                "counts", f);
    if (n_cards < 1 || n_cards > MAX_CARD_COUNTS)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: n_cards = %d: must be in [1, %d]", f,
                             n_cards, MAX_CARD_COUNTS);
    for (int i = 0; i < n_cards; i++)
        if (cards[i] < c.lo || cards[i] > c.hi)
            return tmc_api_failf(st, TMC_ERR_INPUT, "%s: cards[%d] = %ld: must be in [%s, %s]",
                                 f, i, cards[i], c_lo.s, c_hi.s);
    if (o->replicas < 2 || o->replicas > n.hi) /* 2: a sample sd */
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: replicas = %ld: must be in [2, %s]", f,
                             o->replicas, tmc_config_bound_text(n.hi).s);
    if ((double)o->seed > TMC_API_MAX_SEED)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: seed = %llu: must be in [0, 2^53 - 1]", f,
                             (unsigned long long)o->seed);
    if (o->brute_max_cards < 0 || o->brute_max_cards > c.hi)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: brute_max_cards = %ld: must be in "
                             "[0, %s] (0: no brute force)", f, o->brute_max_cards, c_hi.s);
    if (o->threads < 0 || o->threads > TMC_API_MAX_THREADS)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: threads = %d: must be 0 (one per "
                             "processor) or in [1, %d]", f, o->threads, TMC_API_MAX_THREADS);
    return check_step(o, f, st);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static tmc_emax_estimate_figures estimate_figures(const tmc_emax_estimate *e)
{
    return (tmc_emax_estimate_figures){.replicas = e->replicas, .mean = e->mean, .se = e->se,
                                       .sd = e->sd, .sd_se = e->sd_se};
}

static tmc_emax_figures row_figures(const tmc_emax_row *w)
{
    return (tmc_emax_figures){.n = w->n, .quadrature_mean = w->quad_mean,
                              .quadrature_sd = w->quad_sd,
                              .sampler = estimate_figures(&w->sampler),
                              .brute = estimate_figures(&w->brute), .blom = w->blom,
                              .gumbel = w->gumbel, .reference = w->reference};
}

/* Every row computed, then the report and its document. TMC_OK, or the
 * code with st. */
static int compute(tmc_emax_result *r, const long *cards, const tmc_emax_options *o,
                   tmc_status *st)
{
    tmc_emax_report *p = &r->report;
    tmc_error err = {""};
    double t0 = now_s();
    int rc = 0;
    for (int i = 0; i < p->n_rows && !rc; i++)
        rc = tmc_emax_compute(cards[i], o->replicas, o->seed, p->threads, o->brute_max_cards,
                              &r->rows[i], &err);
    if (rc)
        return tmc_api_fail(st, rc == TMC_EMAX_STOPPED ? TMC_ERR_STOPPED : TMC_ERR_RUNTIME,
                            err.msg);
    p->elapsed_s = now_s() - t0;
    for (int i = 0; i < p->n_rows; i++)
        r->figures[i] = row_figures(&r->rows[i]);
    if (tmc_api_document_keep(&r->document, tmc_emax_output_json(p)))
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for the emax document");
    return TMC_OK;
}

/* The result of the public function f (its name in messages). */
static tmc_emax_result *run_in(const char *f, const long *cards, int n_cards,
                               const tmc_emax_options *given, tmc_status *st)
{
    tmc_emax_options o;
    if (given)
        o = *given;
    else
        tmc_emax_options_init(&o);
    if (check_emax(f, cards, n_cards, &o, st))
        return NULL;
    tmc_emax_result *r = calloc(1, sizeof *r);
    if (r) {
        r->rows = calloc((size_t)n_cards, sizeof *r->rows);
        r->figures = calloc((size_t)n_cards, sizeof *r->figures);
    }
    if (!r || !r->rows || !r->figures) {
        tmc_emax_result_free(r);
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for emax rows"), NULL;
    }
    int threads = o.threads ? o.threads : tmc_runner_default_threads();
    r->report = (tmc_emax_report){.rows = r->rows, .n_rows = n_cards, .replicas = o.replicas,
                                  .seed = o.seed, .brute_max = o.brute_max_cards,
                                  .step = o.has_step, .mu_s = o.has_step ? o.mu_s : NAN,
                                  .sigma_s = o.has_step ? o.sigma_s : NAN,
                                  .fixed_s = o.has_step ? o.fixed_s : NAN, .threads = threads};
    if (compute(r, cards, &o, st)) {
        tmc_emax_result_free(r);
        return NULL;
    }
    tmc_api_succeed(st);
    return r;
}

tmc_emax_result *tmc_emax_run_result(const long *cards, int n_cards, const tmc_emax_options *o,
                                     tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_emax_result *r = run_in("tmc_emax_run_result", cards, n_cards, o, st);
    tmc_api_leave(&scope);
    return r;
}

void tmc_emax_result_free(tmc_emax_result *r)
{
    if (!r)
        return;
    free(r->rows);
    free(r->figures);
    tmc_api_document_free(&r->document);
    free(r);
}

int tmc_emax_result_rows(const tmc_emax_result *r)
{
    return r ? r->report.n_rows : 0;
}

const tmc_emax_figures *tmc_emax_result_row(const tmc_emax_result *r, int i)
{
    return r && i >= 0 && i < r->report.n_rows ? &r->figures[i] : NULL;
}

const char *tmc_emax_result_json(const tmc_emax_result *r)
{
    return r ? tmc_api_document_json(&r->document) : NULL;
}

char *tmc_emax_result_text(const tmc_emax_result *r)
{
    if (!r)
        return NULL;
    char *text = NULL;
    size_t size = 0;
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    FILE *f = open_memstream(&text, &size);
    if (f) {
        tmc_emax_output_text(f, &r->report);
        if (fclose(f)) {
            free(text);
            text = NULL;
        }
    }
    tmc_api_leave(&scope);
    return text;
}

char *tmc_emax_result_csv(const tmc_emax_result *r)
{
    if (!r)
        return NULL;
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    char *text = tmc_emax_output_csv(&r->report);
    tmc_api_leave(&scope);
    return text;
}

char *tmc_emax_run(const long *cards, int n_cards, long replicas, uint64_t seed,
                   long brute_max_cards, int threads, tmc_status *st)
{
    tmc_emax_options o = {.replicas = replicas, .seed = seed,
                          .brute_max_cards = brute_max_cards, .threads = threads};
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_emax_result *r = run_in("tmc_emax_run", cards, n_cards, &o, st);
    char *text = NULL;
    if (r) {
        const char *json = tmc_api_document_json(&r->document);
        size_t n = strlen(json) + 1;
        if ((text = malloc(n)))
            memcpy(text, json, n);
        else
            tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for the emax document");
    }
    tmc_emax_result_free(r);
    tmc_api_leave(&scope);
    return text;
}
