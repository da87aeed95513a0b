/* coop-chaos's high-priority task beside rounds.cl: every work-item writes a value made of its
 * group, its local id and the plan's argument 0 (the chaos seed), which the host checks. */
kernel void fill(global uint *out)
{
    uint g = get_group_id(0);
    out[g * get_local_size(0) + get_local_id(0)] = g * 7u + get_local_id(0) + get_task_arg(0);
}
