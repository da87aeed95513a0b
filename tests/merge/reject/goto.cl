kernel void jumps(global uint *data, uint rounds)
{
    transmit uint round = 0;
again:
    data[get_global_id(0)] += 1;
    round++;
    resizing_global_barrier();
    if (round < rounds)
        goto again;
}
