/* qsort.cl: the quicksort's cooperative kernel (qsort.h says how the three procedures share the
 * work). Every group partitions each range of a level together, a level at a time, with a
 * resizing barrier after each (kills and forks there); then each group hands the ranges of the
 * last level on (spawns), a range at a time, and after a global barrier sorts those whose spawn
 * was refused. The barrier keeps every group in the kernel until all spawns were made, so that
 * no group idles and takes the spawned runs meanwhile: more ranges than the queue and the host
 * hold (--levels 6 and up) make SPAWN_FULL certain, which the tests rely on.
 *
 * coop-merge makes its megakernels with qsort_tasks.cl, alone (qsort_mega) and beside the matmult
 * task (qsort_matmult_mega): kernels/generated/merges.txt. */
#include "qsort.h"

/* Range k of the levels' heap numbering (root 1: [0, n)): node p's ranges below and above its
 * pivot are its children 2p and 2p + 1. */
inline void qs_seg_range(global uint *seg, uint k, uint n, uint *lo, uint *hi)
{
    uint a = 0, b = n;
    for (uint bit = 31u - clz(k); bit > 0u; bit--) {
        global uint *p = seg + (k >> bit) * QS_SEG_WORDS;
        if ((k >> (bit - 1u)) & 1u)
            a = b - coop_load_relaxed(p + QS_SEG_GREATER);
        else
            b = a + coop_load_relaxed(p + QS_SEG_LESS);
    }
    *lo = a;
    *hi = b;
}

/* This group's share of the places of the keys equal to the pivots of `level`'s ranges. */
inline void qs_fill(global uint *keys, global uint *seg, uint n, uint level, uint group, uint groups)
{
    for (uint k = 1u << level; k < 2u << level; k++) {
        uint lo, hi;
        qs_seg_range(seg, k, n, &lo, &hi);
        global uint *p = seg + k * QS_SEG_WORDS;
        uint first = lo + coop_load_relaxed(p + QS_SEG_LESS), last = hi - coop_load_relaxed(p + QS_SEG_GREATER);
        uint pivot = coop_load_relaxed(p + QS_SEG_PIVOT);
        for (uint i = qs_block_start(first, last, group, groups) + get_local_id(0);
             i < qs_block_start(first, last, group + 1u, groups); i += get_local_size(0))
            keys[i] = pivot;
    }
}

kernel void qsort(global uint *keys, global uint *tmp, uint n, uint levels, global uint *seg, global uint *stats,
                  uint cutoff, uint max_depth, uint task_groups, uint node_cap)
{
    local uint scratch[QS_SCRATCH_WORDS];
    for (uint level = 0; level < levels; level++) {
        uint groups = shared_num_groups(), group = get_group_id(0);
        if (level > 0u)
            qs_fill(keys, seg, n, level - 1u, group, groups);
        global uint *from = level & 1u ? tmp : keys, *to = level & 1u ? keys : tmp;
        for (uint k = 1u << level; k < 2u << level; k++) {
            uint lo, hi;
            qs_seg_range(seg, k, n, &lo, &hi);
            uint pivot = hi > lo ? qs_pivot(from, lo, hi) : 0u;
            if (group == 0u && get_local_id(0) == 0u)
                seg[k * QS_SEG_WORDS + QS_SEG_PIVOT] = pivot;
            qs_partition(from, to, lo, hi, qs_block_start(lo, hi, group, groups),
                         qs_block_start(lo, hi, group + 1u, groups), pivot, 1u, seg + k * QS_SEG_WORDS + QS_SEG_LESS,
                         seg + k * QS_SEG_WORDS + QS_SEG_GREATER, scratch + QS_LOCAL_KEYS + 2u * QS_STACK);
        }
        resizing_global_barrier();
    }
    uint groups, group;
    groups = shared_num_groups();
    group = get_group_id(0);
    if (levels > 0u)
        qs_fill(keys, seg, n, levels - 1u, group, groups);
    qs_config cfg;
    cfg = qs_config_of(cutoff, max_depth, task_groups, node_cap);
    for (uint k = (1u << levels) + group; k < 2u << levels; k += groups) {
        uint lo, hi;
        qs_seg_range(seg, k, n, &lo, &hi);
        uint handled = qs_offer(keys, tmp, stats, cfg, levels & 1u, lo, hi, 0u, scratch);
        if (get_local_id(0) == 0u)
            seg[k * QS_SEG_WORDS + QS_SEG_HANDED] = handled;
    }
    global_barrier();
    for (uint k = (1u << levels) + group; k < 2u << levels; k += groups) {
        uint lo, hi;
        qs_seg_range(seg, k, n, &lo, &hi);
        qs_group_sort(keys, tmp, levels & 1u, lo, seg[k * QS_SEG_WORDS + QS_SEG_HANDED] ? lo : hi, scratch);
    }
}
