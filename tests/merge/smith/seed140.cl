/* smith seed 140 (fuzz/smith/findings), reduced: nested vote loops, an `if` around a global
 * barrier, then member 0's work-item 0's adds. On PoCL they ran in every work-item, and the
 * standalone form crashed PoCL (SIGSEGV).
 * Fixed by coop_pocl_join() after every `if` and loop that holds a workgroup barrier.
 * Spec (tests/test_merge.c runs it):
 *   size 8 2
 *   buffer smith out 2
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 63
 *   expect smith out 252 212 */
kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i1;
    transmit uint i2;
    transmit int v1;
    transmit int v2;
    i1 = 0;
    v1 = 1;
    while (v1) {
        i2 = 0;
        v2 = 1;
        while (v2) {
            if (i2 % 3u == 1u) {
                global_barrier();
                {
                    uint p = (2u * i2 + 23u);
                    p = p * 5u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[0u], p);
                }
                {
                    uint p = (35u);
                    p = p * 3u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[1u], p);
                }
            }
            i2++;
            v2 = global_barrier_any(get_local_id(0) == 0 && i2 < 3u);
        }
        i1++;
        v1 = global_barrier_any(get_local_id(0) == 0 && i1 < n0);
    }
}
