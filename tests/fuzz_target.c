/* fuzz_target.c - libFuzzer target for `trainmc sweep --target METRIC>=VALUE
 * --vary KEY=LO:HI[:TOL]` (issue: "the experiment loader is fuzzed; the
 * other parsers are not").
 *
 * The fuzzed bytes are the --target text, a newline, and the --vary text
 * (without a newline: the same text is both). They go to
 * tmc_sweep_parse_target and tmc_sweep_parse_bracket; an accepted bracket of
 * a numeric key (tmc_config_classify_key) to tmc_sweep_check_bracket as
 * `trainmc sweep` does; an accepted pair to tmc_sweep_bisect, with a
 * synthetic metric that is monotone in the value (the value itself for the
 * means, a logistic of it for the probability) in place of the simulations,
 * refusing what the validation table would refuse (a fraction or more than
 * 1e15 for an integer key, more than 1e30 for a number: its widest bounds).
 *
 * What must hold: any byte string is parsed or refused with a non-empty
 * message; no crash, leak, undefined behaviour (AddressSanitizer and
 * UndefinedBehaviorSanitizer) or hang. An accepted target has a known
 * metric, a finite value (in [0, 1] for a probability); an accepted bracket
 * finite LO < HI and TOL 0 or positive. A bisection on a bracket that
 * tmc_sweep_check_bracket accepted ends within TMC_SWEEP_MAX_BISECTIONS + 2
 * evaluations (it refuses a TOL needing more halvings on a number key; an
 * integer key of at most 1e15 needs at most 50), which is all the room
 * `trainmc sweep --target` has for them (MAX_EVALUATIONS in cli_sweep.c),
 * with `found` meeting the target and `neighbour` not, at most TOL (or 1)
 * apart. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "sweep.h"

char *fuzz_text(const uint8_t *data, size_t size);
void fuzz_fail(const char *what, const char *detail);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const tmc_sweep_target *t;
    int integer;
    int evaluations;
    int limit;
} eval_ctx;

static int eval(double value, void *ctx, double *metric, tmc_error *err)
{
    eval_ctx *c = ctx;
    if (++c->evaluations > c->limit) {
        char at[120];
        snprintf(at, sizeof at, "at value %.17g", value);
        fuzz_fail("the bisection does not end", at);
    }
    if (c->integer ? value != floor(value) || fabs(value) > 1e15 : !(fabs(value) <= 1e30))
        return tmc_error_set(err, "value %.17g refused", value);
    *metric = c->t->metric == TMC_SWEEP_PROBABILITY ? 1 / (1 + exp(-value)) : value;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *nl = strchr(text, '\n');
    const char *target_text = text, *vary_text = text;
    if (nl) {
        *nl = '\0';
        vary_text = nl + 1;
    }
    tmc_sweep_target t;
    tmc_error terr = {""};
    int target_ok = tmc_sweep_parse_target(target_text, &t, &terr) == 0;
    if (target_ok) {
        if ((int)t.metric < 0 || (int)t.metric >= TMC_SWEEP_N_METRICS || !isfinite(t.value) ||
            (t.metric == TMC_SWEEP_PROBABILITY && !(t.value >= 0 && t.value <= 1)) ||
            (t.metric == TMC_SWEEP_GOODPUT && !(t.value > 0 && t.value <= 1)))
            fuzz_fail("an accepted target out of its range", target_text);
        if (strcmp(tmc_sweep_name_metric(t.metric), "") == 0)
            fuzz_fail("a metric without a name", target_text);
    } else if (!terr.msg[0]) {
        fuzz_fail("tmc_sweep_parse_target refused without a message", NULL);
    }

    tmc_sweep_bracket b;
    tmc_error berr = {""};
    if (tmc_sweep_parse_bracket(vary_text, &b, &berr)) {
        if (!berr.msg[0])
            fuzz_fail("tmc_sweep_parse_bracket refused without a message", NULL);
        goto done;
    }
    if (!isfinite(b.lo) || !isfinite(b.hi) || !(b.lo < b.hi) || !(b.tol >= 0) ||
        !isfinite(b.tol))
        fuzz_fail("an accepted bracket out of its range", vary_text);
    tmc_key_kind kind = tmc_config_classify_key(b.key);
    if (kind != TMC_KEY_NUMBER && kind != TMC_KEY_INTEGER)
        goto done; /* tmc_sweep_load_base refuses the key */
    int integer = kind == TMC_KEY_INTEGER;
    tmc_error cerr = {""};
    if (tmc_sweep_check_bracket(&b, integer, vary_text, &cerr)) {
        if (!cerr.msg[0])
            fuzz_fail("tmc_sweep_check_bracket refused without a message", NULL);
        goto done;
    }
    if (!target_ok)
        goto done;
    eval_ctx c = {&t, integer, 0, TMC_SWEEP_MAX_BISECTIONS + 2};
    tmc_sweep_bisection out;
    tmc_error err = {""};
    int rc = tmc_sweep_bisect(&t, &b, integer, eval, &c, &out, &err);
    if (rc && !err.msg[0])
        fuzz_fail("tmc_sweep_bisect failed without a message", NULL);
    if (rc == 0) {
        double m_found, m_neighbour;
        tmc_error e2 = {""};
        c.limit = c.evaluations + 2;
        if (eval(out.found, &c, &m_found, &e2) || eval(out.neighbour, &c, &m_neighbour, &e2))
            fuzz_fail("the bisection ended outside the bracket", vary_text);
        if (!tmc_sweep_meets_target(&t, m_found) || tmc_sweep_meets_target(&t, m_neighbour))
            fuzz_fail("found does not meet the target or neighbour does", vary_text);
        if (!(fabs(out.found - out.neighbour) <= (integer ? 1 : b.tol)))
            fuzz_fail("found and neighbour are further apart than TOL", vary_text);
    }
done:
    free(text);
    return 0;
}
