/* smith finding: mismatch
 * smith-run: standalone: mismatch: smith out[0] = 0, expected 252 (1 of 17 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 50171 --drop 5,7,8,13 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed50171.cl --task tests/merge/smith/seed50171_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 17
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 43
 *   expect smith out 252 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
 */
/* smith seed 50171: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i0;
    transmit uint i1;
    transmit int v0;
    transmit int v1;
    i0 = 0;
    v0 = 1;
    while (v0) {
        i1 = 0;
        while (1) {
            if (i1 % 3u == 1u) {
                {
                    uint p = (5u * i1 + 20u);
                    p = p * 5u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[0u], p);
                }
                v1 = global_barrier_any(get_local_id(0) == 0 && i0 % 3u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[1u + get_local_id(0)], (uint)v1 + 1u);
            }
            i1++;
            if (i1 >= n2)
                break;
        }
        i0++;
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 < n2);
    }
}
