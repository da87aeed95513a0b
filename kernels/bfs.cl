/* bfs.cl: breadth-first search levels, worklist-driven in the style of Lonestar-GPU, in the
 * three forms coop-bench runs: a plain persistent kernel (bfs_standalone), a cooperative
 * megakernel with a high-priority task beside it (bfs_mega), and one launch per round from the
 * host (bfs_step). Built after kernels/tasks/matmult.cl.
 *
 * Round r expands the worklist of the nodes at level r into the nodes at level r + 1. The
 * worklists alternate between wl0 (even rounds read it) and wl1; `counts` holds
 *   counts[0..2]  worklist sizes: round r reads counts[r % 3] and pushes into counts[(r + 1) % 3];
 *                 group 0 clears counts[(r + 2) % 3] for round r + 1: it was round r - 1's
 *                 input, which nobody reads any more;
 *   counts[3]     rounds run, written at the end;
 *   counts[4]     worklist items processed over all rounds (group 0 adds each round's size).
 * A global barrier ends each round; the search ends when a round pushed nothing. The host
 * starts with level[] = BFS_UNREACHED except level[source] = 0, wl0 = {source} and
 * counts = {1, 0, 0, 0}. */
#define BFS_UNREACHED 0xffffffffu

/* Round `round` of the search, this group's share: worklist items group * L + l, stepping by
 * groups * L. A node is pushed once, by whoever sets its level. */
inline void bfs_round(uint group, uint groups, uint round, uint in_count, global const uint *row,
                      global const uint *col, volatile global uint *level, global uint *wl0, global uint *wl1,
                      volatile global uint *counts)
{
    global const uint *in = round & 1u ? wl1 : wl0;
    global uint *out = round & 1u ? wl0 : wl1;
    uint local_size = get_local_size(0);
    for (uint i = group * local_size + get_local_id(0); i < in_count; i += groups * local_size) {
        uint u = in[i];
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            if (level[v] == BFS_UNREACHED && atomic_cmpxchg(&level[v], BFS_UNREACHED, round + 1u) == BFS_UNREACHED)
                out[coop_atomic_inc(&counts[(round + 1u) % 3u])] = v;
        }
    }
    if (group == 0 && get_local_id(0) == 0) {
        counts[(round + 2u) % 3u] = 0;
        atomic_add(&counts[4], in_count); /* no result used: not waited for */
    }
}

kernel void bfs_standalone(COOP_PARAMS, global const uint *row, global const uint *col, global uint *level,
                           global uint *wl0, global uint *wl1, global uint *counts)
{
    COOP_ENTER(ctx);
    uint group = coop_group_id(&ctx), groups = coop_num_groups(&ctx);
    uint round = 0;
    for (uint in_count = counts[0]; in_count; in_count = counts[round % 3u]) {
        bfs_round(group, groups, round, in_count, row, col, level, wl0, wl1, counts);
        round++;
        coop_global_barrier(&ctx);
    }
    if (group == 0 && get_local_id(0) == 0)
        counts[3] = round;
}

/* What a forked group needs to join the search: the round it resumes at (the worklists and
 * their sizes are in global memory). */
typedef struct bfs_state {
    uint round;
} bfs_state;

/* The cooperative kernel: the same rounds with resizing barriers, so members may be killed or
 * forked between rounds; each round splits its worklist over the members it has. */
void bfs_cooperative(coop_ctx *ctx, global const uint *row, global const uint *col, global uint *level,
                     global uint *wl0, global uint *wl1, global uint *counts)
{
    bfs_state t;
    if (coop_resume_point(ctx) == 1)
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    for (uint in_count = counts[t.round % 3u]; in_count && !killed; in_count = counts[t.round % 3u]) {
        bfs_round(coop_group_id(ctx), coop_shared_num_groups(ctx), t.round, in_count, row, col, level, wl0, wl1, counts);
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
    }
    if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)
        counts[3] = t.round;
}

kernel void bfs_mega(COOP_PARAMS, global const uint *row, global const uint *col, global uint *level,
                     global uint *wl0, global uint *wl1, global uint *counts, global const uint *task_a,
                     global const uint *task_b, global uint *task_c)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            bfs_cooperative(&ctx, row, col, level, wl0, wl1, counts);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_matmult(&ctx, task_a, task_b, task_c);
    }
}

/* One round as an ordinary kernel; the host reads counts[(round + 1) % 3] afterwards. */
kernel void bfs_step(global const uint *row, global const uint *col, global uint *level, global uint *wl0,
                     global uint *wl1, global uint *counts, uint round, uint in_count)
{
    bfs_round(get_group_id(0), get_num_groups(0), round, in_count, row, col, level, wl0, wl1, counts);
}

#ifdef BENCH_SEARCHES
/* kernels/lib/searches.cl's forms: levels count from the round the search started at (the
 * source's level), so the host subtracts counts[SEARCH_BASE]. */
inline void bfs_restart(uint group, uint groups, uint round, global const uint *row, global const uint *col,
                        volatile global uint *level, global uint *wl0, global uint *wl1, volatile global uint *counts)
{
    search_restart(group, groups, round, level, round + 1u, wl0, wl1, counts);
}

#define SEARCH_NAME bfs
#define SEARCH_PARAMS global const uint *row, global const uint *col, global uint *level, global uint *wl0, global uint *wl1
#define SEARCH_ARGS row, col, level, wl0, wl1
#define SEARCH_NUM_GROUPS coop_shared_num_groups
SEARCH_APP
#endif
