/* smith finding: hang (reduced by hand). PoCL 3.1 ran the standalone form for ever: at the first
 * global barrier of the `else`, with a global barrier in the `if` branch too and a branch on the
 * group id after the `else`'s last one, the leader's arrival ran in every work-item, so the
 * barrier after the `if` (armed by those arrivals) waited for 8 arrivals a group. A plain OpenCL
 * kernel of this shape, with a counting barrier (workgroup barrier, `if (get_local_id(0) == 0)`
 * arrival and spin, workgroup barrier) whose call sites differ, counts 32 arrivals of 4 groups of
 * 8 at that barrier too. A workgroup barrier first in one branch avoids it, one first in both
 * does not; the global barriers now store their site between their workgroup barrier and the
 * leader's test on PoCL (coop_device/barrier.h, COOP_BARRIER_POCL_SITE).
 * smith-run: standalone: the kernel made no progress within the time limit: every group waiting
 * at global barrier #3 (smith.cl:49, global_barrier_any())
 * Reproduce: python3 fuzz/smith/smith.py check 60212 --chaos 3 --plain (the whole program)
 * Merge: build/bin/coop-merge tests/merge/smith/seed60212.cl --standalone -Werror -o standalone.cl --host-header standalone.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 8
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 49
 *   expect smith out 18 22 26 30 34 38 42 46
 */
/* smith seed 60212: a generated cooperative kernel (fuzz/smith/gen.py), reduced. */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    if (n0 > 1u) {
        global_barrier();
    } else {
        global_barrier();
        global_barrier();
        if (get_group_id(0) == 0)
            atomic_add(&out[get_local_id(0)], (4u * (uint)get_local_id(0) + 18u));
    }
    global_barrier();
}
