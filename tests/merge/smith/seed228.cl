/* smith finding: mismatch
 * smith-run: standalone: mismatch: smith out[61] = 0, expected 224 (1 of 62 words wrong); megakernel: right under 1 chaos seeds
 * Fixed by coop-merge leaving out the coop_pocl_join() it had put after a loop that a `break`
 * leaves.
 * Reproduce: python3 fuzz/smith/smith.py check 228 --drop 1,10,12 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed228.cl --task tests/merge/smith/seed228_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 62
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 53
 *   expect smith out 102 114 126 138 150 162 174 186 198 210 222 234 246 258 270 282 294 306 318 330 342 354 366 378 390 402 414 426 438 450 462 474 486 498 510 522 534 546 558 570 582 594 606 618 630 642 654 666 678 690 702 714 726 45 47 49 51 53 55 57 59 224
 */
/* smith seed 228: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 7u;
    transmit uint a1 = 2u;
    transmit uint i2;
    for (uint i0 = 0; i0 < 2u; i0++) {
        i2 = 0;
        while (1) {
            global_barrier();
            {
                uint m = shared_num_groups();
                for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                     w += m * get_local_size(0))
                    atomic_add(&out[0u + w], (2u * a0 + 7u * i2 + 3u * w + 8u));
            }
            global_barrier();
            if (i0 % 3u == 1u) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[53u + get_local_id(0)], (1u * a0 + 3u * i2 + 1u * (uint)get_local_id(0) + 14u));
            } else {
                {
                    uint p = (6u * i0 + 37u);
                    p = p * 3u + 1u;
                    if (get_group_id(0) == 0 && get_local_id(0) == 0)
                        atomic_add(&out[61u], p);
                }
            }
            i2++;
            if (i2 >= n2)
                break;
        }
    }
}
