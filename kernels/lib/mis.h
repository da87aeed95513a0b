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

/* Sweep `round`, this group's share of the nodes: group * L + l, stepping by groups * L. */
inline void mis_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                      volatile global uint *in_set, volatile global uint *decided, volatile global uint *counts)
{
    uint local_size = get_local_size(0);
    for (uint v = group * local_size + get_local_id(0); v < n; v += groups * local_size) {
        if (decided[v] != MIS_UNDECIDED)
            continue;
        uint priority = mis_priority(v), covered = 0, top = 1;
        for (uint e = row[v]; e < row[v + 1] && !covered; e++) {
            uint u = col[e];
            uint when = decided[u];
            if (when < round) {
                covered = in_set[u] == MIS_IN;
            } else {
                uint other = mis_priority(u);
                if (other > priority || (other == priority && u > v))
                    top = 0;
            }
        }
        if (covered || top) {
            in_set[v] = covered ? MIS_OUT : MIS_IN;
            decided[v] = round;
        } else {
            coop_atomic_inc(&counts[(round + 1u) % 3u]);
        }
    }
    if (group == 0 && get_local_id(0) == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
