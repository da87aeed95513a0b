/* A transmit variable of a struct type the kernel defines itself. */
kernel void local_type(global uint *data, uint rounds)
{
    transmit struct step { uint round; uint sum; } state;
    state.round = 0;
    while (state.round < rounds) {
        data[get_global_id(0)] += 1;
        state.round++;
        resizing_global_barrier();
    }
}
