/* smith finding: run-crash
 * smith-run: ./lib/llvmopencl/ParallelRegion.cc:399: bool pocl::ParallelRegion::Verify(): Assertion `0 && "Incoming edges to non-entry block!"' failed.
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce (generator of commit dd34592): python3 fuzz/smith/smith.py check 25 --drop 0,2,5 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed25.cl --task tests/merge/smith/seed25_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 32
 *   uint smith n0 1
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 47
 *   expect smith out 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 40 45 50 55 60 65 70 75 80 85 90 95 100 105 110 115
 */
/* smith seed 25: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit int v0;
    for (uint i0 = 0; i0 < 2u; i0++) {
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 % 3u == 0u);
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], (uint)v0 + 1u);
    }
    if (get_group_id(0) == 0)
        atomic_add(&out[16u + get_local_id(0)], (5u * (uint)get_local_id(0) + 40u));
}
