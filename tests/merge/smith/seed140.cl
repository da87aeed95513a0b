/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 981: mismatch: smith out[1] = 1696, expected 212 (1 of 2 words wrong)
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce (generator of commit dd34592): python3 fuzz/smith/smith.py check 140 --drop 0,5,6 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed140.cl --task tests/merge/smith/seed140_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 2
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 63
 *   expect smith out 252 212
 */
/* smith seed 140: a generated cooperative kernel (fuzz/smith/gen.py). */

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
