/* smith finding: mismatch
 * smith-run: megakernel, chaos seed 42078: mismatch: smith out[85] = 0, expected 67 (1 of 86 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 6011 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed6011.cl --task tests/merge/smith/seed6011_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 2
 *   buffer smith out 86
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 69
 *   expect smith out 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 67
 */
/* smith seed 6011: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint a0 = 9u;
    transmit uint i0;
    transmit int v0;
    resizing_global_barrier();
    for (uint w = get_global_id(0); w < width; w += get_global_size(0))
        atomic_add(&out[0u + w], (1u * w + 10u));
    global_barrier();
    i0 = 0;
    while (1) {
        v0 = global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 1u);
        if (get_group_id(0) == 0)
            atomic_add(&out[69u + get_local_id(0)], (uint)v0 + 1u);
        {
            uint p = (1u * i0 + 22u);
            p = p * 3u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[85u], p);
        }
        i0++;
        if (i0 >= 1u)
            break;
    }
}
