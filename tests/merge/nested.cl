/* Rounds of a two-deep loop nest: a resizing barrier in the inner loop, a kill point and a fork
 * point in the outer one, and helpers that ask for the group id. Every (i, j) round adds one to
 * each element, so data[k] == outer * inner at the end whatever kills and forks happen. */
uint first_item(void)
{
    return get_group_id(0) * get_local_size(0) + get_local_id(0);
}

uint stride(void)
{
    return get_num_groups(0) * get_local_size(0);
}

kernel void nested(global uint *data, uint n, uint outer, uint inner, global uint *last_round)
{
    transmit uint i;
    transmit uint j;
    local uint round[1];
    for (i = 0; i < outer; i++) {
        offer_kill();
        global_barrier();
        for (j = 0; j < inner; j++) {
            for (uint k = first_item(); k < n; k += stride())
                data[k] += 1;
            if (get_local_id(0) == 0)
                round[0] = i * inner + j + 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (get_group_id(0) == 0 && get_local_id(0) == 0)
                last_round[0] = round[0];
            resizing_global_barrier();
        }
        offer_fork();
        global_barrier();
    }
}
