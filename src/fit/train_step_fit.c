/* train_step_fit.c - mu and cv of a card's step time from the slowest
 * card's times a training log prints (train_step_fit.h, docs/fit.md 12). */
#include "train_step_fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <gsl/gsl_cdf.h>

#include "dist.h"

int tmc_train_step_is_csv(const char *path)
{
    size_t len = strlen(path);
    if (len > 4 && !strcasecmp(path + len - 4, ".csv"))
        return 1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    int csv = 0;
    while (fgets(line, sizeof line, f)) {
        const char *p = line;
        if (!strncmp(p, "\xEF\xBB\xBF", 3)) /* a byte-order mark, as the CSV reader skips */
            p += 3;
        p += strspn(p, " \t");
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        for (const char *q = p;; q += strcspn(q, ",") + 1) { /* the fields, blanks trimmed */
            q += strspn(q, " \t\"");
            size_t n = strcspn(q, ",\r\n");
            while (n && strchr(" \t\"", q[n - 1]))
                n--;
            if (n == 4 && !strncmp(q, "step", 4))
                csv = 1;
            if (q[strcspn(q, ",")] != ',')
                break;
        }
        break;
    }
    fclose(f);
    return csv;
}

/* The sums over the fitted values: W, m, sigma^2 and the third and fourth
 * moments the SEs need. */
typedef struct {
    int k;
    double w, m, v, s3, s4; /* s3 = sum L^2 d^3, s4 = sum L^2 d^4 */
} sums;

static void sum_up(const tmc_train_log *log, sums *s, tmc_train_step_fit *r)
{
    memset(s, 0, sizeof *s);
    double wy = 0;
    r->l_min = r->l_max = 0;
    for (int i = 0; i < log->n; i++) {
        const tmc_train_log_point *p = &log->pt[i];
        if (p->steps <= 0)
            continue;
        s->k++;
        s->w += (double)p->steps;
        wy += (double)p->steps * p->step_s;
        if (!r->l_min || p->steps < r->l_min)
            r->l_min = p->steps;
        if (p->steps > r->l_max)
            r->l_max = p->steps;
    }
    if (s->k == 0)
        return;
    s->m = wy / s->w;
    for (int i = 0; i < log->n; i++) {
        const tmc_train_log_point *p = &log->pt[i];
        if (p->steps <= 0)
            continue;
        double l = (double)p->steps, d = p->step_s - s->m;
        s->v += l * d * d;
        s->s3 += l * l * d * d * d;
        s->s4 += l * l * d * d * d * d;
    }
    s->v /= s->k > 1 ? s->k - 1 : 1;
}

/* A figure from its value, the gradient (gm, gv) by (m, sigma^2) and their
 * covariance matrix (vm, vv, cmv), its interval at z. */
static tmc_train_step_figure delta(double value, double gm, double gv, double vm, double vv,
                                   double cmv, double z)
{
    double var = gm * gm * vm + gv * gv * vv + 2 * gm * gv * cmv;
    double se = sqrt(var > 0 ? var : 0);
    return (tmc_train_step_figure){value, se, value - z * se, value + z * se};
}

int tmc_train_step_fit_compute(const tmc_train_log *log, long cards, double confidence,
                               tmc_train_step_fit *r, tmc_error *err)
{
    memset(r, 0, sizeof *r);
    r->confidence = confidence;
    r->cards = cards;
    r->lines = log->n;
    r->restarts = log->restarts;
    double skew;
    if (cards < 1 || tmc_dist_normal_max_moments(cards, &r->c_n, &r->s_n, &skew))
        return tmc_error_set(err, "no moments of the maximum of %ld normal cards", cards);
    sums s;
    sum_up(log, &s, r);
    r->intervals = s.k;
    r->iterations = (long)s.w;
    if (s.k < 3)
        return tmc_error_set(err, "%d printed step time%s after a start's first line; "
                             "allowed: 3 or more (a start's first line holds its start-up "
                             "and is left out)", s.k, s.k == 1 ? "" : "s");
    if (!(s.v > 0))
        return tmc_error_set(err, "every printed step time is %.6g s: no spread between the "
                             "steps to fit a cv to", s.m);
    double sigma = sqrt(s.v), mu = s.m - r->c_n * sigma / r->s_n;
    if (!(mu > 0))
        return tmc_error_set(err, "the step times spread too widely for the slowest of %ld "
                             "normal cards: mean %.6g s, sd of one step %.6g s give mu = mean "
                             "- c_N sd / s_N = %.6g s (c_N %.4f, s_N %.4f); slow steps "
                             "(evaluation, checkpoints) among the lines?", cards, s.m, sigma,
                             mu, r->c_n, r->s_n);
    double k = s.k, vm = s.v / s.w, vv = (s.s4 - k * s.v * s.v) / (k * k);
    double cmv = s.s3 / (s.w * k);
    if (vv < 0)
        vv = 0;
    double z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
    r->step_sd_s = sigma;
    r->pace_s = delta(s.m, 1, 0, vm, vv, cmv, z);
    /* mu = m - c sigma / s: d/dm 1, d/dv -c / (2 s sigma) */
    r->mu_s = delta(mu, 1, -r->c_n / (2 * r->s_n * sigma), vm, vv, cmv, z);
    /* cv = sigma / (s m - c sigma) = sigma / (s mu) */
    double den = r->s_n * s.m - r->c_n * sigma;
    r->cv = delta(sigma / den, -sigma * r->s_n / (den * den),
                  r->s_n * s.m / (den * den) / (2 * sigma), vm, vv, cmv, z);
    return 0;
}
