/* tree_spawn.cl: coop-multi's third cooperative kernel, work stealing that spawns work on the
 * device (issue 43, item 5). Task t < limit of a binary tree (kernels/lib/ws_deque.h) counts
 * itself in seen[t] and pushes 2t + 1 and 2t + 2; a task whose index is a multiple of `every`
 * hands a run of leaf.cl to the device's scheduler with spawn_task("leaf", 1, t), without the
 * host, and notes the status in spawned[t] (1 + the status: SPAWN_OK, or SPAWN_FULL when the
 * queue is full, a defined outcome). The host checks every task seen once, and leaves[t] = 1
 * exactly where the spawn was taken. */
#include "ws_deque.h"

kernel void tree_spawn(global uint *queue_words, uint queue_groups, uint limit, uint every, global uint *seen,
                       global uint *spawned)
{
    local uint slots[WS_SLOT_WORDS];
    transmit ws_queue q = ws_queue_make(queue_words, queue_groups, 8u, limit);
    transmit uint done = 0;
    while (!done) {
        uint task;
        uint got = ws_next_task(&q, slots, &task);
        done = got == WS_DONE;
        if (got == WS_GOT && get_local_id(0) == 0) {
            coop_fetch_add(&seen[task], 1u);
            if (task % every == 0u)
                spawned[task] = 1u + (uint)spawn_task("leaf", 1, task);
            for (uint c = 2u * task + 1u; c <= 2u * task + 2u; c++)
                if (c < limit)
                    ws_push(&q, get_group_id(0), c);
            ws_task_done(&q);
        }
        offer_kill();
        offer_fork();
    }
}
