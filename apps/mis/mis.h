/* mis.h: a maximal independent set, Luby-style with fixed hashed priorities, in the style of
 * Pannotia (barrier-separated sweeps over all nodes): the sweep shared by the cooperative kernel
 * (mis.cl) and the multikernel baseline (mis_step.cl).
 *
 * Every node has a fixed priority (lib/priority.h). In sweep r an undecided node with a neighbour
 * in the set leaves it (MIS_OUT); otherwise, when it outranks all its undecided neighbours, it
 * joins (MIS_IN). decided[v] is twice the sweep in which v was decided, plus its in_set[]
 * (MIS_UNDECIDED before; sweeps would have to reach 2^31 to collide with it, where random
 * priorities take O(log n) sweeps), so that one read tells a neighbour both; a node decided
 * during sweep r still counts as undecided in sweep r: two neighbours never join in the same
 * sweep, and the states a node reads were all set before the last barrier. in_set[] is the
 * result, for the host. The graph must be symmetric (the host symmetrizes directed inputs).
 *   counts[0..2]  sweep r runs when counts[r % 3] != 0 and counts the nodes it leaves undecided
 *                 in counts[(r + 1) % 3]; group 0 clears counts[(r + 2) % 3] for sweep r + 1;
 *   counts[3]     sweeps run, written at the end.
 * The host starts with in_set[] = decided[] = MIS_UNDECIDED and counts = {1, 0, 0, 0}. */
#ifndef APPS_MIS_MIS_H
#define APPS_MIS_MIS_H

#include "expand.h"
#include "priority.h"

#define MIS_UNDECIDED 0xffffffffu
#define MIS_OUT 0u
#define MIS_IN 1u

/* What neighbour u says of v (whose priority is `priority`) in sweep `round`, given u's
 * decided[] (`when`): MIS_COVERED when u joined the set before the sweep, MIS_BLOCKED when u is
 * undecided at the sweep's start and outranks v, else 0. */
#define MIS_COVERED 1u
#define MIS_BLOCKED 2u
inline uint mis_neighbour(uint u, uint when, uint v, uint priority, uint round)
{
    if (when / 2u < round)
        return when % 2u == MIS_IN ? MIS_COVERED : 0u;
    return priority_outranks(u, priority_of(u), v, priority) ? MIS_BLOCKED : 0u;
}

/* Node v's outcome of the sweep from what its neighbours said (`said`, MIS_COVERED | MIS_BLOCKED):
 * out when covered, in when nothing outranks it, else still undecided; returns 1 then. */
inline uint mis_decide(uint v, uint said, uint round, volatile global uint *in_set, volatile global uint *decided)
{
    if (said & MIS_COVERED || !(said & MIS_BLOCKED)) {
        uint in = said & MIS_COVERED ? MIS_OUT : MIS_IN;
        in_set[v] = in;
        decided[v] = 2u * round + in;
        return 0;
    }
    return 1;
}

/* What the neighbours of undecided node v, whose arcs are [first, first + count), say of it,
 * walked by its own work-item in sweep `round`, EXPAND_BATCH arcs at a time (lib/expand.h): a
 * batch's heads are read, then their decided[] words, before any is looked at; the walk stops
 * after a batch that covers v. A batch past the last arc is filled with v, which says nothing of
 * itself (undecided, not above itself). */
inline uint mis_alone(uint v, uint first, uint count, uint round, global const uint *col,
                      volatile global uint *decided)
{
    uint priority = priority_of(v), said = 0;
    EXPAND_WALK_ALONE
    for (uint e = first, end = first + count; e < end && !(said & MIS_COVERED); e += EXPAND_BATCH) {
        uint head[EXPAND_BATCH], when[EXPAND_BATCH];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            head[j] = e + j < end ? col[e + j] : v;
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            when[j] = decided[head[j]];
        _Pragma("unroll")
        for (uint j = 0; j < EXPAND_BATCH; j++)
            said |= mis_neighbour(head[j], when[j], v, priority, round);
    }
    return said;
}

/* Sweep `round`, this group's share of the nodes: chunks (lib/expand.h) from group * size,
 * stepping by groups * size, the arcs of the undecided ones walked by lib/expand.h; a shared
 * node's EXPAND_FLAG gathers what its neighbours say, and its own work-item decides it. Every
 * chunk ends with lib/expand.h's barrier, even on a graph with no node to share (shares 1:
 * lib/expand.h says why). Each work-item counts the nodes it leaves undecided and adds them once,
 * at the sweep's end, as color.h does. */
inline void mis_sweep(uint group, uint groups, uint round, uint n, global const uint *row, global const uint *col,
                      volatile global uint *in_set, volatile global uint *decided, volatile global uint *counts,
                      local uint *scratch)
{
    uint lid = get_local_id(0), local_size = get_local_size(0), shares = 1u,
         size = expand_chunk_size(n, groups, shares), pass = 0, left = 0;
    expand_begin(scratch, shares);
    for (uint base = group * size; base < n; base += groups * size) {
        uint v = base + lid, open = lid < size && v < n && decided[v] == MIS_UNDECIDED, first = open ? row[v] : 0u;
        uint count = open ? row[v + 1u] - first : 0u, slot = expand_alone(shares, count) ? EXPAND_NONE : EXPAND_WAITING;
        if (open && slot == EXPAND_NONE)
            left += mis_decide(v, mis_alone(v, first, count, round, col, decided), round, in_set, decided);
        for (uint recorded; (recorded = expand_next(scratch, shares, &pass, &slot, v, first, count));) {
            for (uint k = lid, total = expand_scan(scratch, recorded); k < total; k += local_size) {
                uint s = expand_owner(scratch, recorded, k), u = scratch[EXPAND_WORD + s];
                uint w = col[expand_arc(scratch, s, k)];
                uint said = mis_neighbour(w, decided[w], u, priority_of(u), round);
                if (said)
                    atomic_or(&scratch[EXPAND_FLAG + s], said);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (slot < EXPAND_SLOTS)
                left += mis_decide(v, scratch[EXPAND_FLAG + slot], round, in_set, decided);
            expand_end();
        }
    }
    coop_atomic_add_sum(&counts[(round + 1u) % 3u], left);
    if (group == 0 && lid == 0)
        counts[(round + 2u) % 3u] = 0;
}

#endif
