/* tests/test_ws.c's deque test: a binary tree of tasks through kernels/lib/ws_deque.h. Task
 * t < limit pushes 2t + 1 and 2t + 2; every task counts itself in `seen`. Group deques of 8 slots
 * make pushes spill to the shared deque too. The test runs its standalone form
 * (kernels/generated/ws_tree_standalone.cl). */
#include "lib/ws_deque.h"

kernel void ws_tree(global uint *queue_words, uint queue_groups, uint limit, global uint *seen)
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
            for (uint c = 2u * task + 1u; c <= 2u * task + 2u; c++)
                if (c < limit)
                    ws_push(&q, get_group_id(0), c);
            ws_task_done(&q);
        }
        offer_kill();
        offer_fork();
    }
}
