/* smith finding: mismatch (the generator's shapes of 2026-11-29). PoCL 3.1 took the run's `if
 * (get_local_id(0) == 0)` in every work-item after `if (n2 > 2u) continue;` first in a loop
 * holding a fork point; a join after the skipped run that holds the jump makes it right.
 * smith-run: megakernel, chaos seed 820: mismatch: smith out[0] = 1408, expected 176 (1 of 1 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 117 --drop 0,1,3,5,8,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed117_shapes.cl --task tests/merge/smith/seed117_shapes_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 1
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 70
 *   expect smith out 176
 */
/* smith seed 117: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    for (uint i0 = 0; i0 < n1; i0++) {
        if (n2 > 2u)
            continue;
        {
            uint p = (4u * i0 + 35u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[0u], p);
        }
        offer_fork();
        resizing_global_barrier();
    }
}
