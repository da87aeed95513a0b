/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 62051: mismatch: smith out[0] = 0, expected 231 (1 of 1 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 23150 --drop 1,3,6 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed23150.cl --task tests/merge/smith/seed23150_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 1
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 50
 *   expect smith out 231
 */
/* smith seed 23150: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 9u;
    transmit uint a1 = 9u;
    transmit uint i0;
    if (n1 > 2u) {
        offer_fork();
    }
    i0 = 0;
    while (1) {
        offer_kill();
        {
            uint p = (1u * a1 + 37u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[0u], p);
        }
        i0++;
        if (i0 >= 1u)
            break;
    }
}
