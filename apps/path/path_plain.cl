/* path_plain.cl: the recursion study's methods that need no cooperative kernel, as ordinary
 * kernels of one program (path.h inlined; the scene is PATH_SCENE):
 *   path_naive     one work-item per pixel, its samples and bounces in a loop;
 *   path_generate  the host-driven wavefront's first wave: sample `sample` of every pixel;
 *   path_extend_wave  one bounce of `count` paths, a group a chunk of local-size paths, the
 *                  survivors compacted into `out`; the host reads *out_count back to size the
 *                  next launch. */
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

kernel void path_generate(global uint *paths, uint width, uint height, uint sample)
{
    uint pixel = get_global_id(0);
    if (pixel < width * height) {
        path_ray ray = path_camera(PATH_SCENE, width, height, pixel, sample);
        path_store(paths, pixel, &ray);
    }
}

kernel void path_extend_wave(global const uint *in, uint count, global uint *out, global uint *out_count,
                             global uint *image, uint depth)
{
    local uint share[2];
    path_extend_group(PATH_SCENE, in, get_group_id(0) * get_local_size(0), count, out, out_count, image, depth, share);
}
