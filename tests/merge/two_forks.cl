/* A helper holding workgroup barriers, called in a loop with a fork point, inside a loop that
 * ends with a resizing barrier (a second fork point). Member 0's work-item 1 adds each value the
 * helper shares, so that out[0] does not depend on the schedule; every member adds to out[1]. */
uint share(local uint *s, uint v)
{
    if (get_local_id(0) == 0)
        s[0] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

kernel void two_forks(global uint *out, uint rounds, uint n)
{
    local uint s[1];
    transmit uint round = 0;
    while (round < rounds) {
        for (uint i = 0; i < n; i++) {
            uint v = share(s, i);
            if (get_local_id(0) == 1) {
                if (get_group_id(0) == 0)
                    atomic_add(&out[0], v);
                atomic_add(&out[1], v);
            }
            offer_fork();
        }
        round++;
        resizing_global_barrier();
    }
}
