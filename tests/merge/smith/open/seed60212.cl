/* smith finding: hang
 * smith-run: standalone: the kernel made no progress within the time limit: every group waiting at global barrier #3 (smith.cl:49, global_barrier_any())
 * Reproduce: python3 fuzz/smith/smith.py check 60212 --chaos 3 --plain
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed60212.cl --task tests/merge/smith/open/seed60212_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 4
 *   buffer smith out 105
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 49
 *   expect smith out 6 6 6 6 6 6 6 6 35 35 35 35 35 35 35 35 0 0 0 0 0 0 0 0 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 18 22 26 30 34 38 42 46 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2
 */
/* smith seed 60212: a generated cooperative kernel (fuzz/smith/gen.py). */

uint share_0(local uint *s, uint v)
{
    if (get_local_id(0) == 0)
        s[0] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    transmit uint i0;
    transmit int v0;
    transmit int v1;
    transmit int v2;
    {
        uint h = share_0(s0, (6u));
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], h);
    }
    {
        uint h = share_0(s0, (35u));
        if (get_group_id(0) == 0)
            atomic_add(&out[8u + get_local_id(0)], h);
    }
    if (n0 > 1u) {
        global_barrier();
        {
            uint h = share_0(s0, (23u));
            if (get_group_id(0) == 0)
                atomic_add(&out[16u + get_local_id(0)], h);
        }
    } else {
        global_barrier();
        for (uint w = get_global_id(0); w < width; w += get_global_size(0))
            atomic_add(&out[24u + w], (15u));
        global_barrier();
        if (get_group_id(0) == 0)
            atomic_add(&out[73u + get_local_id(0)], (4u * (uint)get_local_id(0) + 18u));
    }
    if (n2 > 1u) {
        i0 = 0;
        while (i0 < n0) {
            if (i0 % 3u == 0u) {
                v0 = global_barrier_any(get_local_id(0) == 0 && n2 > 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[81u + get_local_id(0)], (uint)v0 + 1u);
                v1 = global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[89u + get_local_id(0)], (uint)v1 + 1u);
            }
            v2 = global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 0u);
            if (get_group_id(0) == 0)
                atomic_add(&out[97u + get_local_id(0)], (uint)v2 + 1u);
            i0++;
        }
    }
}
