/* smith finding: mismatch (the generator's shapes of 2026-11-29; open). Found on PoCL 5.0,
 * wrong on PoCL 3.1 here too (the standalone form). `if (get_local_id(0) < 7u)` after the inner
 * loop is taken in no work-item (every one adds the `else`'s 6). A plain OpenCL kernel of the
 * standalone form's shape, no libcoop, is wrong on PoCL 3.1 too: `for (i0 < n0) { barrier;
 * barrier; for (i1 < n1) { barrier; barrier; } barrier; if (get_local_id(0) < 7u) {...} else if
 * (...) {...} <a helper's two barriers and a use>; barrier; }` (2 groups of 16, n0 = 1, n1 = 3).
 * It runs right without the barrier after the inner loop, with two there, without the last one
 * in the outer body, without the helper's barriers, or with the outer loop's count a constant.
 * Tried in coop-merge, both failed smith_findings_run_right: no join last in a loop's body whose
 * last barrier-holding statement is no loop or `if` (80160's megakernel wrong again), and no
 * join after a loop inside a loop (one finding's megakernel hung). Same family as 70089.
 * smith-run: standalone: mismatch: smith out[0] = 6, expected 32 (7 of 32 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 71078 --drop 0,2,4,7,8,10,11 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed71078.cl --task tests/merge/smith/open/seed71078_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 32
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 19
 *   expect smith out 32 36 40 44 48 52 56 6 6 6 6 6 6 6 6 6 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 */
/* smith seed 71078: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed71078_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    for (uint i0 = 0; i0 < n0; i0++) {
        for (uint i1 = 0; i1 < n1; i1++) {
            offer_kill();
        }
        if (get_local_id(0) < 7u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (1u * i0 + 4u * (uint)get_local_id(0) + 32u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[0u + get_local_id(0)], 6u);
        }
        {
            uint h = share_h(s0, (3u * i0 + 0u));
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], h);
        }
    }
}
