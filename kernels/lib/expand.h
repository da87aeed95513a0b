/* expand.h: load-balanced neighbour expansion, the kernel library's primitive for walking the
 * arcs of many nodes at once (bfs.h, sssp.h, color.h, mis.h, sssp_bf.h use it in every form).
 *
 * `shares` says whether any node may be shared, the same for the whole kernel run. An app that
 * knows the most arcs any node has (bfs.h, given `max_degree` by the host) may pass
 * expand_shares(max_degree): 0 when no node can have more than EXPAND_ALONE (road graphs,
 * grids), and then nothing below stores, waits or shares: every node is walked by its own
 * work-item, a group's chunk holds a node per work-item, and a round costs what a plain loop over
 * its nodes costs. Results never depend on it, only the time does: a node longer than a wrong
 * max_degree is walked alone. An app that passes 1 keeps a barrier per chunk even where nothing is
 * shared: sssp.h, sssp_bf.h, color.h and mis.h do, for without that barrier they ran 6-35% slower
 * on the road graphs and the grid (H200; why is not measured).
 *
 * With shares 1 a group takes its nodes a chunk at a time, one node per work-item: chunks of
 * expand_chunk_size(items, groups, shares) nodes, an even share of the round, so that a round of
 * few items still spreads over every group (on power-law graphs those few items may have most of
 * the round's arcs). Each node is walked one of two ways:
 *   - a node with at most EXPAND_ALONE arcs (expand_alone) is walked by its own work-item at
 *     once, as a plain loop would (road graphs and grids: nothing is stored, nothing waits);
 *   - a longer one waits for the group. expand_next, called by the whole group after the walks,
 *     records up to EXPAND_SLOTS waiting nodes in the group's scratch, each in a slot of its
 *     own, and the group shares their arcs: an exclusive prefix sum over their arc counts
 *     (expand_scan) numbers them, and work-item l takes arcs l, l + L, l + 2L..., finding each
 *     one's slot by binary search over the sums (expand_owner). A hub of 50,000 arcs then costs
 *     50,000 / L steps instead of 50,000 on one work-item, and neighbouring work-items read
 *     neighbouring arcs. Nodes that found no free slot wait for the next call; expand_next says 0
 *     when nothing was recorded, which ends the chunk.
 * Either way every arc is visited once, so an app writes its per-arc step once, as an inline
 * function that both loops call:
 *
 *     uint slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING, recorded;
 *     if (slot == EXPAND_NONE)
 *         EXPAND_WALK_ALONE
 *         for (uint e = first; e < first + count; e++)
 *             visit(e, word);
 *     while ((recorded = expand_next(scratch, shares, &pass, &slot, word, first, count))) {
 *         for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size) {
 *             uint s = expand_owner(scratch, recorded, k);
 *             visit(expand_arc(scratch, s, k), scratch[EXPAND_WORD + s]);
 *         }
 *         expand_end();
 *     }
 *
 * Between expand_next and expand_end the work-item whose node holds slot `slot` (below
 * EXPAND_SLOTS) may gather what the shared walk found in the slot's EXPAND_FLAG word, which
 * expand_next clears (color.h and mis.h decide the node there, after a barrier).
 *
 * Everything here is per group and per round: the scratch is the group's local memory, set up
 * by expand_begin at the start of each round, and `pass` counts the round's calls of expand_next
 * from 0, so a group may be killed or forked between rounds (at a resizing barrier) and the
 * number of groups may change from round to round. Every call but expand_alone, expand_owner and
 * expand_arc holds a workgroup barrier: make it with the whole group, in control flow that depends
 * only on values the whole group shares (a chunk loop from group * size, stepping by
 * groups * size, and expand_next's result).
 *
 * The kernel declares the scratch (`local uint scratch[EXPAND_WORDS];`, OpenCL C allows local
 * arrays only at kernel scope) and hands it down: 1.3 KB by default, sized by the slots and not
 * by the chunk. Any local size works: a chunk has at most one node per work-item. */
#ifndef KERNELS_LIB_EXPAND_H
#define KERNELS_LIB_EXPAND_H

/* Nodes per chunk at most (a build may set it; H200, when the scratch still had a word per node of
 * the chunk: 16-node chunks made colour on email-Enron 1.6x faster and bfs on USA-road-NY 4%
 * faster, but sssp on USA-road-FLA 4-20% slower than 256). A chunk also has at most one node per
 * work-item. */
#ifndef EXPAND_CHUNK_LOG2
#define EXPAND_CHUNK_LOG2 8
#endif
#define EXPAND_CHUNK (1u << EXPAND_CHUNK_LOG2)
/* Nodes one call of expand_next shares at most, a power of two (a build may set it: a test sets
 * 2 to make chunks need several calls). */
#ifndef EXPAND_SLOTS_LOG2
#define EXPAND_SLOTS_LOG2 6
#endif
#define EXPAND_SLOTS (1u << EXPAND_SLOTS_LOG2)
/* Most arcs a node walked by its own work-item may have: above it the warp would wait for one
 * long loop while its other work-items idle (H200: 8 made bfs, sssp and mis on email-Enron
 * 1.4-1.5x faster than 32, colour on rmat:16:16 8% slower). Where a group's work-items run one
 * after another (COOP_PARALLEL_SPIN 0: PoCL's CPU device), walking alone costs no more than
 * sharing, and sharing's barriers cost much more (PoCL: colour on email-Enron 1.4 s against
 * 39 ms): no node is shared unless the build says otherwise (the tests give -DEXPAND_ALONE=8
 * through COOP_BUILD_OPTIONS, the GPU's threshold, and other values). */
#ifndef EXPAND_ALONE
#if COOP_PARALLEL_SPIN
#define EXPAND_ALONE 8u
#else
#define EXPAND_ALONE 0xffffffffu
#endif
#endif

/* Put before a loop that walks one node's arcs alone (`for (e = first; e < first + count; e++)`):
 * NVIDIA's compiler unrolls such a loop four times, since its trip count is known when it
 * starts, and on road graphs (two or three arcs a node) bfs then took 5.5-6.0 ms on USA-road-NY
 * instead of 4.4 (H200). */
#define EXPAND_WALK_ALONE _Pragma("unroll 1")

/* Arcs an alone walk reads ahead: bfs.h, sssp.h and sssp_bf.h read a batch's heads (and weights),
 * then the heads' state, before acting on any, so that an arc's reads do not wait for the atomics
 * of the arc before it; on the road graphs a round is a few such chains per work-item, and the
 * chains are the round's time (H200: bfs on USA-road-FLA 13.4 -> 10.4 ms standalone, 12.7 -> 11.0
 * cooperative; 2: 12.2 and 11.7; 8 as 4). bfs.h and sssp.h then make the batch's claims together
 * and push the heads won with one coop_atomic_add_index (bfs 16% faster on the road graphs, sssp
 * 10-17%). */
#ifndef EXPAND_BATCH
#define EXPAND_BATCH 4u
#endif

/* Pushes the heads of an alone walk's batch that `won` (EXPAND_BATCH of each) to `out`, with one
 * slot request to `counter` (bfs.h, sssp.h). */
inline void expand_push_won(const uint *head, const uint *won, volatile global uint *counter, global uint *out)
{
    uint wins = 0;
    _Pragma("unroll")
    for (uint j = 0; j < EXPAND_BATCH; j++)
        wins += won[j];
    uint at = coop_atomic_add_index(counter, wins);
    _Pragma("unroll")
    for (uint j = 0; j < EXPAND_BATCH; j++)
        if (won[j])
            out[at++] = head[j];
}

/* A work-item's slot between calls of expand_next, beside a slot's index: */
#define EXPAND_NONE 0xffffffffu    /* no node, a node walked alone, or one shared already */
#define EXPAND_WAITING 0xfffffffeu /* a node for the group to share */

/* The scratch's areas, EXPAND_SLOTS words each (one per slot) but the last: */
#define EXPAND_WORD 0u                    /* the app's word for the node (its distance, its id) */
#define EXPAND_FIRST (1u * EXPAND_SLOTS)  /* the node's first arc */
#define EXPAND_COUNT (2u * EXPAND_SLOTS)  /* its arc count */
#define EXPAND_SCAN (3u * EXPAND_SLOTS)   /* expand_scan's second buffer */
#define EXPAND_OFFSET EXPAND_SCAN         /* after expand_scan: the pass's arcs before the slot's */
#define EXPAND_FLAG (4u * EXPAND_SLOTS)   /* the app's word per slot, 0 when recorded */
/* three words: call p of expand_next counts its slots in word p % 3 */
#define EXPAND_USED (5u * EXPAND_SLOTS)
#define EXPAND_WORDS (5u * EXPAND_SLOTS + 3u)

/* 1 when a graph whose nodes have at most max_degree arcs may have a node to share; 0 when every
 * node is walked alone. The same for every work-item (max_degree is a kernel argument). */
inline uint expand_shares(uint max_degree)
{
    return max_degree > EXPAND_ALONE;
}

/* Nodes per chunk for a round of `items` nodes over `groups` groups: at most one per work-item
 * and at most EXPAND_CHUNK; when nodes are shared, about an even share of the round rounded up to
 * a warp's 32. The same for every group that passes the same items and groups (the same
 * instructions on the same values), which is all a chunk loop needs: any size from 1 to the
 * whole chunk visits every node once. (H200: with nodes to share, chunks of a whole group made
 * bfs on email-Enron 2x slower and colour 2.5x; without, an even share made bfs on the road
 * graphs 3-7% slower than chunks of a whole group.)
 * A cooperative kernel's group count may change from round to round, so its megakernel computes
 * this every round, where a standalone kernel computes it once: a round with a whole chunk per
 * group returns before any arithmetic, and the share is a float reciprocal's, not an integer
 * division (about 25 dependent instructions on NVIDIA). With both, and coop_transmit_stage's
 * whole words, sssp-bf's megakernel ran 7-9% faster on the road graphs and the grid, sssp's 1.5%
 * on USA-road-FLA (H200). */
inline uint expand_chunk_size(uint items, uint groups, uint shares)
{
    uint whole = min(EXPAND_CHUNK, (uint)get_local_size(0));
    if (!shares || items >= groups * whole)
        return whole;
    uint share = (uint)((float)items * native_recip((float)groups)) + 1u;
    return min(whole, (share + 31u) & ~31u);
}

/* 1 when a node of `count` arcs is walked by its own work-item, at once. */
inline uint expand_alone(uint shares, uint count)
{
    return !shares || count <= EXPAND_ALONE;
}

/* Sets up the group's scratch for a round: every work-item, before the first chunk, with the
 * round's pass count at 0. Nothing (and no barrier) when nothing is shared. */
inline void expand_begin(local uint *scratch, uint shares)
{
    if (!shares)
        return;
    if (get_local_id(0) < 3u)
        scratch[EXPAND_USED + get_local_id(0)] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* Records this work-item's node when it waits (*slot == EXPAND_WAITING) and a slot is free, and
 * returns the number of nodes the whole group recorded, at most EXPAND_SLOTS (0: none waited,
 * the chunk is done; at once, without a barrier, when nothing is shared). *slot becomes the
 * node's slot, or stays EXPAND_WAITING when none was free; a slot of the previous call becomes
 * EXPAND_NONE. `word`, `first` and `count` are the node's, the same at every call of a chunk;
 * *pass counts the calls of the round.
 * The same result for the whole group: word p % 3 was last cleared during call p - 2 (below),
 * before the barrier of call p - 1 that every work-item passes before it counts itself in word
 * p % 3, and it is cleared again during call p + 1, after that call's barrier, which comes after
 * everyone's read here. */
inline uint expand_next(local uint *scratch, uint shares, uint *pass, uint *slot, uint word, uint first,
                        uint count)
{
    if (!shares)
        return 0;
    uint p = *pass;
    if (*slot == EXPAND_WAITING) {
        uint s = atomic_inc(&scratch[EXPAND_USED + p % 3u]);
        if (s < EXPAND_SLOTS) {
            scratch[EXPAND_WORD + s] = word;
            scratch[EXPAND_FIRST + s] = first;
            scratch[EXPAND_COUNT + s] = count;
            scratch[EXPAND_FLAG + s] = 0;
            *slot = s;
        }
    } else {
        *slot = EXPAND_NONE;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint recorded = scratch[EXPAND_USED + p % 3u];
    if (get_local_id(0) == 0)
        scratch[EXPAND_USED + (p + 2u) % 3u] = 0;
    *pass = p + 1u;
    return min(recorded, EXPAND_SLOTS);
}

/* Numbers the recorded nodes' arcs: an exclusive prefix sum of the arc counts of slots
 * 0..recorded-1 (Hillis and Steele's, with the group's work-items, between EXPAND_COUNT and
 * EXPAND_SCAN, in an even number of steps so that the inclusive sums end in EXPAND_COUNT), which
 * ends in EXPAND_OFFSET; returns the arc total. Every work-item, after expand_next said
 * `recorded`. */
inline uint expand_scan(local uint *scratch, uint recorded)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), steps = 0;
    while (1u << steps < recorded)
        steps++;
    steps += steps & 1u;
    local uint *from = scratch + EXPAND_COUNT, *to = scratch + EXPAND_SCAN;
    for (uint step = 0; step < steps; step++) {
        for (uint j = lid; j < recorded; j += local_size)
            to[j] = from[j] + (j >= 1u << step ? from[j - (1u << step)] : 0u);
        barrier(CLK_LOCAL_MEM_FENCE);
        local uint *swap = from;
        from = to;
        to = swap;
    }
    for (uint j = lid; j < recorded; j += local_size)
        to[j] = j ? from[j - 1u] : 0u;
    uint total = from[recorded - 1u];
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* The slot that arc number k (below expand_scan's total) belongs to: the last of the `recorded`
 * slots with at most k arcs before it, which has at least one arc. */
inline uint expand_owner(local const uint *scratch, uint recorded, uint k)
{
    uint low = 0, high = recorded;
    while (high - low > 1u) {
        uint middle = (low + high) / 2u;
        if (scratch[EXPAND_OFFSET + middle] <= k)
            low = middle;
        else
            high = middle;
    }
    return low;
}

/* Arc number k of the pass, slot s's (expand_owner). */
inline uint expand_arc(local const uint *scratch, uint s, uint k)
{
    return scratch[EXPAND_FIRST + s] + k - scratch[EXPAND_OFFSET + s];
}

/* Ends a pass that recorded nodes: every work-item, so that the next call's records do not
 * overwrite what another work-item still reads. */
inline void expand_end(void)
{
    barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
