/* smith finding: mismatch (the generator's shapes of 2026-11-29). PoCL 3.1 lost the odd
 * work-items' writes of group 0 in the megakernel: those in `if (get_local_id(0) % 2u == 1u)`
 * after the global barrier in the `if (n1 > 2u)` branch, and those after the branch; the H200
 * ran it right. Unreduced it failed under one chaos seed in three; reduced, under every one. A
 * workgroup barrier in place of the global one still fails, as do the transmit restore's
 * removal; it runs right without coop_fork_at (whose out-of-line slow path copies the context),
 * with get_group_id(0) in place of coop_group_id(ctx), or with a join last in the branch. Plain
 * OpenCL kernels of the shape (a scheduling loop, the group id from local memory) ran right,
 * so PoCL's fault is not shown without libcoop. Fixed by coop-merge's coop_pocl_join() last in
 * an `if`'s branch after any statement holding a workgroup barrier that statements holding none
 * follow, as after a loop there (seed 14) (tests/test_merge.c runs this file:
 * smith_findings_run_right).
 * smith-run: megakernel, chaos seed 61086: mismatch: smith out[1] = 0, expected 19 (8 of 16 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 80155 --drop 2,4,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed80155.cl --task tests/merge/smith/seed80155_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 16
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 29
 *   expect smith out 0 19 0 21 0 23 0 25 109 114 119 124 129 134 139 144
 */
/* smith seed 80155: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 6u;
    transmit uint a1 = 6u;
    offer_fork();
    if (n1 > 2u) {
        global_barrier();
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[0u + get_local_id(0)], (1u * (uint)get_local_id(0) + 18u));
        }
    }
    if (get_group_id(0) == 0)
        atomic_add(&out[8u + get_local_id(0)], (7u * a0 + 7u * a1 + 5u * (uint)get_local_id(0) + 25u));
}
