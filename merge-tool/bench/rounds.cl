/* sched.cl's rounds_coop as a user writes it for coop-merge: rounds of work separated by resizing
 * barriers. merge-bench times coop-merge's megakernel of it against sched.cl's hand-written one. */
#include "work.h"

kernel void rounds_coop(uint rounds, uint iters, global uint *sink)
{
    transmit uint round = 0;
    while (round < rounds) {
        uint g = get_group_id(0);
        sink[SINK_SLOT(g)] = unit_work(round + g, iters);
        round++;
        resizing_global_barrier();
    }
}
