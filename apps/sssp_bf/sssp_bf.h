/* sssp_bf.h: single-source shortest paths by Bellman-Ford in the style of Pannotia
 * (barrier-separated sweeps over all nodes, no worklist): the sweep shared by the cooperative
 * kernel (sssp_bf.cl) and the multikernel baseline (sssp_bf_step.cl).
 *
 * Every sweep relaxes (lib/relax.h) every arc leaving a reached node; the search ends after a
 * sweep that lowered no distance.
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the distances it lowers in
 *                 counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with dist[] = RELAX_UNREACHED except dist[source] = 0 and
 * counts = {1, 0, 0, 0}. */
#ifndef APPS_SSSP_BF_SSSP_BF_H
#define APPS_SSSP_BF_SSSP_BF_H

#include "expand.h"
#include "relax.h"

/* Arc e, leaving a node at distance du: 1 when it lowered its head's distance. */
inline uint sssp_bf_visit(uint e, uint du, global const uint *col, global const uint *weight, global uint *dist)
{
    uint v = col[e];
    return relax_lower(v, relax_through(du, weight[e]), dist[v], dist);
}

/* Arcs [first, first + count) of a node at distance du walked by its own work-item, EXPAND_BATCH
 * at a time: the batch's heads and weights are read, then the heads' distances, before any is
 * lowered (lib/expand.h); the number lowered. */
inline uint sssp_bf_walk_alone(uint first, uint count, uint du, global const uint *col, global const uint *weight,
                               global uint *dist)
{
    uint lowered = 0;
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
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            lowered += e + j < end && relax_lower(head[j], through[j], seen[j], dist);
    }
    return lowered;
}

/* Sweep `round`, this group's share of the nodes: chunks (lib/expand.h) from group * size,
 * stepping by groups * size, the arcs of the reached ones walked by lib/expand.h. Every chunk ends
 * with lib/expand.h's barrier, even on a graph with no node to share (shares 1: lib/expand.h says
 * why). */
inline void sssp_bf_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                          global const uint *weight, global uint *dist, volatile global uint *counts,
                          local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = 1u,
         size = expand_chunk_size(n, groups, shares), pass = 0;
    uint lowered = 0;
    expand_begin(scratch, shares);
    for (uint base = group * size; base < n; base += groups * size) {
        /* The node's own distance is read fresh (volatile: from L2), for it is what its arcs
         * relax with; a head's distance is only a filter before atomic_min, read through the
         * cache: a stale one costs at most a needless atomic, since distances only fall (H100:
         * sweeps 1-21% faster, reading both through the cache made the megakernel slower on
         * the grid). */
        uint u = base + lid, du = lid < size && u < n ? ((volatile global uint *)dist)[u] : RELAX_UNREACHED;
        uint reached = du != RELAX_UNREACHED, first = reached ? row[u] : 0u;
        uint count = reached ? row[u + 1u] - first : 0u;
        uint slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (slot == EXPAND_NONE)
            lowered += sssp_bf_walk_alone(first, count, du, col, weight, dist);
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, du, first, count));) {
            for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size) {
                uint s = expand_owner(scratch, recorded, k);
                lowered += sssp_bf_visit(expand_arc(scratch, s, k), scratch[EXPAND_WORD + s], col, weight, dist);
            }
            expand_end();
        }
    }
    coop_atomic_add_sum(&counts[(round + 1u) % 3u], lowered);
    if (group == 0 && lid == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
