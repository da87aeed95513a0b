/* sssp_bf_step.cl: one sweep of sssp_bf.cl (sssp_bf.h) as an ordinary kernel, coop-bench's
 * multikernel baseline (in_count unused: every app's step kernel takes the same trailing
 * arguments). */
#include "sssp_bf.h"

kernel void sssp_bf_step(global const uint *row, global const uint *col, global const uint *weight,
                         global uint *dist, global uint *counts, uint n, uint round, uint in_count)
{
    local uint scratch[EXPAND_WORDS];
    sssp_bf_sweep(get_group_id(0), get_num_groups(0), round, n, row, col, weight, dist, counts, scratch);
}
