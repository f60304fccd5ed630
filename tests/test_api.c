/* api-1.x: libtrainmc's public interface (src/api/trainmc.h), as a caller
 * sees it. The library's numbers against the command line's are checked by
 * tests/check_library.sh; here, what the interface itself promises.
 * api-1.1 a case derived by hand: no jitter, no failures; 1000 steps of
 *         100 s (8e14 FLOP on 8 cards of 1e12 FLOP/s), a save of 10 s every 250
 *         steps, the last included (docs/reference/simulation-semantics.md 7): every replica
 *         takes 100,040 s, so T = 0.5 + 100040 / 86400 days; the split holds
 *         1e5 s of useful compute and 40 s of saves, the counts 4 saves;
 *         P(T <= 2 days) = 1, and with deadline.days = 1.6 (an override)
 *         P = 0.
 * api-1.2 bad run options are TMC_ERR_INPUT naming the field; no result.
 * api-1.3 a stop flag already set stops the run (TMC_ERR_STOPPED); the
 *         progress callback counts up to the replicas, ending at the total.
 * api-1.4 the same numbers on 1 and 2 threads (the whole document).
 * api-1.5 summary_only keeps the completion days, not the figures.
 * api-1.6 numbers by dotted path, array elements included; a precision
 *         target stops at the first batch that meets it, its budget (1e9
 *         replicas) never allocated.
 * api-1.7 the closed forms of the hand case; an experiment read back from
 *         its own JSON gives the same JSON.
 * api-1.9 what the command line refuses, the library refuses: a run that
 *         cannot finish (8 cards of 86.4 s MTBF against 25,000 s of work
 *         between saves), even with force; a training state that does not
 *         fit in memory (design-48 with 10 GiB usable per card), unless
 *         force, which then runs it.
 * api-1.10 a sweep of an experiment given as text, labelled with its file's
 *          path, gives the file's sweep document byte for byte; labelled
 *          otherwise, the same numbers under that label.
 * api-1.11 a trace named inline in JSON text resolves against base_dir (not the
 *          label's folder nor the current one); NULL entries in the
 *          overrides and NULL handles are refused, not dereferenced; the
 *          seed reads back by path digit for digit (2^53 - 1); a host's
 *          GSL error handler is in force again after a call.
 * api-1.12 a replica count and a card count take the bounds of the keys
 *          monte_carlo.replicas, [1, 1e9], and job.cards, [1, 1e7]
 *          (docs/reference/keys.md), and the messages say so: 1,000,000,001
 *          replicas (run, pilot, emax) and 10,000,001 cards (emax, its
 *          brute force) are refused with the exact messages below; 1e7
 *          cards are taken.
 * api-1.13 tmc_emax_run_result, N = 2 and 8, 40,000 replicas, seed 3,
 *          brute force on, step time mu 52.2 s, sigma 2.61 s, fixed 0.58 s:
 *          row 0 is N = 2 with c_2 = 1/sqrt(pi) and sd sqrt(1 - 1/pi) (the
 *          maximum of two standard normals: E max = E|X - Y| / 2 and
 *          E max^2 = E X^2 = 1), to 1e-9; c_8 = 1.4236003 (Harter, below);
 *          Blom's c_2 = Phi^-1(1.625 / 2.25) (GSL's inverse), the reference
 *          NaN at 2 and 1.42 at 8; statistical: the sampler's and brute
 *          force's sample means of c_2 (se as the row gives it, about
 *          0.0041, and within 2 % of sqrt(1 - 1/pi) / 200) within 4 se of
 *          1/sqrt(pi), seed fixed; the CSV's step_s_quadrature for N = 2 is
 *          52.2 + 2.61 / sqrt(pi) + 0.58 s to 1e-9; the text names the step
 *          time; tmc_emax_run's document equals the result's without a step;
 *          tmc_emax_options_init gives `trainmc emax --help`'s defaults
 *          (1e6 replicas, seed 1, brute force to 64, all processors, no
 *          step); mu_s = 0 with a step, and rows out of range, are refused.
 * api-1.14 a message from the layers below names the library's parameters
 *          in place of the command line's flags, each flag as a whole word
 *          ("--levers X" -> "tmc_command_options.levers X", "--log" ->
 *          "tmc_command_options.log", but not "--logs" or "x--log"), and not
 *          inside `...` (a quoted command: "`trainmc fit --write`"); a
 *          thread that keeps the flags (the program's) gets the message as
 *          written.
 * api-1.8 emax: c_8 by quadrature = 1.4236003 (E[max of 8 standard
 *         normals]; H. L. Harter, Biometrika 48, 1961, table of expected
 *         values of normal order statistics), bad arguments refused. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "api_support.h"
#include "api_internal.h"

#define assert_double_equal(got, want, tol) api_expect_near((got), (want), (tol), #got)

/* The index of figure `name` in its family, failing if there is none. */
static int figure(int family, const char *name)
{
    for (int i = 0; i < tmc_figure_count(family); i++)
        if (!strcmp(tmc_figure_name(family, i), name))
            return i;
    fail_msg("no figure %s", name);
    return -1;
}

static void expect_figure(const tmc_result *r, int family, const char *name, double want)
{
    long n = tmc_result_replicas(r);
    double *v = malloc((size_t)n * sizeof *v);
    assert_int_equal(tmc_result_copy_figure(r, family, figure(family, name), v), TMC_OK);
    for (long k = 0; k < n; k++)
        if (fabs(v[k] - want) > 1e-12 * fmax(1, fabs(want)))
            fail_msg("%s of replica %ld: %.17g, want %.17g", name, k, v[k], want);
    free(v);
}

static void test_hand_case(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    tmc_result *r = api_run(x, NULL);
    assert_int_equal(tmc_result_replicas(r), 20);
    const double *days = tmc_result_completion_days(r);
    for (long k = 0; k < 20; k++)
        assert_double_equal(days[k], 0.5 + 100040.0 / 86400, 1e-12);
    assert_double_equal(tmc_result_number(r, "deadline.probability"), 1, 0);
    expect_figure(r, TMC_FIGURE_SPLIT, "useful_compute", 1e5 / 86400);
    expect_figure(r, TMC_FIGURE_SPLIT, "saves", 40.0 / 86400);
    expect_figure(r, TMC_FIGURE_SPLIT, "lost_work", 0);
    expect_figure(r, TMC_FIGURE_COUNT, "saves", 4);
    expect_figure(r, TMC_FIGURE_COUNT, "card_failures", 0);
    expect_figure(r, TMC_FIGURE_STATE, "censored", 0);
    expect_figure(r, TMC_FIGURE_STATE, "weight", 1);
    tmc_result_free(r);
    tmc_experiment_free(x);

    const char *later[] = {"deadline.days=1.6"};
    x = api_hand(later, 1);
    r = api_run(x, NULL);
    assert_double_equal(tmc_result_number(r, "deadline.probability"), 0, 0);
    assert_non_null(strstr(tmc_result_json(r), "\"overrides\":[\"deadline.days=1.6\"]"));
    tmc_result_free(r);
    tmc_run_options o; /* replicas and seed as options are listed as -n, --seed are */
    tmc_run_options_init(&o);
    o.replicas = 5;
    o.has_seed = 1;
    o.seed = 4;
    r = api_run(x, &o);
    assert_non_null(strstr(tmc_result_json(r), "\"overrides\":[\"deadline.days=1.6\","
                                                "\"monte_carlo.replicas=5\",\"monte_carlo.seed=4\"]"));
    tmc_result_free(r);
    tmc_experiment_free(x);

    assert_int_equal(tmc_figure_count(7), -1);
    assert_null(tmc_figure_name(TMC_FIGURE_COUNT, -1));
    assert_null(tmc_figure_name(TMC_FIGURE_STATE, 2));
}

static void expect_refused(const tmc_experiment *x, const tmc_run_options *o,
                           const char *field)
{
    tmc_status st;
    assert_null(tmc_experiment_run(x, o, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
    if (!strstr(st.message, field))
        fail_msg("message \"%s\" does not name %s", st.message, field);
}

static void test_bad_options(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.replicas = -1;
    expect_refused(x, &o, "replicas = -1");
    tmc_run_options_init(&o);
    o.threads = 5000;
    expect_refused(x, &o, "threads = 5000");
    tmc_run_options_init(&o);
    o.has_seed = 1;
    o.seed = 1ULL << 53;
    expect_refused(x, &o, "seed = 9007199254740992");
    tmc_run_options_init(&o);
    o.precision = "deadline.probability:abs=banana";
    expect_refused(x, &o, "precision");
    tmc_run_options_init(&o);
    o.importance = "0,0,0";
    expect_refused(x, &o, "");
    tmc_status st;
    assert_null(tmc_experiment_run(NULL, NULL, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
    tmc_experiment_free(x);
}

typedef struct {
    long calls, last_done, last_total, backwards;
} progress_log;

static void on_progress(long done, long total, void *ctx)
{
    progress_log *p = ctx;
    p->backwards += done < p->last_done;
    p->calls++;
    p->last_done = done;
    p->last_total = total;
}

static void test_stop_and_progress(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    static volatile sig_atomic_t stop = 1;
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.stop = &stop;
    tmc_status st;
    assert_null(tmc_experiment_run(x, &o, &st));
    assert_int_equal(st.code, TMC_ERR_STOPPED);
    stop = 0;
    progress_log log = {0};
    o.progress = on_progress;
    o.progress_ctx = &log;
    o.replicas = 300;
    tmc_result *r = api_run(x, &o);
    assert_true(log.calls >= 1);
    assert_int_equal(log.backwards, 0);
    assert_int_equal(log.last_done, 300);
    assert_int_equal(log.last_total, 300);
    tmc_result_free(r);
    tmc_experiment_free(x);
}

static tmc_experiment *design(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "experiments/%s.json", name);
    return api_load(rel, NULL, 0);
}

static void test_threads(void **state)
{
    (void)state;
    tmc_experiment *x = design("quickstart-64");
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.replicas = 64;
    o.threads = 1;
    tmc_result *one = api_run(x, &o);
    o.threads = 2;
    tmc_result *two = api_run(x, &o);
    assert_string_equal(tmc_result_json(one), tmc_result_json(two));
    assert_memory_equal(tmc_result_completion_days(one), tmc_result_completion_days(two),
                        64 * sizeof(double));
    tmc_result_free(one);
    tmc_result_free(two);
    tmc_experiment_free(x);
}

static void test_summary_only(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.summary_only = 1;
    tmc_result *r = api_run(x, &o);
    double v[20];
    assert_int_equal(tmc_result_copy_figure(r, TMC_FIGURE_SPLIT, 0, v), TMC_ERR_INPUT);
    assert_double_equal(tmc_result_completion_days(r)[19], 0.5 + 100040.0 / 86400, 1e-12);
    tmc_result_free(r);
    tmc_experiment_free(x);
}

static void test_paths_and_precision(void **state)
{
    (void)state;
    tmc_experiment *x = design("quickstart-64");
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.replicas = 1000000000; /* a budget far beyond memory: only what runs is kept */
    o.precision = "completion_days.mean:rel=0.5"; /* met by the first batch */
    tmc_result *r = api_run(x, &o);
    assert_int_equal(tmc_result_replicas(r), 1000);
    assert_double_equal(tmc_result_number(r, "replicas"), 1000, 0);
    double p = tmc_result_number(r, "deadline.probability");
    assert_true(tmc_result_number(r, "deadline.ci95.0") <= p);
    assert_true(tmc_result_number(r, "deadline.ci95.1") >= p);
    assert_true(isnan(tmc_result_number(r, "deadline.ci95.2")));
    assert_true(isnan(tmc_result_number(r, "deadline.ci95.x")));
    assert_true(isnan(tmc_result_number(r, "deadline")));
    assert_true(isnan(tmc_result_number(r, "")));
    assert_true(isnan(tmc_result_number(r, NULL)));
    assert_non_null(strstr(tmc_result_json(r), "\"reached\":true"));
    tmc_result_free(r);
    tmc_experiment_free(x);
}

static void test_closed_form_and_json(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    char *cf = tmc_experiment_closed_form(x);
    assert_non_null(strstr(cf, "\"step_s\":100,"));
    assert_non_null(strstr(cf, "\"interval_steps\":250,"));
    tmc_string_free(cf);
    char *text = tmc_experiment_to_json(x);
    tmc_status st;
    tmc_experiment *back = tmc_experiment_parse(text, "back", NULL, NULL, 0, &st);
    if (!back)
        fail_msg("%s", st.message);
    char *again = tmc_experiment_to_json(back);
    assert_string_equal(text, again);
    tmc_string_free(text);
    tmc_string_free(again);
    tmc_experiment_free(back);
    tmc_experiment_free(x);
}

static void test_refusals(void **state)
{
    (void)state;
    const char *doomed[] = {"failures={\"distribution\": \"exponential\", "
                            "\"per_card_mtbf_days\": 0.001}"};
    tmc_experiment *x = api_hand(doomed, 1);
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.force = 1;
    expect_refused(x, &o, "hand: ");
    tmc_experiment_free(x);

    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/design-48.json", TMC_SOURCE_DIR);
    const char *small[] = {"memory.usable_gib=10"};
    tmc_status st;
    x = tmc_experiment_load(path, small, 1, &st);
    if (!x)
        fail_msg("%s", st.message);
    tmc_run_options_init(&o);
    o.replicas = 10;
    expect_refused(x, &o, "does not fit in memory");
    o.force = 1;
    tmc_result_free(api_run(x, &o));
    tmc_experiment_free(x);
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

static void test_sweep_text(void **state)
{
    (void)state;
    char path[1024], dir[1024];
    snprintf(path, sizeof path, "%s/experiments/quickstart-64.json", TMC_SOURCE_DIR);
    snprintf(dir, sizeof dir, "%s/experiments", TMC_SOURCE_DIR);
    const char *sets[] = {"monte_carlo.replicas=50"};
    const char *vary[] = {"checkpoint.interval_s=900,1800"};
    tmc_status st;
    tmc_sweep *a = tmc_experiment_sweep(path, sets, 1, vary, 1, NULL, &st);
    if (!a)
        fail_msg("%s", st.message);
    tmc_sweep *b = tmc_experiment_sweep_text(read_text(path), path, dir, sets, 1, vary, 1,
                                             NULL, &st);
    if (!b)
        fail_msg("%s", st.message);
    assert_string_equal(tmc_sweep_json(a), tmc_sweep_json(b));
    tmc_sweep_free(b);
    b = tmc_experiment_sweep_text(read_text(path), "quickstart as text", dir, sets, 1, vary, 1,
                                  NULL, &st);
    if (!b)
        fail_msg("%s", st.message);
    assert_non_null(strstr(tmc_sweep_json(b), "quickstart as text"));
    const char *keys[] = {"settings.0.deadline.probability", "settings.1.completion_days.mean",
                          "settings.0.overhead.mean"};
    for (int i = 0; i < 3; i++)
        assert_true(tmc_sweep_number(a, keys[i]) == tmc_sweep_number(b, keys[i]));
    tmc_sweep_free(a);
    tmc_sweep_free(b);
    assert_null(tmc_experiment_sweep_text(NULL, NULL, NULL, NULL, 0, vary, 1, NULL, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
}

static void host_handler(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)reason, (void)file, (void)line, (void)gsl_errno;
}

static void test_inline_trace_and_nulls(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/distributions/failures", TMC_SOURCE_DIR);
    const char *text = "{\"name\": \"inline\", \"source\": \"test_api.c\","
        " \"job\": {\"steps\": 1000, \"cards\": 8, \"flop_per_step\": 8e14,"
        " \"peak_flops\": 1e12, \"efficiency\": 1.0},"
        " \"failures\": {\"distribution\": \"trace\", \"trace\": \"trace-example.csv\"},"
        " \"checkpoint\": {\"interval_steps\": 250, \"save_s\": 10, \"restore_s\": 0},"
        " \"deadline\": {\"days\": 30, \"reserve_days\": 0.5},"
        " \"monte_carlo\": {\"replicas\": 20, \"seed\": 9007199254740991}}";
    tmc_status st;
    tmc_experiment *x = tmc_experiment_parse(text, "somewhere/else/label", dir, NULL, 0, &st);
    if (!x)
        fail_msg("%s", st.message);
    tmc_result *r = api_run(x, NULL);
    assert_true(tmc_result_number(r, "events.card_failures") > 0);
    assert_true(tmc_result_number(r, "seed") == 9007199254740991.0);
    tmc_result_free(r);
    tmc_experiment_free(x);

    const char *holes[] = {"job.cards=8", NULL};
    assert_null(tmc_experiment_parse(text, "inline", dir, holes, 2, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
    assert_non_null(strstr(st.message, "overrides[1] = NULL"));
    assert_null(tmc_experiment_load("x.json", holes, 2, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
    assert_null(tmc_result_json(NULL));
    assert_true(isnan(tmc_result_number(NULL, "seed")));
    assert_int_equal(tmc_result_replicas(NULL), 0);
    assert_null(tmc_result_completion_days(NULL));
    double v[1];
    assert_int_equal(tmc_result_copy_figure(NULL, TMC_FIGURE_COUNT, 0, v), TMC_ERR_INPUT);
    assert_null(tmc_experiment_to_json(NULL));
    assert_null(tmc_experiment_closed_form(NULL));
    tmc_run_options_init(NULL);

    gsl_error_handler_t *before = gsl_set_error_handler(host_handler);
    x = api_hand(NULL, 0);
    tmc_string_free(tmc_experiment_to_json(x));
    tmc_experiment_free(x);
    assert_true(gsl_set_error_handler(before) == host_handler);
}

static void test_emax(void **state)
{
    (void)state;
    long cards[] = {8};
    tmc_status st;
    char *doc = tmc_emax_run(cards, 1, 1000, 5, 0, 2, &st);
    if (!doc)
        fail_msg("%s", st.message);
    const char *q = strstr(doc, "\"quadrature\":{\"mean\":");
    assert_non_null(q);
    assert_double_equal(strtod(q + strlen("\"quadrature\":{\"mean\":"), NULL), 1.4236003,
                        1e-7);
    tmc_string_free(doc);
    long zero[] = {0};
    assert_null(tmc_emax_run(zero, 1, 1000, 5, 0, 2, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
    assert_null(tmc_emax_run(cards, 1, 1, 5, 0, 2, &st));
    assert_int_equal(st.code, TMC_ERR_INPUT);
}

static void expect_message(const tmc_status *st, const char *want)
{
    assert_int_equal(st->code, TMC_ERR_INPUT);
    if (strcmp(st->message, want))
        fail_msg("message \"%s\", want \"%s\"", st->message, want);
}

static void test_key_bounds(void **state)
{
    (void)state;
    tmc_experiment *x = api_hand(NULL, 0);
    tmc_run_options o;
    tmc_status st;
    tmc_run_options_init(&o);
    o.replicas = 1000000001;
    assert_null(tmc_experiment_run(x, &o, &st));
    expect_message(&st, "tmc_run_options.replicas = 1000000001: must be 0 (the experiment's) "
                        "or in [1, 1e9]");
    tmc_run_options_init(&o);
    o.pilot_replicas = 1000000001;
    assert_null(tmc_experiment_run(x, &o, &st));
    expect_message(&st, "tmc_run_options.pilot_replicas = 1000000001: must be 0 (1000) or in "
                        "[1, 1e9]");
    tmc_experiment_free(x);
    long cards[] = {8, 10000001}, most[] = {10000000};
    assert_null(tmc_emax_run(cards, 2, 1000, 5, 0, 1, &st));
    expect_message(&st, "tmc_emax_run: cards[1] = 10000001: must be in [1, 1e7]");
    assert_null(tmc_emax_run(cards, 1, 1000000001, 5, 0, 1, &st));
    expect_message(&st, "tmc_emax_run: replicas = 1000000001: must be in [2, 1e9]");
    assert_null(tmc_emax_run(cards, 1, 1000, 5, 10000001, 1, &st));
    expect_message(&st, "tmc_emax_run: brute_max_cards = 10000001: must be in [0, 1e7] "
                        "(0: no brute force)");
    char *doc = tmc_emax_run(most, 1, 2, 5, 0, 1, &st);
    if (!doc)
        fail_msg("%s", st.message);
    tmc_string_free(doc);
}

/* The field of the CSV row of n under the column ",NAME," names; NaN if none. */
static double csv_field(const char *csv, const char *header_name, long n)
{
    char head[1024], prefix[32];
    const char *end = strchr(csv, '\n');
    snprintf(head, sizeof head, ",%.*s,", (int)(end - csv), csv);
    const char *at = strstr(head, header_name);
    if (!at)
        return NAN;
    int column = 0;
    for (const char *p = head; p < at; p++) /* the fields before it */
        column += *p == ',';
    snprintf(prefix, sizeof prefix, "\n%ld,", n);
    const char *row = strstr(csv, prefix);
    if (!row)
        return NAN;
    row++;
    for (int c = 0; c < column; c++)
        row = strchr(row, ',') + 1;
    return strtod(row, NULL);
}

static void test_emax_result(void **state)
{
    (void)state;
    const double c2 = 1 / sqrt(M_PI), sd2 = sqrt(1 - 1 / M_PI);
    tmc_emax_options o;
    tmc_emax_options_init(&o);
    assert_true(o.replicas == 1000000 && o.seed == 1 && o.brute_max_cards == 64 &&
                o.threads == 0 && o.has_step == 0);
    o.replicas = 40000;
    o.seed = 3;
    o.threads = 2;
    o.has_step = 1;
    o.mu_s = 52.2, o.sigma_s = 2.61, o.fixed_s = 0.58;
    long cards[] = {2, 8};
    tmc_status st;
    tmc_emax_result *r = tmc_emax_run_result(cards, 2, &o, &st);
    if (!r)
        fail_msg("%s", st.message);
    assert_int_equal(tmc_emax_result_rows(r), 2);
    assert_null(tmc_emax_result_row(r, 2));
    assert_null(tmc_emax_result_row(r, -1));
    const tmc_emax_figures *w = tmc_emax_result_row(r, 0), *w8 = tmc_emax_result_row(r, 1);
    assert_int_equal(w->n, 2);
    assert_double_equal(w->quadrature_mean, c2, 1e-9);
    assert_double_equal(w->quadrature_sd, sd2, 1e-9);
    assert_double_equal(w8->quadrature_mean, 1.4236003, 1e-7);
    assert_double_equal(w->blom, gsl_cdf_ugaussian_Pinv(1.625 / 2.25), 1e-12);
    assert_true(isnan(w->reference));
    assert_double_equal(w8->reference, 1.42, 0);
    const tmc_emax_estimate_figures *e[] = {&w->sampler, &w->brute};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(e[i]->replicas, 40000);
        assert_double_equal(e[i]->se, sd2 / 200, 0.02 * sd2 / 200);
        if (fabs(e[i]->mean - c2) > 4 * e[i]->se)
            fail_msg("estimate %d: %.6f, c_2 %.6f, se %.6f", i, e[i]->mean, c2, e[i]->se);
    }
    char *csv = tmc_emax_result_csv(r), *text = tmc_emax_result_text(r);
    assert_non_null(csv);
    assert_non_null(text);
    assert_double_equal(csv_field(csv, ",step_s_quadrature,", 2), 52.2 + 2.61 * c2 + 0.58, 1e-9);
    assert_non_null(strstr(text, "Expected step time mu + c_N sigma + fixed"));
    tmc_string_free(csv);
    tmc_string_free(text);
    tmc_emax_result_free(r);

    o.has_step = 0;
    r = tmc_emax_run_result(cards, 2, &o, &st);
    char *doc = tmc_emax_run(cards, 2, 40000, 3, 64, 1, &st);
    assert_true(r && doc);
    assert_string_equal(doc, tmc_emax_result_json(r));
    tmc_string_free(doc);
    tmc_emax_result_free(r);
    o.has_step = 1, o.mu_s = 0;
    assert_null(tmc_emax_run_result(cards, 2, &o, &st));
    expect_message(&st, "tmc_emax_run_result: mu_s = 0: must be a number > 0");
}

/* api-1.14 */
static void test_name_parameters(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"--levers job.cardz: not a lever", "tmc_command_options.levers job.cardz: not a lever"},
        {"LOG: give --elapsed-days D or --committed-step N",
         "LOG: give tmc_command_options.elapsed_days D or tmc_command_options.committed_step N"},
        {"--write: no law", "tmc_document_fragment: no law"},
        {"--log x; --logs y; a--log z", "tmc_command_options.log x; --logs y; a--log z"},
        {"a `trainmc fit --write` file; --write: none",
         "a `trainmc fit --write` file; tmc_document_fragment: none"},
        {"--importance-pilot 3 and --importance",
         "tmc_run_options.pilot_replicas 3 and tmc_run_options.importance"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", cases[i].in);
        tmc_api_name_parameters(msg, sizeof msg);
        assert_string_equal(msg, cases[i].out);
        tmc_api_keep_flag_names(1);
        snprintf(msg, sizeof msg, "%s", cases[i].in);
        tmc_api_name_parameters(msg, sizeof msg);
        tmc_api_keep_flag_names(0);
        assert_string_equal(msg, cases[i].in);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_case),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_stop_and_progress),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_summary_only),
        cmocka_unit_test(test_paths_and_precision),
        cmocka_unit_test(test_closed_form_and_json),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sweep_text),
        cmocka_unit_test(test_inline_trace_and_nulls),
        cmocka_unit_test(test_emax),
        cmocka_unit_test(test_key_bounds),
        cmocka_unit_test(test_emax_result),
        cmocka_unit_test(test_name_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
