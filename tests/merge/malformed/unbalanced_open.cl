kernel void unbalanced(global uint *data, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        data[get_global_id(0)] += 1;
        round++;
        resizing_global_barrier();
