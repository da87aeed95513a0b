/* mis_step.cl: one sweep of mis.cl (mis.h) as an ordinary kernel, coop-bench's
 * multikernel baseline (in_count unused: every app's step kernel takes the same trailing
 * arguments). */
#include "mis.h"

kernel void mis_step(global const uint *row, global const uint *col, global uint *in_set, global uint *decided,
                     global uint *counts, uint n, uint round, uint in_count)
{
    local uint scratch[EXPAND_WORDS];
    mis_sweep(get_group_id(0), get_num_groups(0), round, n, row, col, in_set, decided, counts, scratch);
}
