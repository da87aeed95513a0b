/* smith finding: run-crash (the generator's shapes of 2026-11-29). Found on PoCL 3.1 here
 * (campaign from seed 90000, 2026-11-29), the megakernel; the coop-merge before the fixes of
 * 71327 and the volatile local id crashed the same way. PoCL's work-group compiler failed
 * `ParallelRegion::Verify(): Assertion "Incoming edges to non-entry block!"`
 * (lib/llvmopencl/ParallelRegion.cc:399), as for seeds 147 and 60116. In the merged megakernel,
 * leaving out the join coop-merge put after the wrapped `if (n2 > 0u) break;` (the join after a
 * run that a jump leaves, seed 117) made it build and run right; leaving out the other joins
 * around it or adding one before or after the `while` did not. Fixed: no such join after a run
 * that only jumps when an `if` or loop that holds a workgroup barrier follows (seed 117's run is
 * followed by a fork point).
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot
 * Reproduce: python3 fuzz/smith/smith.py check 90108 --drop 3,14,15,16,17 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90108.cl --task tests/merge/smith/seed90108_task.cl -Werror -o mega.cl --host-header mega.h
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
