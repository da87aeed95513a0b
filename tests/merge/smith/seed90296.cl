/* smith finding: mismatch (the generator's shapes of 2026-11-29; the campaign from seed 90000).
 * As seed90210.cl: after `if (i0 % 2u == 1u) break;` in a loop of votes, work-item 0 took the
 * `else if` of `if (get_local_id(0) < 1u)` in the standalone form (out[0] = 9, expected 23), and
 * the whole program's megakernel lost all 8 words; the plain kernel runs right.
 * Fixed by building for PoCL with -cl-opt-disable (libcoop/src/program.c), as 70089.
 * smith-run: standalone: mismatch: smith out[0] = 9, expected 23 (1 of 8 words wrong); megakernel: right under 1 chaos seeds; plain: right (merge: only the merged forms are wrong)
 * Reproduce: python3 fuzz/smith/smith.py check 90296 --drop 1,4,5,6 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90296.cl --task tests/merge/smith/seed90296_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 8
 *   uint smith n0 1
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 51
 *   expect smith out 23 9 9 9 9 9 9 9
 */
/* smith seed 90296: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i0;
    transmit int v0;
    i0 = 0;
    v0 = 1;
    while (v0) {
        if (i0 % 2u == 1u)
            break;
        if (get_local_id(0) < 1u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (3u * i0 + 23u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[0u + get_local_id(0)], 9u);
        }
        i0++;
        v0 = global_barrier_any(get_local_id(0) == 0 && i0 < n2);
    }
}
