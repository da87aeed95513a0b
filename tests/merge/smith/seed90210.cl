/* smith finding: mismatch (the generator's shapes of 2026-11-29; the campaign from seed 90000).
 * In the standalone form work-item 0 took the `else if` of `if (get_local_id(0) < 1u)` after
 * `if (i1 % 2u == 0u) break;` in a loop of votes (out[0] = 24, expected 81); the user's kernel as
 * plain OpenCL runs right: the family of seed70089.cl.
 * Fixed by building for PoCL with -cl-opt-disable (libcoop/src/program.c), as 70089.
 * smith-run: standalone: mismatch: smith out[0] = 24, expected 81 (1 of 8 words wrong); megakernel: right under 1 chaos seeds; plain: right (merge: only the merged forms are wrong)
 * Reproduce: python3 fuzz/smith/smith.py check 90210 --drop 0,3,4,5,8,9,12,15 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90210.cl --task tests/merge/smith/seed90210_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 8
 *   uint smith n0 1
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 33
 *   expect smith out 81 24 24 24 24 24 24 24
 */
/* smith seed 90210: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i2;
    transmit int v3;
    for (uint i1 = 0; i1 < n1; i1++) {
        i2 = 0;
        v3 = 1;
        while (v3) {
            if (i1 % 2u == 0u)
                break;
            if (get_local_id(0) < 1u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], (1u * i1 + 2u * (uint)get_local_id(0) + 26u));
            } else if (get_group_id(0) == 0) {
                atomic_add(&out[0u + get_local_id(0)], 8u);
            }
            i2++;
            v3 = global_barrier_any(get_local_id(0) == 0 && i2 < n2);
        }
    }
}
