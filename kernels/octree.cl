/* octree.cl: octree partitioning of 3-D points by work stealing (kernels/lib/ws_deque.cl), as a
 * plain persistent kernel (octree_standalone) and as a cooperative megakernel with a
 * high-priority task beside it (octree_mega, offering kill and fork at task boundaries). Built
 * after kernels/tasks/render.cl, kernels/tasks/matmult.cl and kernels/lib/ws_deque.cl.
 *
 * Points are float4s in the unit cube (w unused), read only; `perm` holds point indices and
 * ends up ordered so that every leaf's points are a contiguous range of it. A task is the index
 * of a node. A node is OCT_NODE_WORDS words: its range of perm, its cell (level and integer
 * coordinates: the cube [c, c + 1) * 2^-level) and its first child (0: a leaf). The host seeds
 * node 0 (all points, level 0) and the task queue with task 0; node_count starts at 1, and
 * `node_limit` nodes fit (a split that finds no room leaves a leaf behind; node_count, past the
 * limit then, tells the host). A node
 * with more than `leaf_max` points below level OCT_MAX_LEVEL is split: the group counts its
 * points per octant, writes the eight children, scatters the range through `scratch` and copies
 * it back, then pushes the non-empty children. */
#define OCT_NODE_WORDS 8u
#define OCT_FIRST 0u
#define OCT_COUNT 1u
#define OCT_CHILD 2u
#define OCT_LEVEL 3u
#define OCT_X 4u
#define OCT_Y 5u
#define OCT_Z 6u
#define OCT_MAX_LEVEL 20u

/* The octant (0..7, bit 0: x, 1: y, 2: z) of point p in the cell of node words n. */
inline uint oct_octant(float4 p, global const uint *n)
{
    float size = ldexp(1.0f, -(int)n[OCT_LEVEL]);
    float mid = size * 0.5f;
    uint x = p.x >= (float)n[OCT_X] * size + mid;
    uint y = p.y >= (float)n[OCT_Y] * size + mid;
    uint z = p.z >= (float)n[OCT_Z] * size + mid;
    return x | (y << 1) | (z << 2);
}

/* Splits or finishes node `node` (every work-item); local id 0 pushes its children and marks the
 * task done. Called in every iteration, `have` saying whether there is a task: PoCL cannot
 * compile workgroup barriers under a condition inside a loop. */
void oct_process(coop_ctx *ctx, ws_queue *q, uint have, uint node, global const float4 *points, global uint *perm,
                 global uint *scratch, global uint *nodes, global uint *node_count, uint node_limit,
                 uint leaf_max, local uint *counts, local uint *cursor)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    global uint *n = nodes + node * OCT_NODE_WORDS;
    uint first = have ? n[OCT_FIRST] : 0u, count = have ? n[OCT_COUNT] : 0u;
    uint split = have && count > leaf_max && n[OCT_LEVEL] < OCT_MAX_LEVEL;
    uint child = 0;
    if (lid == 0 && split) {
        child = coop_fetch_add(node_count, 8u);
        split = child <= node_limit - 8u;
    }
    child = coop_broadcast(ctx, child);
    split = coop_broadcast(ctx, split);
    if (lid < 8u)
        counts[lid] = 0;
    COOP_GROUP_SYNC();
    for (uint i = lid; i < count && split; i += lsize)
        atomic_inc(&counts[oct_octant(points[perm[first + i]], n)]);
    COOP_GROUP_SYNC();
    if (lid == 0) {
        uint offset = 0;
        for (uint o = 0; o < 8u; o++) {
            cursor[o] = offset;
            offset += counts[o];
        }
    }
    COOP_GROUP_SYNC();
    if (lid < 8u && split) {
        global uint *c = nodes + (child + lid) * OCT_NODE_WORDS;
        c[OCT_FIRST] = first + cursor[lid];
        c[OCT_COUNT] = counts[lid];
        c[OCT_CHILD] = 0;
        c[OCT_LEVEL] = n[OCT_LEVEL] + 1u;
        c[OCT_X] = n[OCT_X] * 2u + (lid & 1u);
        c[OCT_Y] = n[OCT_Y] * 2u + ((lid >> 1) & 1u);
        c[OCT_Z] = n[OCT_Z] * 2u + (lid >> 2);
    }
    COOP_GROUP_SYNC();
    for (uint i = lid; i < count && split; i += lsize) {
        uint point = perm[first + i];
        uint at = atomic_inc(&cursor[oct_octant(points[point], n)]);
        scratch[first + at] = point;
    }
    COOP_GROUP_SYNC();
    for (uint i = lid; i < count && split; i += lsize)
        perm[first + i] = scratch[first + i];
    COOP_GROUP_SYNC();
    if (lid == 0 && have) {
        if (split) {
            n[OCT_CHILD] = child;
            for (uint o = 0; o < 8u; o++)
                if (counts[o])
                    ws_push(q, coop_group_id(ctx), child + o);
        }
        ws_task_done(q);
    }
}

kernel void octree_standalone(COOP_PARAMS, global const float4 *points, global uint *perm, global uint *scratch,
                              global uint *nodes, global uint *node_count, uint node_limit, uint leaf_max,
                              global uint *queue_words,
                              uint queue_groups, uint queue_capacity, uint queue_shared)
{
    COOP_ENTER(ctx);
    local uint counts[8], cursor[8];
    ws_queue q = ws_queue_make(queue_words, queue_groups, queue_capacity, queue_shared);
    uint done = 0;
    while (!done) {
        uint task;
        uint got = ws_next_task(&ctx, &q, &task);
        done = got == WS_DONE;
        oct_process(&ctx, &q, got == WS_GOT, task, points, perm, scratch, nodes, node_count, node_limit, leaf_max,
                    counts, cursor);
    }
}

/* The cooperative kernel: offers kill and fork between tasks; a killed group hands its deque
 * to the shared one. A forked group needs no state (transmit is empty). */
void octree_cooperative(coop_ctx *ctx, global const float4 *points, global uint *perm, global uint *scratch,
                        global uint *nodes, global uint *node_count, uint node_limit, uint leaf_max,
                              global uint *queue_words,
                        uint queue_groups, uint queue_capacity, uint queue_shared, local uint *counts,
                        local uint *cursor)
{
    ws_queue q = ws_queue_make(queue_words, queue_groups, queue_capacity, queue_shared);
    uint done = 0, killed = 0, none = 0;
    while (!done && !killed) {
        uint task;
        uint got = ws_next_task(ctx, &q, &task);
        done = got == WS_DONE;
        oct_process(ctx, &q, got == WS_GOT, task, points, perm, scratch, nodes, node_count, node_limit, leaf_max,
                    counts, cursor);
        killed = coop_offer_kill(ctx);
        if (!killed)
            coop_offer_fork(ctx, 1, &none, sizeof none);
    }
    if (killed && get_local_id(0) == 0)
        ws_drain(&q, coop_group_id(ctx));
}

kernel void octree_mega(COOP_PARAMS, global const float4 *points, global uint *perm, global uint *scratch,
                        global uint *nodes, global uint *node_count, uint node_limit, uint leaf_max,
                              global uint *queue_words,
                        uint queue_groups, uint queue_capacity, uint queue_shared, global const uint *task_a,
                        global const uint *task_b, global uint *task_c)
{
    COOP_ENTER(ctx);
    local uint counts[8], cursor[8];
    for (uint role = coop_schedule(&ctx); role; role = coop_schedule(&ctx)) {
        if (role == COOP_ROLE_COOP)
            octree_cooperative(&ctx, points, perm, scratch, nodes, node_count, node_limit, leaf_max, queue_words,
                               queue_groups, queue_capacity, queue_shared, counts, cursor);
        COOP_GROUP_SYNC();
        if (role == COOP_ROLE_TASK && ctx.task == 0)
            task_matmult(&ctx, task_a, task_b, task_c);
    }
}
