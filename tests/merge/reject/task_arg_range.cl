/* A task asks for an argument the plan does not have. */
kernel void far(global uint *out)
{
    out[get_global_id(0)] = get_task_arg(16);
}
