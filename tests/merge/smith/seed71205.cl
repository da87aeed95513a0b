/* smith finding: mismatch (the generator's shapes of 2026-11-29). Found on PoCL 5.0, wrong on
 * PoCL 3.1 too (the standalone form): `if (get_local_id(0) < 3u)` after a `while (v0)` of voting
 * global barriers in a `do`-`while` adds nothing. Probed in the standalone form: with the branch
 * `get_local_id(0) == 15u` every one of the 16 work-items took it and wrote out[15] with the value
 * of local id 15; with none or two joins between the loop and the `if` it ran right. The same
 * PoCL 3.1 fault as seed71078.cl (a local id clang computed before the barriers, decided with the
 * group's last work-item's value); right with the local id read through a volatile private copy,
 * which made seeds 90222 and 90285 wrong instead: not kept. The user's kernel as plain OpenCL
 * runs right.
 * Fixed on 2026-11-29 by building every program for PoCL with -cl-opt-disable
 * (libcoop/src/program.c): no placement of joins made all of this family right.
 * smith-run: standalone: mismatch: smith out[0] = 0, expected 59 (3 of 17 words wrong); megakernel: right under 1 chaos seeds
 * Reproduce: python3 fuzz/smith/smith.py check 71205 --drop 2,3,4,6,8,9 --chaos 1
 * Merge: build/bin/coop-merge tests/merge/smith/seed71205.cl --task tests/merge/smith/seed71205_task.cl -Werror -o mega.cl --host-header mega.h
 * Spec (size LOCAL_SIZE MAX_GROUPS; arguments; expected words of out):
 *   size 16 4
 *   buffer smith out 17
 *   uint smith n0 2
 *   uint smith n1 1
 *   uint smith n2 3
 *   uint smith width 49
 *   expect smith out 59 63 67 0 0 0 0 0 0 0 0 0 0 0 0 0 131
 */
/* smith seed 71205: a generated cooperative kernel (fuzz/smith/gen.py). */

kernel void smith(global uint *out, uint n0, uint n1, uint n2, uint width)
{
    local uint s0[32];
    local uint s1[32];
    transmit uint a0 = 8u;
    transmit uint i0;
    transmit uint i1;
    transmit int v0;
    i0 = 0;
    do {
        i1 = 0;
        v0 = 1;
        while (v0) {
            i1++;
            v0 = global_barrier_any(get_local_id(0) == 0 && i1 < 1u);
        }
        if (get_local_id(0) < 3u) {
            if (get_group_id(0) == 0)
                atomic_add(&out[0u + get_local_id(0)], (1u * i0 + 6u * a0 + 4u * (uint)get_local_id(0) + 11u));
        }
        {
            uint p = (2u * a0 + 3u * i0 + 10u);
            p = p * 5u + 1u;
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                atomic_add(&out[16u], p);
        }
        i0++;
    } while (i0 < n1);
}
