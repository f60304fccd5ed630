/* fit-4.x: a step-time log made by the engine itself, fitted back by
 * `trainmc fit --steps` (issue 15, done-when 3).
 *
 * fit-3.x (test_fit_steps.c) draws its logs from the model's formulas
 * written out again in the test; here the per-card times come from the
 * engine's own sampler, so a mismatch between what the engine draws and
 * what `fit --steps` believes the engine means (docs/fit.md 9) is caught.
 *
 * The engine has no per-card sampler: a step draws the slowest of N cards
 * at once, F^-1(U^(1/N)) from a quantile table (dist.h). The lowest-level
 * engine code that draws one card's time is that sampler built for n = 1
 * card (tmc_dist_max_init(..., 1)): its table is then the card's own
 * quantile, and tmc_dist_max_at reads it exactly as a step of the engine
 * does. The part common to all cards of a step (normal jitter with
 * correlation rho) is the sampler's common_s times one standard normal per
 * step, as stragglers.c's common() adds it to the step's maximum: drawn
 * once per step here and added to every card of it. Both draw from a
 * tmc_rng_pcg32 stream seeded as a replica's jitter stream
 * (tmc_rng_pcg_seed_replica, TMC_STREAM_JITTER).
 *
 * Each log (long form: step, rank, seconds; mean 2.807 s) is written to a
 * temporary CSV and fitted by the built program, `trainmc fit --steps LOG
 * --json OUT`; the JSON is read with cJSON. At 95 % a correct interval
 * misses its truth one time in 20; the seeds are fixed, so a pass is
 * reproducible, and each case checks two intervals at most.
 *
 * fit-4.1 normal, cv 0.05, correlation 0.3, 2,000 steps x 64 ranks: the
 *         normal law chosen, cv and correlation inside their intervals,
 *         no slow rank.
 * fit-4.2 lognormal, cv 0.1 (no correlation: the engine's lognormal has
 *         none), 1,000 x 64: lognormal chosen, cv inside its interval, the
 *         correlation's interval reaching 0.
 * fit-4.3 gamma, cv 0.1, 1,000 x 64: gamma chosen, cv inside its interval.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "dist.h"
#include "rng_pcg.h"

#define MU_S 2.807 /* the mean per-card time of the 64-GPU log, s */

/* A known law and the log's shape. */
typedef struct {
    const char *name;
    tmc_jitter jitter;
    long steps, ranks;
    uint64_t seed;
} steplog_case;

/* Write c's log to path: every card of a step from the engine's one-card
 * sampler, plus the step's common part. */
static void write_log(const steplog_case *c, const char *path)
{
    tmc_max_sampler card;
    assert_int_equal(tmc_dist_max_init(&card, &c->jitter, MU_S, 1), 0);
    assert_non_null(card.low); /* some independent jitter: the table is built */
    gsl_rng *r = gsl_rng_alloc(tmc_rng_pcg32);
    tmc_rng_pcg_seed_replica(r, c->seed, 0, TMC_STREAM_JITTER);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "step,rank,seconds\n");
    for (long j = 0; j < c->steps; j++) {
        double common = card.common_s > 0 ? card.common_s * gsl_ran_gaussian_ziggurat(r, 1.0)
                                          : 0;
        for (long i = 0; i < c->ranks; i++) {
            double x = tmc_dist_max_at(&card, tmc_rng_pcg_next(r)) + common;
            fprintf(f, "%ld,%ld,%.9g\n", j, i, x > 0 ? x : 0); /* the engine's clamp */
        }
    }
    assert_int_equal(fclose(f), 0);
    gsl_rng_free(r);
    tmc_dist_max_free(&card);
}

/* The whole of a file, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* `trainmc fit --steps` on c's log: its JSON document (cJSON_Delete it). */
static cJSON *fit_log(const steplog_case *c)
{
    char dir[] = "/tmp/trainmc-steplog-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char log[64], out[64], cmd[512];
    snprintf(log, sizeof log, "%s/steps.csv", dir);
    snprintf(out, sizeof out, "%s/fit.json", dir);
    write_log(c, log);
    snprintf(cmd, sizeof cmd, "'%s' fit --steps %s --json %s >/dev/null", TMC_BINARY, log, out);
    int rc = system(cmd);
    char *text = slurp(out);
    remove(log), remove(out), rmdir(dir);
    if (rc != 0 || !text)
        fail_msg("%s: `trainmc fit --steps` failed (status %d)", c->name, rc);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    return doc;
}

static double number(const cJSON *doc, const char *a, const char *b, const char *c)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, a);
    o = b ? cJSON_GetObjectItemCaseSensitive(o, b) : o;
    o = c ? cJSON_GetObjectItemCaseSensitive(o, c) : o;
    if (!cJSON_IsNumber(o))
        fail_msg("no number at %s.%s.%s", a, b ? b : "", c ? c : "");
    return o->valuedouble;
}

/* The fitted interval of `what` (cv or correlation) holds truth. */
static void holds(const cJSON *doc, const steplog_case *c, const char *what, double truth)
{
    double v = number(doc, "jitter", what, "value"), lo = number(doc, "jitter", what, "lo");
    double hi = number(doc, "jitter", what, "hi");
    print_message("%s: %s %.5f [%.5f, %.5f], truth %g\n", c->name, what, v, lo, hi, truth);
    if (!(lo <= truth && truth <= hi))
        fail_msg("%s: the true %s %g is outside its interval [%g, %g]", c->name, what, truth,
                 lo, hi);
}

/* The law chosen is c's. */
static void law_is(const cJSON *doc, const steplog_case *c, const char *law)
{
    const cJSON *best = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "jitter"), "best");
    assert_true(cJSON_IsString(best));
    print_message("%s: law chosen %s\n", c->name, best->valuestring);
    if (strcmp(best->valuestring, law) != 0)
        fail_msg("%s: law chosen %s, drawn %s", c->name, best->valuestring, law);
}

static void test_normal(void **state)
{
    (void)state;
    steplog_case c = {"fit-4.1 normal", {TMC_JITTER_NORMAL, 0.05, 0.3}, 2000, 64, 4101};
    cJSON *doc = fit_log(&c);
    law_is(doc, &c, "normal");
    holds(doc, &c, "cv", 0.05);
    holds(doc, &c, "correlation", 0.3);
    const cJSON *slow = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(doc, "slow_ranks"), "slow");
    assert_int_equal(cJSON_GetArraySize(slow), 0);
    cJSON_Delete(doc);
}

static void test_lognormal(void **state)
{
    (void)state;
    steplog_case c = {"fit-4.2 lognormal", {TMC_JITTER_LOGNORMAL, 0.1, 0}, 1000, 64, 4201};
    cJSON *doc = fit_log(&c);
    law_is(doc, &c, "lognormal");
    holds(doc, &c, "cv", 0.1);
    holds(doc, &c, "correlation", 0);
    cJSON_Delete(doc);
}

static void test_gamma(void **state)
{
    (void)state;
    steplog_case c = {"fit-4.3 gamma", {TMC_JITTER_GAMMA, 0.1, 0}, 1000, 64, 4301};
    cJSON *doc = fit_log(&c);
    law_is(doc, &c, "gamma");
    holds(doc, &c, "cv", 0.1);
    cJSON_Delete(doc);
}

int main(void)
{
    gsl_set_error_handler_off(); /* dist.h: the gamma table checks GSL's status */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal),
        cmocka_unit_test(test_lognormal),
        cmocka_unit_test(test_gamma),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
