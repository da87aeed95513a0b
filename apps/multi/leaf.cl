/* leaf.cl: the task tree_spawn.cl spawns: counts its tree task (its argument) as served. */
kernel void leaf(global uint *leaves)
{
    if (get_global_id(0) == 0)
        atomic_add(&leaves[get_task_arg(0)], 1u);
}
