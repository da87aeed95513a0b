/* path_plain.cl: the recursion study's methods that need no cooperative kernel, as ordinary
 * kernels of one program (path.h inlined; the scene is PATH_SCENE):
 *   path_naive  one work-item per pixel, its samples and bounces in a loop;
 *   path_wave_launch  the host-driven wavefront's wave `wave` (path.h: survivors topped up with
 *               camera paths), a group a chunk of local-size paths, the survivors compacted into
 *               `out`; the host reads counts[wave % 3] back to size the next launch; with
 *               `last` (path.h's path_wave_last), each path traced to its end instead. */
#define PATH_GROUP_SYNC() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#include "path.h"

kernel void path_naive(global uint *image, uint width, uint height, uint spp, uint depth)
{
    uint pixel = get_global_id(0);
    if (pixel >= width * height)
        return;
    uint sum[3];
    path_pixel(PATH_SCENE, width, height, spp, depth, pixel, sum);
    image[pixel * 3u] = sum[0];
    image[pixel * 3u + 1u] = sum[1];
    image[pixel * 3u + 2u] = sum[2];
}

kernel void path_wave_launch(global uint *image, uint width, uint height, uint spp, uint depth,
                             global const uint *in, global uint *out, global uint *counts, uint live, uint fresh,
                             uint made, uint wave, uint last, uint capacity)
{
    local uint share[2];
    if (last) {
        if (get_global_id(0) < live + fresh)
            path_wave_finish(PATH_SCENE, width, height, depth, in, capacity, get_global_id(0), live, made, image);
        return;
    }
    if (get_global_id(0) == 0)
        counts[(wave + 1u) % PATH_WAVE_COUNTS] = 0;
    path_wave_group(PATH_SCENE, width, height, depth, in, capacity, get_group_id(0) * get_local_size(0), live, fresh,
                    made, out, counts + wave % PATH_WAVE_COUNTS, image, share);
}
