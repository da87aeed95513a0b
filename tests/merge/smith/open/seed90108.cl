/* smith finding: run-crash (the generator's shapes of 2026-11-29; open). Found on PoCL 3.1 here
 * (campaign from seed 90000, 2026-11-29), the megakernel; the coop-merge before the fixes of
 * 71327 and the volatile local id crashes the same way, so neither caused it. PoCL's work-group
 * compiler fails `ParallelRegion::Verify(): Assertion "Incoming edges to non-entry block!"`
 * (lib/llvmopencl/ParallelRegion.cc:399), as for seeds 147 and 60116: a loud failure to build,
 * never a wrong word. In the merged megakernel, leaving out the join coop-merge puts after the
 * wrapped `if (n2 > 0u) break;` (the join after a run that a jump leaves, seed 117) makes it
 * build and run right; leaving out the other joins around it (before or in the `break`'s `if`,
 * first in the next `if`'s branch, the second at the loop's end) or adding one before or after
 * the `while` does not. Seed 117 needs that join where the run is followed by a fork point, so
 * which rule tells the two apart needs the findings rerun; not done in the time.
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot
 * Reproduce: python3 fuzz/smith/smith.py check 90108 --drop 3,14,15,16,17 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed90108.cl --task tests/merge/smith/open/seed90108_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 16
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 26
 *   expect smith out 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 */
/* smith seed 90108: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i2;
    transmit int v0;
    transmit int v1;
    for (uint i0 = 0; i0 < 1u; i0++) {
        if (n2 > 0u)
            break;
        if (n2 > 0u) {
            i2 = 0;
            while (i2 < 3u) {
                v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i2 % 2u == 1u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], (uint)v0 + 1u);
                v1 = resizing_global_barrier_any(get_local_id(0) == 0 && i2 % 3u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[8u + get_local_id(0)], (uint)v1 + 1u);
                i2++;
            }
        }
    }
}
