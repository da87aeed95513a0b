/* sssp.h: one round of single-source shortest paths by worklist-driven Bellman-Ford relaxation
 * in the style of Lonestar-GPU, shared by the cooperative kernels (sssp.cl, sssp_searches.cl)
 * and the multikernel baseline (sssp_step.cl).
 *
 * Round r relaxes (lib/relax.h) the arcs leaving the nodes of its worklist; a node whose distance
 * dropped is pushed for round r + 1 unless it is there already (mark[v] == r + 1 says so; marks
 * start at 0, the source's round). A node whose distance drops while it is being relaxed is
 * pushed again, so the rounds converge on the shortest distances.
 * The worklists and `counts` work as in bfs.h:
 *   counts[0..2]  worklist sizes: round r reads counts[r % 3] and pushes into counts[(r + 1) % 3];
 *                 group 0 clears counts[(r + 2) % 3] for round r + 1;
 *   counts[3]     rounds run, written at the end;
 *   counts[4]     worklist items processed over all rounds (group 0 adds each round's size).
 * The host starts with dist[] = RELAX_UNREACHED except dist[source] = 0, mark[] = 0,
 * wl0 = {source} and counts = {1, 0, 0, 0}. */
#ifndef APPS_SSSP_SSSP_H
#define APPS_SSSP_SSSP_H

#include "expand.h"
#include "relax.h"

/* 1 when head v, whose distance dropped in round `round`, is not in round + 1's worklist yet:
 * this call marks it (mark[v] = round + 1) and its caller pushes it. */
inline uint sssp_marked(uint v, uint round, volatile global uint *mark)
{
    return atomic_xchg(&mark[v], round + 1u) != round + 1u;
}

/* Head v, whose distance read `seen`, offered distance `through` in round `round`: its distance
 * drops to `through` if that is less (lib/relax.h), and it is pushed for round + 1 unless it is
 * there already. */
inline void sssp_relax(uint v, uint through, uint seen, uint round, volatile global uint *dist,
                       volatile global uint *mark, global uint *out, volatile global uint *counts)
{
    if (relax_lower(v, through, seen, dist) && sssp_marked(v, round, mark))
        out[coop_atomic_inc(&counts[(round + 1u) % 3u])] = v;
}

/* Arc e, leaving a node at distance du in round `round`. */
inline void sssp_visit(uint e, uint du, uint round, global const uint *col, global const uint *weight,
                       volatile global uint *dist, volatile global uint *mark, global uint *out,
                       volatile global uint *counts)
{
    uint v = col[e];
    sssp_relax(v, relax_through(du, weight[e]), dist[v], round, dist, mark, out, counts);
}

/* Arcs [first, first + count) of a node at distance du walked by its own work-item, EXPAND_BATCH
 * at a time: the batch's heads and weights are read, then the heads' distances, then every head
 * offered less is lowered, then those lowered are marked, and the heads to push are pushed
 * together with one slot request (coop_atomic_add_index; as bfs_walk_alone). */
inline void sssp_walk_alone(uint first, uint count, uint du, uint round, global const uint *col,
                            global const uint *weight, volatile global uint *dist, volatile global uint *mark,
                            global uint *out, volatile global uint *counts)
{
    EXPAND_WALK_ALONE
    for (uint e = first, end = first + count; e < end; e += EXPAND_BATCH) {
        uint head[EXPAND_BATCH], through[EXPAND_BATCH], seen[EXPAND_BATCH];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++) {
            head[j] = e + j < end ? col[e + j] : 0u;
            through[j] = e + j < end ? relax_through(du, weight[e + j]) : RELAX_CAP;
        }
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            seen[j] = e + j < end ? dist[head[j]] : 0u;
        uint push[EXPAND_BATCH];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            push[j] = relax_lower(head[j], through[j], seen[j], dist);
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            push[j] = push[j] && sssp_marked(head[j], round, mark);
        expand_push_won(head, push, &counts[(round + 1u) % 3u], out);
    }
}

/* Round `round`, this group's share: worklist chunks (lib/expand.h) from group * size, stepping by
 * groups * size, their arcs walked by lib/expand.h with each node's distance read once. Every
 * chunk ends with lib/expand.h's barrier, even on a graph with no node to share (shares 1:
 * lib/expand.h says why). */
inline void sssp_round(uint group, uint groups, uint round, uint in_count, global const uint *row,
                       global const uint *col, global const uint *weight, volatile global uint *dist,
                       volatile global uint *mark, global uint *wl0, global uint *wl1, volatile global uint *counts,
                       local uint *scratch)
{
    global const uint *in = round & 1u ? wl1 : wl0;
    global uint *out = round & 1u ? wl0 : wl1;
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = 1u,
         size = expand_chunk_size(in_count, groups, shares), pass = 0;
    expand_begin(scratch, shares);
    for (uint base = group * size; base < in_count; base += groups * size) {
        uint there = lid < size && base + lid < in_count, u = there ? in[base + lid] : 0u, first = there ? row[u] : 0u;
        uint count = there ? row[u + 1u] - first : 0u, du = there ? dist[u] : 0u;
        uint slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (slot == EXPAND_NONE)
            sssp_walk_alone(first, count, du, round, col, weight, dist, mark, out, counts);
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, du, first, count));) {
            for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size) {
                uint s = expand_owner(scratch, recorded, k);
                sssp_visit(expand_arc(scratch, s, k), scratch[EXPAND_WORD + s], round, col, weight, dist, mark, out,
                           counts);
            }
            expand_end();
        }
    }
    if (group == 0 && lid == 0) {
        counts[(round + 2u) % 3u] = 0;
        atomic_add(&counts[4], in_count); /* no result used: not waited for */
    }
}

#endif
