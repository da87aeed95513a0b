kernel void private_control(global uint *data, uint rounds)
{
    transmit uint done = 0;
    uint r = 0;
    while (r < rounds) {
        data[get_global_id(0)] += done;
        r++;
        offer_fork();
    }
}
