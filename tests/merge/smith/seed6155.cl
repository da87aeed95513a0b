/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 43086: mismatch: smith out[0] = 6016, expected 376 (1 of 17 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 6155 --drop 1,3,7,10,11 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed6155.cl --task tests/merge/smith/seed6155_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 17
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 2
 *   uint smith width 68
 *   expect smith out 376 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12
 */
/* smith seed 6155: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i1;
    transmit uint i3;
    transmit int v1;
    for (uint i0 = 0; i0 < n2; i0++) {
        i1 = 0;
        while (1) {
            resizing_global_barrier();
            i3 = 0;
            while (1) {
                {
                    uint p = (6u * i1 + 2u * i0 + 19u);
                    p = p * 2u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[0u], p);
                }
                v1 = resizing_global_barrier_any(get_local_id(0) == 0 && i3 % 3u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[1u + get_local_id(0)], (uint)v1 + 1u);
                i3++;
                if (i3 >= 2u)
                    break;
            }
            i1++;
            if (i1 >= n2)
                break;
        }
    }
}
