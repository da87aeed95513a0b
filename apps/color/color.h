/* color.h: graph coloring by Jones-Plassmann in the style of Pannotia
 * (barrier-separated sweeps over all nodes): the sweep shared by the cooperative kernel
 * (color.cl) and the multikernel baseline (color_step.cl).
 *
 * Every node has a fixed priority (lib/priority.h). In sweep r an uncolored node that outranks
 * all its uncolored neighbours takes the smallest color none of its colored neighbours has.
 * colored[v] is the sweep in which v was colored (COLOR_NONE before), so a node colored during
 * sweep r still counts as uncolored in sweep r: two neighbours never color themselves in the same
 * sweep, and the colors a node reads were all set before the last barrier.
 * The graph must be symmetric (the host symmetrizes directed inputs).
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the nodes it leaves uncolored
 *                 in counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with color[] = colored[] = COLOR_NONE and counts = {1, 0, 0, 0}. */
#ifndef APPS_COLOR_COLOR_H
#define APPS_COLOR_COLOR_H

#include "expand.h"
#include "priority.h"

#define COLOR_NONE 0xffffffffu

/* The smallest color from `base` on (a multiple of 32) that no neighbour of v colored before
 * sweep `round` has: colors are looked for 32 at a time, each window in one pass over the
 * neighbours. */
inline uint color_smallest_free(uint v, uint base, uint round, global const uint *row, global const uint *col,
                                volatile global uint *color, volatile global uint *colored)
{
    for (;; base += 32u) {
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

/* 1 when u, a neighbour of v (whose priority is `priority`), keeps v from coloring itself in sweep
 * `round`: u, colored in sweep `when` (colored[u]), is uncolored at the sweep's start and
 * outranks v (lib/priority.h, without branches). */
inline uint color_blocks(uint u, uint when, uint v, uint priority, uint round)
{
    return (when >= round) & priority_outranks(u, priority_of(u), v, priority);
}

/* What a shared node's EXPAND_FLAG gathers while the group walks its arcs the first time: */
#define COLOR_BLOCKED 1u /* a neighbour outranks it */
/* Two words after lib/expand.h's: window w of a pass sets word w % 2 while a node it colors
 * still finds every color of the window used. */
#define COLOR_PENDING EXPAND_WORDS
#define COLOR_WORDS (EXPAND_WORDS + 2u)

/* The shared nodes of a pass (`recorded` slots, `total` arcs, numbered by expand_scan) that no
 * neighbour outranks take the smallest color none of their neighbours colored before sweep
 * `round` has, looked for 32 at a time as color_smallest_free does, but each window with the
 * whole group over the pass's arcs: the used colors of slot s's window gather in its EXPAND_FLAG
 * word, and the slot's own work-item (node v, `top` when it is to be colored) reads them. A
 * slot's EXPAND_WORD says whether it still looks (0) or not (COLOR_DONE). Window w's pending
 * word is cleared by window w - 1, after the barrier that follows everyone's read of it in window
 * w - 2; window 0's by color_sweep before the pass's first barrier here. */
#define COLOR_DONE 1u
inline void color_shared_pass(uint recorded, uint total, uint slot, uint v, uint top, uint round,
                              global const uint *col, volatile global uint *color, volatile global uint *colored,
                              local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), pending = 1;
    if (slot < EXPAND_SLOTS) {
        scratch[EXPAND_WORD + slot] = top ? 0u : COLOR_DONE;
        scratch[EXPAND_FLAG + slot] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint window = 0; pending; window += 32u) {
        for (uint k = lid; k < total; k += local_size) {
            uint s = expand_owner(scratch, recorded, k);
            if (scratch[EXPAND_WORD + s] == 0) {
                uint u = col[expand_arc(scratch, s, k)];
                uint offset = colored[u] < round ? color[u] - window : 32u;
                if (offset < 32u)
                    atomic_or(&scratch[EXPAND_FLAG + s], 1u << offset);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0)
            scratch[COLOR_PENDING + (window / 32u + 1u) % 2u] = 0;
        if (top) {
            uint used = scratch[EXPAND_FLAG + slot];
            scratch[EXPAND_FLAG + slot] = 0;
            if (used != 0xffffffffu) {
                color[v] = window + (uint)ctz(~used);
                colored[v] = round;
                scratch[EXPAND_WORD + slot] = COLOR_DONE;
                top = 0;
            } else {
                atomic_or(&scratch[COLOR_PENDING + window / 32u % 2u], 1u);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        pending = scratch[COLOR_PENDING + window / 32u % 2u];
    }
}

/* Uncolored node v, whose arcs are [first, first + count), walked by its own work-item in sweep
 * `round`, EXPAND_BATCH arcs at a time (lib/expand.h): a batch's heads are read, then their
 * sweeps and colors, before any is looked at, and the walk stops after a batch with a neighbour
 * that outranks v. The same walk gathers the colors below 32 of the neighbours colored before
 * the sweep, so that a node no neighbour outranks takes the smallest free one without walking
 * its arcs again, unless all 32 are used. A head's color is read whatever its sweep, so that the
 * two reads travel together; it is used only when the head was colored before the sweep, and
 * then it was written before the last barrier. A batch past the last arc is filled with v,
 * which neither outranks v nor is colored. Returns 1 when v stays uncolored. */
inline uint color_alone(uint v, uint first, uint count, uint round, global const uint *row, global const uint *col,
                        volatile global uint *color, volatile global uint *colored)
{
    uint priority = priority_of(v), blocked = 0, used = 0;
    EXPAND_WALK_ALONE
    for (uint e = first, end = first + count; e < end && !blocked; e += EXPAND_BATCH) {
        uint head[EXPAND_BATCH], when[EXPAND_BATCH], hue[EXPAND_BATCH];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            head[j] = e + j < end ? col[e + j] : v;
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++) {
            when[j] = colored[head[j]];
            hue[j] = color[head[j]];
        }
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++) {
            blocked |= color_blocks(head[j], when[j], v, priority, round);
            used |= when[j] < round && hue[j] < 32u ? 1u << hue[j] : 0u;
        }
    }
    if (blocked)
        return 1;
    color[v] = used != 0xffffffffu ? (uint)ctz(~used) : color_smallest_free(v, 32u, round, row, col, color, colored);
    colored[v] = round;
    return 0;
}

/* Sweep `round`, this group's share of the nodes: chunks (lib/expand.h) from group * size,
 * stepping by groups * size, the arcs of the uncolored ones walked by lib/expand.h; a shared
 * node's EXPAND_FLAG gathers COLOR_BLOCKED, and its own work-item reads it. The scratch has
 * COLOR_WORDS words. Every chunk ends with lib/expand.h's barrier, even on a graph with no node to
 * share (shares 1: lib/expand.h says why). Each work-item counts the nodes it leaves uncolored
 * and adds them once, at the sweep's end (coop_atomic_add_sum: an atomic per warp and sweep,
 * where one per warp and chunk, all on one word, made a sweep wait for it). */
inline void color_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                        volatile global uint *color, volatile global uint *colored, volatile global uint *counts,
                        local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = 1u,
         size = expand_chunk_size(n, groups, shares), pass = 0, left = 0;
    expand_begin(scratch, shares);
    for (uint base = group * size; base < n; base += groups * size) {
        uint v = base + lid, open = lid < size && v < n && colored[v] == COLOR_NONE, first = open ? row[v] : 0u;
        uint count = open ? row[v + 1u] - first : 0u, slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (open && slot == EXPAND_NONE)
            left += color_alone(v, first, count, round, row, col, color, colored);
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, v, first, count));) {
            uint total = expand_scan(scratch, recorded);
            if (lid == 0)
                scratch[COLOR_PENDING] = 0;
            for (uint k = lid; k < total; k += local_size) {
                uint s = expand_owner(scratch, recorded, k), u = scratch[EXPAND_WORD + s];
                uint w = col[expand_arc(scratch, s, k)];
                if (color_blocks(w, colored[w], u, priority_of(u), round))
                    atomic_or(&scratch[EXPAND_FLAG + s], COLOR_BLOCKED);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            uint top = slot < EXPAND_SLOTS && !scratch[EXPAND_FLAG + slot];
            left += slot < EXPAND_SLOTS && !top;
            color_shared_pass(recorded, total, slot, v, top, round, col, color, colored, scratch);
            expand_end();
        }
    }
    coop_atomic_add_sum(&counts[(round + 1u) % 3u], left);
    if (group == 0 && lid == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
