/* smith finding: mismatch
 * PoCL 5.0: standalone: out[64] = 0, expected 37 (8 of 112 words wrong); megakernel right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 71078 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed71078.cl --task tests/merge/smith/open/seed71078_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 112
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 19
 *   expect smith out 40 40 40 40 40 40 0 0 0 0 0 0 0 0 0 0 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 0 0 108 0 114 0 120 0 126 0 132 0 138 0 144 0 150 32 36 40 44 48 52 56 6 6 6 6 6 6 6 6 6 37 0 43 0 49 0 55 0 61 0 67 0 73 0 79 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 11 0 17 0 23 0 29 0 35 0 41 0 47 0 53 0
 */
/* smith seed 71078: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed71078_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    if (get_local_id(0) < 6u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], (40u));
    }
    for (uint i0 = 0; i0 < n0; i0++) {
        if (get_local_id(0) < 15u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], (30u));
        }
        for (uint i1 = 0; i1 < n1; i1++) {
            if (get_group_id(0) == 0) {
                if (get_local_id(0) % 2u == 1u)
                    atomic_add(&out[32u + get_local_id(0)], (1u * (uint)get_local_id(0) + 35u));
            }
            offer_kill();
        }
        if (get_local_id(0) < 7u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[48u + get_local_id(0)], (1u * i0 + 4u * (uint)get_local_id(0) + 32u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[48u + get_local_id(0)], 6u);
        }
        if (i0 % 3u == 1u)
            continue;
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 0u)
                atomic_add(&out[64u + get_local_id(0)], (3u * (uint)get_local_id(0) + 37u));
        }
        {
            uint h = share_h(s0, (3u * i0 + 0u));
            if (get_group_id(0) == 0)
                atomic_add(&out[80u + get_local_id(0)], h);
        }
        offer_fork();
    }
    if (get_group_id(0) == 0) {
        if (get_local_id(0) % 2u == 0u)
            atomic_add(&out[96u + get_local_id(0)], (3u * (uint)get_local_id(0) + 11u));
    }
}
