/* sched-bench's round loop, barrier style: rounds of work separated by resizing barriers. Its
 * standalone form (coop-merge --standalone: global barriers) is the plain baseline. */
#include "work.h"

kernel void sched_rounds(uint rounds, uint iters, global uint *sink)
{
    transmit uint round = 0;
    while (round < rounds) {
        uint g = get_group_id(0);
        sink[SINK_SLOT(g)] = unit_work(round + g, iters);
        round++;
        resizing_global_barrier();
    }
}
