/* spawn-bench's spawned task: its first work-item marks its run started. */
kernel void spawned(global uint *done)
{
    if (get_global_id(0) == 0)
        coop_store_release(&done[get_task_arg(0)], 1u);
}
