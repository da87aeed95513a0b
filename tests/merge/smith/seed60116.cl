/* smith finding: run-crash. PoCL 3.1's work-group compiler failed "Incoming edges to non-entry
 * block!" on the megakernel: coop-merge joined before the loop after the `if` holding a voting
 * barrier in the `else`; without that join it compiles and runs right.
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot
 * Reproduce: python3 fuzz/smith/smith.py check 60116 --drop 0,1,7 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed60116.cl --task tests/merge/smith/seed60116_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 66
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 34
 *   expect smith out 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 12 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4
 */
/* smith seed 60116: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i1;
    transmit int v0;
    transmit int v1;
    transmit int v2;
    i1 = 0;
    v0 = 1;
    while (v0) {
        if (i1 % 2u == 0u) {
            resizing_global_barrier();
            {
                uint m = shared_num_groups();
                for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                     w += m * get_local_size(0))
                    atomic_add(&out[0u + w], (5u * i1 + 12u));
            }
            global_barrier();
        } else {
            if (i1 % 2u == 1u) {
                v1 = global_barrier_any(get_local_id(0) == 0 && n0 > 1u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[34u + get_local_id(0)], (uint)v1 + 1u);
            }
            for (uint i3 = 0; i3 < 2u; i3++) {
                v2 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 % 2u == 1u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[50u + get_local_id(0)], (uint)v2 + 1u);
            }
        }
        i1++;
        v0 = global_barrier_any(get_local_id(0) == 0 && i1 < 2u);
    }
}
