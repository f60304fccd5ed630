/* ranks_single.c - the plain build's ranks.h: one process, rank 0 of 1, no
 * MPI. Every collective call is already complete. */
#include "ranks.h"

int tmc_ranks_init(int *argc, char ***argv, tmc_error *err)
{
    (void)argc;
    (void)argv;
    (void)err;
    return 0;
}

int tmc_ranks_finalize(int rc)
{
    return rc;
}

int tmc_ranks_self(void)
{
    return 0;
}

void tmc_ranks_split(long n, long *first, long *end)
{
    *first = 0;
    *end = n;
}

int tmc_ranks_agree(int rc, tmc_error *err)
{
    (void)err;
    return rc;
}

int tmc_ranks_same(uint64_t digest)
{
    (void)digest;
    return 1;
}

long tmc_ranks_sum(long v)
{
    return v;
}

int tmc_ranks_share(void *items, size_t size, long n, long group, tmc_error *err)
{
    (void)items;
    (void)size;
    (void)n;
    (void)group;
    (void)err;
    return 0;
}
