/* ranks_mpi.c - ranks.h over MPI_COMM_WORLD (built with -DTRAINMC_MPI=ON). */
#include "ranks.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

/* Until tmc_ranks_init, one process: library users without MPI_Init (unit
 * tests, the benchmark) never reach an MPI call. */
static int self = 0, count = 1;
static int *counts, *displs; /* [count]: tmc_ranks_share's blocks, in items */
static int agreed;           /* 1 once tmc_ranks_agree returned a failure */

/* `trainmc run --help` and the like leave through exit(0) on every rank:
 * MPI still wants its MPI_Finalize then. */
static void finalize_at_exit(void)
{
    int initialized, finalized;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized)
        MPI_Finalize();
}

int tmc_ranks_init(int *argc, char ***argv, tmc_error *err)
{
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return tmc_error_set(err, "MPI_Init_thread failed");
    atexit(finalize_at_exit);
    MPI_Comm_rank(MPI_COMM_WORLD, &self);
    MPI_Comm_size(MPI_COMM_WORLD, &count);
    if (provided < MPI_THREAD_FUNNELED)
        return tmc_error_set(err, "this MPI offers no thread support (MPI_THREAD_FUNNELED)");
    counts = malloc((size_t)count * sizeof *counts);
    displs = malloc((size_t)count * sizeof *displs);
    if (!counts || !displs)
        return tmc_error_set(err, "out of memory for %d ranks", count);
    return 0;
}

int tmc_ranks_finalize(int rc)
{
    if (rc != 0 && !agreed && count > 1) {
        fflush(NULL); /* what this rank printed comes before MPI's notice */
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    finalize_at_exit();
    free(counts);
    free(displs);
    return rc;
}

int tmc_ranks_self(void)
{
    return self;
}

/* Rank r's block of n items. n r fits a long long: n is at most a billion
 * replicas, r at most a few million ranks. */
static void block(long n, int r, long *first, long *end)
{
    *first = (long)((long long)n * r / count);
    *end = (long)((long long)n * (r + 1) / count);
}

void tmc_ranks_split(long n, long *first, long *end)
{
    block(n, self, first, end);
}

int tmc_ranks_agree(int rc, tmc_error *err)
{
    if (count == 1)
        return rc;
    int mine = rc ? self : count, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == count)
        return 0;
    struct {
        int rc;
        char msg[sizeof err->msg];
    } why = {rc, ""};
    if (self == first && err)
        memcpy(why.msg, err->msg, sizeof why.msg);
    MPI_Bcast(&why, (int)sizeof why, MPI_BYTE, first, MPI_COMM_WORLD);
    why.msg[sizeof why.msg - 1] = '\0';
    if (err && first != 0)
        tmc_error_set(err, "rank %d of %d: %s", first, count, why.msg);
    else if (err)
        memcpy(err->msg, why.msg, sizeof why.msg);
    agreed = 1;
    return why.rc;
}

int tmc_ranks_same(uint64_t digest)
{
    uint64_t first = digest;
    if (count > 1)
        MPI_Bcast(&first, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return first == digest;
}

long tmc_ranks_sum(long v)
{
    long sum = v;
    if (count > 1)
        MPI_Allreduce(&v, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}

int tmc_ranks_share(void *items, size_t size, long n, long group, tmc_error *err)
{
    if (count == 1)
        return 0;
    if (n > INT_MAX)
        return tmc_error_set(err, "%ld items to gather across ranks; one MPI call moves at "
                                  "most %d", n, INT_MAX);
    long groups = (n + group - 1) / group;
    for (int r = 0; r < count; r++) {
        long g0, g1;
        block(groups, r, &g0, &g1);
        long first = g0 * group < n ? g0 * group : n, end = g1 * group < n ? g1 * group : n;
        displs[r] = (int)first;
        counts[r] = (int)(end - first);
    }
    MPI_Datatype item;
    MPI_Type_contiguous((int)size, MPI_BYTE, &item);
    MPI_Type_commit(&item);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, items, counts, displs, item,
                   MPI_COMM_WORLD);
    MPI_Type_free(&item);
    return 0;
}
