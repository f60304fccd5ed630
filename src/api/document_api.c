/* document_api.c - trainmc.h's tmc_document (what forecast, fit, cheapest,
 * sensitivity and rescue give: the --json document and the printed
 * report) and what those commands' entries share: the sets they load with,
 * their options checked, and messages that name the library's parameters
 * where the layers below name the command line's flags. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"

/* The flags the layers below write in messages, and the parameter each is
 * in the library. Longer flags before their prefixes (--importance-pilot
 * before --importance); a flag is rewritten only as a whole word, and not
 * inside `...`, where a message quotes a command ("a `trainmc fit --write`
 * file"). Not here: flags of other programs a message quotes (sacct's
 * --format). */
static const struct {
    const char *flag, *parameter;
} parameters[] = {
    {"--set", "override"},
    {"--vary", "vary"},
    {"--target", "tmc_command_options.target"},
    {"--levers", "tmc_command_options.levers"},
    {"--lever", "tmc_command_options.levers"},
    {"--async-copy-s", "tmc_command_options.async_copy_s"},
    {"--inputs", "tmc_command_options.inputs"},
    {"--compound", "tmc_command_options.compound"},
    {"--history", "tmc_command_options.history"},
    {"--log", "tmc_command_options.log"},
    {"--step-regex", "tmc_command_options.step_regex"},
    {"--elapsed-days", "tmc_command_options.elapsed_days"},
    {"--committed-step", "tmc_command_options.committed_step"},
    {"--importance-pilot", "tmc_run_options.pilot_replicas"},
    {"--importance-plain-max", "tmc_run_options.importance_plain_max"},
    {"--importance", "tmc_run_options.importance"},
    {"--precision", "tmc_run_options.precision"},
    {"--replicas", "tmc_run_options.replicas"},
    {"--seed", "tmc_run_options.seed"},
    {"--force", "tmc_run_options.force"},
    {"--exclude-cause", "tmc_fit_log_options.exclude_causes"},
    {"--dedupe", "tmc_fit_log_options.dedupe"},
    {"--nodes", "tmc_fit_log_options.nodes"},
    {"--sacct-map", "tmc_fit_log_options.sacct_map"},
    {"--cards-per-node", "tmc_fit_log_options.cards_per_node"},
    {"--span-days", "tmc_fit_log_options.span_days"},
    {"--window-days", "tmc_fit_log_options.window_days"},
    {"--law", "tmc_fit_log_options.law"},
    {"--bursts", "tmc_fit_log_options.bursts"},
    {"--write", "tmc_document_fragment"},
};

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* The entry of the flag that starts at p, or -1. */
static int flag_at(const char *msg, const char *p)
{
    if (p > msg && word_char(p[-1]))
        return -1;
    for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++) {
        size_t len = strlen(parameters[i].flag);
        if (!strncmp(p, parameters[i].flag, len) && !word_char(p[len]))
            return (int)i;
    }
    return -1;
}

static _Thread_local int keep_flags; /* tmc_api_keep_flag_names */

void tmc_api_keep_flag_names(int keep)
{
    keep_flags = keep;
}

void tmc_api_name_parameters(char *msg, size_t n)
{
    if (keep_flags || !strstr(msg, "--"))
        return;
    char out[2048];
    size_t k = 0;
    int quoted = 0; /* inside `...` */
    for (const char *p = msg; *p && k + 1 < sizeof out;) {
        quoted ^= *p == '`';
        int i = !quoted && p[0] == '-' && p[1] == '-' ? flag_at(msg, p) : -1;
        if (i < 0) {
            out[k++] = *p++;
            continue;
        }
        k += (size_t)snprintf(out + k, sizeof out - k, "%s", parameters[i].parameter);
        k = k < sizeof out ? k : sizeof out - 1;
        p += strlen(parameters[i].flag);
    }
    out[k] = '\0';
    snprintf(msg, n, "%s", out);
}

int tmc_api_sets_make(tmc_api_sets *s, const char *const *overrides, int n_overrides,
                      const tmc_run_options *o, tmc_status *st)
{
    memset(s, 0, sizeof *s);
    s->sets = malloc((size_t)(n_overrides + 2) * sizeof *s->sets);
    if (!s->sets)
        return tmc_api_failf(st, TMC_ERR_MEMORY, "out of memory for %d overrides",
                             n_overrides + 2);
    for (int i = 0; i < n_overrides; i++)
        s->sets[s->n_sets++] = overrides[i];
    if (o && o->replicas > 0) {
        snprintf(s->replicas, sizeof s->replicas, "monte_carlo.replicas=%ld", o->replicas);
        s->sets[s->n_sets++] = s->replicas;
    }
    if (o && o->has_seed) {
        snprintf(s->seed, sizeof s->seed, "monte_carlo.seed=%llu", (unsigned long long)o->seed);
        s->sets[s->n_sets++] = s->seed;
    }
    return TMC_OK;
}

void tmc_api_sets_free(tmc_api_sets *s)
{
    free(s->sets);
    s->sets = NULL;
}

void tmc_command_options_init(tmc_command_options *c)
{
    if (c)
        *c = (tmc_command_options){.async_copy_s = NAN, .committed_step = -1};
}

/* Each field of tmc_command_options, and whether it is as init leaves it. */
static int field_given(const tmc_command_options *c, const char *name)
{
    if (!strcmp(name, "history"))
        return c->history != NULL;
    if (!strcmp(name, "target"))
        return c->target != NULL;
    if (!strcmp(name, "levers"))
        return c->levers != NULL || c->n_levers != 0;
    if (!strcmp(name, "async_copy_s"))
        return !isnan(c->async_copy_s);
    if (!strcmp(name, "inputs"))
        return c->inputs != NULL;
    if (!strcmp(name, "log"))
        return c->log != NULL;
    if (!strcmp(name, "step_regex"))
        return c->step_regex != NULL;
    if (!strcmp(name, "elapsed_days"))
        return c->elapsed_days != 0;
    if (!strcmp(name, "committed_step"))
        return c->committed_step != -1;
    return !strcmp(name, "compound") && c->compound != NULL;
}

int tmc_api_check_command_options(const char *f, const tmc_command_options *c,
                                  const char *takes, tmc_status *st)
{
    static const char *const fields[] = {"history", "target", "levers", "async_copy_s",
                                         "inputs", "compound", "log", "step_regex",
                                         "elapsed_days", "committed_step"};
    for (size_t i = 0; c && i < sizeof fields / sizeof fields[0]; i++) {
        size_t len = strlen(fields[i]);
        const char *at = strstr(takes, fields[i]);
        int taken = at && (at[len] == ',' || at[len] == '\0');
        if (!taken && field_given(c, fields[i]))
            return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.%s is given: "
                                 "not an option of this command (it takes %s)", f,
                                 fields[i], takes);
    }
    if (c && (c->n_levers < 0 || (c->n_levers > 0 && !c->levers)))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.n_levers = %d: must "
                             "be >= 0, with a levers array", f, c->n_levers);
    for (int i = 0; c && i < c->n_levers; i++)
        if (!c->levers[i])
            return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_command_options.levers[%d] = "
                                 "NULL: must be text", f, i);
    return TMC_OK;
}

int tmc_api_command_run_options(const char *f, const tmc_run_options *o, tmc_run_options *out,
                                tmc_status *st)
{
    if (tmc_api_resolve_options(o, 0, 0, out, st))
        return TMC_ERR_INPUT;
    if (out->precision)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_run_options.precision = \"%.100s\": "
                             "applies to tmc_experiment_run only (give NULL)", f,
                             out->precision);
    if (out->importance)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: tmc_run_options.importance = \"%.100s\": "
                             "applies to tmc_experiment_run and tmc_experiment_sweep only "
                             "(give NULL)", f, out->importance);
    return TMC_OK;
}

tmc_document *tmc_api_document_new(cJSON *doc, tmc_api_text_fn write, const void *report,
                                   tmc_status *st)
{
    tmc_document *d = calloc(1, sizeof *d);
    if (!d)
        cJSON_Delete(doc);
    int kept = d && !tmc_api_document_keep(&d->document, doc); /* d owns doc from here */
    size_t size = 0;
    FILE *f = kept ? open_memstream(&d->text, &size) : NULL;
    if (f) {
        write(f, report);
        if (fclose(f)) {
            free(d->text);
            d->text = NULL;
        }
    }
    if (!f || !d->text) {
        tmc_document_free(d);
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for a command's document"),
               NULL;
    }
    return d;
}

void tmc_document_free(tmc_document *d)
{
    if (!d)
        return;
    tmc_api_document_free(&d->document);
    free(d->text);
    free(d->html);
    free(d->fragment);
    free(d);
}

const char *tmc_document_json(const tmc_document *d)
{
    return d ? tmc_api_document_json(&d->document) : NULL;
}

const char *tmc_document_text(const tmc_document *d)
{
    return d ? d->text : NULL;
}

int tmc_api_document_html(tmc_document *d, char *page, tmc_status *st)
{
    d->html = page;
    return page ? TMC_OK : tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for an HTML page");
}

const char *tmc_document_html(const tmc_document *d)
{
    return d ? d->html : NULL;
}

const char *tmc_document_fragment(const tmc_document *d, tmc_status *st)
{
    if (d && d->fragment) {
        tmc_api_succeed(st);
        return d->fragment;
    }
    if (!d || !d->fragment_why[0])
        return tmc_api_fail(st, TMC_ERR_INPUT, "tmc_document_fragment: not a document of "
                            "tmc_fit_log (only a fit writes a fragment)"), NULL;
    return tmc_api_fail(st, TMC_ERR_INPUT, d->fragment_why), NULL;
}

double tmc_document_number(const tmc_document *d, const char *path)
{
    return d ? tmc_api_document_number(&d->document, path) : NAN;
}

int tmc_api_command_source(const char *f, int is_text, const char *text, const char *label,
                           const char *base_dir, tmc_sweep_source *src, tmc_status *st)
{
    *src = (tmc_sweep_source){.path = text};
    if (!text)
        return tmc_api_failf(st, TMC_ERR_INPUT, is_text ? "%s: json = NULL: must be an "
                                                          "experiment's JSON text"
                                                        : "%s: path = NULL: must name an "
                                                          "experiment file", f);
    if (is_text)
        *src = (tmc_sweep_source){.path = label ? label : "<string>", .text = text,
                                  .base_dir = base_dir ? base_dir : "."};
    return TMC_OK;
}

int tmc_api_fail_load(tmc_status *st, const tmc_error *err)
{
    return tmc_api_fail(st, strstr(err->msg, "out of memory") ? TMC_ERR_MEMORY : TMC_ERR_INPUT,
                        err->msg);
}

int tmc_api_refuse_setting(const tmc_sweep_setting *s, void *ctx, char *why, size_t n)
{
    tmc_status st = {TMC_OK, ""};
    if (!tmc_api_check_runnable(&s->x, s->label, *(const int *)ctx, &st))
        return 0;
    snprintf(why, n, "%s", st.message);
    return 1;
}
