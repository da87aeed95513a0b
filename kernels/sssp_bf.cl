/* sssp_bf.cl: single-source shortest paths by Bellman-Ford in the style of Pannotia
 * (barrier-separated sweeps over all nodes, no worklist), in the three forms coop-bench runs: a
 * plain persistent kernel (sssp_bf_standalone), a cooperative megakernel with a high-priority task
 * beside it (sssp_bf_mega), and one launch per sweep from the host (sssp_bf_step). Built after
 * kernels/tasks/matmult.cl.
 *
 * Every sweep relaxes every arc leaving a reached node with atomic_min on its head's distance;
 * the search ends after a sweep that lowered no distance. Sums saturate at SSSP_BF_CAP (the host
 * rejects graphs whose distances reach it).
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the distances it lowers in
 *                 counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with dist[] = SSSP_BF_UNREACHED except dist[source] = 0 and
 * counts = {1, 0, 0, 0}. */
#define SSSP_BF_UNREACHED 0xffffffffu
#define SSSP_BF_CAP 0xfffffffeu

/* Sweep `round`, this group's share of the nodes: group * L + l, stepping by groups * L. */
inline void sssp_bf_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                          global const uint *weight, volatile global uint *dist, volatile global uint *counts)
{
    uint local_size = get_local_size(0), lowered = 0;
    for (uint u = group * local_size + get_local_id(0); u < n; u += groups * local_size) {
        uint du = dist[u];
        if (du == SSSP_BF_UNREACHED)
            continue;
        for (uint e = row[u]; e < row[u + 1]; e++) {
            uint v = col[e];
            uint through = du + weight[e];
            if (through < du || through > SSSP_BF_CAP)
                through = SSSP_BF_CAP;
            if (through < dist[v] && atomic_min(&dist[v], through) > through)
                lowered++;
        }
    }
    coop_atomic_add_sum(&counts[(round + 1u) % 3u], lowered);
    if (group == 0 && get_local_id(0) == 0)
        counts[(round + 2u) % 3u] = 0;
}

kernel void sssp_bf_standalone(COOP_PARAMS, global const uint *row, global const uint *col, global const uint *weight,
                               global uint *dist, global uint *counts, uint n)
{
    COOP_ENTER(ctx);
    uint group = coop_group_id(&ctx), groups = coop_num_groups(&ctx);
    uint round = 0;
    while (counts[round % 3u]) {
        sssp_bf_sweep(group, groups, round, n, row, col, weight, dist, counts);
        round++;
        coop_global_barrier(&ctx);
    }
    if (group == 0 && get_local_id(0) == 0)
        counts[3] = round;
}

/* What a forked group needs to join: the sweep it resumes at (the distances are in global
 * memory). */
typedef struct sssp_bf_state {
    uint round;
} sssp_bf_state;

/* The cooperative kernel: the same sweeps with resizing barriers between them; each sweep splits
 * the nodes over the members it has. */
void sssp_bf_cooperative(coop_ctx *ctx, global const uint *row, global const uint *col, global const uint *weight,
                         global uint *dist, global uint *counts, uint n)
{
    sssp_bf_state t;
    if (coop_resume_point(ctx) == 1)
        coop_transmit_restore(ctx, &t, sizeof t);
    else
        t.round = 0;
    uint killed = 0;
    while (counts[t.round % 3u] && !killed) {
        sssp_bf_sweep(coop_group_id(ctx), coop_num_groups(ctx), t.round, n, row, col, weight, dist, counts);
        t.round++;
        killed = coop_resizing_barrier(ctx, 1, &t, sizeof t);
    }
    if (!killed && coop_group_id(ctx) == 0 && get_local_id(0) == 0)
        counts[3] = t.round;
}

kernel void sssp_bf_mega(COOP_PARAMS, global const uint *row, global const uint *col, global const uint *weight,
                         global uint *dist, global uint *counts, uint n, global const uint *task_a,
                         global const uint *task_b, global uint *task_c)
{
    COOP_ENTER(ctx);
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            sssp_bf_cooperative(&ctx, row, col, weight, dist, counts, n);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_matmult(&ctx, task_a, task_b, task_c);
    }
}

/* One sweep as an ordinary kernel; the host reads counts[(round + 1) % 3] afterwards. in_count
 * is unused (the step kernels of every app take the same trailing arguments). */
kernel void sssp_bf_step(global const uint *row, global const uint *col, global const uint *weight, global uint *dist,
                         global uint *counts, uint n, uint round, uint in_count)
{
    sssp_bf_sweep(get_group_id(0), get_num_groups(0), round, n, row, col, weight, dist, counts);
}
