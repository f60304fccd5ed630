/* example.c - a program built against an installed libtrainmc (trainmc.h),
 * as a user's would be: load an experiment with an override, run its
 * replicas, read the summary and every replica's completion time.
 * tests/check_library.sh builds it with pkg-config and with
 * find_package(trainmc), shared and static, and compares its figures with
 * the installed `trainmc run`.
 * Usage: example EXPERIMENT.json REPLICAS SEED
 * Prints "probability P mean M replicas N" (P = P(T <= deadline), M = mean
 * completion days, both %.17g), then checks what the library promises and
 * exits 1 with a message for each broken promise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trainmc.h>

static int failures;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "example: %s\n", what);
        failures++;
    }
}

/* Errors come back as a code and a message naming the input, never an exit. */
static void check_errors(const char *path)
{
    tmc_status st;
    tmc_experiment *x = tmc_experiment_load("no/such/file.json", NULL, 0, &st);
    expect(!x && st.code == TMC_ERR_INPUT && strstr(st.message, "no/such/file.json"),
           "a missing file is TMC_ERR_INPUT naming the file");
    const char *bad[] = {"job.cards=-3"};
    x = tmc_experiment_load(path, bad, 1, &st);
    expect(!x && st.code == TMC_ERR_INPUT && strstr(st.message, "job.cards"),
           "a bad override is TMC_ERR_INPUT naming its key");
    x = tmc_experiment_parse("{\"job\": {\"steps\": 10}}", "inline", NULL, NULL, 0, &st);
    expect(!x && st.code == TMC_ERR_INPUT && !strncmp(st.message, "inline: ", 8),
           "an incomplete experiment in memory is TMC_ERR_INPUT under its label");
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: example EXPERIMENT.json REPLICAS SEED\n");
        return 2;
    }
    tmc_status st;
    const char *overrides[] = {"deadline.days=30"};
    tmc_experiment *x = tmc_experiment_load(argv[1], overrides, 1, &st);
    if (!x) {
        fprintf(stderr, "example: %s\n", st.message);
        return 1;
    }
    tmc_run_options o;
    tmc_run_options_init(&o);
    o.replicas = atol(argv[2]);
    o.has_seed = 1;
    o.seed = strtoull(argv[3], NULL, 10);
    tmc_result *r = tmc_experiment_run(x, &o, &st);
    tmc_experiment_free(x);
    if (!r) {
        fprintf(stderr, "example: %s\n", st.message);
        return 1;
    }
    long n = tmc_result_replicas(r);
    double p = tmc_result_number(r, "deadline.probability");
    double mean = tmc_result_number(r, "completion_days.mean");
    /* 15 significant digits: what the JSON holds (cJSON writes 15 when they read
     * back within an ulp, so its last bit may differ from the double here) */
    printf("probability %.15g mean %.15g replicas %ld\n", p, mean, n);

    /* the summary is the statistics of the per-replica figures */
    const double *days = tmc_result_completion_days(r);
    double sum = 0;
    long met = 0;
    for (long k = 0; k < n; k++)
        sum += days[k], met += days[k] <= 30;
    expect(n == o.replicas, "replicas run = replicas asked");
    expect(fabs(sum / n - mean) <= 1e-12 * mean, "mean of the replicas = completion_days.mean");
    expect((double)met / n == p, "share of replicas <= 30 days = deadline.probability");
    double *split = malloc((size_t)n * sizeof *split);
    expect(split && tmc_result_copy_figure(r, TMC_FIGURE_SPLIT, 0, split) == TMC_OK &&
               !strcmp(tmc_figure_name(TMC_FIGURE_SPLIT, 0), "useful_compute"),
           "split row 0 is useful_compute and can be copied");
    expect(tmc_result_copy_figure(r, TMC_FIGURE_SPLIT, 99, split) == TMC_ERR_INPUT,
           "a figure out of range is TMC_ERR_INPUT");
    expect(isnan(tmc_result_number(r, "no.such.key")), "a missing path is NaN");
    free(split);
    tmc_result_free(r);
    check_errors(argv[1]);
    return failures ? 1 : 0;
}
