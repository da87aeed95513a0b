/* color.h: graph coloring by Jones-Plassmann in the style of Pannotia
 * (barrier-separated sweeps over all nodes): the sweep shared by the cooperative kernel
 * (color.cl) and the multikernel baseline (color_step.cl).
 *
 * Every node has a fixed priority, a hash of its id (ties broken by the id). In sweep r an
 * uncolored node that outranks all its uncolored neighbours takes the smallest color none of its
 * colored neighbours has. colored[v] is the sweep in which v was colored (COLOR_NONE before), so
 * a node colored during sweep r still counts as uncolored in sweep r: two neighbours never color
 * themselves in the same sweep, and the colors a node reads were all set before the last barrier.
 * The graph must be symmetric (the host symmetrizes directed inputs).
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the nodes it leaves uncolored
 *                 in counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with color[] = colored[] = COLOR_NONE and counts = {1, 0, 0, 0}. */
#ifndef KERNELS_LIB_COLOR_H
#define KERNELS_LIB_COLOR_H

#define COLOR_NONE 0xffffffffu

/* A node's priority: murmur3's 32-bit finaliser of its id. */
inline uint color_priority(uint v)
{
    v ^= v >> 16;
    v *= 0x85ebca6bu;
    v ^= v >> 13;
    v *= 0xc2b2ae35u;
    v ^= v >> 16;
    return v;
}

/* The smallest color no neighbour of v colored before sweep `round` has: colors are looked for
 * 32 at a time, each window in one pass over the neighbours. */
inline uint color_smallest_free(uint v, uint round, global const uint *row, global const uint *col,
                                volatile global uint *color, volatile global uint *colored)
{
    for (uint base = 0;; base += 32u) {
        uint used = 0;
        for (uint e = row[v]; e < row[v + 1]; e++) {
            uint u = col[e];
            if (colored[u] < round) {
                uint offset = color[u] - base;
                if (offset < 32u)
                    used |= 1u << offset;
            }
        }
        if (used != 0xffffffffu)
            return base + (uint)ctz(~used);
    }
}

/* Sweep `round`, this group's share of the nodes: group * L + l, stepping by groups * L. */
inline void color_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                        volatile global uint *color, volatile global uint *colored, volatile global uint *counts)
{
    uint local_size = get_local_size(0);
    for (uint v = group * local_size + get_local_id(0); v < n; v += groups * local_size) {
        if (colored[v] != COLOR_NONE)
            continue;
        uint priority = color_priority(v), top = 1;
        for (uint e = row[v]; e < row[v + 1] && top; e++) {
            uint u = col[e];
            uint other = color_priority(u);
            /* without branches: NVIDIA's compiler then predicates the loop in the megakernel too
             * (with && and ||, it branched there and not in the standalone kernel, which ran 5-9%
             * faster on power-law graphs: H200, REPORT.md run 12) */
            uint blocks = (colored[u] >= round) & ((other > priority) | ((other == priority) & (u > v)));
            top = blocks ^ 1u;
        }
        if (top) {
            color[v] = color_smallest_free(v, round, row, col, color, colored);
            colored[v] = round;
        } else {
            coop_atomic_inc(&counts[(round + 1u) % 3u]);
        }
    }
    if (group == 0 && get_local_id(0) == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
