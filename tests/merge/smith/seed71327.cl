/* smith finding: mismatch (the generator's shapes of 2026-11-29). Found on PoCL 5.0, wrong on
 * PoCL 3.1 too: the megakernel under every chaos seed tried (1-10, 99290), the standalone form
 * right. In group 0 every work-item took `if (get_local_id(0) % 2u == 0u)` (out[17] = 33, the odd
 * work-items' own values), also with `== 0u`, and with the local id read through a volatile copy.
 * The user's kernel as plain OpenCL, the global vote a workgroup one, runs right on PoCL 3.1, and
 * so does the megakernel's shape written as a plain kernel (the skip word a kernel argument, each
 * join a barrier): a coop-merge fault on PoCL, fixed by a join first in each branch of an `if` that
 * holds a workgroup barrier (merge-tool/rewrite_joins.c); a join before the `if` made it right
 * too.
 * smith-run: megakernel, chaos seed 99290: mismatch: smith out[17] = 33, expected 0 (8 of 48 words wrong); standalone: right
 * Reproduce: python3 fuzz/smith/smith.py check 71327 --drop 0,7,8 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed71327.cl --task tests/merge/smith/seed71327_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 48
 *   uint smith n0 2
 *   uint smith n1 2
 *   uint smith n2 3
 *   uint smith width 37
 *   expect smith out 216 216 216 216 216 216 216 216 216 216 216 216 216 216 216 216 31 0 35 0 39 0 43 0 47 0 51 0 55 0 59 0 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
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
    for (uint i0 = 0; i0 < n1; i0++) {
        for (uint i1 = 0; i1 < n2; i1++) {
            {
                uint h = share_0(s0, (36u));
                if (get_group_id(0) == 0)
                    atomic_add(&out[0u + get_local_id(0)], h);
            }
            if (i1 % 2u == 1u) {
                if (get_group_id(0) == 0) {
                    if (get_local_id(0) % 2u == 0u)
                        atomic_add(&out[16u + get_local_id(0)], (3u * i0 + 1u * (uint)get_local_id(0) + 14u));
                }
                v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 % 2u == 0u);
                if (get_group_id(0) == 0)
                    atomic_add(&out[32u + get_local_id(0)], (uint)v0 + 1u);
            }
        }
    }
}
