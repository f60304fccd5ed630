/* snapshots.c - the write queue of asynchronous checkpoints (snapshots.h). */
#include "snapshots.h"

void tmc_snapshots_reset(tmc_snapshots *q)
{
    q->head = q->count = q->max_count = 0;
    q->storage_free_s = 0;
}

int tmc_snapshots_capture(tmc_snapshots *q, tmc_snapshot *s, double write_s)
{
    if (q->count == TMC_SNAPSHOTS_MAX)
        return -1;
    double start = s->capture_s > q->storage_free_s ? s->capture_s : q->storage_free_s;
    s->commit_s = start + write_s;
    q->storage_free_s = s->commit_s;
    q->queue[(q->head + q->count) % TMC_SNAPSHOTS_MAX] = *s;
    q->count++;
    if (q->count > q->max_count)
        q->max_count = q->count;
    return 0;
}

int tmc_snapshots_commit(tmc_snapshots *q, double t, tmc_snapshot *out)
{
    if (q->count == 0 || q->queue[q->head].commit_s > t)
        return 0;
    *out = q->queue[q->head];
    q->head = (q->head + 1) % TMC_SNAPSHOTS_MAX;
    q->count--;
    return 1;
}

void tmc_snapshots_abort(tmc_snapshots *q)
{
    q->count = 0;
    q->storage_free_s = 0; /* writes in progress are abandoned */
}
