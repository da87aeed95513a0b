/* sssp.cl: single-source shortest paths by worklist-driven Bellman-Ford relaxation in the style
 * of Lonestar-GPU, in the three forms coop-bench runs: a plain persistent kernel
 * (sssp_standalone), a cooperative megakernel with a high-priority task beside it (sssp_mega),
 * and one launch per round from the host (sssp_step). Built after kernels/tasks/matmult.cl.
 *
 * Round r relaxes the arcs leaving the nodes of its worklist with atomic_min on their heads'
 * distances; a node whose distance dropped is pushed for round r + 1 unless it is there already
 * (mark[v] == r + 1 says so; marks start at 0, the source's round). A node whose distance drops
 * while it is being relaxed is pushed again, so the rounds converge on the shortest distances.
 * Sums saturate at SSSP_CAP (the host rejects graphs whose distances reach it).
 * The worklists and `counts` work as in bfs.cl:
 *   counts[0..2]  worklist sizes: round r reads counts[r % 3] and pushes into counts[(r + 1) % 3];
 *                 group 0 clears counts[(r + 2) % 3] for round r + 1;
 *   counts[3]     rounds run, written at the end;
 *   counts[4]     worklist items processed over all rounds (group 0 adds each round's size).
 * The host starts with dist[] = SSSP_UNREACHED except dist[source] = 0, mark[] = 0,
 * wl0 = {source} and counts = {1, 0, 0, 0}. */
#define SSSP_UNREACHED 0xffffffffu
#define SSSP_CAP 0xfffffffeu

inline void sssp_round(uint group, uint groups, uint round, uint in_count, global const uint *row,
                       global const uint *col, global const uint *weight, volatile global uint *dist,
                       volatile global uint *mark, global uint *wl0, global uint *wl1, volatile global uint *counts)
{
    global const uint *in = round & 1u ? wl1 : wl0;
    global uint *out = round & 1u ? wl0 : wl1;
    uint local_size = get_local_size(0);
    for (uint i = group * local_size + get_local_id(0); i < in_count; i += groups * local_size) {
        uint u = in[i];
        uint du = dist[u];
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            uint through = du + weight[e];
            if (through < du || through > SSSP_CAP)
                through = SSSP_CAP;
            if (through < dist[v] && atomic_min(&dist[v], through) > through &&
                atomic_xchg(&mark[v], round + 1u) != round + 1u)
                out[coop_atomic_inc(&counts[(round + 1u) % 3u])] = v;
        }
    }
    if (group == 0 && get_local_id(0) == 0) {
        counts[(round + 2u) % 3u] = 0;
        atomic_add(&counts[4], in_count); /* no result used: not waited for */
    }
}

kernel void sssp_standalone(COOP_PARAMS, global const uint *row, global const uint *col, global const uint *weight,
                            global uint *dist, global uint *mark, global uint *wl0, global uint *wl1,
                            global uint *counts)
{
    COOP_ENTER(ctx);
    uint group = coop_group_id(&ctx), groups = coop_num_groups(&ctx);
    uint round = 0;
    for (uint in_count = counts[0]; in_count; in_count = counts[round % 3u]) {
        sssp_round(group, groups, round, in_count, row, col, weight, dist, mark, wl0, wl1, counts);
        round++;
        coop_global_barrier(&ctx);
    }
    if (group == 0 && get_local_id(0) == 0)
        counts[3] = round;
}

/* What a forked group needs to join: the round it resumes at. */
typedef struct sssp_state {
    uint round;
} sssp_state;

/* The cooperative kernel: the same rounds with resizing barriers between them. */
void sssp_cooperative(coop_ctx *ctx, global const uint *row, global const uint *col, global const uint *weight,
                      global uint *dist, global uint *mark, global uint *wl0, global uint *wl1, global uint *counts)
{
    sssp_state t;
    if (coop_resume_point(ctx) == 1)
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    for (uint in_count = counts[t.round % 3u]; in_count && !killed; in_count = counts[t.round % 3u]) {
        /* M read by every work-item, not coop_shared_num_groups as bfs does: with the shared read
         * this megakernel fits in 40 registers and runs on 791 members instead of 659, and its
         * barrier-bound rounds got slower (H100, 1000x1000 grid: +10% over standalone, not +1%) */
        sssp_round(coop_group_id(ctx), coop_num_groups(ctx), t.round, in_count, row, col, weight, dist, mark, wl0,
                   wl1, counts);
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
    }
    if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)
        counts[3] = t.round;
}

kernel void sssp_mega(COOP_PARAMS, global const uint *row, global const uint *col, global const uint *weight,
                      global uint *dist, global uint *mark, global uint *wl0, global uint *wl1, global uint *counts,
                      global const uint *task_a, global const uint *task_b, global uint *task_c)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            sssp_cooperative(&ctx, row, col, weight, dist, mark, wl0, wl1, counts);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_matmult(&ctx, task_a, task_b, task_c);
    }
}

/* One round as an ordinary kernel; the host reads counts[(round + 1) % 3] afterwards. */
kernel void sssp_step(global const uint *row, global const uint *col, global const uint *weight, global uint *dist,
                      global uint *mark, global uint *wl0, global uint *wl1, global uint *counts, uint round,
                      uint in_count)
{
    sssp_round(get_group_id(0), get_num_groups(0), round, in_count, row, col, weight, dist, mark, wl0, wl1, counts);
}

#ifdef BENCH_SEARCHES
/* kernels/lib/searches.cl's forms. Marks need no restart: they hold round numbers, which only
 * grow from search to search. */
inline void sssp_restart(uint group, uint groups, uint round, global const uint *row, global const uint *col,
                         global const uint *weight, volatile global uint *dist, volatile global uint *mark,
                         global uint *wl0, global uint *wl1, volatile global uint *counts)
{
    search_restart(group, groups, round, dist, 0u, wl0, wl1, counts);
}

#define SEARCH_NAME sssp
#define SEARCH_PARAMS                                                                                          \
    global const uint *row, global const uint *col, global const uint *weight, global uint *dist, global uint *mark, \
        global uint *wl0, global uint *wl1
#define SEARCH_ARGS row, col, weight, dist, mark, wl0, wl1
#define SEARCH_NUM_GROUPS coop_num_groups
SEARCH_APP
#endif
