/* smith finding: mismatch
 * smith-run: standalone: mismatch: smith out[0] = 0, expected 258 (1 of 1 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 275 --drop 1,3,4,8,9 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed275.cl --task tests/merge/smith/open/seed275_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 1
 *   uint smith n0 3
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 35
 *   expect smith out 258
 */
/* smith seed 275: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 2u;
    transmit uint i0;
    transmit uint i1;
    transmit int v0;
    if (n1 > 1u) {
        i0 = 0;
        while (i0 < n0) {
            i1 = 0;
            v0 = 1;
            while (v0) {
                global_barrier();
                {
                    uint p = (14u);
                    p = p * 3u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[0u], p);
                }
                i1++;
                v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 < n1);
            }
            i0++;
        }
    }
}
