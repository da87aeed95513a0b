/* smith finding: mismatch
 * PoCL 5.0: megakernel (chaos seed 90624) and standalone: out[32] = 0, expected 675 (17 of 65 words wrong) (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 70089 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed70089.cl --task tests/merge/smith/open/seed70089_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 65
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 64
 *   expect smith out 0 6 0 6 0 6 0 6 0 324 0 342 0 360 0 378 936 936 936 936 936 936 936 936 420 420 420 420 420 420 420 420 675 675 675 675 675 675 0 0 180 180 180 180 180 180 180 180 3384 186 189 192 0 0 0 0 0 30 33 36 39 42 45 48 51
 */
/* smith seed 70089: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed70089_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 9u;
    transmit uint i0;
    transmit int v0;
    i0 = 0;
    v0 = 1;
    while (v0) {
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[0u + get_local_id(0)], (2u));
        }
        for (uint i1 = 0; i1 < n0; i1++) {
            if (get_group_id(0) == 0) {
                if (get_local_id(0) % 2u == 1u)
                    atomic_add(&out[8u + get_local_id(0)], (2u * i1 + 7u * i0 + 1u * (uint)get_local_id(0) + 26u));
            }
            {
                uint h = share_0(s0, (7u * a0 + 5u * i1 + 36u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[16u + get_local_id(0)], h);
            }
            for (uint i2 = 0; i2 < 3u; i2++) {
                {
                    uint h = share_0(s1, (6u * i1 + 22u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[24u + get_local_id(0)], h);
                }
                if (i1 % 2u == 0u)
                    break;
                if (get_local_id(0) < 6u) {
                    if (get_group_id(0) == 0)
                        atomic_add(&out[32u + get_local_id(0)], (5u * i2 + 4u * a0 + 34u));
                }
                {
                    uint h = share_0(s1, (7u * i1 + 13u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[40u + get_local_id(0)], h);
                }
            }
            {
                uint p = (4u * a0 + 39u);
                p = p * 5u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[48u], p);
            }
        }
        if (get_local_id(0) < 3u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[49u + get_local_id(0)], (6u * a0 + 6u * i0 + 1u * (uint)get_local_id(0) + 2u));
        }
        if (get_group_id(0) == 0)
            atomic_add(&out[57u + get_local_id(0)], (4u * i0 + 1u * (uint)get_local_id(0) + 6u));
        i0++;
        v0 = global_barrier_any(get_local_id(0) == 0 && i0 < n0);
    }
}
