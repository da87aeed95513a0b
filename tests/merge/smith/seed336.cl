/* smith finding: mismatch
 * smith-run: standalone: mismatch: smith out[51] = 0, expected 495 (1 of 52 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 336 --drop 0,1,10 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed336.cl --task tests/merge/smith/open/seed336_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 52
 *   uint smith n0 3
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 51
 *   expect smith out 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 69 495
 */
/* smith seed 336: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 2u;
    transmit uint i1;
    transmit uint i2;
    transmit int v0;
    i1 = 0;
    v0 = 1;
    while (v0) {
        i2 = 0;
        while (1) {
            resizing_global_barrier();
            for (uint w = get_global_id(0); w < width; w += get_global_size(0))
                atomic_add(&out[0u + w], (23u));
            global_barrier();
            {
                uint p = (4u * a0 + 1u * i2 + 33u);
                p = p * 4u + 1u;
                if (get_group_id(0) == 0 && get_local_id(0) == 0)
                    atomic_add(&out[51u], p);
            }
            i2++;
            if (i2 >= 1u)
                break;
        }
        i1++;
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 < n0);
    }
}
