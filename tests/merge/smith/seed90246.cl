/* smith finding: mismatch (the generator's shapes of 2026-11-29; the campaign from seed 90000).
 * The megakernel under chaos lost the odd work-items' writes of group 0 in `if (get_local_id(0) %
 * 2u == 1u)` before an offer_kill() and a do-while of offer_fork() and resizing barriers in an
 * `else if` (out[1] = 0, expected 4); the standalone form and the plain kernel run right.
 * Fixed by building for PoCL with -cl-opt-disable (libcoop/src/program.c), as 70089.
 * smith-run: megakernel, chaos seed 31723: mismatch: smith out[1] = 0, expected 4 (4 of 58 words wrong); standalone: right; plain: right (merge: only the merged forms are wrong)
 * Reproduce: python3 fuzz/smith/smith.py check 90246 --drop 0,1,3,7,11,12,14 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed90246.cl --task tests/merge/smith/seed90246_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 58
 *   uint smith n0 3
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 50
 *   expect smith out 0 4 0 4 0 4 0 4 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144 144
 */
/* smith seed 90246: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 2u;
    transmit uint i0;
    if (n2 > 1u) {
    } else if (n0 > 2u) {
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 1u)
                atomic_add(&out[0u + get_local_id(0)], (2u * a0 + 0u));
        }
        offer_kill();
        i0 = 0;
        do {
            offer_fork();
            resizing_global_barrier();
            {
                uint m = shared_num_groups();
                for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                     w += m * get_local_size(0))
                    atomic_add(&out[8u + w], (4u * a0 + 40u));
            }
            global_barrier();
            i0++;
        } while (i0 < n0);
    }
}
