/* The example megakernel's cooperative kernel (kernels/examples/rounds.cl), as users write it. */
kernel void rounds(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        uint m = get_num_groups(0);
        uint g = get_group_id(0);
        for (uint i = g * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))
            data[i] += 1;
        round++;
        resizing_global_barrier();
    }
}
