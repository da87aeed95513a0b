/* smith finding: run-crash
 * smith-run died of signal 11 after: (no message)
 * The megakernel crashes PoCL's compiler (under gdb: SIGSEGV deep in a recursion in
 * libpocl.so); the standalone form is right.
 * Fixed by coop-merge's coop_pocl_join() after every `if` and loop that holds a workgroup
 * barrier (tests/test_merge.c runs this file: smith_findings_run_right).
 * Reproduce: python3 fuzz/smith/smith.py check 182 --drop 2,3,8,9,10,11,13 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed182.cl --task tests/merge/smith/seed182_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 16
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 39
 *   expect smith out 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
 */
/* smith seed 182: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 1u;
    transmit uint i0;
    transmit uint i3;
    transmit int v1;
    i0 = 0;
    while (i0 < n0) {
        for (uint i1 = 0; i1 < 0u; i1++) {
            offer_fork();
        }
        for (uint i2 = 0; i2 < 3u; i2++) {
            i3 = 0;
            while (1) {
                v1 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 1u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], (uint)v1 + 1u);
                i3++;
                if (i3 >= n1)
                    break;
            }
        }
        i0++;
    }
}
