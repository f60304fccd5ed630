/* snapshots.h - asynchronous checkpoints: snapshots captured, written in
 * the background one after another, and restorable only once committed
 * (docs/model.md 3.3; issue 4).
 *
 * A snapshot is captured when its blocking copy ends; its write starts when
 * the storage is free (when the previous write ends, or at the capture) and
 * it commits write_s later. After an interruption at time t the run resumes
 * from the newest snapshot committed by t; later ones are lost.
 * Invariant: queue[head .. head+count) are the uncommitted snapshots in
 * capture order, with non-decreasing commit times. */
#ifndef TMC_SNAPSHOTS_H
#define TMC_SNAPSHOTS_H

#define TMC_SNAPSHOTS_MAX 64

/* What a snapshot saves: the step it holds, when it was captured and when
 * it commits, and what the work since the previous one cost: its summed
 * slowest-card compute time (pauses included), its pauses and its blocking
 * copy, seconds (the engine splits them at commit, accounting.h). */
typedef struct {
    long step;
    long timed; /* the steps computed in this run (a forecast's first snapshot
                   also holds the steps done before it started) */
    double capture_s, commit_s;
    double sum_max_s, pause_s, copy_s;
    double drift_s; /* of sum_max_s, what a slowdown added (checkpoint.c) */
} tmc_snapshot;

typedef struct {
    tmc_snapshot queue[TMC_SNAPSHOTS_MAX];
    int head, count;
    double storage_free_s; /* when the last queued write ends */
    int max_count;         /* the longest the queue grew */
} tmc_snapshots;

void tmc_snapshots_reset(tmc_snapshots *q);

/* Queue snapshot s captured at s->capture_s with a write of write_s
 * seconds; fills s->commit_s. Returns 0, or -1 if TMC_SNAPSHOTS_MAX writes
 * are already waiting (the storage cannot keep up). */
int tmc_snapshots_capture(tmc_snapshots *q, tmc_snapshot *s, double write_s);

/* Pop the oldest snapshot if it has committed by time t: 1 and *out, or 0. */
int tmc_snapshots_commit(tmc_snapshots *q, double t, tmc_snapshot *out);

/* Drop every snapshot not committed (after an interruption). */
void tmc_snapshots_abort(tmc_snapshots *q);

#endif
