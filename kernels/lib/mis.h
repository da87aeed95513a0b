/* mis.h: a maximal independent set, Luby-style with fixed hashed priorities, in the style of
 * Pannotia (barrier-separated sweeps over all nodes): the sweep shared by the cooperative kernel
 * (mis.cl) and the multikernel baseline (mis_step.cl).
 *
 * Every node has a fixed priority, a hash of its id (ties broken by the id). In sweep r an
 * undecided node with a neighbour in the set leaves it (MIS_OUT); otherwise, when it outranks all
 * its undecided neighbours, it joins (MIS_IN). decided[v] is the sweep in which v was decided
 * (MIS_UNDECIDED before), so a node decided during sweep r still counts as undecided in sweep r:
 * two neighbours never join in the same sweep, and the states a node reads were all set before
 * the last barrier. The graph must be symmetric (the host symmetrizes directed inputs).
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the nodes it leaves undecided
 *                 in counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with in_set[] = decided[] = MIS_UNDECIDED and counts = {1, 0, 0, 0}. */
#ifndef KERNELS_LIB_MIS_H
#define KERNELS_LIB_MIS_H

#include "expand.h"

#define MIS_UNDECIDED 0xffffffffu
#define MIS_OUT 0u
#define MIS_IN 1u

/* A node's priority: murmur3's 32-bit finaliser of its id. */
inline uint mis_priority(uint v)
{
    v ^= v >> 16;
    v *= 0x85ebca6bu;
    v ^= v >> 13;
    v *= 0xc2b2ae35u;
    v ^= v >> 16;
    return v;
}

/* What neighbour u says of v (whose priority is `priority`) in sweep `round`: MIS_COVERED when u
 * joined the set before the sweep, MIS_BLOCKED when u is undecided at the sweep's start and
 * outranks v, else 0. */
#define MIS_COVERED 1u
#define MIS_BLOCKED 2u
inline uint mis_neighbour(uint u, uint v, uint priority, uint round, volatile global uint *in_set,
                          volatile global uint *decided)
{
    if (decided[u] < round)
        return in_set[u] == MIS_IN ? MIS_COVERED : 0u;
    uint other = mis_priority(u);
    return other > priority || (other == priority && u > v) ? MIS_BLOCKED : 0u;
}

/* Node v's outcome of the sweep from what its neighbours said (`said`, MIS_COVERED | MIS_BLOCKED):
 * out when covered, in when nothing outranks it, else still undecided (counted). */
inline void mis_decide(uint v, uint said, uint round, volatile global uint *in_set, volatile global uint *decided,
                       volatile global uint *undecided)
{
    if (said & MIS_COVERED || !(said & MIS_BLOCKED)) {
        in_set[v] = said & MIS_COVERED ? MIS_OUT : MIS_IN;
        decided[v] = round;
    } else {
        coop_atomic_inc(undecided);
    }
}

/* Sweep `round`, this group's share of the nodes: chunks (lib/expand.h) from group * size,
 * stepping by groups * size, the arcs of the undecided ones walked by lib/expand.h; a shared
 * node's EXPAND_FLAG gathers what its neighbours say, and its own work-item decides it. Every
 * chunk ends with lib/expand.h's barrier, even on a graph with no node to share (shares 1:
 * lib/expand.h says why). */
inline void mis_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                      volatile global uint *in_set, volatile global uint *decided, volatile global uint *counts,
                      local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = 1u,
         size = expand_chunk_size(n, groups, shares), pass = 0;
    volatile global uint *undecided = &counts[(round + 1u) % 3u];
    expand_begin(scratch, shares);
    for (uint base = group * size; base < n; base += groups * size) {
        uint v = base + lid, open = lid < size && v < n && decided[v] == MIS_UNDECIDED, first = open ? row[v] : 0u;
        uint count = open ? row[v + 1u] - first : 0u, slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (open && slot == EXPAND_NONE) {
            uint priority = mis_priority(v), said = 0;
            EXPAND_WALK_ALONE
            for (uint e = first; e < first + count && !(said & MIS_COVERED); e++)
                said |= mis_neighbour(col[e], v, priority, round, in_set, decided);
            mis_decide(v, said, round, in_set, decided, undecided);
        }
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, v, first, count));) {
            for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size) {
                uint s = expand_owner(scratch, recorded, k), u = scratch[EXPAND_WORD + s];
                uint said = mis_neighbour(col[expand_arc(scratch, s, k)], u, mis_priority(u), round, in_set, decided);
                if (said)
                    atomic_or(&scratch[EXPAND_FLAG + s], said);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (slot < EXPAND_SLOTS)
                mis_decide(v, scratch[EXPAND_FLAG + slot], round, in_set, decided, undecided);
            expand_end();
        }
    }
    if (group == 0 && lid == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
