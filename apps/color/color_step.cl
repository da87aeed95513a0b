/* color_step.cl: one sweep of color.cl (color.h) as an ordinary kernel, coop-bench's
 * multikernel baseline (in_count unused: every app's step kernel takes the same trailing
 * arguments). */
#include "color.h"

kernel void color_step(global const uint *row, global const uint *col, global uint *color, global uint *colored,
                       global uint *counts, uint n, uint round, uint in_count)
{
    local uint scratch[COLOR_WORDS];
    color_sweep(get_group_id(0), get_num_groups(0), round, n, row, col, color, colored, counts, scratch);
}
