/* smith seed 32 (fuzz/smith/findings), reduced: an `if` around a resizing barrier in a loop,
 * then member 0's work-item 0's add in the `if`. On PoCL it ran in every work-item (1192 for
 * 149).
 * Fixed by coop_pocl_join() after every `if` and loop that holds a workgroup barrier.
 * Spec (tests/test_merge.c runs it):
 *   size 8 2
 *   buffer smith out 1
 *   uint smith n0 1
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 32
 *   expect smith out 149 */
kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 0u;
    for (uint i1 = 0; i1 < n1; i1++) {
        if (i1 % 2u == 0u) {
            resizing_global_barrier();
            {
                uint p = (7u * a0 + 1u * i1 + 37u);
                p = p * 4u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[0u], p);
            }
        }
    }
}
