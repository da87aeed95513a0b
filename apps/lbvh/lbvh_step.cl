/* lbvh_step.cl: the chain baseline of lbvh.cl, an ordinary kernel that runs one pass of the build
 * (lbvh.h) per launch: step 0 bounds, 1 morton, 2 + 2p count pass p, 3 + 2p scatter pass p,
 * LBVH_STEP_HIERARCHY, LBVH_STEP_FIT + r round r of the fit (the host launches rounds until one
 * appends nothing, reading hist[(r + 1) % 3] back after each). Its parameters are lbvh.cl's, then
 * the step; every launch of one build has the same number of groups. clock_ns is lbvh.cl's and stays unwritten: the host
 * times the launches by their profiling events. */
#include "lbvh.h"

#define LBVH_STEP_HIERARCHY (2u + 2u * LBVH_PASSES)
#define LBVH_STEP_FIT (LBVH_STEP_HIERARCHY + 1u)

kernel void lbvh_step(global const float *tris, uint n, global float *partial, global uint *keys, global uint *ids,
                      global uint *keys_tmp, global uint *ids_tmp, global uint *hist, global uint *child,
                      global uint *parent, global float *box, global uint *visits, global ulong *clock_ns,
                      uint step)
{
    local uint sort[LBVH_SORT_WORDS];
    local float boxes[LBVH_BOX_FLOATS];
    uint group = get_group_id(0), groups = get_num_groups(0), pass = (step - 2u) / 2u;
    if (step == 0u)
        lbvh_bounds(group, groups, tris, n, partial, boxes);
    else if (step == 1u)
        lbvh_morton(group, groups, tris, n, partial, keys, ids, boxes);
    else if (step < LBVH_STEP_HIERARCHY && step % 2u == 0u)
        lbvh_count(group, groups, n, pass, keys, keys_tmp, hist, sort);
    else if (step < LBVH_STEP_HIERARCHY)
        lbvh_scatter(group, groups, n, pass, keys, ids, keys_tmp, ids_tmp, hist, sort);
    else if (step == LBVH_STEP_HIERARCHY)
        lbvh_hierarchy(group, groups, n, keys, child, parent, visits, hist);
    else
        lbvh_fit_round(group, groups, n, step - LBVH_STEP_FIT, tris, ids, child, parent, box, visits, keys_tmp,
                       ids_tmp, hist, sort);
}
