/* path_wave.cl: the wavefront method as one cooperative kernel: for each sample, a wave makes
 * every pixel's camera ray, then each wave extends the live paths by one bounce and compacts the
 * survivors (a counter per wave, an atomic a group), waves apart at resizing barriers, until no path is left
 * or the depth is reached. No host round trip: every group reads the next wave's size after the
 * barrier. Each wave splits its paths by the groups there are after the barrier before it, so
 * groups may be killed or forked at every one.
 *
 * Buffers: image (path.h); paths_a, paths_b (width x height records each: a wave reads one and
 * writes the other); counts (spp x (depth + 1) words, zero before the run: the size of wave
 * `bounce` of sample `sample` is counts[sample * (depth + 1) + bounce], written by wave bounce - 1). */
#include "path.h"

kernel void path_wave(global uint *image, uint width, uint height, uint spp, uint depth, global uint *paths_a,
                      global uint *paths_b, global uint *counts)
{
    local uint share[2];
    transmit uint live = 0;
    uint pixels = width * height;
    for (uint sample = 0; sample < spp; sample++) {
        for (uint pixel = get_global_id(0); pixel < pixels; pixel += get_global_size(0)) {
            path_ray ray = path_camera(PATH_SCENE, width, height, pixel, sample);
            path_store(paths_a, pixel, &ray);
        }
        live = pixels;
        resizing_global_barrier();
        for (uint bounce = 0; bounce < depth && live > 0u; bounce++) {
            global uint *in = bounce % 2u ? paths_b : paths_a;
            global uint *out = bounce % 2u ? paths_a : paths_b;
            global uint *out_count = counts + sample * (depth + 1u) + bounce + 1u;
            uint size = get_local_size(0);
            for (uint first = get_group_id(0) * size; first < live; first += get_num_groups(0) * size)
                path_extend_group(PATH_SCENE, in, first, live, out, out_count, image, depth, share);
            resizing_global_barrier();
            live = coop_load_relaxed(out_count);
        }
    }
}
