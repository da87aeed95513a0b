/* smith finding: hang (reduced by hand). PoCL 3.1 ran the standalone form for ever: after the
 * kernel's last barrier, a loop of `if`s with no workgroup barrier before the kernel's end, in a
 * kernel that returns early (COOP_ENTER's return for the groups that are not co-resident). A plain
 * OpenCL kernel with a `return` before a barrier and this loop after it hangs PoCL 3.1 the same
 * way; a barrier at its end makes it right, and coop-merge ends the standalone form with a join.
 * smith-run: standalone: the kernel made no progress within the time limit
 * Reproduce: python3 fuzz/smith/smith.py check 40168 --chaos 3 (the whole program)
 * Merge: build/bin/coop-merge tests/merge/smith/seed40168.cl --standalone -Werror -o standalone.cl --host-header standalone.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 68
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 1
 *   uint smith width 59
 *   expect smith out 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 194 19 19 19 19 19 19 19 19
 */
/* smith seed 40168: a generated cooperative kernel (fuzz/smith/gen.py), reduced. */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    global_barrier();
    for (uint i0 = 0; i0 < n0; i0++) {
        {
            uint p = (2u * i0 + 31u);
            p = p * 3u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[59u], p);
        }
        if (i0 % 3u == 0u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[60u + get_local_id(0)], (3u * i0 + 19u));
        }
    }
}
