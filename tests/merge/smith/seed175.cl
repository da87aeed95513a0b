/* smith finding: run-crash
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot.4
 * The megakernel crashes PoCL's compiler (under gdb: ParallelRegion.cc:399 "Incoming edges to
 * non-entry block!"); the standalone form is right.
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce: python3 fuzz/smith/smith.py check 175 --drop 0,2,3,7,8,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed175.cl --task tests/merge/smith/seed175_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 1
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 61
 *   expect smith out 0
 */
/* smith seed 175: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 8u;
    transmit uint a1 = 3u;
    transmit uint i1;
    for (uint i0 = 0; i0 < 0u; i0++) {
        resizing_global_barrier();
    }
    i1 = 0;
    while (i1 < n0) {
        resizing_global_barrier();
        i1++;
    }
}
