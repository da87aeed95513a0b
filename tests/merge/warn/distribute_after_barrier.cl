/* The same work once a global barrier follows offer_kill(): every group agrees on the number. */
kernel void after_barrier(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        offer_kill();
        global_barrier();
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += 1;
        round++;
        global_barrier();
    }
}
