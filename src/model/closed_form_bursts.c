/* closed_form_bursts.c - bursts in the closed forms (docs/model.md 3.24):
 * the size law a burst's nodes follow, and the spare pool's blocking when
 * failures arrive in batches.
 *
 * The pool's count. Units (nodes) go to repair at failures and come back
 * after a repair of mean R each, in parallel; the job holds U spare units.
 * With n units in repair the job is whole while n <= U and waits (down, so
 * that no failure strikes) while n > U. An arrival of k units while n <= U
 * jumps the count to n + k; repairs end at rate n / R. For exponential
 * repairs this is a Markov chain on 0 .. U + k_max whose stationary law
 * follows from the level crossings of each cut between n and n + 1: the
 * rate up across it, sum over m <= min(n, U) of pi_m lambda P(K > n - m),
 * equals the rate down, pi_{n+1} (n + 1) / R (a cut of a Markov chain:
 * what flows up across it flows down; Kleinrock, Queueing Systems vol. 1,
 * 1975). P(wait) needs pi_0 .. pi_U only, and the cuts below U involve
 * no state above it, so the recursion stops at U. An arrival waits when m + K
 * > U; by PASTA over the time up, P(wait) = sum_{m <= U} pi_m P(K > U - m)
 * / sum_{m <= U} pi_m. With single arrivals (K = 1) this is Erlang's B(U,
 * a) exactly, which the loss system of 3.21 gives for any repair law; with
 * bursts the law of R matters, and other laws are taken at their mean (an
 * approximation). */
#include "closed_form.h"

#include <math.h>
#include <stdlib.h>

#include "experiment_rules.h"

/* The largest size a table holds, or a geometric's past which the tail is
 * below 1e-12, capped at the job's nodes. */
static long max_nodes(const tmc_failures *f, long nodes)
{
    double k = f->burst_nodes;
    if (f->burst_size == TMC_BURST_TABLE)
        k = f->n_burst_weights;
    else if (f->burst_size == TMC_BURST_GEOMETRIC) /* P(K > k) = (1 - p)^(k - 1) */
        k = 1 + ceil(log(1e-12) / log1p(-1 / (f->burst_nodes - 1)));
    return k < (double)nodes ? (long)k : nodes;
}

long tmc_closed_form_burst_size_law(const tmc_failures *f, long cards, double *q, long n)
{
    long nodes = tmc_job_nodes(cards, f->cards_per_node), top = max_nodes(f, nodes);
    if (!q)
        return top;
    for (long k = 0; k <= n; k++)
        q[k] = 0;
    if (f->burst_size == TMC_BURST_FIXED) {
        q[top] = 1;
        return top;
    }
    double sum = 0, p = f->burst_size == TMC_BURST_GEOMETRIC ? 1 / (f->burst_nodes - 1) : 0;
    for (long k = 1; k <= top; k++) {
        double w = p > 0 ? (k >= 2 ? p * pow(1 - p, (double)(k - 2)) : 0)
                         : f->burst_weights[k - 1];
        q[k] = w;
        sum += w;
    }
    if (p > 0) /* the tail past the job's nodes takes all of them */
        q[top] += fmax(1 - sum, 0), sum = fmax(sum, 1);
    for (long k = 1; k <= top; k++)
        q[k] /= sum;
    return top;
}

double tmc_closed_form_burst_mean_nodes(const tmc_failures *f, long cards)
{
    long top = tmc_closed_form_burst_size_law(f, cards, NULL, 0);
    double *q = malloc((size_t)(top + 1) * sizeof *q), mean = 0;
    if (!q)
        return NAN;
    tmc_closed_form_burst_size_law(f, cards, q, top);
    for (long k = 1; k <= top; k++)
        mean += (double)k * q[k];
    free(q);
    return mean;
}

/* P(wait) for a pool of u units: single arrivals at `single` per second,
 * bursts at `burst` with sizes q[1..top], repairs of mean r, s. */
static double blocking(long u, double single, double burst, const double *q, long top,
                       double r)
{
    double *pi = malloc((size_t)(u + 1) * sizeof *pi);
    double *tail = malloc((size_t)(top + 1) * sizeof *tail); /* P(K > j) */
    if (!pi || !tail)
        return free(pi), free(tail), NAN;
    tail[top] = 0;
    for (long j = top - 1; j >= 0; j--)
        tail[j] = tail[j + 1] + q[j + 1];
    pi[0] = 1;
    double up_sum = 0, wait = 0;
    for (long n = 0; n < u; n++) { /* the cuts below U: every state under them runs */
        double up = 0;
        for (long m = n - top + 1 > 0 ? n - top + 1 : 0; m <= n; m++)
            up += pi[m] * (burst * tail[n - m] + (n == m ? single : 0));
        pi[n + 1] = up * r / (double)(n + 1);
        if (pi[n + 1] > 1e250) /* rescale: only ratios matter */
            for (long m = 0; m <= n + 1; m++)
                pi[m] *= 1e-250;
    }
    for (long m = 0; m <= u; m++) {
        double over = u - m < top ? tail[u - m] : 0;
        up_sum += pi[m] * (single + burst);
        wait += pi[m] * (single * (m == u) + burst * over);
    }
    free(pi);
    free(tail);
    return up_sum > 0 ? wait / up_sum : 0;
}

double tmc_closed_form_burst_blocking(const tmc_failures *f, long cards, long units,
                                      double single, double burst, double repair_s)
{
    if (units < 0)
        return 0;
    long top = tmc_closed_form_burst_size_law(f, cards, NULL, 0);
    double *q = malloc((size_t)(top + 1) * sizeof *q);
    if (!q)
        return NAN;
    tmc_closed_form_burst_size_law(f, cards, q, top);
    double p = blocking(units, single, burst, q, top, repair_s);
    free(q);
    return p;
}

long tmc_closed_form_burst_pool_for(const tmc_failures *f, long cards, double single,
                                    double burst, double repair_s, double p)
{
    long lo = 0, hi = 1;
    while (hi < 10000000 &&
           !(tmc_closed_form_burst_blocking(f, cards, hi, single, burst, repair_s) < p))
        lo = hi, hi *= 2;
    while (hi - lo > 1) { /* P(wait) falls as the pool grows */
        long mid = lo + (hi - lo) / 2;
        if (tmc_closed_form_burst_blocking(f, cards, mid, single, burst, repair_s) < p)
            hi = mid;
        else
            lo = mid;
    }
    return tmc_closed_form_burst_blocking(f, cards, lo, single, burst, repair_s) < p ? lo : hi;
}
