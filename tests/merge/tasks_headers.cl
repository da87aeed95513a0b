/* Tasks beside headers.cl: one uses the header headers.cl includes too, one reads the two
 * arguments its plan passes (coop_task_plan.args). */
#include "include/grid.h"

kernel void stamp(global uint *out, uint seed)
{
    span s = my_span();
    out[s.first] = mix(seed, s.stride);
}

kernel void plan_args(global uint *out)
{
    out[get_global_id(0)] = get_task_arg(0) * 1000u + get_task_arg(1) + (uint)get_global_id(0);
}
