/* smith finding: mismatch
 * PoCL 3.1 and 5.0: standalone: out[16] = 198, expected 0 (8 of 64 words wrong); megakernel right under 3 chaos seeds; right on the H200 (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 80160 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed80160.cl --task tests/merge/smith/open/seed80160_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 64
 *   uint smith n0 2
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 45
 *   expect smith out 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 0 200 0 204 0 208 0 212 0 216 0 220 0 224 0 228 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 74 82 90 98 106 114 122 130 138 146 154 162 170 178 186 194
 */
/* smith seed 80160: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed80160_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 6u;
    transmit uint a1 = 9u;
    for (uint i0 = 0; i0 < 3u; i0++) {
        {
            uint h = share_h(s0, (6u));
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], h);
        }
        if (i0 % 2u == 1u)
            continue;
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[16u + get_local_id(0)], (3u * a1 + 6u * a0 + 1u * (uint)get_local_id(0) + 36u));
        }
        {
            uint h = share_h(s1, (5u * i0 + 4u));
            if (get_group_id(0) == 0)
                atomic_add(&out[32u + get_local_id(0)], h);
        }
        if (get_group_id(0) == 0)
            atomic_add(&out[48u + get_local_id(0)], (4u * (uint)get_local_id(0) + 37u));
    }
}
