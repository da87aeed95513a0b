/* smith finding: mismatch (the generator's shapes of 2026-11-29). PoCL 3.1 lost the standalone
 * form's `if (get_local_id(0) % 2u == 0u)` writes after a do-while holding global barriers while
 * a join followed the loop; without it (the loop's body ends with one) it runs right.
 * smith-run: standalone: mismatch: smith out[43] = 0, expected 24 (4 of 67 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 118 --drop 1,4,5,6,10,11 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed118_shapes.cl --task tests/merge/smith/seed118_shapes_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 67
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 35
 *   expect smith out 13 0 23 0 33 0 43 0 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 24 0 34 0 44 0 54 0 0 10 0 12 0 14 0 16 51 51 51 51 51 51 51 51
 */
/* smith seed 118: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i1;
    transmit uint i2;
    for (uint i0 = 0; i0 < 1u; i0++) {
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 0u)
                atomic_add(&out[0u + get_local_id(0)], (5u * i0 + 5u * (uint)get_local_id(0) + 13u));
        }
        i1 = 0;
        do {
            global_barrier();
            {
                uint m = shared_num_groups();
                for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                     w += m * get_local_size(0))
                    atomic_add(&out[8u + w], (16u));
            }
            global_barrier();
            i1++;
        } while (i1 < n0);
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 0u)
                atomic_add(&out[43u + get_local_id(0)], (4u * i0 + 5u * (uint)get_local_id(0) + 24u));
        }
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[51u + get_local_id(0)], (1u * i0 + 1u * (uint)get_local_id(0) + 9u));
        }
    }
    if (n1 > 0u) {
        i2 = 0;
        while (1) {
            if (n0 > 0u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[59u + get_local_id(0)], (7u * i2 + 10u));
            }
            i2++;
            if (i2 >= n1)
                break;
        }
    }
}
