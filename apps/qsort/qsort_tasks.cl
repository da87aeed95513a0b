/* qsort_tasks.cl: the quicksort's two task procedures (qsort.h), which qsort.cl and sort_part
 * itself spawn. */
#include "qsort.h"

/* Partitions [arg 0, arg 1) of keys or tmp (arg 2) into the other buffer, its workgroups a block
 * each, around the same pivot; the last workgroup to finish (counter block arg 4) fills the
 * pivot's places and hands both sides on, one spawn deeper (arg 3: this run's depth). Args 5 .. 8:
 * the run's qs_config. */
kernel void sort_part(global uint *keys, global uint *tmp, global uint *nodes, global uint *stats)
{
    local uint scratch[QS_SCRATCH_WORDS];
    local uint *words = scratch + QS_LOCAL_KEYS + 2u * QS_STACK;
    uint lo = get_task_arg(0), hi = get_task_arg(1), from_tmp = get_task_arg(2), depth = get_task_arg(3);
    global uint *node = nodes + get_task_arg(4) * QS_NODE_WORDS;
    qs_config cfg = qs_config_of(get_task_arg(5), get_task_arg(6), get_task_arg(7), get_task_arg(8));
    global uint *from = from_tmp ? tmp : keys, *to = from_tmp ? keys : tmp;
    uint parts = get_num_groups(0), part = get_group_id(0);
    uint pivot = qs_pivot(from, lo, hi);
    qs_partition(from, to, lo, hi, qs_block_start(lo, hi, part, parts), qs_block_start(lo, hi, part + 1u, parts),
                 pivot, 1u, node + QS_NODE_LESS, node + QS_NODE_GREATER, words);
    /* the group's keys written, then counted done (acquire and release): the last workgroup's
     * count acquires every other one's keys, which it hands on */
    coop_group_sync();
    if (get_local_id(0) == 0u)
        words[6] = coop_fetch_add(node + QS_NODE_DONE, 1u) == parts - 1u;
    coop_group_sync();
    /* the last workgroup fills the pivot's places and hands on each side: a loop, not an `if`
     * around the barriers (qs_group_sort says why) */
    uint sides = 2u * words[6];
    uint below = coop_load_relaxed(node + QS_NODE_LESS), above = coop_load_relaxed(node + QS_NODE_GREATER);
    for (uint i = lo + below + get_local_id(0); sides && i < hi - above; i += get_local_size(0))
        keys[i] = pivot;
    for (uint side = 0; side < sides; side++) {
        uint a = side ? hi - above : lo, b = side ? hi : lo + below;
        uint handled = qs_offer(keys, tmp, stats, cfg, !from_tmp, a, b, depth, scratch);
        qs_group_sort(keys, tmp, !from_tmp, a, handled ? a : b, scratch);
    }
}

/* Sorts [arg 0, arg 1) of keys or tmp (arg 2), at most QS_LOCAL_KEYS keys, into keys. */
kernel void small_sort(global uint *keys, global uint *tmp)
{
    local uint scratch[QS_LOCAL_KEYS];
    qs_local_sort(get_task_arg(2) ? tmp : keys, keys, get_task_arg(0), get_task_arg(1), scratch);
}
