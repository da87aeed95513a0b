/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 50323: mismatch: smith out[16] = 6176, expected 386 (1 of 33 words wrong); standalone: mismatch: smith out[16] = 6176, expected 386 (1 of 33 words wrong)
 * Reproduce: python3 fuzz/smith/smith.py check 50046 --drop 3,5,8 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed50046.cl --task tests/merge/smith/seed50046_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 33
 *   uint smith n0 3
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 27
 *   expect smith out 186 217 248 279 310 341 372 403 434 465 496 527 558 589 620 155 386 201 216 231 246 261 276 291 306 321 336 351 366 381 396 411 426
 */
/* smith seed 50046: a generated cooperative kernel (fuzz/smith/gen.py). */

uint rot_2(local uint *s, uint v)
{
    s[get_local_id(0)] = v * ((uint)get_local_id(0) + 5u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[(get_local_id(0) + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 7u;
    transmit uint i0;
    if (n2 > 0u) {
        i0 = 0;
        while (1) {
            if (i0 % 3u == 0u) {
                {
                    uint h = rot_2(s0, (2u * i0 + 31u));
                    if (get_group_id(0) == 0)
                        atomic_add(&out[0u + get_local_id(0)], h);
                }
                {
                    uint p = (4u * i0 + 6u * a0 + 35u);
                    p = p * 5u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[16u], p);
                }
            }
            if (get_group_id(0) == 0)
                atomic_add(&out[17u + get_local_id(0)], (6u * i0 + 7u * a0 + 5u * (uint)get_local_id(0) + 12u));
            i0++;
            if (i0 >= n0)
                break;
        }
    }
}
