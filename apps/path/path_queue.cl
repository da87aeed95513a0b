/* path_queue.cl: the persistent-queue method in the paper's language: paths travel in bundles of
 * local-size records, and a bundle is a task of the kernel library's work-stealing queue
 * (kernels/lib/ws_deque.h). A group takes a bundle, tops it up with new camera paths from a
 * counter, extends every path by one bounce, compacts the survivors back into the bundle and
 * re-enqueues it itself; a bundle that finds no path left retires, and the run ends when every
 * bundle has. Between two tasks the group holds nothing, and may be killed or forked there.
 *
 * Paths are numbered sample-major: path p is sample p / (width x height) of pixel
 * p % (width x height). Buffers: image (path.h); bundles (`slots` x local size records, where
 * `slots` is the number of tasks the host seeds: task s is bundle s); bundle_live (a word a
 * bundle: its stored paths, zero before the run); next_path (one word, zero before the run);
 * queue_words (ws_layout.h, seeded with tasks 0 .. slots - 1). */
#include "path.h"
#include "ws_deque.h"

/* Local words: the new paths' first number, the stored paths, the new paths, the survivors. */
#define PATH_SHARE_WORDS 4u

/* Bundle `slot`'s next bounce, by every work-item of the group (`have`: the group got a task). */
inline void path_queue_task(ws_queue *q, uint have, uint slot, global uint *image, uint width, uint height,
                            uint spp, uint depth, global uint *bundles, global uint *bundle_live,
                            global uint *next_path, local uint *share)
{
    uint lid = get_local_id(0), size = get_local_size(0), pixels = width * height;
    uint total = pixels * spp;
    if (lid == 0) {
        uint stored = have ? bundle_live[slot] : 0u, fresh = 0, first = 0;
        if (have && stored < size) {
            first = atomic_add(next_path, size - stored);
            fresh = first < total ? min(size - stored, total - first) : 0u;
        }
        share[0] = first;
        share[1] = stored;
        share[2] = fresh;
        share[3] = 0;
    }
    coop_group_sync();
    uint first = share[0], stored = share[1], fresh = share[2];
    global uint *bundle = bundles + (size_t)slot * size * PATH_RECORD_WORDS;
    path_ray ray;
    if (lid < stored) {
        ray = path_load(bundle, size, lid);
    } else if (lid < stored + fresh) {
        uint path = first + (lid - stored);
        ray = path_camera(PATH_SCENE, width, height, path % pixels, path / pixels);
    }
    coop_group_sync();   /* every stored path read before the survivors overwrite the bundle */
    if (lid < stored + fresh) {
        path_vec light;
        if (path_bounce(PATH_SCENE, &ray, depth, &light))
            path_store(bundle, size, atomic_inc(&share[3]), &ray);
        else
            path_accumulate(image, ray.pixel, light);
    }
    coop_group_sync();   /* the survivors written before local id 0 publishes the bundle */
    if (lid == 0 && have) {
        if (stored + fresh > 0u) {
            bundle_live[slot] = share[3];
            ws_push(q, get_group_id(0), slot);
        }
        ws_task_done(q);
    }
}

kernel void path_queue(global uint *image, uint width, uint height, uint spp, uint depth, global uint *bundles,
                       global uint *bundle_live, global uint *next_path, global uint *queue_words, uint queue_groups,
                       uint queue_capacity, uint queue_shared)
{
    local uint slots[WS_SLOT_WORDS];
    local uint share[PATH_SHARE_WORDS];
    transmit ws_queue q = ws_queue_make(queue_words, queue_groups, queue_capacity, queue_shared);
    transmit uint done = 0;
    while (!done) {
        uint task;
        uint got = ws_next_task(&q, slots, &task);
        done = got == WS_DONE;
        path_queue_task(&q, got == WS_GOT, task, image, width, height, spp, depth, bundles, bundle_live, next_path,
                        share);
        offer_kill();
        offer_fork();
    }
}
