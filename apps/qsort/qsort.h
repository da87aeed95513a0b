/* qsort.h: a recursive quicksort whose recursion is device-side spawns, Whippletree's
 * `spawn<Proc>(item)` in the paper's language (issue 44, item 3). Three procedures:
 *   qsort       the cooperative kernel (qsort.cl): partitions the input with every group for
 *               `levels` levels (a level splits each range in two at a resizing barrier), then
 *               hands each range it made to a procedure below;
 *   sort_part   a task (qsort_tasks.cl) over a range longer than the cut-off: its workgroups
 *               partition the range together, and the last one to finish hands both sides on;
 *   small_sort  a task over a range of at most the cut-off: one workgroup sorts it in local memory.
 * A range is handed on (qs_offer) by spawning sort_part or small_sort; a range of at most
 * QS_INLINE_MAX keys is sorted by the hander's own group, as is a range whose spawn the runtime
 * refuses (SPAWN_FULL, SPAWN_TOO_DEEP), one past the --max-depth limit, or one for which no
 * counter block is left for a sort_part run (qs_group_sort): every outcome of a spawn ends in a
 * sorted range.
 *
 * Partition: three-way around a pivot (the median of nine keys spread over the range): keys below
 * it go to the front of the range in the other buffer, keys above it to the back, and the keys
 * equal to it are final: their places in `keys` are filled with the pivot. Ranges live in `keys`
 * or `tmp` (from_tmp), alternating with each partition; every sorted range ends in `keys`.
 *
 * Buffers: keys, tmp (n words each); seg (QS_SEG_WORDS a range of the kernel's levels, node k
 * of the heap numbering, root 1); nodes (QS_NODE_WORDS a sort_part run, node_cap of them); stats
 * (QS_STATS words); the host zeroes seg, nodes and stats before each sort. Local size at most
 * QS_MAX_LOCAL. */
#ifndef APPS_QSORT_QSORT_H
#define APPS_QSORT_QSORT_H

#define QS_MAX_LOCAL 256u
#define QS_LOCAL_KEYS 2048u /* keys one group sorts in local memory (bitonic) */
#define QS_INLINE_MAX 64u   /* ranges this short: the hander's group sorts them, no spawn */
#define QS_STACK 40u        /* ranges the in-group quicksort holds: log2(2^32) + 2 fit */
#define QS_MAX_LEVELS 8u
#define QS_PART_MIN 4096u   /* keys a sort_part workgroup takes at least */

/* Local words: the keys, the in-group quicksort's stack (lo, hi pairs), then QS_WORDS words:
 * below and above counts, their bases, the stack's depth, flags. */
#define QS_WORDS 8u
#define QS_SCRATCH_WORDS (QS_LOCAL_KEYS + 2u * QS_STACK + QS_WORDS)

/* seg: per range of the kernel's levels. */
#define QS_SEG_WORDS 4u
#define QS_SEG_LESS 0u
#define QS_SEG_GREATER 1u
#define QS_SEG_PIVOT 2u
#define QS_SEG_HANDED 3u /* a leaf range: 1 once spawned or sorted, 0: its group sorts it */

/* nodes: per sort_part run; the spawner takes a block from QS_STAT_NODES. */
#define QS_NODE_WORDS 4u
#define QS_NODE_LESS 0u
#define QS_NODE_GREATER 1u
#define QS_NODE_DONE 2u

/* stats: what became of the ranges handed on. */
#define QS_STAT_SORT_PART 0u /* sort_part runs spawned */
#define QS_STAT_SMALL_SORT 1u /* small_sort runs spawned */
#define QS_STAT_FULL 2u      /* spawns refused with SPAWN_FULL */
#define QS_STAT_TOO_DEEP 3u  /* spawns refused with SPAWN_TOO_DEEP */
#define QS_STAT_DEPTH_CUT 4u /* ranges not spawned: --max-depth reached */
#define QS_STAT_NO_NODE 5u   /* ranges not spawned: no counter block left */
#define QS_STAT_INLINE 6u    /* short ranges sorted by the hander's group */
#define QS_STAT_NODES 7u     /* counter blocks taken (the allocator) */
#define QS_STATS 8u

/* What a sort_part run carries besides its range: the run's settings, the same for all. */
typedef struct qs_config {
    uint cutoff, max_depth, task_groups, node_cap;
} qs_config;

inline qs_config qs_config_of(uint cutoff, uint max_depth, uint task_groups, uint node_cap)
{
    qs_config cfg;
    cfg.cutoff = cutoff;
    cfg.max_depth = max_depth;
    cfg.task_groups = task_groups;
    cfg.node_cap = node_cap;
    return cfg;
}

/* The first key of block `part` of `parts` over [lo, hi). */
inline uint qs_block_start(uint lo, uint hi, uint part, uint parts)
{
    return lo + (uint)(((ulong)(hi - lo) * part) / parts);
}

/* The median of nine keys spread over src[lo, hi) (hi > lo); every work-item computes the same. */
inline uint qs_pivot(global const uint *src, uint lo, uint hi)
{
    uint v[9];
    for (uint i = 0; i < 9u; i++)
        v[i] = src[lo + (uint)(((ulong)(hi - lo - 1u) * i) / 8u)];
    for (uint i = 1; i < 9u; i++)
        for (uint j = i; j > 0u && v[j - 1u] > v[j]; j--) {
            uint t = v[j];
            v[j] = v[j - 1u];
            v[j - 1u] = t;
        }
    return v[4];
}

/* Sorts the first m (1 .. QS_LOCAL_KEYS) words of s, ascending, with the whole group: bitonic over
 * the next power of two, padded with the largest word. */
inline void qs_local_bitonic(local uint *s, uint m)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    uint p = 1;
    while (p < m)
        p <<= 1;
    for (uint i = m + lid; i < p; i += size)
        s[i] = 0xffffffffu;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 2; k <= p; k <<= 1)
        for (uint j = k >> 1; j > 0u; j >>= 1) {
            for (uint t = lid; t < p / 2u; t += size) {
                uint i = 2u * j * (t / j) + t % j, l = i + j;
                uint a = s[i], b = s[l];
                if ((a > b) == ((i & k) == 0u)) {
                    s[i] = b;
                    s[l] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
}

/* keys[lo, hi) = from[lo, hi) sorted (hi - lo at most QS_LOCAL_KEYS), by the whole group; from
 * may be keys. What the group wrote before is read, and what it writes is seen, by all of it. */
inline void qs_local_sort(global const uint *from, global uint *keys, uint lo, uint hi, local uint *s)
{
    uint lid = get_local_id(0), size = get_local_size(0), m = hi - lo;
    coop_group_sync();
    for (uint i = lid; i < m; i += size)
        s[i] = from[lo + i];
    qs_local_bitonic(s, m);
    for (uint i = lid; i < m; i += size)
        keys[lo + i] = s[i];
    coop_group_sync();
}

/* The group's part of a three-way partition of [lo, hi) around pivot: its keys from[first, last)
 * below the pivot go to to[lo + ...], those above to to[hi - 1 - ...]. With `reserve` the places
 * are taken from the shared counts less[0] and greater[0] (global atomics: groups partition one
 * range together); without, from 0 (the group partitions the range alone). Afterwards words[0]
 * and words[1] hold the group's counts. */
inline void qs_partition(global const uint *from, global uint *to, uint lo, uint hi, uint first, uint last,
                         uint pivot, uint reserve, global uint *less, global uint *greater, local uint *words)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    uint below = 0, above = 0;
    if (lid == 0u) {
        words[0] = 0u;
        words[1] = 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = first + lid; i < last; i += size) {
        uint k = from[i];
        below += k < pivot;
        above += k > pivot;
    }
    uint at_below = atomic_add(&words[0], below), at_above = atomic_add(&words[1], above);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0u) {
        words[2] = reserve ? atomic_add(less, words[0]) : 0u;
        words[3] = reserve ? atomic_add(greater, words[1]) : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    at_below += words[2];
    at_above += words[3];
    for (uint i = first + lid; i < last; i += size) {
        uint k = from[i];
        if (k < pivot)
            to[lo + at_below++] = k;
        else if (k > pivot)
            to[hi - 1u - at_above++] = k;
    }
}

/* keys[lo, hi) = src[lo, hi) sorted by this group alone, whatever the length: a quicksort whose
 * ranges wait on a stack in local memory (the shorter side on top, so the stack stays under
 * log2 of the length), each range of at most QS_LOCAL_KEYS sorted in local memory. tmp[lo, hi)
 * is its scratch. The fallback for every range no spawn took; an empty range costs a few
 * barriers. No workgroup barrier here stands in an `if`: each step runs on an empty range where
 * it has nothing to do, since PoCL copies the code after such an `if` once per way through it,
 * and the kernels that inline this compiled for minutes. */
inline void qs_group_sort(global uint *keys, global uint *tmp, uint from_tmp, uint lo, uint hi, local uint *s)
{
    uint lid = get_local_id(0), size = get_local_size(0);
    local uint *stack = s + QS_LOCAL_KEYS, *words = stack + 2u * QS_STACK;
    for (uint i = lo + lid; from_tmp && i < hi; i += size)
        keys[i] = tmp[i];
    if (lid == 0u) {
        stack[0] = lo;
        stack[1] = hi;
    }
    coop_group_sync();
    uint depth = hi - lo > 1u;
    while (depth > 0u) {
        uint a = stack[2u * depth - 2u], b = stack[2u * depth - 1u];
        uint small = b - a <= QS_LOCAL_KEYS, split_end = small ? a : b;
        qs_local_sort(keys, keys, a, small ? b : a, s);
        uint pivot = small ? 0u : qs_pivot(keys, a, b);
        qs_partition(keys, tmp, a, b, a, split_end, pivot, 0u, tmp, tmp, words);
        coop_group_sync();
        uint below = words[0], above = words[1];
        for (uint i = a + lid; i < split_end; i += size)
            keys[i] = i < a + below || i >= b - above ? tmp[i] : pivot;
        coop_group_sync();
        if (lid == 0u) {
            /* pop the range; a split one's longer side under its shorter, each only if it has
             * two keys or more */
            uint d = depth - 1u;
            uint short_lo = below <= above ? a : b - above, short_hi = below <= above ? a + below : b;
            uint long_lo = below <= above ? b - above : a, long_hi = below <= above ? b : a + below;
            if (!small && long_hi - long_lo > 1u) {
                stack[2u * d] = long_lo;
                stack[2u * d + 1u] = long_hi;
                d++;
            }
            if (!small && short_hi - short_lo > 1u) {
                stack[2u * d] = short_lo;
                stack[2u * d + 1u] = short_hi;
                d++;
            }
            words[4] = d;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        depth = words[4];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Hands range [lo, hi) of keys or tmp (from_tmp) on from a spawner of the given depth (the
 * cooperative kernel's: 0) by a spawned small_sort (at most the cut-off keys) or sort_part run.
 * Work-item 0 spawns and counts the outcome in stats. Returns, in every work-item, 1 when the
 * range is taken care of (spawned, or empty) and 0 when the group must sort it itself
 * (qs_group_sort): it has at most QS_INLINE_MAX keys, the spawn was refused, the depth limit
 * was reached, or no counter block was left. */
inline uint qs_offer(global uint *keys, global uint *tmp, global uint *stats, qs_config cfg, uint from_tmp, uint lo,
                     uint hi, uint depth, local uint *s)
{
    local uint *words = s + QS_LOCAL_KEYS + 2u * QS_STACK;
    uint m = hi - lo;
    if (get_local_id(0) == 0u) {
        uint taken = m == 0u;
        if (m == 0u) {
        } else if (m <= QS_INLINE_MAX) {
            atomic_inc(&stats[QS_STAT_INLINE]);
        } else if (cfg.max_depth && depth >= cfg.max_depth) {
            atomic_inc(&stats[QS_STAT_DEPTH_CUT]);
        } else if (m <= cfg.cutoff) {
            int status = spawn_task("small_sort", 1, lo, hi, from_tmp);
            taken = status == SPAWN_OK;
            atomic_inc(&stats[taken ? QS_STAT_SMALL_SORT : status == SPAWN_FULL ? QS_STAT_FULL : QS_STAT_TOO_DEEP]);
        } else {
            uint node = atomic_inc(&stats[QS_STAT_NODES]);
            uint parts = min(cfg.task_groups, (m + QS_PART_MIN - 1u) / QS_PART_MIN);
            int status = node < cfg.node_cap
                             ? spawn_task("sort_part", parts, lo, hi, from_tmp, depth + 1u, node, cfg.cutoff,
                                          cfg.max_depth, cfg.task_groups, cfg.node_cap)
                             : SPAWN_NO_WORK;
            taken = status == SPAWN_OK;
            atomic_inc(&stats[taken                   ? QS_STAT_SORT_PART
                              : status == SPAWN_FULL     ? QS_STAT_FULL
                              : status == SPAWN_TOO_DEEP ? QS_STAT_TOO_DEEP
                                                         : QS_STAT_NO_NODE]);
        }
        words[5] = taken;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint handled = words[5];
    barrier(CLK_LOCAL_MEM_FENCE);
    return handled;
}

#endif
