/* smith finding: hang (the generator's shapes of 2026-11-29; reduced by hand). PoCL 3.1 ran the
 * standalone form for ever: in the `if (n1 > 2u)` branch, after the loop nest holding the global
 * barriers, the groups kept looping through them (thousands of barriers) until one left and the
 * others waited. A plain OpenCL kernel shows the fault without any global barrier:
 * `if (n) { for (uint i = 0; i < 2u; i++) barrier(CLK_GLOBAL_MEM_FENCE); if (get_local_id(0) < 2u)
 * { if (get_group_id(0) == 0) atomic_add(...); } else if (get_group_id(0) == 0) { atomic_add(...); } }`
 * adds nothing there, and without the `if (n)` around it, runs right. A barrier last in the branch
 * makes it right (one right after the loop or after the `if` does not), and coop-merge now puts a
 * join last in such a branch (merge-tool/rewrite_joins.c, join_branch_tail).
 * smith-run: standalone: the kernel made no progress within the time limit: kernel 'smith_standalone' on 4 groups did not complete within 600.0 s: 3 groups waiting at global barrier #51617 (smith.cl:58:22: resizing_global_barrier_any()), group 0 never arrived
 * Reproduce: python3 fuzz/smith/smith.py check 14 --chaos 1 (the whole program)
 * Merge: build/bin/coop-merge tests/merge/smith/seed14_shapes.cl --standalone -Werror -o standalone.cl --host-header standalone.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 16
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 32
 *   expect smith out 31 31 0 0 0 0 0 0 20 21 4 4 4 4 4 4
 */
/* smith seed 14: a generated cooperative kernel (fuzz/smith/gen.py), reduced. */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    resizing_global_barrier();
    if (get_local_id(0) < 2u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[get_local_id(0)], 31u);
    }
    if (n1 > 2u) {
        for (uint i1 = 0; i1 < 2u; i1++) {
            for (uint i2 = 0; i2 < 3u; i2++) {
                resizing_global_barrier();
                if (n1 > 2u)
                    break;
            }
        }
        if (get_local_id(0) < 2u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[8u + get_local_id(0)], (20u + (uint)get_local_id(0)));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[8u + get_local_id(0)], 4u);
        }
    }
}
