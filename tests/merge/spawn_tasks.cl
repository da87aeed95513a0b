/* Tasks that spawn.cl spawns. */
kernel void square(global uint *list, global uint *squares)
{
    uint first = get_task_arg(0), items = get_task_arg(1);
    if (get_global_id(0) < items)
        squares[first + get_global_id(0)] = list[first + get_global_id(0)] * list[first + get_global_id(0)];
}

/* Runs at depth `depth` (its first argument) and spawns itself one deeper; the spawn's status is
 * kept per depth. */
kernel void chain(global uint *depths, global uint *chain_statuses)
{
    uint depth = get_task_arg(0);
    if (get_local_id(0) == 0) {
        depths[depth] += 1u;
        chain_statuses[depth] = spawn_task("chain", 1, depth + 1u) + 1u;
    }
}

/* Adds its argument to a total: every run counted once. */
kernel void count(global uint *total)
{
    if (get_local_id(0) == 0)
        atomic_add(total, get_task_arg(0));
}
