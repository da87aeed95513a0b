/* A transmit variable inside the dimension of get_num_groups(): the call is replaced whole, and
 * the variable's own rewrite overlapped it ("internal error: overlapping rewrites"). */
kernel void sizes(global uint *data, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        data[get_num_groups(sizeof(round) - 4)] += 1; // error: variable 'round' in the dimension
        round++;
        resizing_global_barrier();
    }
}
