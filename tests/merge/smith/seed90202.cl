/* smith finding: run-crash (the generator's shapes of 2026-11-29). PoCL 3.1's compiler failed
 * "Incoming edges to non-entry block!" (ParallelRegion::Verify) on the megakernel; the user's
 * kernel as plain OpenCL and the standalone form compiled and ran right. The megakernel had
 * `if (!coop_skip_) { coop_pocl_join(); if (i0 % 3u == 1u) { coop_pocl_join(); break; } }`
 * followed by the join that a loop holding a barrier gets in front of it: the shape of seed
 * 90108, whose fix left out the run's own join there but not the loop's. Fixed by no join in
 * front of a barrier-holding `if` or loop right after a wrapped run that only jumps
 * (merge-tool/rewrite_control.c, rewrite_block).
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot
 * Reproduce: python3 fuzz/smith/smith.py check 90202 --drop 0,1,5,6,7,8,9,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90202.cl --task tests/merge/smith/seed90202_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 1
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 34
 *   expect smith out 0
 */
/* smith seed 90202: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 7u;
    transmit uint a1 = 8u;
    transmit uint i0;
    transmit int v0;
    i0 = 0;
    v0 = 1;
    while (v0) {
        if (i0 % 3u == 1u)
            break;
        for (uint i1 = 0; i1 < n1; i1++) {
            resizing_global_barrier();
        }
        i0++;
        v0 = global_barrier_any(get_local_id(0) == 0 && i0 < n2);
    }
}
