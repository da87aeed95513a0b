/* sched-bench's high-priority task: a short computation per workgroup. */
#include "work.h"

kernel void task_short(uint task_iters, global uint *task_sink)
{
    uint g = get_group_id(0);
    /* the plan's argument 0 multiplies the work (sched-bench --in-flight's background tasks); 0: 1 */
    uint scale = max(get_task_arg(0), 1u);
    task_sink[SINK_SLOT(g)] = unit_work(g, task_iters * scale);
}
