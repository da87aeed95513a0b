/* smith finding: run-crash. PoCL 3.1's work-group compiler failed its assertion "Incoming edges
 * to non-entry block!" on the megakernel with coop-merge's joins of the time, and the kernel
 * crashed (SIGSEGV) without them: a join right after the first inner loop, before the code that
 * leads to the next one, makes it compile and run right.
 * smith-run died of signal 6 after: ### dumped CFG to smith_mega.dot
 * Reproduce: python3 fuzz/smith/smith.py check 23158 --drop 0,1,2,7,8,12 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed23158.cl --task tests/merge/smith/seed23158_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 45
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 1
 *   uint smith width 45
 *   expect smith out 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
 */
/* smith seed 23158: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 2u;
    transmit uint i0;
    transmit uint i1;
    transmit uint i2;
    transmit int v0;
    i0 = 0;
    while (1) {
        i1 = 0;
        while (i1 < 0u) {
            resizing_global_barrier();
            {
                uint m = shared_num_groups();
                for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                     w += m * get_local_size(0))
                    atomic_add(&out[0u + w], (1u * a0 + 31u));
            }
            global_barrier();
            i1++;
        }
        i2 = 0;
        v0 = 1;
        while (v0) {
            i2++;
            v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i2 < 3u);
        }
        i0++;
        if (i0 >= n1)
            break;
    }
}
