/* smith seed 147 (a campaign of fuzz/smith/gen.py), reduced: an inner loop around a voting
 * resizing barrier, then `if (...) break;` of the `while (1)` around it. A coop_pocl_join()
 * between the two made PoCL's compiler fail its assertion "Incoming edges to non-entry block!",
 * so none goes inside a loop that a jump leaves.
 * Spec (tests/test_merge.c runs it):
 *   size 8 3
 *   buffer smith out 1
 *   uint smith n0 2
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 28
 *   expect smith out 0 */
kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 4u;
    transmit uint a1 = 6u;
    transmit uint i0;
    transmit uint i1;
    transmit int v0;
    i0 = 0;
    while (1) {
        i1 = 0;
        v0 = 1;
        while (v0) {
            i1++;
            v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 < n0);
        }
        i0++;
        if (i0 >= 2u)
            break;
    }
}
