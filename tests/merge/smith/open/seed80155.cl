/* smith finding: mismatch
 * PoCL 3.1 (this machine): megakernel, chaos seed 61086: out[18] = 0, expected 19 (8 of 49 words wrong); standalone right; right on the H200 under 20 chaos seeds (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 80155 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed80155.cl --task tests/merge/smith/open/seed80155_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 49
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 29
 *   expect smith out 50 51 52 53 54 5 5 5 333 48 72 96 120 144 168 192 24 0 19 0 21 0 23 0 25 382 387 392 397 402 407 412 417 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 */
/* smith seed 80155: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed80155_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 6u;
    transmit uint a1 = 6u;
    transmit uint i0;
    offer_fork();
    if (n1 > 2u) {
        if (get_local_id(0) < 5u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (1u * a0 + 7u * a1 + 1u * (uint)get_local_id(0) + 2u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[0u + get_local_id(0)], 5u);
        }
        global_barrier();
        if (n0 > 0u) {
            {
                uint p = (3u * a1 + 7u * a0 + 23u);
                p = p * 4u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[8u], p);
            }
            {
                uint h = rot_1(s0, (24u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[9u + get_local_id(0)], h);
            }
            a0 += (4u * a1 + 15u);
        }
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[17u + get_local_id(0)], (1u * (uint)get_local_id(0) + 18u));
        }
    }
    if (get_group_id(0) == 0)
        atomic_add(&out[25u + get_local_id(0)], (7u * a0 + 7u * a1 + 5u * (uint)get_local_id(0) + 25u));
    if (n1 > 2u) {
        a0 += (1u * a1 + 8u);
    } else {
        if (get_group_id(0) == 0)
            atomic_add(&out[33u + get_local_id(0)], (7u * a1 + 4u * (uint)get_local_id(0) + 7u));
        if (n0 > 2u) {
            i0 = 0;
            while (1) {
                if (i0 % 3u == 0u)
                    break;
                if (get_group_id(0) == 0)
                    atomic_add(&out[41u + get_local_id(0)], (1u * (uint)get_local_id(0) + 27u));
                i0++;
                if (i0 >= n2)
                    break;
            }
        }
    }
}
