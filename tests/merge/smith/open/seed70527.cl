/* smith finding: mismatch
 * PoCL 5.0: standalone: out[25] = 0, expected 9 (1 of 41 words wrong); megakernel right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 70527 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed70527.cl --task tests/merge/smith/open/seed70527_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 2
 *   buffer smith out 41
 *   uint smith n0 3
 *   uint smith n1 1
 *   uint smith n2 2
 *   uint smith width 20
 *   expect smith out 61 2 2 2 2 2 2 2 2 12 13 14 15 16 17 18 0 16 16 16 16 16 16 16 16 9 0 0 0 0 0 0 0 35 37 39 41 43 45 47 49
 */
/* smith seed 70527: a generated cooperative kernel (fuzz/smith/gen.py). */

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
    local uint s1[32];
    transmit int v0;
    {
        uint p = (15u);
        p = p * 4u + 1u;
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            atomic_add(&out[0u], p);
    }
    v0 = resizing_global_barrier_any(get_local_id(0) == 0 && n0 > 2u);
    if (get_group_id(0) == 0)
        atomic_add(&out[1u + get_local_id(0)], (uint)v0 + 1u);
    if (n0 > 2u) {
        offer_fork();
        if (get_local_id(0) < 7u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[9u + get_local_id(0)], (1u * (uint)get_local_id(0) + 12u));
        }
        {
            uint h = share_0(s1, (16u));
            if (get_group_id(0) == 0)
                atomic_add(&out[17u + get_local_id(0)], h);
        }
        if (get_local_id(0) < 1u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[25u + get_local_id(0)], (5u * (uint)get_local_id(0) + 9u));
        }
    }
    if (get_group_id(0) == 0)
        atomic_add(&out[33u + get_local_id(0)], (2u * (uint)get_local_id(0) + 35u));
}
