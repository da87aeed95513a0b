/* smith finding: mismatch (the generator's shapes of 2026-11-29; the campaign from seed 90000).
 * The whole program: its standalone form and its plain OpenCL kernel both took `if
 * (get_local_id(0) < 2u)` in every work-item after `if (n0 > 2u) { <a helper's barriers> }` in a
 * loop (out[32] = 69, expected 0): the platform class. Reduced so, the standalone form takes it
 * in work-item 0 alone wrongly and the plain kernel leaves other words out: a fault of the same
 * kind in other work-items, which smith-run's word-by-word test calls the merge's.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: standalone: mismatch: smith out[0] = 69, expected 0 (8 of 161 words wrong); megakernel: right under 1 chaos seeds; plain: mismatch: smith out[1] = 0, expected 69 (22 of 161 words wrong) (platform: the plain kernel is wrong too)
 * Reproduce: python3 fuzz/smith/smith.py check 90292 --drop 0,1,3,4 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90292.cl --task tests/merge/smith/seed90292_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 161
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 49
 *   expect smith out 0 69 0 69 0 69 0 69 0 69 0 69 0 69 0 69 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 4560 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 63 66 6 6 6 6 6 6 6 6 6 6 6 6 6 6
 */
/* smith seed 90292: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed90292_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i0;
    transmit uint i1;
    transmit uint i2;
    transmit int v0;
    transmit int v1;
    transmit int v2;
    i0 = 0;
    while (i0 < n2) {
        if (n0 > 2u) {
            if (get_group_id(0) == 0) {
                if (get_local_id(0) % 2u == 1u)
                    atomic_add(&out[0u + get_local_id(0)], (5u * i0 + 18u));
            }
            v0 = global_barrier_any(get_local_id(0) == 0 && i0 % 3u == 0u);
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], (uint)v0 + 1u);
            {
                uint h = lsum_1(s0, (35u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[32u + get_local_id(0)], h);
            }
        } else if (i0 % 2u == 1u) {
            i1 = 0;
            v1 = 1;
            while (v1) {
                global_barrier();
                resizing_global_barrier();
                if (get_local_id(0) < 8u) {
                    if (get_group_id(0) == 0)
                        atomic_add(&out[48u + get_local_id(0)], (5u * (uint)get_local_id(0) + 37u));
                }
                global_barrier();
                for (uint w = get_global_id(0); w < width; w += get_global_size(0))
                    atomic_add(&out[64u + w], (5u * i0 + 4u * w + 0u));
                global_barrier();
                i1++;
                v1 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 < n1);
            }
            if (get_group_id(0) == 0) {
                if (get_local_id(0) % 2u == 1u)
                    atomic_add(&out[113u + get_local_id(0)], (1u * i0 + 38u));
            }
            i2 = 0;
            while (1) {
                v2 = global_barrier_any(get_local_id(0) == 0 && i2 % 3u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[129u + get_local_id(0)], (uint)v2 + 1u);
                i2++;
                if (i2 >= n2)
                    break;
            }
        }
        if (get_local_id(0) < 2u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[145u + get_local_id(0)], (1u * (uint)get_local_id(0) + 21u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[145u + get_local_id(0)], 2u);
        }
        i0++;
    }
}
