/* smith finding: mismatch
 * PoCL 5.0: standalone: out[32] = 0, expected 59 (3 of 81 words wrong); megakernel right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 71205 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed71205.cl --task tests/merge/smith/open/seed71205_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 81
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 49
 *   expect smith out 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 59 63 67 0 0 0 0 0 0 0 0 0 0 0 0 0 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 131 16 0 16 0 16 0 16 0 16 0 16 0 16 0 16 0
 */
/* smith seed 71205: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 8u;
    transmit uint i0;
    transmit uint i1;
    transmit uint i2;
    transmit uint i3;
    transmit int v0;
    transmit int v1;
    transmit int v2;
    i0 = 0;
    do {
        i1 = 0;
        v0 = 1;
        while (v0) {
            v1 = resizing_global_barrier_any(get_local_id(0) == 0 && i1 % 2u == 1u);
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (uint)v1 + 1u);
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], (4u * i0 + 2u * (uint)get_local_id(0) + 7u));
            offer_kill();
            i1++;
            v0 = global_barrier_any(get_local_id(0) == 0 && i1 < 1u);
        }
        if (get_local_id(0) < 3u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[32u + get_local_id(0)], (1u * i0 + 6u * a0 + 4u * (uint)get_local_id(0) + 11u));
        }
        if (get_group_id(0) == 0)
            atomic_add(&out[48u + get_local_id(0)], (7u * a0 + 1u * (uint)get_local_id(0) + 25u));
        {
            uint p = (2u * a0 + 3u * i0 + 10u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[64u], p);
        }
        i0++;
    } while (i0 < n1);
    if (get_group_id(0) == 0) {
        if (get_local_id(0) % 2u == 0u)
            atomic_add(&out[65u + get_local_id(0)], (2u * a0 + 0u));
    }
    i2 = 0;
    while (i2 < 2u) {
        if (i2 % 3u == 1u)
            break;
        if (i2 % 3u == 1u) {
            i3 = 0;
            v2 = 1;
            while (v2) {
                i3++;
                v2 = resizing_global_barrier_any(get_local_id(0) == 0 && i3 < 2u);
            }
        }
        i2++;
    }
}
