/* path_wave.cl: the wavefront method as one cooperative kernel: waves of at most `capacity` paths
 * (path.h: the survivors of the wave before, topped up with new camera paths of every sample),
 * each extended by one bounce and its survivors compacted (an atomic a group), waves apart at
 * resizing barriers, until every path is made and the last wave's paths fit one pass of the
 * groups, which trace them to their ends without a barrier more. No host round trip: every group
 * reads the next wave's size after the barrier. Each wave splits its paths by the groups there are
 * after the barrier before it, so groups may be killed or forked at every one.
 *
 * Buffers: image (path.h); paths_a, paths_b (`capacity` records each: a wave reads one and writes
 * the other); counts (PATH_WAVE_COUNTS words, zero before the run). */
#include "path.h"

kernel void path_wave(global uint *image, uint width, uint height, uint spp, uint depth, global uint *paths_a,
                      global uint *paths_b, global uint *counts, uint capacity)
{
    local uint share[2];
    /* the waves and paths made so far, the same in every group: a forked group resumes the loop */
    transmit uint wave = 0, made = 0;
    while (1) {
        /* inside the loop: a forked group resumes there, after the kernel's first statements */
        uint total = width * height * spp, size = get_local_size(0);
        uint live = wave ? coop_load_relaxed(counts + (wave - 1u) % PATH_WAVE_COUNTS) : 0u;
        if (live == 0u && made == total)
            break;
        uint fresh = path_wave_fresh(capacity, live, made, total);
        global uint *in = wave % 2u ? paths_b : paths_a;
        global uint *out = wave % 2u ? paths_a : paths_b;
        if (path_wave_last(live, fresh, made, total, get_global_size(0))) {
            for (uint index = get_global_id(0); index < live + fresh; index += get_global_size(0))
                path_wave_finish(PATH_SCENE, width, height, depth, in, capacity, index, live, made, image);
            break;
        }
        if (get_global_id(0) == 0)
            counts[(wave + 1u) % PATH_WAVE_COUNTS] = 0;
        for (uint first = get_group_id(0) * size; first < live + fresh; first += get_num_groups(0) * size)
            path_wave_group(PATH_SCENE, width, height, depth, in, capacity, first, live, fresh, made, out,
                            counts + wave % PATH_WAVE_COUNTS, image, share);
        made += fresh;
        wave++;
        resizing_global_barrier();
    }
}
