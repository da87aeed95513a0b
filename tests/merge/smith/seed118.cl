/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 827: mismatch: smith out[8] = 0, expected 22 (1 of 9 words wrong)
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce (generator of commit dd34592): python3 fuzz/smith/smith.py check 118 --drop 1,2 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed118.cl --task tests/merge/smith/seed118_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 9
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 35
 *   expect smith out 21 21 21 21 21 21 21 21 22
 */
/* smith seed 118: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed118_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    for (uint i0 = 0; i0 < 1u; i0++) {
        for (uint i2 = 0; i2 < 1u; i2++) {
            offer_fork();
        }
        if (n0 > 0u) {
            for (uint i3 = 0; i3 < 3u; i3++) {
                {
                    uint h = share_h(s0, (7u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[0u + get_local_id(0)], h);
                }
            }
            {
                uint p = (7u);
                p = p * 3u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[8u], p);
            }
        }
    }
}
