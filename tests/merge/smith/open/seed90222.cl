/* smith finding: mismatch (the generator's shapes of 2026-11-29; open, unreduced). Found on PoCL
 * 3.1 here (campaign from seed 90000, 2026-11-29): the standalone form's work-item 1 took
 * `if (get_local_id(0) % 2u == 0u)` after `if (i0 % 2u == 1u) break;` in a loop, the family of
 * seed70089_standalone.cl. Caused by the kernel header's volatile local id on PoCL
 * (coop_device/ids.h): the program merged by this coop-merge runs right with the header before it,
 * and wrong with the coop-merge before this branch and the new header. So that volatile copy
 * moves PoCL 3.1's fault rather than removing it; which shape PoCL runs right for every such
 * branch is not known yet. It runs right since the copy was dropped; kept with the open findings
 * of that family as the evidence against the copy.
 * smith-run: standalone: mismatch: smith out[9] = 18, expected 0 (4 of 24 words wrong); megakernel: right under 3 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 90222 --chaos 3
 * Merge: build/bin/coop-merge tests/merge/smith/open/seed90222.cl --task tests/merge/smith/open/seed90222_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 8 3
 *   buffer smith out 24
 *   uint smith n0 1
 *   uint smith n1 1
 *   uint smith n2 1
 *   uint smith width 57
 *   expect smith out 27 27 27 27 27 27 27 27 16 0 20 0 24 0 28 0 1 3 5 7 9 11 13 15
 */
/* smith seed 90222: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint i0;
    transmit int v0;
    i0 = 0;
    v0 = 1;
    while (v0) {
        if (get_group_id(0) == 0)
            atomic_add(&out[0u + get_local_id(0)], (6u * i0 + 27u));
        offer_kill();
        if (i0 % 2u == 1u)
            break;
        if (get_group_id(0) == 0) {
            if (get_local_id(0) % 2u == 0u)
                atomic_add(&out[8u + get_local_id(0)], (2u * (uint)get_local_id(0) + 16u));
        }
        if (get_group_id(0) == 0)
            atomic_add(&out[16u + get_local_id(0)], (5u * i0 + 2u * (uint)get_local_id(0) + 1u));
        i0++;
        v0 = resizing_global_barrier_any(get_local_id(0) == 0 && i0 < n2);
    }
}
