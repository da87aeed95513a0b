/* Tasks that hand_out.cl and chains.cl spawn (tests/test_share.c). */
kernel void square(global uint *list, global uint *squares)
{
    uint first = get_task_arg(0), items = get_task_arg(1);
    if (get_global_id(0) < items)
        squares[first + get_global_id(0)] = list[first + get_global_id(0)] * list[first + get_global_id(0)];
}

/* Link `depth` of chain `chain` (its arguments; a chain is `length` links at most): counts
 * itself and spawns the next link while the chain is shorter than `length`; the spawn's status
 * + 1 is kept per chain and depth (SPAWN_TOO_DEEP past the depth limit, SPAWN_NO_WORK at the
 * chain's length, where it spawned none). */
kernel void chain_link(global uint *links, global uint *link_statuses)
{
    uint chain = get_task_arg(0), depth = get_task_arg(1), length = get_task_arg(2);
    if (get_global_id(0) == 0) {
        links[chain * 16u + depth] += 1u;
        int status = SPAWN_NO_WORK;
        if (depth < length)
            status = spawn_task("chain_link", 1, chain, depth + 1u, length);
        link_statuses[chain * 16u + depth] = (uint)status + 1u;
    }
}

/* Adds its argument to a total: every run counted once. */
kernel void bump(global uint *bumped)
{
    if (get_local_id(0) == 0)
        atomic_add(bumped, get_task_arg(0));
}
