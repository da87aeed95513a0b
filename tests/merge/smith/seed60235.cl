/* smith finding: mismatch. PoCL 3.1 took `if (get_local_id(0) == 0)` at the end of the outer
 * loop's body in every work-item, after an inner `while (1)` left by `break`; a join last in the
 * body of each loop holding a barrier makes it right.
 * smith-run: megakernel, chaos seed 21646: mismatch: smith out[8] = 312, expected 39 (1 of 9 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 60235 --drop 2,3,8,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed60235.cl --task tests/merge/smith/seed60235_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 9
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 37
 *   expect smith out 30 33 36 39 42 45 48 51 39
 */
/* smith seed 60235: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i1;
    transmit uint i3;
    transmit int v0;
    for (uint i0 = 0; i0 < n0; i0++) {
        i1 = 0;
        while (1) {
            i3 = 0;
            v0 = 1;
            while (v0) {
                i3++;
                v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i3 < 2u);
            }
            i1++;
            if (i1 >= 3u)
                break;
        }
        for (uint i4 = 0; i4 < n0; i4++) {
            for (uint i5 = 0; i5 < n2; i5++) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], (1u * (uint)get_local_id(0) + 10u));
            }
        }
        {
            uint p = (19u);
            p = p * 2u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[8u], p);
        }
    }
}
