/* smith finding: run-crash (the generator's shapes of 2026-11-29; the campaign from seed 90000,
 * a mismatch there, a crash since). The megakernel died of a segmentation fault inside PoCL 3.1's
 * compiled work-group function. The whole program's plain OpenCL kernel got 28 of its 32 words
 * wrong, and reduced alone (`check 90237 --drop 4 --only-plain`: `if (n0 > 0u) { <share_h's
 * barriers>; <a group id branch> }`, then a local id `if`-`else if`) it left every word 0; the
 * program reduced as below crashes the megakernel while its plain kernel runs right.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run died of signal 11 after: (no message)
 * Reproduce: python3 fuzz/smith/smith.py check 90237 --drop 2 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90237.cl --task tests/merge/smith/seed90237_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 24
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 2
 *   uint smith width 58
 *   expect smith out 21 21 21 21 21 21 21 21 76 76 76 76 6 6 6 6 2 2 2 2 2 2 2 2
 */
/* smith seed 90237: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed90237_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 6u;
    transmit uint a1 = 0u;
    transmit int v0;
    if (n0 > 0u) {
        {
            uint h = share_h(s0, (6u * a1 + 21u));
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], h);
        }
    }
    if (get_local_id(0) < 4u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[8u + get_local_id(0)], (6u * a0 + 40u));
    } else if (get_group_id(0) == 0) {
        atomic_add(&out[8u + get_local_id(0)], 6u);
    }
    v0 = resizing_global_barrier_any(get_local_id(0) == 0 && n2 > 1u);
    if (get_group_id(0) == 0)
        atomic_add(&out[16u + get_local_id(0)], (uint)v0 + 1u);
}
