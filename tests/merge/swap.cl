/* Ping-pong buffers: the two pointers are swapped after every round and handed to forked groups
 * as transmit state. Round r: next[i] = previous[i] + previous[(i + 1) % n]. */
kernel void swap(global uint *first, global uint *second, uint n, uint rounds)
{
    transmit global uint *from = first;
    transmit global uint *to = second;
    transmit uint round = 0;
    while (round < rounds) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            to[i] = from[i] + from[(i + 1) % n];
        global uint *held = from;
        from = to;
        to = held;
        round++;
        resizing_global_barrier();
    }
}
