/* api.c - trainmc.h: status, experiments, closed forms. */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <pthread.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "closed_form.h"
#include "config.h"
#include <gsl/gsl_errno.h>

#include "finishable.h"
#include "plan.h"
#include "output.h"
#include "runner.h"

const char *tmc_library_version(void)
{
#define TMC_STR_(x) #x
#define TMC_STR(x) TMC_STR_(x)
    return TMC_STR(TRAINMC_VERSION_MAJOR) "." TMC_STR(TRAINMC_VERSION_MINOR) "." TMC_STR(
        TRAINMC_VERSION_PATCH);
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t gsl_handler_lock = PTHREAD_MUTEX_INITIALIZER;
static long active_calls;
static gsl_error_handler_t *host_handler;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

void tmc_api_enter(tmc_api_scope *scope)
{
    pthread_once(&c_locale_once, make_c_locale);
    scope->previous = c_locale ? uselocale(c_locale) : (locale_t)0;
    pthread_mutex_lock(&gsl_handler_lock);
    if (active_calls++ == 0)
        host_handler = gsl_set_error_handler_off();
    pthread_mutex_unlock(&gsl_handler_lock);
}

void tmc_api_leave(tmc_api_scope *scope)
{
    pthread_mutex_lock(&gsl_handler_lock);
    if (--active_calls == 0)
        gsl_set_error_handler(host_handler);
    pthread_mutex_unlock(&gsl_handler_lock);
    if (scope->previous)
        uselocale(scope->previous);
}

int tmc_api_fail(tmc_status *st, int code, const char *message)
{
    if (st) {
        st->code = code;
        snprintf(st->message, sizeof st->message, "%s", message);
        tmc_api_name_parameters(st->message, sizeof st->message);
    }
    return code;
}

int tmc_api_failf(tmc_status *st, int code, const char *fmt, ...)
{
    char msg[sizeof st->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tmc_api_fail(st, code, msg);
}

int tmc_api_fail_step(tmc_status *st, int rc, int input, const tmc_error *err)
{
    int code = rc == TMC_RUNNER_STOPPED ? TMC_ERR_STOPPED
             : rc == input ? TMC_ERR_INPUT
             : strstr(err->msg, "out of memory") ? TMC_ERR_MEMORY
                                                 : TMC_ERR_RUNTIME;
    return tmc_api_fail(st, code, err->msg);
}

void tmc_api_succeed(tmc_status *st)
{
    tmc_api_fail(st, TMC_OK, "");
}

tmc_api_key_range tmc_api_replicas_range(void)
{
    tmc_api_key_range r = {0, 0};
    int lo_open;
    tmc_config_key_bounds("monte_carlo.replicas", &r.lo, &r.hi, &lo_open);
    return r;
}

tmc_api_key_range tmc_api_cards_range(void)
{
    tmc_api_key_range r = {0, 0};
    int lo_open;
    tmc_config_key_bounds("job.cards", &r.lo, &r.hi, &lo_open);
    return r;
}

/* One path element of "a.b.0.c" into key[n]; returns the rest or NULL at
 * the end. */
static const char *next_element(const char *path, char *key, size_t n)
{
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    if (len >= n)
        len = n - 1;
    memcpy(key, path, len);
    key[len] = '\0';
    return dot ? dot + 1 : NULL;
}

/* The number at dotted path `path` of doc ("a.b.0.c": object keys, array
 * indices); NaN if there is none. */
static double json_number(const cJSON *doc, const char *path)
{
    const cJSON *node = doc;
    char key[256];
    const char *rest = path;
    while (node && rest) {
        rest = next_element(rest, key, sizeof key);
        if (cJSON_IsArray(node)) {
            char *end;
            errno = 0;
            long i = strtol(key, &end, 10);
            node = isdigit((unsigned char)*key) && !*end && !errno && i <= 1000000000L
                ? cJSON_GetArrayItem(node, (int)i) : NULL;
        } else {
            node = cJSON_GetObjectItemCaseSensitive(node, key);
        }
    }
    if (cJSON_IsRaw(node)) { /* a seed, written digit for digit */
        char *end;
        double v = strtod(node->valuestring, &end);
        return end != node->valuestring && !*end ? v : NAN;
    }
    return cJSON_IsNumber(node) ? node->valuedouble : NAN;
}

char *tmc_api_print(const cJSON *doc)
{
    return doc ? cJSON_PrintUnformatted(doc) : NULL;
}

int tmc_api_document_keep(tmc_api_document *d, cJSON *doc)
{
    d->doc = doc;
    d->json = tmc_api_print(doc);
    return d->doc && d->json ? 0 : -1;
}

const char *tmc_api_document_json(const tmc_api_document *d)
{
    return d ? d->json : NULL;
}

double tmc_api_document_number(const tmc_api_document *d, const char *path)
{
    return d && path ? json_number(d->doc, path) : NAN;
}

void tmc_api_document_free(tmc_api_document *d)
{
    cJSON_Delete(d->doc);
    cJSON_free(d->json);
}

static int bad_option(tmc_status *st, const char *field, const char *value, const char *range)
{
    return tmc_api_failf(st, TMC_ERR_INPUT, "tmc_run_options.%s = %s: must be %s", field,
                         value, range);
}

/* "0 (ZERO) or in [LO, HI]" for a count whose 0 means ZERO. */
static const char *zero_or_range(char *buf, size_t n, const char *zero,
                                 tmc_api_key_range r)
{
    snprintf(buf, n, "0 (%s) or in [%s, %s]", zero, tmc_config_bound_text(r.lo).s,
             tmc_config_bound_text(r.hi).s);
    return buf;
}

int tmc_api_resolve_options(const tmc_run_options *o, long default_replicas,
                            uint64_t default_seed, tmc_run_options *out, tmc_status *st)
{
    char v[64], range[128];
    tmc_api_key_range n = tmc_api_replicas_range();
    if (o)
        *out = *o;
    else
        tmc_run_options_init(out);
    if (out->replicas < 0 || out->replicas > n.hi)
        return snprintf(v, sizeof v, "%ld", out->replicas),
               bad_option(st, "replicas", v,
                          zero_or_range(range, sizeof range, "the experiment's", n));
    if (out->has_seed && (double)out->seed > TMC_API_MAX_SEED)
        return snprintf(v, sizeof v, "%llu", (unsigned long long)out->seed),
               bad_option(st, "seed", v, "in [0, 2^53 - 1]");
    if (out->threads < 0 || out->threads > TMC_API_MAX_THREADS)
        return snprintf(v, sizeof v, "%d", out->threads),
               bad_option(st, "threads", v, "0 (one per processor) or in [1, 4096]");
    if (out->pilot_replicas < 0 || out->pilot_replicas > n.hi)
        return snprintf(v, sizeof v, "%ld", out->pilot_replicas),
               bad_option(st, "pilot_replicas", v,
                          zero_or_range(range, sizeof range, "1000", n));
    if (out->importance_plain_max < 0 || out->importance_plain_max > n.hi)
        return snprintf(v, sizeof v, "%ld", out->importance_plain_max),
               bad_option(st, "importance_plain_max", v,
                          zero_or_range(range, sizeof range, "1e7", n));
    if (!out->replicas)
        out->replicas = default_replicas;
    if (!out->has_seed)
        out->seed = default_seed, out->has_seed = 1;
    if (!out->threads)
        out->threads = tmc_runner_default_threads();
    if (!out->pilot_replicas)
        out->pilot_replicas = 1000;
    if (!out->importance_plain_max)
        out->importance_plain_max = TMC_IMPORTANCE_PLAIN_MAX;
    return tmc_api_succeed(st), TMC_OK;
}

void tmc_run_options_init(tmc_run_options *o)
{
    if (o)
        memset(o, 0, sizeof *o);
}

int tmc_api_check_overrides(const char *f, const char *const *overrides, int n,
                            tmc_status *st)
{
    if (n < 0 || (n && !overrides))
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: n_overrides = %d: must be >= 0, with an "
                             "overrides array when > 0", f, n);
    for (int i = 0; i < n; i++)
        if (!overrides[i])
            return tmc_api_failf(st, TMC_ERR_INPUT, "%s: overrides[%d] = NULL: must be "
                                 "\"section.key=VALUE\"", f, i);
    return TMC_OK;
}

int tmc_api_check_runnable(const tmc_experiment *x, const char *label, int force,
                           tmc_status *st)
{
    char line[512], why[1024];
    const char *sep = label ? ": " : "";
    label = label ? label : "";
    if (tmc_plan_feasibility(x, line, sizeof line) == 0 && !force)
        return tmc_api_failf(st, TMC_ERR_INPUT, "%s: %s%sthe training state does not fit in "
                             "memory (see `trainmc plan`; force runs it all the same): %s",
                             x->path, label, sep, line);
    int rc = tmc_finishable_check(x, why, sizeof why);
    if (rc)
        return tmc_api_failf(st, rc < 0 ? TMC_ERR_MEMORY : TMC_ERR_INPUT, "%s: %s%s%s",
                             x->path, label, sep, why);
    return TMC_OK;
}

/* ---------- experiments ---------- */

static tmc_experiment *loaded(tmc_experiment *x, int rc, const tmc_error *err,
                              tmc_status *st)
{
    if (rc) {
        free(x); /* a failed load owns nothing */
        tmc_api_fail(st, TMC_ERR_INPUT, err->msg);
        return NULL;
    }
    tmc_api_succeed(st);
    return x;
}

static tmc_experiment *load_in(const char *path, const char *const *overrides, int n_overrides,
                               tmc_status *st)
{
    tmc_experiment *x = malloc(sizeof *x);
    tmc_error err = {""};
    if (!x)
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for an experiment"), NULL;
    if (!path)
        return free(x), tmc_api_fail(st, TMC_ERR_INPUT, "tmc_experiment_load: path = NULL: "
                                                        "must name an experiment file"), NULL;
    if (tmc_api_check_overrides("tmc_experiment_load", overrides, n_overrides, st))
        return free(x), NULL;
    return loaded(x, tmc_config_load(path, overrides, n_overrides, x, &err), &err, st);
}

tmc_experiment *tmc_experiment_load(const char *path, const char *const *overrides,
                                    int n_overrides, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_experiment *x = load_in(path, overrides, n_overrides, st);
    tmc_api_leave(&scope);
    return x;
}

static tmc_experiment *parse_in(const char *json, const char *label, const char *base_dir,
                                const char *const *overrides, int n_overrides,
                                tmc_status *st)
{
    tmc_experiment *x = malloc(sizeof *x);
    tmc_error err = {""};
    if (!x)
        return tmc_api_fail(st, TMC_ERR_MEMORY, "out of memory for an experiment"), NULL;
    if (!json)
        return free(x), tmc_api_fail(st, TMC_ERR_INPUT, "tmc_experiment_parse: json = NULL: "
                                                        "must be an experiment's JSON text"),
               NULL;
    if (tmc_api_check_overrides("tmc_experiment_parse", overrides, n_overrides, st))
        return free(x), NULL;
    int rc = tmc_config_parse(json, label ? label : "<string>", base_dir ? base_dir : ".",
                              overrides, n_overrides, x, &err);
    return loaded(x, rc, &err, st);
}

tmc_experiment *tmc_experiment_parse(const char *json, const char *label,
                                     const char *base_dir, const char *const *overrides,
                                     int n_overrides, tmc_status *st)
{
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    tmc_experiment *x = parse_in(json, label, base_dir, overrides, n_overrides, st);
    tmc_api_leave(&scope);
    return x;
}

void tmc_experiment_free(tmc_experiment *x)
{
    if (x)
        tmc_experiment_release(x);
    free(x);
}

static char *to_json_in(const tmc_experiment *x)
{
    cJSON *doc = tmc_config_to_json(x);
    char *text = tmc_api_print(doc);
    cJSON_Delete(doc);
    return text;
}

char *tmc_experiment_to_json(const tmc_experiment *x)
{
    if (!x)
        return NULL;
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    char *text = to_json_in(x);
    tmc_api_leave(&scope);
    return text;
}

static char *closed_form_in(const tmc_experiment *x)
{
    tmc_closed_form cf;
    tmc_closed_form_compute(x, &cf);
    cJSON *doc = tmc_output_closed_form_json(&cf);
    char *text = tmc_api_print(doc);
    cJSON_Delete(doc);
    return text;
}

char *tmc_experiment_closed_form(const tmc_experiment *x)
{
    if (!x)
        return NULL;
    tmc_api_scope scope;
    tmc_api_enter(&scope);
    char *text = closed_form_in(x);
    tmc_api_leave(&scope);
    return text;
}

void tmc_string_free(char *s)
{
    cJSON_free(s);
}
