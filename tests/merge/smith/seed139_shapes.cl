/* smith finding: mismatch (the generator's shapes of 2026-11-29). After a `continue` in a loop
 * holding an `if` around a resizing barrier, a branch on the ids added nothing (smith-run's chaos
 * seed 974; this test's chaos seeds ran it right with the old coop-merge too); a join after the
 * skipped run that holds the jump makes it right.
 * smith-run: megakernel, chaos seed 974: mismatch: smith out[0] = 0, expected 178 (4 of 8 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 139 --drop 1,5,8 --chaos 2
 * Merge: build/bin/coop-merge tests/merge/smith/seed139_shapes.cl --task tests/merge/smith/seed139_shapes_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 8
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 59
 *   expect smith out 178 0 178 0 178 0 178 0
 */
/* smith seed 139: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 8u;
    for (uint i0 = 0; i0 < 2u; i0++) {
        for (uint i1 = 0; i1 < n1; i1++) {
            if (i0 % 2u == 1u) {
                resizing_global_barrier();
            }
            if (i1 % 3u == 1u)
                continue;
            if (get_group_id(0) == 0) {
                if (get_local_id(0) % 2u == 0u)
                    atomic_add(&out[0u + get_local_id(0)], (3u * a0 + 1u * i0 + 20u));
            }
        }
    }
}
