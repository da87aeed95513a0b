/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 50176: mismatch: smith out[0] = 0, expected 92 (1 of 1 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 50025 --drop 3,6 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed50025.cl --task tests/merge/smith/seed50025_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 1
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 68
 *   expect smith out 92
 */
/* smith seed 50025: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i0;
    i0 = 0;
    while (1) {
        for (uint i1 = 0; i1 < n2; i1++) {
            if (i0 % 2u == 1u) {
                offer_kill();
                {
                    uint p = (5u * i0 + 4u);
                    p = p * 5u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[0u], p);
                }
            }
        }
        i0++;
        if (i0 >= n1)
            break;
    }
}
