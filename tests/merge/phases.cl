/* Fork points at the top level, in both branches of an if inside a do-while loop, and a kill point
 * in one branch. Step s adds s + 1 to every element, so the result is known whatever kills and
 * forks happen: data[i] == steps * (steps + 1) / 2, and data[n] holds the same total. The work is
 * shared by the current number of groups, so every kill and fork point comes after a barrier: a
 * group must not change M while another still shares out a step by it. */
kernel void phases(global uint *data, uint n, uint steps)
{
    transmit uint step = 0;
    transmit uint added = 0;
    offer_fork();
    global_barrier();
    do {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += step + 1;
        added += step + 1;
        if (step % 2 == 0) {
            resizing_global_barrier();
        } else {
            global_barrier();
            offer_kill();
            global_barrier();
            offer_fork();
            global_barrier();
        }
        step++;
    } while (step < steps);
    if (get_global_id(0) == 0)
        data[n] = added;
}
