/* sssp_bf.cl: the sweeps of sssp_bf.h, a cooperative kernel in the paper's language. coop-merge
 * makes coop-bench's megakernels of it, beside no task, the matmult task or the render task, and
 * its standalone form (kernels/generated/merges.txt); sssp_bf_step.cl is the multikernel baseline.
 * Sweep r runs while counts[r % 3] is not zero; each splits the nodes over the groups the kernel
 * has now, read once per group, and ends with a resizing barrier. */
#include "sssp_bf.h"

kernel void sssp_bf(global const uint *row, global const uint *col, global const uint *weight, global uint *dist,
                    global uint *counts, uint n)
{
    local uint scratch[EXPAND_WORDS];
    transmit uint round = 0;
    while (counts[round % 3u]) {
        sssp_bf_sweep(get_group_id(0), shared_num_groups(), round, n, row, col, weight, dist, counts, scratch);
        round++;
        resizing_global_barrier();
    }
    if (get_group_id(0) == 0 && get_local_id(0) == 0)
        counts[3] = round;
}
