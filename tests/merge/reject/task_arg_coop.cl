/* get_task_arg() reads a task plan's arguments: the cooperative kernel has none. */
kernel void coop_args(global uint *data)
{
    data[get_global_id(0)] = get_task_arg(0);
}
