/* path_plain.cl: the recursion study's methods that need no cooperative kernel, as ordinary
 * kernels of one program (path.h inlined):
 *   path_naive     one work-item per pixel, its samples and bounces in a loop;
 *   path_generate  the host-driven wavefront's first wave: sample `sample` of every pixel;
 *   path_extend_wave  one bounce of `count` paths, the survivors compacted into `out`; the host
 *                  reads *out_count back to size the next launch. */
#include "path.h"

kernel void path_naive(global uint *image, uint width, uint height, uint spp, uint depth)
{
    uint pixel = get_global_id(0);
    if (pixel >= width * height)
        return;
    uint sum[3];
    path_pixel(width, height, spp, depth, pixel, sum);
    image[pixel * 3u] = sum[0];
    image[pixel * 3u + 1u] = sum[1];
    image[pixel * 3u + 2u] = sum[2];
}

kernel void path_generate(global uint *paths, uint width, uint height, uint sample)
{
    uint pixel = get_global_id(0);
    if (pixel < width * height) {
        path_ray ray = path_camera(width, height, pixel, sample);
        path_store(paths, pixel, &ray);
    }
}

kernel void path_extend_wave(global const uint *in, uint count, global uint *out, global uint *out_count,
                             global uint *image, uint depth)
{
    uint index = get_global_id(0);
    if (index < count)
        path_extend(in, index, out, out_count, image, depth);
}
