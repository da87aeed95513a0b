/* Work stealing in rounds, each ended by a resizing barrier: every round walks a binary tree of
 * tasks through kernels/lib/ws_deque.h (task t < limit pushes 2t + 1 and 2t + 2) and counts each
 * task in seen[round * limit + t]. ws_next_task holds a workgroup barrier, so a group that walks
 * to one of the three fork points skips it by a conditional. */
#include "../../kernels/lib/ws_deque.h"

kernel void ws_rounds(global uint *queue_words, uint queue_groups, uint limit, uint rounds, global uint *seen)
{
    local uint slots[WS_SLOT_WORDS];
    transmit ws_queue q = ws_queue_make(queue_words, queue_groups, 8u, limit);
    transmit uint round = 0;
    transmit uint done = 0;
    while (round < rounds) {
        if (get_group_id(0) == 0 && get_local_id(0) == 0)
            ws_push(&q, 0u, 0u);
        global_barrier();
        done = 0;
        while (!done) {
            uint task;
            uint got = ws_next_task(&q, slots, &task);
            done = got == WS_DONE;
            if (got == WS_GOT && get_local_id(0) == 0) {
                coop_fetch_add(&seen[round * limit + task], 1u);
                for (uint c = 2u * task + 1u; c <= 2u * task + 2u; c++)
                    if (c < limit)
                        ws_push(&q, get_group_id(0), c);
                ws_task_done(&q);
            }
            offer_kill();
            offer_fork();
        }
        round++;
        resizing_global_barrier();
    }
}
