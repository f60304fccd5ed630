/* sweep.c - settings of one experiment, run under common random numbers,
 * and the statistics of their differences (sweep.h). */
#include "sweep.h"
#include "interval_search.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>

/* ---------- the fixed part ---------- */

static int check_key(const tmc_sweep_base *b, int i, tmc_error *err)
{
    const char *key = b->keys[i];
    if (!strncmp(key, "monte_carlo.", 12))
        return tmc_error_set(err, "--vary %s: every setting runs the same replicas and seed "
                                  "(common random numbers); use --replicas and --seed", key);
    for (int j = 0; j < i; j++) {
        if (!strcmp(key, b->keys[j]))
            return tmc_error_set(err, "--vary %s: the key is varied twice", key);
        if (tmc_config_keys_alternative(key, b->keys[j]))
            return tmc_error_set(err, "--vary %s: %s and %s are alternatives (an experiment "
                                      "gives one of them); vary one", key, b->keys[j], key);
    }
    long cause;
    const char *name;
    int n = b->x.failures.enabled ? b->x.failures.n_causes : 0;
    int is_cause = tmc_config_split_cause_key(key, &cause, &name);
    if (is_cause && n == 0)
        return tmc_error_set(err, "--vary %s: the experiment has no failure causes "
                                  "(failures.causes)", key);
    if (is_cause && cause >= n)
        return tmc_error_set(err, "--vary %s: the experiment has %d failure cause%s; expected "
                                  "an index in [0, %d]", key, n, n == 1 ? "" : "s", n - 1);
    tmc_key_kind kind = tmc_config_classify_key(key);
    if (kind == TMC_KEY_OTHER)
        return tmc_error_set(err, "--vary %s: not a numeric key (it holds a string or a "
                                  "choice)", key);
    if (kind == TMC_KEY_UNKNOWN)
        return tmc_error_set(err, "--vary %s: not a key of an experiment; expected "
                                  "SECTION.KEY with a numeric value, e.g. job.cards or "
                                  "checkpoint.interval_s", key);
    return 0;
}

/* The experiment gives exactly one checkpoint interval key (config_checks.c); when
 * the sweep varies the other one, the experiment's is removed (the rest of
 * the section kept: mode, writes, levels, durations). */
static void interval_reset(tmc_sweep_base *b)
{
    const tmc_checkpoint *cp = &b->x.checkpoint;
    for (int i = 0; i < b->n_keys; i++) {
        int steps = !strcmp(b->keys[i], "checkpoint.interval_steps");
        int secs = !strcmp(b->keys[i], "checkpoint.interval_s");
        if (steps && cp->interval_s > 0)
            snprintf(b->reset, sizeof b->reset, "checkpoint.interval_s=null");
        else if (secs && cp->interval_steps > 0)
            snprintf(b->reset, sizeof b->reset, "checkpoint.interval_steps=null");
    }
}

/* The experiment of b (its file, or its text) with overrides sets[n]; a
 * calendar window is refused: what is compared here are completion times,
 * which a window cuts (an input error, found before anything runs). x owns
 * its load after 0, nothing after -1. */
static int load_experiment(const tmc_sweep_base *b, const char *const *sets, int n,
                           tmc_experiment *x, tmc_error *err)
{
    int rc = b->text ? tmc_config_parse(b->text, b->path, b->base_dir, sets, n, x, err)
                     : tmc_config_load(b->path, sets, n, x, err);
    if (!rc && tmc_window_on(x)) {
        tmc_experiment_release(x);
        return tmc_error_set(err, "%s: window: a calendar window's goodput is reported by "
                                  "`trainmc run` alone; drop the window section here",
                             b->path);
    }
    return rc;
}

/* tmc_sweep_load_base once b's source is set. */
static int load_base(tmc_sweep_base *b, const char *const *sets, int n_sets,
                     const char *const *keys, int n_keys, tmc_error *err)
{
    b->sets = sets;
    b->n_sets = n_sets;
    b->n_keys = n_keys;
    if (load_experiment(b, sets, n_sets, &b->x, err))
        return -1;
    for (int i = 0; i < n_keys; i++) {
        snprintf(b->keys[i], TMC_SWEEP_KEY_LEN, "%s", keys[i]);
        if (check_key(b, i, err)) {
            tmc_experiment_release(&b->x);
            return -1;
        }
        b->integer[i] = tmc_config_classify_key(keys[i]) == TMC_KEY_INTEGER;
    }
    interval_reset(b);
    return 0;
}

int tmc_sweep_load_base(tmc_sweep_base *b, const char *path, const char *const *sets,
                        int n_sets, const char *const *keys, int n_keys, tmc_error *err)
{
    memset(b, 0, sizeof *b);
    b->path = path;
    return load_base(b, sets, n_sets, keys, n_keys, err);
}

int tmc_sweep_load_base_text(tmc_sweep_base *b, const char *text, const char *label,
                             const char *base_dir, const char *const *sets, int n_sets,
                             const char *const *keys, int n_keys, tmc_error *err)
{
    memset(b, 0, sizeof *b);
    b->path = label;
    b->text = text;
    b->base_dir = base_dir;
    return load_base(b, sets, n_sets, keys, n_keys, err);
}

int tmc_sweep_load_base_from(tmc_sweep_base *b, const tmc_sweep_source *src,
                             const char *const *sets, int n_sets, const char *const *keys,
                             int n_keys, tmc_error *err)
{
    return src->text ? tmc_sweep_load_base_text(b, src->text, src->path, src->base_dir, sets,
                                                n_sets, keys, n_keys, err)
                     : tmc_sweep_load_base(b, src->path, sets, n_sets, keys, n_keys, err);
}

int tmc_sweep_check_pace_key(const tmc_experiment *x, const char *prefix, const char *key,
                             tmc_error *err)
{
    if (!tmc_closed_form_paced(x) || !tmc_closed_form_pace_fixes_key(key))
        return 0;
    return tmc_error_set(err, "%s%s: does nothing on a forecast at the observed pace (job.pace "
                              "= observed): progress.step_s = %.10g s fixes the step time "
                              "through the efficiency that gives it, whatever job.efficiency, "
                              "job.peak_flops and job.flop_per_step are, so every setting "
                              "would tie; give --set job.pace=plan to vary it at the plan's "
                              "pace", prefix, key, x->observed.step_s);
}

int tmc_sweep_check_replicas(const tmc_sweep_base *b, tmc_error *err)
{
    if (b->x.monte_carlo.replicas < 2)
        return tmc_error_set(err, "%s: monte_carlo.replicas: %ld; a sweep needs at least 2 "
                                  "(for its standard errors)", b->path,
                             b->x.monte_carlo.replicas);
    return 0;
}

/* ---------- settings ---------- */

/* The shortest text that reads back as v: integers without an exponent. */
static void format_value(double v, char *buf, size_t n)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

int tmc_sweep_list_overrides(const tmc_sweep_base *b, const tmc_sweep_setting *s,
                             const char **out)
{
    int n = 0;
    for (int i = 0; i < b->n_sets; i++)
        out[n++] = b->sets[i];
    if (b->reset[0])
        out[n++] = b->reset;
    for (int i = 0; i < b->n_keys; i++)
        out[n++] = s->assign[i];
    return n;
}

int tmc_sweep_load_setting(const tmc_sweep_base *b, const double *value,
                           tmc_sweep_setting *s, tmc_error *err)
{
    const char **sets = malloc((size_t)(b->n_sets + 1 + b->n_keys) * sizeof *sets);
    if (!sets)
        return tmc_error_set(err, "out of memory");
    s->label[0] = '\0';
    for (int i = 0; i < b->n_keys; i++) {
        char text[32];
        format_value(value[i], text, sizeof text);
        snprintf(s->assign[i], sizeof s->assign[i], "%s=%s", b->keys[i], text);
        s->value[i] = value[i];
        size_t used = strlen(s->label);
        snprintf(s->label + used, sizeof s->label - used, "%s%s", i ? ", " : "", s->assign[i]);
    }
    int n = tmc_sweep_list_overrides(b, s, sets);
    int rc = load_experiment(b, sets, n, &s->x, err);
    free(sets);
    tmc_interval_search search; /* "optimal": each setting its own */
    if (!rc && (rc = tmc_interval_search_resolve(&s->x, tmc_runner_default_threads(), NULL,
                                                 &search, err)))
        tmc_experiment_release(&s->x);
    if (!rc)
        tmc_closed_form_compute(&s->x, &s->cf);
    return rc;
}

/* ---------- the grid ---------- */

int tmc_sweep_count_settings(const tmc_sweep_axis *axes, int n_axes)
{
    int n = 1;
    for (int a = 0; a < n_axes; a++)
        n *= axes[a].n;
    return n;
}

void tmc_sweep_get_values(const tmc_sweep_axis *axes, int n_axes, int i, double *value)
{
    for (int a = n_axes - 1; a >= 0; a--) {
        value[a] = axes[a].values[i % axes[a].n];
        i /= axes[a].n;
    }
}

int tmc_sweep_count_lines(const tmc_sweep_axis *axes, int n_axes, int a)
{
    return n_axes == 2 ? axes[1 - a].n : 1;
}

void tmc_sweep_get_line(const tmc_sweep_axis *axes, int n_axes, int a, int j, int *idx)
{
    for (int v = 0; v < axes[a].n; v++)
        idx[v] = n_axes == 1 ? v : a == 0 ? v * axes[1].n + j : j * axes[1].n + v;
}

int tmc_sweep_check_grid(const tmc_sweep_axis *axes, int n_axes, long replicas,
                         tmc_error *err)
{
    double settings = 1;
    for (int a = 0; a < n_axes; a++)
        settings *= axes[a].n;
    if (settings > TMC_SWEEP_MAX_SETTINGS)
        return tmc_error_set(err, "--vary: %d x %d = %.0f settings; at most %d", axes[0].n,
                             axes[n_axes - 1].n, settings, TMC_SWEEP_MAX_SETTINGS);
    double doubles = settings * (double)replicas;
    if (doubles > TMC_SWEEP_MAX_DOUBLES)
        return tmc_error_set(err, "%.0f settings x %ld replicas = %.4g completion times "
                                  "(%.3g GB) to keep for the differences; at most %ld "
                                  "(2 GiB): use fewer settings or replicas",
                             settings, replicas, doubles, doubles * 8 / 1e9,
                             TMC_SWEEP_MAX_DOUBLES);
    return 0;
}

/* ---------- running ---------- */

/* The engine of setting s (its laws built on `threads` threads), watching
 * *stop (NULL: the process's stop flag, tmc_stop_flag).
 * 0, or -1 with err. */
static int build_engine(tmc_engine *e, const tmc_sweep_setting *s, int threads,
                        const volatile sig_atomic_t *stop, tmc_error *err)
{
    if (tmc_engine_init_threads(e, &s->x, &s->cf, threads))
        return tmc_error_set(err, "out of memory building the engine");
    if (stop)
        tmc_engine_watch_stop(e, stop);
    return 0;
}

int tmc_sweep_run_importance(const tmc_sweep_setting *s, const char *mode, long pilot,
                             long plain_max, int threads, const volatile sig_atomic_t *stop,
                             tmc_sweep_result *r, tmc_error *err)
{
    const tmc_experiment *x = &s->x;
    tmc_engine e;
    if (build_engine(&e, s, threads, stop, err))
        return -1;
    int rc = tmc_importance_run(&e, mode, pilot, x->monte_carlo.replicas, x->monte_carlo.seed,
                                threads, &r->importance, err);
    if (!rc)
        rc = tmc_importance_check_plain(&e, plain_max, x->monte_carlo.seed, threads, NULL, NULL,
                                        &r->importance, err);
    tmc_engine_free(&e);
    r->has_importance = rc == 0;
    return rc;
}

int tmc_sweep_run_batch(const tmc_sweep_setting *s, long first, long n, int threads,
                        tmc_progress_fn progress, void *ctx,
                        const volatile sig_atomic_t *stop, double *wall_s, double *restarts,
                        tmc_sweep_result *r, tmc_error *err)
{
    tmc_engine e;
    if (build_engine(&e, s, threads, stop, err))
        return -1;
    tmc_replica batch;
    tmc_runner_out out = {wall_s, restarts, NULL, NULL, NULL};
    int rc = tmc_runner_run_samples(&e, first, n, s->x.monte_carlo.seed, threads, progress,
                                    ctx, &out, &batch, err);
    r->table_error = e.stragglers.max.max_error;
    r->horizon_s = e.horizon_s;
    tmc_engine_free(&e);
    if (!rc) {
        if (first == 0)
            memset(&r->totals, 0, sizeof r->totals);
        tmc_accounting_accumulate(&r->totals, &batch);
    }
    return rc;
}

int tmc_sweep_finish(const tmc_sweep_setting *s, double *days, const double *restarts, long n,
                     tmc_sweep_result *r, tmc_error *err)
{
    const tmc_experiment *x = &s->x;
    double reserve = x->deadline.reserve_days;
    for (long k = 0; k < n; k++)
        days[k] = reserve + days[k] / TMC_DAY_S;
    if (tmc_stats_summarize(days, n, x->deadline.days, &r->days))
        return tmc_error_set(err, "out of memory for %ld replicas", n);
    if (tmc_restarts_summarize(restarts, days, n, x, &s->cf, &r->days, &r->restarts, err))
        return -1;
    tmc_cost_summarize(x, &s->cf, &r->days, &r->cost);
    /* overhead = wall / (S t_s) - 1 per replica, as `run` reports it */
    r->overhead = tmc_closed_form_overhead(&s->cf, (r->days.mean - reserve) * TMC_DAY_S);
    r->overhead_se = r->days.se * TMC_DAY_S / s->cf.remaining_free_s;
    r->mode = tmc_engine_mode(x);
    return 0;
}

void tmc_sweep_forward_progress(long done, long total, void *ctx)
{
    const tmc_sweep_progress *p = ctx;
    (void)total; /* the setting's own: p->total counts them all */
    p->fn(p->offset + done, p->total, p->ctx);
}

int tmc_sweep_run_setting(const tmc_sweep_setting *s, int threads, tmc_progress_fn progress,
                          void *ctx, const volatile sig_atomic_t *stop, double *days,
                          double *restarts, tmc_sweep_result *r, tmc_error *err)
{
    long n = s->x.monte_carlo.replicas;
    int rc = tmc_sweep_run_batch(s, 0, n, threads, progress, ctx, stop, days, restarts, r, err);
    return rc ? rc : tmc_sweep_finish(s, days, restarts, n, r, err);
}

/* ---------- differences ---------- */

int tmc_sweep_compute_diff(const double *a, const double *b, long n, tmc_sweep_diff *d,
                           tmc_error *err)
{
    double *diff = malloc((size_t)n * sizeof *diff);
    if (!diff)
        return tmc_error_set(err, "out of memory for %ld differences", n);
    for (long k = 0; k < n; k++)
        diff[k] = a[k] - b[k];
    size_t m = (size_t)n;
    d->mean = gsl_stats_mean(diff, 1, m);
    double var_diff = gsl_stats_variance_m(diff, 1, m, d->mean);
    double var_sum = gsl_stats_variance(a, 1, m) + gsl_stats_variance(b, 1, m);
    free(diff);
    d->se = sqrt(var_diff / n);
    d->se_independent = sqrt(var_sum / n);
    d->reduction = var_diff > 0 ? var_sum / var_diff : NAN;
    return 0;
}

int tmc_sweep_find_best(const tmc_sweep_result *r, const int *idx, int n)
{
    int best = idx[0];
    for (int i = 1; i < n; i++)
        if (r[idx[i]].days.mean < r[best].days.mean)
            best = idx[i];
    return best;
}

int tmc_sweep_is_within(const tmc_sweep_diff *d)
{
    return fabs(d->mean) <= TMC_SWEEP_WITHIN_SE * d->se;
}
