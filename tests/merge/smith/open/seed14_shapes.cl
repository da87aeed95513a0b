/* smith finding: hang
 * smith-run: standalone: the kernel made no progress within the time limit: kernel 'smith_standalone' on 4 groups did not complete within 600.0 s: 3 groups waiting at global barrier #51617 (smith.cl:58:22: resizing_global_barrier_any()), group 0 never arrived (megakernel right, chaos 1; not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 14 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed14_shapes.cl --task tests/merge/smith/open/seed14_shapes_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 121
 *   uint smith n0 3
 *   uint smith n1 3
 *   uint smith n2 3
 *   uint smith width 32
 *   expect smith out 5 6 7 8 9 10 0 0 22 25 28 31 34 37 40 43 46 49 52 55 58 61 64 67 70 73 76 79 82 85 88 91 94 97 100 103 106 109 112 115 46 1 1 1 1 1 1 1 1 39 42 45 48 51 0 0 0 31 31 0 0 0 0 0 0 0 102 0 102 0 102 0 102 0 12 0 20 0 28 0 36 4 4 4 4 4 4 4 4 0 0 0 0 0 0 0 0 10 10 10 10 10 10 10 10 20 21 4 4 4 4 4 4 0 0 0 0 0 0 0 0
 */
/* smith seed 14: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 4u;
    transmit uint i0;
    transmit int v0;
    transmit int v1;
    if (get_local_id(0) < 6u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], (1u * (uint)get_local_id(0) + 5u));
    }
    resizing_global_barrier();
    {
        uint m = shared_num_groups();
        for (uint w = get_group_id(0) * get_local_size(0) + get_local_id(0); w < width;
             w += m * get_local_size(0))
            atomic_add(&out[8u + w], (3u * w + 22u));
    }
    global_barrier();
    i0 = 0;
    while (i0 < n2) {
        {
            uint p = (1u * a0 + 6u * i0 + 4u);
            p = p * 2u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[40u], p);
        }
        if (i0 % 2u == 1u)
            break;
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 % 3u == 1u);
        if (get_group_id(0) == 0)
            atomic_add(&out[41u + get_local_id(0)], (uint)v0 + 1u);
        if (get_local_id(0) < 5u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[49u + get_local_id(0)], (5u * a0 + 2u * i0 + 3u * (uint)get_local_id(0) + 19u));
        }
        i0++;
    }
    if (get_local_id(0) < 2u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[57u + get_local_id(0)], (7u * a0 + 3u));
    }
    if (n1 > 2u) {
        for (uint i1 = 0; i1 < 2u; i1++) {
            for (uint i2 = 0; i2 < 3u; i2++) {
                if (get_group_id(0) == 0) {
                    if (get_local_id(0) % 2u == 1u)
                        atomic_add(&out[65u + get_local_id(0)], (7u * a0 + 23u));
                }
                resizing_global_barrier();
                if (get_group_id(0) == 0) {
                    if (get_local_id(0) % 2u == 1u)
                        atomic_add(&out[73u + get_local_id(0)], (2u * i2 + 2u * (uint)get_local_id(0) + 4u));
                }
                v1 = resizing_global_barrier_any(get_local_id(0) == 0 && n2 > 1u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[81u + get_local_id(0)], (uint)v1 + 1u);
                if (n1 > 2u)
                    break;
                if (get_local_id(0) < 6u) {
                    if (get_group_id(0) == 0)
                        atomic_add(&out[89u + get_local_id(0)], (2u * a0 + 7u));
                } else if (get_group_id(0) == 0) {
                    atomic_add(&out[89u + get_local_id(0)], 9u);
                }
            }
            if (get_group_id(0) == 0)
                atomic_add(&out[97u + get_local_id(0)], (5u));
        }
        if (get_local_id(0) < 2u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[105u + get_local_id(0)], (2u * a0 + 1u * (uint)get_local_id(0) + 12u));
        } else if (get_group_id(0) == 0) {
            atomic_add(&out[105u + get_local_id(0)], 4u);
        }
    } else if (n2 > 0u) {
        if (get_group_id(0) == 0)
            atomic_add(&out[113u + get_local_id(0)], (7u));
    }
}
