/* plain.cl: the tasks as ordinary kernels: start-up sizing, the tasks alone on the device, and
 * the no-cooperation baseline, where they run on a second queue beside a persistent kernel. */
#include "matmult.h"
#include "render.h"

kernel void matmult_plain(global const uint *a, global const uint *b, global uint *c, uint n)
{
    matmult_rows(get_group_id(0), get_num_groups(0), a, b, c, n);
}

/* Frame `frame_index` (render.h): launch `tiles` groups, or fewer, which then take several
 * tiles each. */
kernel void render_plain(global uchar4 *frame, uint width, uint height, uint frame_index, uint tiles)
{
    for (uint tile = get_group_id(0); tile < tiles; tile += get_num_groups(0))
        render_tile(frame, width, height, frame_index, tile, tiles);
}
