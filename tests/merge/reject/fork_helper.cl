void step(global uint *data)
{
    data[get_global_id(0)] += 1;
    offer_fork();
}

kernel void uses_helper(global uint *data, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        step(data);
        round++;
        global_barrier();
    }
}
