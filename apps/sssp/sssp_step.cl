/* sssp_step.cl: one round of sssp.cl's relaxation (sssp.h) as an ordinary kernel,
 * coop-bench's multikernel baseline; the host reads counts[(round + 1) % 3] afterwards. */
#include "sssp.h"

kernel void sssp_step(global const uint *row, global const uint *col, global const uint *weight, global uint *dist,
                      global uint *mark, global uint *wl0, global uint *wl1, global uint *counts, uint round,
                      uint in_count)
{
    local uint scratch[EXPAND_WORDS];
    sssp_round(get_group_id(0), get_num_groups(0), round, in_count, row, col, weight, dist, mark, wl0, wl1, counts,
               scratch);
}
