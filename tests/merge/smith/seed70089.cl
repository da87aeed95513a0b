/* smith finding: mismatch (the generator's shapes of 2026-11-29). Found on PoCL 5.0 (both forms
 * wrong), wrong on PoCL 3.1 too: unreduced, the megakernel under chaos seed 90624 and the standalone
 * form (seed70089_standalone.cl reduces that one); the reduction below keeps the megakernel's
 * failure, under every chaos seed tried (1-3, 90624). `if (get_local_id(0) < 3u)` after the
 * `for (i1 ...)` nest is taken in no work-item. A plain OpenCL kernel, no libcoop, is wrong on PoCL
 * 3.1 too once the body is called in a branch of a scheduling loop as the megakernel's is: `for (;;)
 * { <lid 0 writes a role to local memory>; barrier; <read it>; if (!role) break; if (role == 1u) {
 * barrier; body(); } else if (role == 2u) { barrier; ... } barrier; }`, where body() is the kernel
 * below with each join a barrier and the vote's flag through local memory between barriers (2
 * groups of 8, n0 = 3): out[8..10] = 0. As in seed70089_standalone.cl, the branch is decided with
 * the group's last work-item's local id, a value clang computed once before the barriers (made
 * right by reading the local id through a volatile private copy at each use, which made seeds
 * 90222 and 90285 wrong instead: not kept). The user's kernel as plain OpenCL, as gen.py writes
 * it for one group, runs right: smith classes it as the merge's.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: megakernel, chaos seed 90624: mismatch: smith out[8] = 0, expected 186 (3 of 24 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 70089 --drop 1,3,4,6,7,8,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed70089.cl --task tests/merge/smith/seed70089_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 24
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 64
 *   expect smith out 540 540 540 540 540 540 540 540 186 189 192 0 0 0 0 0 30 33 36 39 42 45 48 51
 */
/* smith seed 70089: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed70089_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 9u;
    transmit uint i0;
    transmit int v0;
    i0 = 0;
    v0 = 1;
    while (v0) {
        for (uint i1 = 0; i1 < n0; i1++) {
            for (uint i2 = 0; i2 < 3u; i2++) {
                {
                    uint h = share_0(s1, (7u * i1 + 13u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[0u + get_local_id(0)], h);
                }
            }
        }
        if (get_local_id(0) < 3u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[8u + get_local_id(0)], (6u * a0 + 6u * i0 + 1u * (uint)get_local_id(0) + 2u));
        }
        if (get_group_id(0) == 0)
            atomic_add(&out[16u + get_local_id(0)], (4u * i0 + 1u * (uint)get_local_id(0) + 6u));
        i0++;
        v0 = global_barrier_any(get_local_id(0) == 0 && i0 < n0);
    }
}
