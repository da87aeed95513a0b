/* smith finding: mismatch (the generator's shapes of 2026-11-29). PoCL 3.1 and 5.0 took the
 * `if (get_local_id(0) % 2u == 1u)` write in every work-item in the standalone form; the H200 ran
 * it right. A plain OpenCL kernel of the same shape, no libcoop, is wrong on PoCL 3.1 too:
 * `for (...) { if (i0 % 2u == 1u) continue; if (get_group_id(0) == 0) { if (get_local_id(0) % 2u
 * == 1u) atomic_add(...); } <a helper's two barriers>; if (get_group_id(0) == 0) atomic_add(...);
 * barrier(...); }`, the last barrier standing for the join last in a barrier-holding loop's
 * body. Without that barrier, or with one in front of the `continue` in braces, it runs right.
 * Fixed by coop-merge's coop_pocl_join() before a `break` or `continue` that is an `if`'s branch
 * without braces, in braces it adds (tests/test_merge.c runs this file: smith_findings_run_right).
 * smith-run: standalone: mismatch: smith out[0] = 198, expected 0 (8 of 32 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 80160 --drop 1,5 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed80160.cl --task tests/merge/smith/seed80160_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 32
 *   uint smith n0 2
 *   uint smith n1 3
 *   uint smith n2 2
 *   uint smith width 45
 *   expect smith out 0 200 0 204 0 208 0 212 0 216 0 220 0 224 0 228 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18 18
 */
/* smith seed 80160: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed80160_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 6u;
    transmit uint a1 = 9u;
    for (uint i0 = 0; i0 < 3u; i0++) {
        if (i0 % 2u == 1u)
            continue;
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[0u + get_local_id(0)], (3u * a1 + 6u * a0 + 1u * (uint)get_local_id(0) + 36u));
        }
        {
            uint h = share_h(s1, (5u * i0 + 4u));
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], h);
        }
    }
}
