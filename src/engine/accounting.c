/* accounting.c - the result table's generated parts (accounting.h). */
#include "accounting.h"

#include <stdlib.h>
#include <string.h>

#define ROW_(f, key, label) {offsetof(tmc_replica, f), key, label},
const tmc_accounting_row tmc_accounting_split[] = {
    TMC_REPLICA_FIELDS(ROW_, TMC_NONE_, TMC_NONE_, TMC_NONE_)};
const int tmc_accounting_split_rows = TMC_SPLIT_N;
const tmc_accounting_row tmc_accounting_counts[] = {
    TMC_REPLICA_FIELDS(TMC_NONE_, ROW_, TMC_NONE_, TMC_NONE_)};
const int tmc_accounting_count_rows =
    (int)(sizeof tmc_accounting_counts / sizeof tmc_accounting_counts[0]);
#undef ROW_

double tmc_accounting_get(const tmc_replica *r, const tmc_accounting_row *row)
{
    return *(const double *)((const char *)r + row->offset);
}

/* The split's rows are a struct of doubles over an array of as many: the
 * array is the struct, member by member. */
_Static_assert(sizeof(((tmc_replica *)0)->split) == TMC_SPLIT_N * sizeof(double),
               "the split's rows are the split array");

void tmc_accounting_accumulate(tmc_replica *a, const tmc_replica *b)
{
#define ADD_(f, key, label) a->f += b->f;
#define ADD_SUM_(f) a->f += b->f;
#define ADD_ARRAY_(f, n)                                                                   \
    for (int i = 0; i < (n); i++)                                                          \
        a->f[i] += b->f[i];
    TMC_REPLICA_FIELDS(ADD_, ADD_, ADD_SUM_, ADD_ARRAY_)
#undef ADD_
#undef ADD_SUM_
#undef ADD_ARRAY_
}

void tmc_accounting_sample(const tmc_replica *r, tmc_sample *s)
{
    s->wall_s = r->wall_s;
    for (int i = 0; i < TMC_SPLIT_N; i++)
        s->split[i] = r->split[i];
    for (int i = 0; i < TMC_COUNT_N; i++)
        s->count[i] = tmc_accounting_get(r, &tmc_accounting_counts[i]);
    s->censored = r->censored;
    s->w = r->w;
}

double tmc_accounting_split_sum(const tmc_replica *r)
{
    double sum = 0;
    for (int i = 0; i < TMC_SPLIT_N; i++)
        sum += r->split[i];
    return sum;
}

/* The list grows as the run commits. */
static int remember(tmc_ledger *l, const tmc_commit *c)
{
    if (l->n == l->cap) {
        long cap = l->cap ? 2 * l->cap : 64;
        tmc_commit *grown = realloc(l->parts, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        l->parts = grown;
        l->cap = cap;
    }
    l->parts[l->n++] = *c;
    return 0;
}

int tmc_accounting_commit(tmc_ledger *l, tmc_replica *out, const tmc_commit *c)
{
    for (int i = 0; i < TMC_SPLIT_N; i++)
        out->split[i] += c->row[i];
    out->saves += (double)c->snapshots;
    if (l->keep && remember(l, c))
        return out->failed = TMC_REPLICA_NO_MEMORY, -1;
    return 0;
}

/* The newest commit remembered moves from the split to lost work; returns
 * the steps it held. */
static long drop_newest(tmc_ledger *l, tmc_replica *out)
{
    const tmc_commit *c = &l->parts[--l->n];
    double moved = 0;
    for (int k = 0; k < TMC_SPLIT_N; k++) {
        out->split[k] -= c->row[k];
        moved += c->row[k];
    }
    out->lost_s += moved;
    out->saves -= (double)c->snapshots;
    return c->steps;
}

long tmc_accounting_roll_back(tmc_ledger *l, tmc_replica *out, long snapshots)
{
    long steps = 0;
    for (long i = 1; i < snapshots && l->n > 0; i++)
        steps += drop_newest(l, out);
    return steps;
}

long tmc_accounting_roll_back_all(tmc_ledger *l, tmc_replica *out)
{
    long steps = 0;
    while (l->n > 0)
        steps += drop_newest(l, out);
    return steps;
}

void tmc_accounting_forget_oldest(tmc_ledger *l, long steps)
{
    long k = 0;
    while (k < l->n && (steps > 0 || l->parts[k].steps == 0)) /* a last re-save too */
        steps -= l->parts[k++].steps;
    memmove(l->parts, l->parts + k, (size_t)(l->n - k) * sizeof *l->parts);
    l->n -= k;
}

void tmc_accounting_free(tmc_ledger *l)
{
    free(l->parts);
    l->parts = NULL;
    l->n = l->cap = 0;
}

double tmc_accounting_restarts(const tmc_replica *r)
{
    return r->card_failures + r->outages + r->loss_spikes + r->save_timeouts +
           r->before_restarts;
}

double tmc_accounting_sample_restarts(const tmc_sample *s)
{
    return s->count[TMC_COUNT_card_failures] + s->count[TMC_COUNT_outages] +
           s->count[TMC_COUNT_loss_spikes] + s->count[TMC_COUNT_save_timeouts] +
           s->count[TMC_COUNT_before_restarts];
}
