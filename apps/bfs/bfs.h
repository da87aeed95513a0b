/* bfs.h: one round of breadth-first search, worklist-driven in the style of Lonestar-GPU, shared
 * by the cooperative kernels (bfs.cl, bfs_searches.cl, demo.cl) and the multikernel baseline
 * (bfs_step.cl).
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
#ifndef APPS_BFS_BFS_H
#define APPS_BFS_BFS_H

#include "expand.h"

#define BFS_UNREACHED 0xffffffffu

/* 1 when this call sets the level of head v, whose level read `seen`, reached in round `round`:
 * v is unreached and this call's atomic_cmpxchg is the one that sets it. */
inline uint bfs_won(uint v, uint seen, uint round, volatile global uint *level)
{
    return seen == BFS_UNREACHED && atomic_cmpxchg(&level[v], BFS_UNREACHED, round + 1u) == BFS_UNREACHED;
}

/* Head v, whose level read `seen`, reached in round `round`: its level is set, and it is pushed,
 * by whoever sets it first. */
inline void bfs_claim(uint v, uint seen, uint round, volatile global uint *level, global uint *out,
                      volatile global uint *counts)
{
    if (bfs_won(v, seen, round, level))
        out[coop_atomic_inc(&counts[(round + 1u) % 3u])] = v;
}

/* Arc e's head, reached in round `round`. */
inline void bfs_visit(uint e, uint round, global const uint *col, volatile global uint *level, global uint *out,
                      volatile global uint *counts)
{
    uint v = col[e];
    bfs_claim(v, level[v], round, level, out, counts);
}

/* Arcs [first, first + count) of a node walked by its own work-item, EXPAND_BATCH at a time: the
 * batch's heads are read, then their levels, then every unreached one is claimed, and the heads
 * won are pushed together with one slot request (coop_atomic_add_index), so that a node with
 * several new heads waits for one round of claims and one push instead of a claim and a push
 * per head. */
inline void bfs_walk_alone(uint first, uint count, uint round, global const uint *col, volatile global uint *level,
                           global uint *out, volatile global uint *counts)
{
    EXPAND_WALK_ALONE
    for (uint e = first, end = first + count; e < end; e += EXPAND_BATCH) {
        uint head[EXPAND_BATCH], seen[EXPAND_BATCH], won[EXPAND_BATCH];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            head[j] = e + j < end ? col[e + j] : 0u;
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            seen[j] = e + j < end ? level[head[j]] : 0u;
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            won[j] = bfs_won(head[j], seen[j], round, level);
        expand_push_won(head, won, &counts[(round + 1u) % 3u], out);
    }
}

/* Round `round` of the search, this group's share: worklist chunks (kernels/lib/expand.h) from
 * group * size, stepping by groups * size, their arcs walked by expand.h (max_degree: at least the
 * most arcs any node has). */
inline void bfs_round(uint group, uint groups, uint round, uint in_count, global const uint *row,
                      global const uint *col, volatile global uint *level, global uint *wl0, global uint *wl1,
                      volatile global uint *counts, local uint *scratch, uint max_degree)
{
    global const uint *in = round & 1u ? wl1 : wl0;
    global uint *out = round & 1u ? wl0 : wl1;
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = expand_shares(max_degree),
         size = expand_chunk_size(in_count, groups, shares), pass = 0;
    expand_begin(scratch, shares);
    for (uint base = group * size; base < in_count; base += groups * size) {
        uint there = lid < size && base + lid < in_count, u = there ? in[base + lid] : 0u, first = there ? row[u] : 0u;
        uint count = there ? row[u + 1u] - first : 0u;
        uint slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (slot == EXPAND_NONE)
            bfs_walk_alone(first, count, round, col, level, out, counts);
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, 0u, first, count));) {
            for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size)
                bfs_visit(expand_arc(scratch, expand_owner(scratch, recorded, k), k), round, col, level, out, counts);
            expand_end();
        }
    }
    if (group == 0 && lid == 0) {
        counts[(round + 2u) % 3u] = 0;
        atomic_add(&counts[4], in_count); /* no result used: not waited for */
    }
}

#endif
