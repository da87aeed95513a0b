/* sssp.cl: single-source shortest paths (sssp.h), a cooperative kernel in the paper's
 * language. coop-merge makes coop-bench's megakernels of it, beside no task, the matmult task or
 * the render task, and its standalone form (kernels/generated/merges.txt); sssp_step.cl is the
 * multikernel baseline. */
#include "sssp.h"

kernel void sssp(global const uint *row, global const uint *col, global const uint *weight, global uint *dist,
                 global uint *mark, global uint *wl0, global uint *wl1, global uint *counts)
{
    local uint scratch[EXPAND_WORDS];
    transmit uint round = 0;
    for (uint in_count = counts[round % 3u]; in_count; in_count = counts[round % 3u]) {
        /* shared_num_groups(), as bfs.cl: get_num_groups(0) reads the scheduler's word in every
         * work-item of every group after every barrier, which cost the megakernel 0.3-0.4 us a
         * round on the road graphs and the grid (H200). */
        sssp_round(get_group_id(0), shared_num_groups(), round, in_count, row, col, weight, dist, mark, wl0, wl1,
                   counts, scratch);
        round++;
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        counts[3] = round;
}
