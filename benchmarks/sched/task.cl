/* sched-bench's high-priority task: a short computation per workgroup. */
#include "work.h"

kernel void task_short(uint task_iters, global uint *task_sink)
{
    uint g = get_group_id(0);
    task_sink[SINK_SLOT(g)] = unit_work(g, task_iters);
}
