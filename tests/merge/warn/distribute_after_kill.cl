/* Work spread by the number of groups right after offer_kill(): a group killed there changes it
 * while the others still spread work by it. */
kernel void after_kill(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        offer_kill();
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += 1;
        round++;
        global_barrier();
    }
}
