/* smith finding: run-crash
 * smith-run died of signal 11 after: (no message)
 * Fixed by coop-merge leaving out the coop_pocl_join() it had put after a loop inside an `if`'s
 * branch (the `if` is joined).
 * Reproduce: python3 fuzz/smith/smith.py check 223 --drop 0,2,8,12 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed223.cl --task tests/merge/smith/seed223_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 16
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 51
 *   expect smith out 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 */
/* smith seed 223: a generated cooperative kernel (fuzz/smith/gen.py). */
#include "seed223_helpers.h"

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 8u;
    transmit uint a1 = 1u;
    transmit uint i0;
    i0 = 0;
    while (i0 < n0) {
        if (n1 > 0u) {
            global_barrier();
        } else {
            for (uint i2 = 0; i2 < n1; i2++) {
                {
                    uint h = share_h(s0, (26u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[0u + get_local_id(0)], h);
                }
            }
        }
        i0++;
    }
}
