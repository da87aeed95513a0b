/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 41639: mismatch: smith out[69] = 0, expected 136 (1 of 70 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 20234 --drop 3 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed20234.cl --task tests/merge/smith/seed20234_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 70
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 2
 *   uint smith width 69
 *   expect smith out 36 38 40 42 44 46 48 50 52 54 56 58 60 62 64 66 68 70 72 74 76 78 80 82 84 86 88 90 92 94 96 98 100 102 104 106 108 110 112 114 116 118 120 122 124 126 128 130 132 134 136 138 140 142 144 146 148 150 152 154 156 158 160 162 164 166 168 170 172 136
 */
/* smith seed 20234: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 1u;
    transmit uint i0;
    i0 = 0;
    while (1) {
        resizing_global_barrier();
        {
            uint m = shared_num_groups();
            for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
                 w += m * get_local_size(0))
                atomic_add(&out[0u + w], (2u * w + 36u));
        }
        global_barrier();
        {
            uint p = (7u * a0 + 7u * i0 + 20u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[69u], p);
        }
        i0++;
        if (i0 >= 0u)
            break;
    }
}
