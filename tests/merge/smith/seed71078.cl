/* smith finding: mismatch (the generator's shapes of 2026-11-29). Found on PoCL 5.0, wrong on
 * PoCL 3.1 too (the standalone form): `if (get_local_id(0) < 7u)` after the inner loop is taken in
 * no work-item (every one adds the `else`'s 6). The plain OpenCL kernel below, no libcoop, runs
 * wrong on PoCL 3.1 too, as one group of 16 with n0 = 1, n1 = 3: out[0..15] stay 0 (by hand:
 * out[0..6] are 1).
 * 
 *   kernel void k(global uint *out, uint n0, uint n1)
 *   {
 *       local uint s[1];
 *       for (uint i0 = 0; i0 < n0; i0++) {
 *           for (uint i1 = 0; i1 < n1; i1++)
 *               barrier(CLK_LOCAL_MEM_FENCE);
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           if (get_local_id(0) < 7u)
 *               atomic_add(&out[get_local_id(0)], 1u);
 *           if (get_local_id(0) == 0)
 *               s[0] = i0;
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           uint h = s[0];
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           if (get_group_id(0) == 0)
 *               atomic_add(&out[16u + get_local_id(0)], h);
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *       }
 *   }
 * 
 * The `if` is decided with the group's last work-item's local id: `>= 7u` is taken by all. It
 * runs right with no barrier or two between the inner loop and the `if`, without the outer loop,
 * or without the `if (get_group_id(0) == 0)` after the later barriers; and with the local id read
 * through a volatile private copy at each use (in the kernel header that made seeds 90222 and
 * 90285 wrong instead: not kept). Two joins tried in coop-merge before that
 * (no join last in a loop's body whose last barrier-holding statement is no loop or `if`; no join
 * after a loop inside a loop) each broke an older finding; two joins after such a loop passed them
 * all but left seed70089_standalone.cl wrong. The user's kernel as plain OpenCL runs right.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: standalone: mismatch: smith out[0] = 6, expected 32 (7 of 32 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 71078 --drop 0,2,4,7,8,10,11 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed71078.cl --task tests/merge/smith/seed71078_task.cl -Werror -o mega.cl --host-header mega.h
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
