/* smith finding: mismatch (the generator's shapes of 2026-11-29). In the standalone form lane 0
 * took the `else if` of a branch on the local id after a `while (1)` left by `break`; a join after
 * that loop makes it right.
 * smith-run: standalone: mismatch: smith out[16] = 1, expected 26 (1 of 32 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 105 --drop 0,2,4,5,8,9,10,11,12,13,15 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed105_shapes.cl --task tests/merge/smith/seed105_shapes_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 32
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 50
 *   expect smith out 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 26 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
 */
/* smith seed 105: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 5u;
    transmit uint a1 = 4u;
    transmit uint i0;
    transmit uint i1;
    transmit int v0;
    transmit int v1;
    i0 = 0;
    while (1) {
        v0 = global_barrier_any(get_local_id(0) == 0 && n2 > 1u);
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], (uint)v0 + 1u);
        i0++;
        if (i0 >= 1u)
            break;
    }
    if (get_local_id(0) < 1u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[16u + get_local_id(0)], (5u * a1 + 4u * (uint)get_local_id(0) + 6u));
    } else if (get_group_id(0) == 0) {
        atomic_add(&out[16u + get_local_id(0)], 1u);
    }
    i1 = 0;
    v1 = 1;
    while (v1) {
        i1++;
        v1 = global_barrier_any(get_local_id(0) == 0 && i1 < 3u);
    }
}
