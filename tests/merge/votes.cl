/* A loop that a vote ends: every round adds one to every element, split over the groups there
 * are now, and resizing_global_barrier_any() says whether another round follows. A group forked
 * at that barrier starts with the vote's outcome (the runtime hands it over with the fork), so it
 * stays in the loop exactly as long as the others. */
kernel void votes(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    transmit int more = 1;
    while (more) {
        uint m = get_num_groups(0);
        uint g = get_group_id(0);
        for (uint i = g * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))
            data[i] += 1;
        round++;
        more = resizing_global_barrier_any(get_local_id(0) == 0 && round < rounds);
    }
}
