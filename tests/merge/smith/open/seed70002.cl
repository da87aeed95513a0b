/* smith finding: mismatch
 * PoCL 5.0 (the GPU machine's CPUs): megakernel, chaos seed 90015: out[17] = 0, expected 23 (8 of 32 words wrong); standalone right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 70002 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed70002.cl --task tests/merge/smith/open/seed70002_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 32
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 27
 *   expect smith out 112 112 112 112 112 112 112 112 112 112 112 112 112 112 112 112 0 23 0 33 0 43 0 53 0 63 0 73 0 83 0 93
 */
/* smith seed 70002: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed70002_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 8u;
    resizing_global_barrier();
    for (uint i0 = 0; i0 < n2; i0++) {
        if (i0 % 3u == 1u)
            continue;
        {
            uint h = share_2(s0, (5u * a0 + 7u * i0 + 9u));
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], h);
        }
    }
    if (get_group_id(0) == 0) {
        if (get_local_id(0) % 2u == 1u)
            atomic_add(&out[16u + get_local_id(0)], (5u * (uint)get_local_id(0) + 18u));
    }
    offer_fork();
}
