/* octree.cl: octree partitioning of 3-D points by work stealing (kernels/lib/ws_deque.h), a
 * cooperative kernel in the paper's language offering kill and fork at task boundaries.
 * coop-merge makes its megakernel (octree_mega, with a high-priority task beside it) and its
 * standalone form (octree_standalone): kernels/generated/merges.txt.
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
#include "ws_deque.h"

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
 * compile workgroup barriers under a condition inside a loop. `share` hands local id 0's
 * decision to the group. */
void oct_process(ws_queue *q, uint have, uint node, global const float4 *points, global uint *perm,
                 global uint *scratch, global uint *nodes, global uint *node_count, uint node_limit,
                 uint leaf_max, local uint *counts, local uint *cursor, local uint *share)
{
    uint lid = get_local_id(0), lsize = get_local_size(0);
    global uint *n = nodes + node * OCT_NODE_WORDS;
    uint first = have ? n[OCT_FIRST] : 0u, count = have ? n[OCT_COUNT] : 0u;
    if (lid == 0) {
        uint split = have && count > leaf_max && n[OCT_LEVEL] < OCT_MAX_LEVEL, child = 0;
        if (split) {
            child = coop_fetch_add(node_count, 8u);
            split = child <= node_limit - 8u;
        }
        share[0] = child;
        share[1] = split;
    }
    if (lid < 8u)
        counts[lid] = 0;
    coop_group_sync();
    uint child = share[0], split = share[1];
    for (uint i = lid; i < count && split; i += lsize)
        atomic_inc(&counts[oct_octant(points[perm[first + i]], n)]);
    coop_group_sync();
    if (lid == 0) {
        uint offset = 0;
        for (uint o = 0; o < 8u; o++) {
            cursor[o] = offset;
            offset += counts[o];
        }
    }
    coop_group_sync();
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
    coop_group_sync();
    for (uint i = lid; i < count && split; i += lsize) {
        uint point = perm[first + i];
        uint at = atomic_inc(&cursor[oct_octant(points[point], n)]);
        scratch[first + at] = point;
    }
    coop_group_sync();
    for (uint i = lid; i < count && split; i += lsize)
        perm[first + i] = scratch[first + i];
    coop_group_sync();   /* the children and perm before the push */
    if (lid == 0 && have) {
        if (split) {
            n[OCT_CHILD] = child;
            for (uint o = 0; o < 8u; o++)
                if (counts[o])
                    ws_push(q, get_group_id(0), child + o);
        }
        ws_task_done(q);
    }
}

/* Groups take tasks until none is outstanding, and offer kill and fork between tasks. A forked
 * group starts with the queue of the group that forked it (ws_queue: where to steal next). */
kernel void octree(global const float4 *points, global uint *perm, global uint *scratch, global uint *nodes,
                   global uint *node_count, uint node_limit, uint leaf_max, global uint *queue_words,
                   uint queue_groups, uint queue_capacity, uint queue_shared)
{
    local uint counts[8], cursor[8], share[2], slots[WS_SLOT_WORDS];
    transmit ws_queue q = ws_queue_make(queue_words, queue_groups, queue_capacity, queue_shared);
    transmit uint done = 0;
    while (!done) {
        uint task;
        uint got = ws_next_task(&q, slots, &task);
        done = got == WS_DONE;
        oct_process(&q, got == WS_GOT, task, points, perm, scratch, nodes, node_count, node_limit, leaf_max,
                    counts, cursor, share);
        offer_kill();
        offer_fork();
    }
}
