/* bfs.cl: breadth-first search levels (bfs.h), a cooperative kernel in the paper's language.
 * coop-merge makes coop-bench's megakernels of it, beside no task, the matmult task or the
 * render task, and its standalone form (kernels/generated/merges.txt); bfs_step.cl is the
 * multikernel baseline. Each round splits its worklist over the groups the kernel has now, read
 * once per group, and ends with a resizing barrier, where groups may be killed or forked. */
#include "bfs.h"

kernel void bfs(global const uint *row, global const uint *col, global uint *level, global uint *wl0,
                global uint *wl1, global uint *counts, uint max_degree)
{
    local uint scratch[EXPAND_WORDS];
    transmit uint round = 0;
    for (uint in_count = counts[round % 3u]; in_count; in_count = counts[round % 3u]) {
        bfs_round(get_group_id(0), shared_num_groups(), round, in_count, row, col, level, wl0, wl1, counts,
                  scratch, max_degree);
        round++;
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        counts[3] = round;
}
