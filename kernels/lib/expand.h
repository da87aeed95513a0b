/* expand.h: load-balanced neighbour expansion, the kernel library's primitive for walking the
 * arcs of many nodes at once (bfs.h, sssp.h, color.h, mis.h, sssp_bf.h use it in every form).
 *
 * A group takes its nodes a chunk at a time: chunks of expand_chunk_size(items, groups) nodes,
 * at most EXPAND_CHUNK, so that a round of few items still spreads over every group. For each
 * node of a chunk its work-item calls expand_share:
 *   - a node with at most EXPAND_ALONE arcs is walked by its own work-item at once, as a plain
 *     loop would (road graphs and grids: nothing waits for anything before the walk);
 *   - a longer one is recorded in the group's scratch, and after the chunk's barrier
 *     (expand_together says 1 when any node was) the group shares the recorded nodes' arcs: an
 *     exclusive prefix sum over their arc counts (expand_scan) numbers them, and work-item l takes
 *     arcs l, l + L, l + 2L..., finding each one's node by binary search over the sums
 *     (expand_owner). A hub of 50,000 arcs then costs 50,000 / L steps instead of 50,000 on one
 *     work-item, and neighbouring work-items read neighbouring arcs.
 * Either way every arc is visited once, so an app writes its per-arc step once, as an inline
 * function that both loops call.
 *
 * Everything here is per group and per round: the scratch is the group's local memory, set up
 * by expand_begin at the start of each round, so a group may be killed or forked between rounds
 * (at a resizing barrier) and the number of groups may change from round to round. Every call
 * but expand_share, expand_owner and expand_arc holds a workgroup barrier: make it with the whole
 * group, in control flow that depends only on values the whole group shares (a chunk loop from
 * group * size, stepping by groups * size).
 *
 * The kernel declares the scratch (`local uint scratch[EXPAND_WORDS];`, OpenCL C allows local
 * arrays only at kernel scope) and hands it down. Any local size works: with L below
 * EXPAND_CHUNK a work-item takes several nodes of a chunk (j = l, l + L...), above it some take
 * none. */
#ifndef KERNELS_LIB_EXPAND_H
#define KERNELS_LIB_EXPAND_H

/* Nodes per chunk at most, as a power of two with an even exponent (a build may set it; H200, run
 * 31: 16-node chunks made colour on email-Enron 1.6x faster and bfs on USA-road-NY 4% faster, but
 * sssp on USA-road-FLA 4-20% slower than 256). */
#ifndef EXPAND_CHUNK_LOG2
#define EXPAND_CHUNK_LOG2 8
#endif
#define EXPAND_CHUNK (1u << EXPAND_CHUNK_LOG2)
#if EXPAND_CHUNK_LOG2 % 2
#error "expand_scan's steps must be even in number: its sums end where it started"
#endif
/* Most arcs a node walked by its own work-item may have: above it the warp would wait for one
 * long loop while its other work-items idle. Where a group's work-items run one after
 * another (COOP_PARALLEL_SPIN 0: PoCL's CPU device), walking alone costs no more than sharing, and
 * sharing's barriers cost much more (PoCL: colour on email-Enron 1.4 s against 39 ms): no node
 * is shared unless the build says otherwise (the tests give -DEXPAND_ALONE=0 through
 * COOP_BUILD_OPTIONS to share every node that has an arc). */
#ifndef EXPAND_ALONE
#if COOP_PARALLEL_SPIN
#define EXPAND_ALONE 32u
#else
#define EXPAND_ALONE 0xffffffffu
#endif
#endif

/* Put before a loop that walks one node's arcs alone (`for (e = first; e < first + count; e++)`):
 * NVIDIA's compiler unrolls such a loop four times, since its trip count is known when it
 * starts, and on road graphs (two or three arcs a node) bfs then took 5.5-6.0 ms on USA-road-NY
 * instead of 4.4 (H200, REPORT.md runs 28 and 29). */
#define EXPAND_WALK_ALONE _Pragma("unroll 1")

/* The scratch's areas, EXPAND_CHUNK words each but the last: */
#define EXPAND_WORD 0u                    /* the app's word per node (its id, its distance) */
#define EXPAND_FIRST (1u * EXPAND_CHUNK)  /* the node's first arc */
#define EXPAND_COUNT (2u * EXPAND_CHUNK)  /* its arc count */
#define EXPAND_SCAN (3u * EXPAND_CHUNK)   /* expand_scan's second buffer */
#define EXPAND_OFFSET EXPAND_SCAN         /* after expand_scan: the chunk's arcs before the node */
#define EXPAND_FLAG (4u * EXPAND_CHUNK)   /* the app's flags per node (local atomics) */
/* three words: chunk k is shared when word k % 3 is set (expand_together) */
#define EXPAND_SHARED (5u * EXPAND_CHUNK)
#define EXPAND_WORDS (5u * EXPAND_CHUNK + 3u)

/* Nodes per chunk for a round of `items` nodes over `groups` groups: an even share, rounded up
 * to a warp's 32 and at most EXPAND_CHUNK. The same for the whole group. */
inline uint expand_chunk_size(uint items, uint groups)
{
    uint share = items / groups + (items % groups != 0u);
    return min(EXPAND_CHUNK, (share + 31u) & ~31u);
}

/* Sets up the group's scratch for a round: every work-item, before the first chunk. */
inline void expand_begin(local uint *scratch)
{
    if (get_local_id(0) < 3u)
        scratch[EXPAND_SHARED + get_local_id(0)] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Node j of chunk `chunk` (the group's chunks of this round count from 0), whose arcs are
 * [first, first + count) (count 0: not a node, or nothing to walk): 1 when the group shares its
 * arcs, recorded with the app's word; 0 when its work-item walks them alone now. Every j of the
 * chunk below EXPAND_CHUNK is called, once. EXPAND_FLAG is left to the app, which sets it up
 * where it uses it (color.h, at each window). */
inline uint expand_share(local uint *scratch, uint chunk, uint j, uint word, uint first, uint count)
{
    uint share = count > EXPAND_ALONE;
    scratch[EXPAND_WORD + j] = word;
    scratch[EXPAND_FIRST + j] = first;
    scratch[EXPAND_COUNT + j] = share ? count : 0u;
    if (share)
        atomic_or(&scratch[EXPAND_SHARED + chunk % 3u], 1u);
    return share;
}

/* After every node of the chunk went through expand_share (a workgroup barrier): 1 when the group
 * shares some node's arcs (expand_scan...), 0 when every node was walked alone. The same for the
 * whole group: chunk k's word was last cleared during chunk k - 2 (below), before the barrier of
 * chunk k - 1 that every work-item passes before it sets the word for chunk k, and it is set again
 * only for chunk k + 3, after the barrier of chunk k + 1, which comes after everyone's read here. */
inline uint expand_together(local uint *scratch, uint chunk)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    uint together = scratch[EXPAND_SHARED + chunk % 3u];
    if (get_local_id(0) == 0)
        scratch[EXPAND_SHARED + (chunk + 2u) % 3u] = 0;
    return together;
}

/* Numbers the chunk's arcs: an exclusive prefix sum of the arc counts (Hillis and Steele's, over
 * EXPAND_CHUNK words with the group's work-items, between EXPAND_COUNT and EXPAND_SCAN), which
 * ends in EXPAND_OFFSET; returns the chunk's arc total. Every work-item, after expand_together
 * said 1. */
inline uint expand_scan(local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0);
    local uint *from = scratch + EXPAND_COUNT, *to = scratch + EXPAND_SCAN;
    for (uint step = 1; step < EXPAND_CHUNK; step <<= 1) {
        for (uint j = lid; j < EXPAND_CHUNK; j += local_size)
            to[j] = from[j] + (j >= step ? from[j - step] : 0u);
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint *swap = from;
        from = to;
        to = swap;
    }
    /* an even number of steps: the inclusive sums are back in EXPAND_COUNT, `to` is EXPAND_OFFSET */
    for (uint j = lid; j < EXPAND_CHUNK; j += local_size)
        to[j] = j ? from[j - 1u] : 0u;
    uint total = from[EXPAND_CHUNK - 1u];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* The node of the chunk that arc number k (below expand_scan's total) belongs to: the last node
 * with at most k arcs before it, which has at least one arc. */
inline uint expand_owner(local const uint *scratch, uint k)
{
    uint low = 0, high = EXPAND_CHUNK;
    while (high - low > 1u) {
        uint middle = (low + high) / 2u;
        if (scratch[EXPAND_OFFSET + middle] <= k)
            low = middle;
        else
            high = middle;
    }
    return low;
}

/* Arc number k of the chunk, node j's (expand_owner). */
inline uint expand_arc(local const uint *scratch, uint j, uint k)
{
    return scratch[EXPAND_FIRST + j] + k - scratch[EXPAND_OFFSET + j];
}

/* Ends a shared chunk: every work-item, so that the next chunk's records do not overwrite what
 * another work-item still reads. */
inline void expand_end(void)
{
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
