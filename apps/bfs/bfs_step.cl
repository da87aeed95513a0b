/* bfs_step.cl: one round of bfs.cl's search (bfs.h) as an ordinary kernel, coop-bench's
 * multikernel baseline; the host reads counts[(round + 1) % 3] afterwards. */
#include "bfs.h"

kernel void bfs_step(global const uint *row, global const uint *col, global uint *level, global uint *wl0,
                     global uint *wl1, global uint *counts, uint max_degree, uint round, uint in_count)
{
    local uint scratch[EXPAND_WORDS];
    bfs_round(get_group_id(0), get_num_groups(0), round, in_count, row, col, level, wl0, wl1, counts, scratch,
              max_degree);
}
