/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 225: mismatch: smith out[0] = 1192, expected 149 (1 of 1 words wrong)
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce (generator of commit dd34592): python3 fuzz/smith/smith.py check 32 --drop 0 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed32.cl --task tests/merge/smith/seed32_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 1
 *   uint smith n0 1
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 32
 *   expect smith out 149
 */
/* smith seed 32: a generated cooperative kernel (fuzz/smith/gen.py). */

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
