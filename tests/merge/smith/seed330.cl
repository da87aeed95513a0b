/* smith finding: run-crash
 * smith-run died of signal 11 after: (no message)
 * Reproduce: python3 fuzz/smith/smith.py check 330 --drop 0,4 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed330.cl --task tests/merge/smith/open/seed330_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 9
 *   uint smith n0 2
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 38
 *   expect smith out 421 2 2 2 2 2 2 2 2
 */
/* smith seed 330: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 8u;
    transmit uint a1 = 5u;
    transmit int v0;
    if (n1 > 2u) {
        {
            uint p = (5u * a1 + 6u * a0 + 11u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[0u], p);
        }
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && n1 > 1u);
        if (get_group_id(0) == 0)
            atomic_add(&out[1u + get_local_id(0)], (uint)v0 + 1u);
    }
}
