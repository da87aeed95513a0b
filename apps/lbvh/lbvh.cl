/* lbvh.cl: Karras's LBVH build (lbvh.h) as one cooperative kernel in the paper's language: the
 * passes follow one another at global barriers, with no host round trip, and groups may be
 * killed or forked at the resizing barrier after every pass that does not hand its number of
 * groups to the next (a count pass and its scatter pass split the keys into the same blocks).
 * coop-merge makes its standalone form and its megakernel beside the matmult task
 * (kernels/generated/merges.txt); lbvh_step.cl is the chain baseline, one launch per pass.
 *
 * Buffers (lbvh.h says what each holds): tris (9n floats), partial (6 floats a group), keys, ids,
 * keys_tmp, ids_tmp (n words each), hist (LBVH_DIGITS words a group), child (2(n - 1) words),
 * parent (2n - 1), box (6(2n - 1) floats), visits (n - 1), clock_ns (LBVH_FIT_END + a group
 * 64-bit words: the passes' ends on the device clock, lbvh.h). "A group": every group the launch
 * may have. Local size at most LBVH_MAX_LOCAL. The fit's number of rounds ends in
 * hist[LBVH_FIT_ROUNDS]. */
#include "lbvh.h"

kernel void lbvh(global const float *tris, uint n, global float *partial, global uint *keys, global uint *ids,
                 global uint *keys_tmp, global uint *ids_tmp, global uint *hist, global uint *child,
                 global uint *parent, global float *box, global uint *visits, global ulong *clock_ns)
{
    local uint sort[LBVH_SORT_WORDS];
    local float boxes[LBVH_BOX_FLOATS];
    uint groups = shared_num_groups();
    lbvh_stamp(get_group_id(0), clock_ns, 0);
    lbvh_bounds(get_group_id(0), groups, tris, n, partial, boxes);
    global_barrier();
    lbvh_stamp(get_group_id(0), clock_ns, 1);
    lbvh_morton(get_group_id(0), groups, tris, n, partial, keys, ids, boxes);
    resizing_global_barrier();
    lbvh_stamp(get_group_id(0), clock_ns, 2);
    for (uint pass = 0; pass < LBVH_PASSES; pass++) {
        uint members = shared_num_groups();
        lbvh_count(get_group_id(0), members, n, pass, keys, keys_tmp, hist, sort);
        global_barrier();
        lbvh_stamp(get_group_id(0), clock_ns, 3u + 2u * pass);
        lbvh_scatter(get_group_id(0), members, n, pass, keys, ids, keys_tmp, ids_tmp, hist, sort);
        resizing_global_barrier();
        lbvh_stamp(get_group_id(0), clock_ns, 4u + 2u * pass);
    }
    uint last = shared_num_groups();
    lbvh_hierarchy(get_group_id(0), last, n, keys, child, parent, visits, hist);
    resizing_global_barrier();
    lbvh_stamp(get_group_id(0), clock_ns, 3u + 2u * LBVH_PASSES);
    /* the fit's rounds until one appends nothing: every group reads the same count after the
     * barrier, and round + 1 zeroes no count that this test reads (lbvh.h) */
    for (uint round = 0;; round++) {
        lbvh_fit_round(get_group_id(0), shared_num_groups(), n, round, tris, ids, child, parent, box, visits,
                       keys_tmp, ids_tmp, hist, sort);
        resizing_global_barrier();
        if (!hist[(round + 1u) % 3u]) {
            if (get_group_id(0) == 0u && get_local_id(0) == 0u)
                hist[LBVH_FIT_ROUNDS] = round + 1u;
            break;
        }
    }
    lbvh_stamp_fit(get_group_id(0), clock_ns);
}
