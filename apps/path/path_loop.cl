/* path_loop.cl: the mega-loop method in the paper's language: persistent groups take the next
 * local-size pixels from a counter, a work-item a pixel with all its samples and bounces, until
 * none is left; between two takes the group holds nothing, and may be killed or forked there.
 *
 * Buffers: image (path.h), next_pixel (one word, zero before the run). */
#include "path.h"

kernel void path_loop(global uint *image, uint width, uint height, uint spp, uint depth, global uint *next_pixel)
{
    local uint first_pixel[1];
    uint pixels = width * height;
    while (1) {
        if (get_local_id(0) == 0)
            first_pixel[0] = atomic_add(next_pixel, (uint)get_local_size(0));
        coop_group_sync();
        uint first = first_pixel[0];
        coop_group_sync();   /* every work-item read it before local id 0 writes the next */
        if (first >= pixels)
            break;
        uint pixel = first + get_local_id(0);
        if (pixel < pixels) {
            uint sum[3];
            path_pixel(PATH_SCENE, width, height, spp, depth, pixel, sum);
            image[pixel * 3u] = sum[0];
            image[pixel * 3u + 1u] = sum[1];
            image[pixel * 3u + 2u] = sum[2];
        }
        offer_kill();
        offer_fork();
    }
}
