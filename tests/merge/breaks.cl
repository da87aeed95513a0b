/* Loops that end by break. The first breaks before its resizing barrier: `while (1) { ...;
 * if (done) break; resizing_global_barrier(); }`; the second after a vote declared in its body:
 * `int more = resizing_global_barrier_any(...); if (!more) break;`. Every round of each adds one
 * to every element; the group that owns element 0 records how many rounds there were. */
kernel void breaks(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (1) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += 1;
        round++;
        if (round == rounds)
            break;
        resizing_global_barrier();
    }
    global_barrier();
    while (1) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += 1;
        round++;
        /* one work-item of group 0 says whether to go on: the vote tells everyone */
        int more = resizing_global_barrier_any(get_group_id(0) == 0 && get_local_id(0) == 0 && round < 2 * rounds);
        if (!more)
            break;
    }
    if (get_global_id(0) == 0)
        data[n] = round;
}
