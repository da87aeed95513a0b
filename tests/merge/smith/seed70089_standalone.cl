/* smith finding: mismatch (the whole program of seed 70089, its standalone form; reduced by hand).
 * PoCL 3.1 ran the standalone form wrong: `if (get_local_id(0) < 6u)` after `if (i1 % 2u == 0u)
 * break;` was taken by no work-item (out[8..13] = 0, expected 117). The plain OpenCL kernel
 * below, no libcoop, runs wrong on PoCL 3.1 too, run as one group of 8 with c = 0: out[0..5]
 * stay 0 (by hand: 3 each), out[8..15] are 6, right.
 *
 *   kernel void k(global uint *out, uint c)
 *   {
 *       local uint s[1];
 *       for (uint i = 0; i < 3u; i++) {
 *           if (get_local_id(0) == 0)
 *               s[0] = 1u;
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           if (c)
 *               break;
 *           if (get_local_id(0) < 6u)
 *               atomic_add(&out[get_local_id(0)], 1u);
 *           if (get_local_id(0) == 0)
 *               s[0] = 2u;
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           uint h = s[0];
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *           if (get_group_id(0) == 0)
 *               atomic_add(&out[8u + get_local_id(0)], h);
 *           barrier(CLK_LOCAL_MEM_FENCE);
 *       }
 *   }
 *
 * clang folds the kernel's get_local_id(0) calls into one value, computed before the first
 * barrier; PoCL's work-group compiler decides the branches on it after that barrier with the
 * group's last work-item's id in every work-item: `< 6u` and `!= 7u` are taken by none, `>= 6u`
 * and `% 2u == 1u` by all, each work-item then adding at its own index. Without the
 * first `if (get_local_id(0) == 0)` write, or without the `break`, it runs right; barriers added
 * before or after the `if (c) break;` or in it do not help, so no join of coop-merge can. Reading
 * the local id through a volatile private copy at each use makes this kernel right, but in the
 * kernel header on PoCL it made seeds 90222 and 90285 wrong the same way: not kept. The user's
 * kernel above as plain OpenCL (gen.py's form) runs right; only the hand-written one is wrong.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: standalone: mismatch: smith out[32] = 0, expected 675 (6 of 65 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 70089 --chaos 3 (the whole program)
 * Merge: build/bin/coop-merge tests/merge/smith/seed70089_standalone.cl --standalone -Werror -o standalone.cl --host-header standalone.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 24
 *   uint smith n0 3
 *   expect smith out 140 140 140 140 140 140 140 140 117 117 117 117 117 117 0 0 60 60 60 60 60 60 60 60
 */
/* smith seed 70089: a generated cooperative kernel (fuzz/smith/gen.py), reduced by hand. */
#include "seed70089_helpers.h"

kernel void smith(global uint *out, uint n0)
{
    local uint s1[32];
    for (uint i1 = 0; i1 < n0; i1++) {
        for (uint i2 = 0; i2 < 3u; i2++) {
            {
                uint h = share_0(s1, (6u * i1 + 22u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], h);
            }
            if (i1 % 2u == 0u)
                break;
            if (get_local_id(0) < 6u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[8u + get_local_id(0)], (5u * i2 + 34u));
            }
            {
                uint h = share_0(s1, (7u * i1 + 13u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[16u + get_local_id(0)], h);
            }
        }
    }
}
