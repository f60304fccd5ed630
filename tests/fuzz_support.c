/* fuzz_support.c - shared by the libFuzzer targets tests/fuzz_*.c (issue:
 * "the experiment loader is fuzzed; the other parsers are not").
 *
 * 1. A guard on fopen (linked with -Wl,--wrap=fopen, see tests/CMakeLists.txt):
 *    a fuzzed experiment or --set value may name any path as a distribution,
 *    model or trace file. Reading a device (/dev/kmsg, a tty), /proc or /sys
 *    can block for ever, which would be reported as a hang of the loader
 *    although the command line would block just the same on such a path. The
 *    guard refuses those paths (EACCES; /dev/shm, a tmpfs, is allowed), so
 *    the loader takes its "cannot open" branch; every regular file or
 *    directory is opened as usual.
 * 2. fuzz_text: the fuzzed bytes as a NUL-terminated string.
 * 3. fuzz_check_engine: two replicas of a validated experiment through the
 *    real engine, and the cheap invariants every replica must satisfy
 *    (docs/reference/simulation-semantics.md sections 7 and 8); abort() on a failure,
 *    so libFuzzer reports it as a crash with the input. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <gsl/gsl_rng.h>

#include "closed_form.h"
#include "config.h"
#include "engine.h"
#include "rng_pcg.h"

FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);
char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
void fuzz_check_engine(const tmc_experiment *x, const tmc_closed_form *cf);

static int is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    struct stat st;
    char resolved[PATH_MAX];
    int special = stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
    if (!special && realpath(path, resolved))
        special = (is_under(resolved, "/dev") && !is_under(resolved, "/dev/shm")) ||
                  is_under(resolved, "/proc") || is_under(resolved, "/sys");
    if (special) {
        errno = EACCES;
        return NULL;
    }
    return __real_fopen(path, mode);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz invariant failed: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

/* |a - b| <= rel x |ref| (ref 0: a == b). */
static int close_to(double a, double b, double rel, double ref)
{
    return fabs(a - b) <= rel * fabs(ref);
}

/* A forecast's replica: it computed n whole steps, n from its fixed part
 * (or its compute), from steps - steps_done to steps - committed_step. */
static void forecast_steps(const tmc_experiment *x, const tmc_engine *e, const tmc_replica *r,
                           const char *why)
{
    double per = e->stragglers.fixed_s > 0 ? e->stragglers.fixed_s : e->stragglers.max.mu;
    if (!(per > 0))
        return;
    double n = (e->stragglers.fixed_s > 0 ? r->fixed_s : r->compute_s) / per;
    double lo = (double)(x->job.steps - x->observed.steps_done);
    double hi = (double)(x->job.steps - x->observed.committed_step);
    if (!(n >= lo - 1e-6 * hi && n <= hi + 1e-6 * hi) || fabs(n - round(n)) > 1e-6 * hi)
        fuzz_fail("a forecast's replica computed no whole number of steps from steps - "
                  "steps_done to steps - committed_step", why);
    if (!close_to(r->compute_s, round(n) * e->stragglers.max.mu, 1e-6,
                  round(n) * e->stragglers.max.mu))
        fuzz_fail("a forecast's compute_s is not mu x the steps it computed", why);
}

/* An elastic run's replica (src/engine/elastic.c): progress is counted in
 * units of 1 / G step, a step on `up` groups advances it by `up`, and each
 * commit charges its steps' time as compute and fixed for the progress made
 * (units / G steps) and the rest to smaller_batch (shrunk_s). So compute_s
 * is mu x P / G and fixed_s is fixed x P / G for the whole number P of units
 * committed, which ends at or past S G by less than one step of G groups:
 * S G <= P <= S G + G - 1: the last step may pass the end by up - 1 units
 * (the skip this replaces: CI's fuzz found compute_s 98.7 s above S mu on an
 * elastic-300 case, which the bound allows when mu x (G - 1) / G > 98.7 s). */
static void elastic_steps(const tmc_experiment *x, const tmc_engine *e, const tmc_replica *r,
                          const char *why)
{
    double mu = e->stragglers.max.mu, fixed = e->stragglers.fixed_s, g = (double)e->groups;
    double per = fixed > 0 ? fixed : mu;
    if (!(per > 0))
        return;
    double units = (fixed > 0 ? r->fixed_s : r->compute_s) / per * g;
    double lo = (double)x->job.steps * g, hi = lo + g - 1;
    if (!(units >= lo - 1e-6 * hi && units <= hi + 1e-6 * hi))
        fuzz_fail("an elastic replica's committed progress is not from S G to S G + G - 1 "
                  "units of 1 / G step", why);
    double steps = round(units) / g;
    if (!close_to(r->compute_s, steps * mu, 1e-6, steps * mu))
        fuzz_fail("an elastic replica's compute_s is not mu x its committed progress", why);
    if (!close_to(r->fixed_s, steps * fixed, 1e-6, steps * fixed))
        fuzz_fail("an elastic replica's fixed_s is not fixed x its committed progress", why);
}

static void check_replica(const tmc_engine *e, const tmc_experiment *x,
                          const tmc_closed_form *cf, const tmc_replica *r, long k)
{
    char at[160];
    snprintf(at, sizeof at, "replica %ld, wall_s %.17g, horizon_s %.17g", k, r->wall_s,
             e->horizon_s);
    if (r->stopped)
        fuzz_fail("a replica stopped without a stop request", at);
    if (r->failed) /* no result (memory, or a restore struck 1e7 times): allowed */
        return;
    if (!isfinite(r->wall_s) || r->wall_s < 0)
        fuzz_fail("wall_s is not finite and >= 0", at);
    if (r->wall_s > e->horizon_s)
        fuzz_fail("wall_s passes the censoring horizon", at);
    if (r->censored != 0 && r->censored != 1)
        fuzz_fail("censored is neither 0 nor 1", at);
    if (r->censored && r->wall_s != e->horizon_s)
        fuzz_fail("a censored replica's wall_s is not the horizon", at);
    if (r->w != 1) /* no importance tilt: the likelihood ratio is 1 */
        fuzz_fail("likelihood ratio w is not 1 without a tilt", at);
    const double counts[] = {r->card_failures, r->outages, r->loss_spikes, r->saves,
                             r->evictions, r->slow_cards};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!(counts[i] >= 0) || counts[i] != floor(counts[i]))
            fuzz_fail("a count is negative or not an integer", at);
    if (r->censored)
        return; /* its split describes the run past the horizon (section 8) */
    double rows = tmc_accounting_split_sum(r);
    char why[600];
    int len = snprintf(why, sizeof why, "%s, rows %.17g (", at, rows);
    for (int i = 0; i < tmc_accounting_split_rows && len > 0 && len < (int)sizeof why; i++)
        len += snprintf(why + len, sizeof why - (size_t)len, " %s %.17g",
                        tmc_accounting_split[i].key,
                        tmc_accounting_get(r, &tmc_accounting_split[i]));
    if (!close_to(rows, r->wall_s, 1e-6, r->wall_s))
        fuzz_fail("the split rows do not add to wall_s within 1e-6 (section 8)", why);
    /* every step is committed once at the end of a finished run; a forecast
     * computes the steps after steps_done, and again those after its last
     * commit when a failure strikes before the next (section 10) */
    double steps = (double)x->job.steps;
    if (x->observed.enabled) {
        forecast_steps(x, e, r, why);
        return;
    }
    if (e->groups > 0) {
        elastic_steps(x, e, r, why);
        return;
    }
    if (!close_to(r->compute_s, steps * e->stragglers.max.mu, 1e-6, steps * e->stragglers.max.mu))
        fuzz_fail("compute_s is not mu x steps for a finished replica", why);
    if (!close_to(r->fixed_s, steps * e->stragglers.fixed_s, 1e-6, steps * e->stragglers.fixed_s))
        fuzz_fail("fixed_s is not (exposed_comm_s + input_wait_s) x steps", why);
    double paused = e->stragglers.pause_every ? floor(steps / (double)e->stragglers.pause_every) : 0;
    if (!close_to(r->pause_s, paused * e->stragglers.pause_s, 1e-6, paused * e->stragglers.pause_s))
        fuzz_fail("pause_s is not duration_s x the paused steps", why);
    (void)cf;
}

void fuzz_check_engine(const tmc_experiment *x, const tmc_closed_form *cf)
{
    static gsl_rng *rng[TMC_STREAM_COUNT];
    if (!rng[0])
        for (int s = 0; s < TMC_STREAM_COUNT; s++)
            rng[s] = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_engine e;
    if (tmc_engine_init(&e, x, cf)) /* memory ran out: the command line stops too */
        return;
    static int verbose = -1; /* FUZZ_VERBOSE=1: one line per replica on stderr */
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    tmc_replica r[2], again;
    for (long k = 0; k < 2; k++) {
        tmc_engine_run(&e, x->monte_carlo.seed, (uint64_t)k, rng, &r[k]);
        if (verbose)
            fprintf(stderr, "fuzz: %s replica %ld: wall_s %.6g horizon_s %.6g censored %g "
                    "failed %d failures %g outages %g spikes %g\n", x->name, k, r[k].wall_s,
                    e.horizon_s, r[k].censored, r[k].failed, r[k].card_failures, r[k].outages,
                    r[k].loss_spikes);
        check_replica(&e, x, cf, &r[k], k);
    }
    /* the result depends only on (e, seed, replica) (engine.h) */
    tmc_engine_run(&e, x->monte_carlo.seed, 0, rng, &again);
    if (memcmp(&again, &r[0], sizeof again) != 0)
        fuzz_fail("replica 0 run twice gives two results", NULL);
    tmc_engine_free(&e);
}
