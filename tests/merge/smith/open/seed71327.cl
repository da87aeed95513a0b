/* smith finding: mismatch
 * PoCL 5.0: megakernel, chaos seed 99290: out[18] = 33, expected 0 (8 of 65 words wrong); standalone right (not reduced yet)
 * Reproduce: python3 fuzz/smith/smith.py check 71327 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed71327.cl --task tests/merge/smith/open/seed71327_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 65
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 37
 *   expect smith out 253 216 216 216 216 216 216 216 216 216 216 216 216 216 216 216 216 31 0 35 0 39 0 43 0 47 0 51 0 55 0 59 0 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 252 252 252 252 252 252 252 252 252 252 252 252 252 252 252 252
 */
/* smith seed 71327: a generated cooperative kernel (fuzz/smith/gen.py). */

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
    transmit uint a0 = 1u;
    transmit uint a1 = 9u;
    transmit int v0;
    {
        uint p = (7u * a1 + 1u * a0 + 20u);
        p = p * 3u + 1u;
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            atomic_add(&out[0u], p);
    }
    for (uint i0 = 0; i0 < n1; i0++) {
        for (uint i1 = 0; i1 < n2; i1++) {
            {
                uint h = share_0(s0, (36u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[1u + get_local_id(0)], h);
            }
            if (i1 % 2u == 1u) {
                if (get_group_id(0) == 0) {
                    if (get_local_id(0) % 2u == 0u)
                        atomic_add(&out[17u + get_local_id(0)], (3u * i0 + 1u * (uint)get_local_id(0) + 14u));
                }
                v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[33u + get_local_id(0)], (uint)v0 + 1u);
            }
            {
                uint h = share_0(s0, (6u * a0 + 36u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[49u + get_local_id(0)], h);
            }
            offer_fork();
        }
    }
}
