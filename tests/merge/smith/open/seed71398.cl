/* smith finding: mismatch
 * PoCL 5.0: megakernel, chaos seed 99787: out[0] = 0, expected 23 (8 of 49 words wrong); standalone right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 71398 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed71398.cl --task tests/merge/smith/open/seed71398_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 49
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 27
 *   expect smith out 23 0 25 0 27 0 29 0 31 0 33 0 35 0 37 0 291 111 111 111 111 111 111 12 12 12 12 12 12 12 12 12 12 63 63 63 63 63 63 63 63 63 63 63 63 63 63 63 3
 */
/* smith seed 71398: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i0;
    if (n1 > 0u) {
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 0u)
                atomic_add(&out[0u + get_local_id(0)], (1u * (uint)get_local_id(0) + 23u));
        }
        i0 = 0;
        do {
            {
                uint p = (24u);
                p = p * 4u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[16u], p);
            }
            if (get_local_id(0) < 6u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[17u + get_local_id(0)], (37u));
            } else if (get_group_id(0) == 0) {
                atomic_add(&out[17u + get_local_id(0)], 4u);
            }
            offer_fork();
            if (get_local_id(0) < 15u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[33u + get_local_id(0)], (21u));
            } else if (get_group_id(0) == 0) {
                atomic_add(&out[33u + get_local_id(0)], 1u);
            }
            i0++;
        } while (i0 < n1);
    }
}
