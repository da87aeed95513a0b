/* smith seed 90296: tasks reading their plan's arguments. */
kernel void smith_task0(global uint *tout0, uint tn0)
{
    uint g = get_global_id(0);
    if (g < tn0)
        tout0[g] = get_task_arg(0) * 5u + g * 3u + get_task_arg(1);
}
