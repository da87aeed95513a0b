/* smith finding: mismatch (the generator's shapes of 2026-11-29; the campaign from seed 90000).
 * In the standalone form every work-item took `if (get_local_id(0) < 1u)` after `if (i0 % 3u ==
 * 1u) break;` (out[0..7] = 7 each); the whole program's megakernel under chaos too. The user's
 * kernel as plain OpenCL runs right: offer_kill() is nothing there, and the loop of offers holds
 * no barrier. Written by hand as a plain kernel with each of coop-merge's joins a barrier, no
 * libcoop, it runs wrong on PoCL 3.1 (25 lines), right without the join in front of the loop;
 * in the standalone form without that join every work-item took the `else` instead.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: standalone: mismatch: smith out[0] = 56, expected 7 (8 of 8 words wrong); megakernel: right under 1 chaos seeds; plain: right (merge: only the merged forms are wrong)
 * Reproduce: python3 fuzz/smith/smith.py check 90282 --drop 1,4,5,7,8 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90282.cl --task tests/merge/smith/seed90282_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 8
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 20
 *   expect smith out 7 3 3 3 3 3 3 3
 */
/* smith seed 90282: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 0u;
    transmit uint i0;
    i0 = 0;
    while (i0 < 2u) {
        if (i0 % 3u == 1u)
            break;
        if (get_local_id(0) < 1u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (4u * i0 + 7u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[0u + get_local_id(0)], 3u);
        }
        for (uint i1 = 0; i1 < 3u; i1++) {
            offer_kill();
        }
        i0++;
    }
}
