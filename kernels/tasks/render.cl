/* render.cl: the `render` high-priority task, a task kernel for coop-merge (--task): frame
 * get_task_arg(0) of render.h's path tracer, get_task_arg(1) pixels wide and get_task_arg(2)
 * high, one tile per task workgroup. */
#include "render.h"

kernel void render(global uchar4 *frame)
{
    render_tile(frame, get_task_arg(1), get_task_arg(2), get_task_arg(0), get_group_id(0), get_num_groups(0));
}
