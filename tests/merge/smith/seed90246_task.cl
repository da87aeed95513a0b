/* smith seed 90246: tasks reading their plan's arguments. */
kernel void smith_task0(global uint *tout0, uint tn0)
{
    uint g = get_global_id(0);
    if (g < tn0)
        tout0[g] = get_task_arg(0) * 6u + g * 3u + get_task_arg(1);
}

kernel void smith_task1(global uint *tout1)
{
    local uint t[32];
    uint g = get_global_id(0);
    t[get_local_id(0)] = g + get_task_arg(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    tout1[g] = t[(get_local_id(0) + 1) % get_local_size(0)] * 9u;
}
