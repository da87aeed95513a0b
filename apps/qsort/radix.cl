/* radix.cl: coop-qsort's baseline on the device that spawns nothing: an LSD radix sort of the keys
 * in one persistent kernel, the radix passes of the LBVH build (lbvh/lbvh.h: 4 bits a pass, 8
 * passes, stable, ending in keys), a global barrier between a pass's count and its scatter and
 * after the scatter. ids rides along as the passes' payload and is not read. coop-merge makes its
 * standalone form (kernels/generated/merges.txt). */
#include "lbvh/lbvh.h"

kernel void radix(global uint *keys, global uint *ids, global uint *keys_tmp, global uint *ids_tmp, global uint *hist,
                  uint n)
{
    local uint sort[LBVH_SORT_WORDS];
    for (uint pass = 0; pass < LBVH_PASSES; pass++) {
        uint members;
        members = shared_num_groups();
        lbvh_count(get_group_id(0), members, n, pass, keys, keys_tmp, hist, sort);
        global_barrier();
        lbvh_scatter(get_group_id(0), members, n, pass, keys, ids, keys_tmp, ids_tmp, hist, sort);
        resizing_global_barrier();
    }
}
