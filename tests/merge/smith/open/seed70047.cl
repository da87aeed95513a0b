/* smith finding: mismatch
 * PoCL 5.0: megakernel, chaos seed 90330: out[1] = 0, expected 57 (9 of 17 words wrong); standalone right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 70047 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed70047.cl --task tests/merge/smith/open/seed70047_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 3
 *   buffer smith out 17
 *   uint smith n0 3
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 39
 *   expect smith out 0 57 0 65 0 73 0 81 0 89 0 97 0 105 0 113 109
 */
/* smith seed 70047: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 9u;
    offer_kill();
    if (get_group_id(0) == 0) {
        if (get_local_id(0) % 2u == 1u)
            atomic_add(&out[0u + get_local_id(0)], (5u * a0 + 4u * (uint)get_local_id(0) + 8u));
    }
    {
        uint p = (1u * a0 + 18u);
        p = p * 4u + 1u;
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            atomic_add(&out[16u], p);
    }
    if (n2 > 1u) {
    }
}
