/* Work spread by the number of groups, through a helper, up to offer_fork(): a faster group may
 * already have forked new groups there. */
uint stride(void)
{
    return get_num_groups(0) * get_local_size(0);
}

kernel void before_fork(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        global_barrier();
        for (uint i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n; i += stride())
            data[i] += 1;
        round++;
        offer_fork();
    }
}
