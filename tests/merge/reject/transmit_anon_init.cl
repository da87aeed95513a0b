/* A transmit variable of an anonymous struct with an initializer list. */
kernel void anon(global uint *data, uint rounds)
{
    transmit struct { uint round; uint sum; } state = {0, 0};
    while (state.round < rounds) {
        data[get_global_id(0)] += state.sum;
        state.round++;
        resizing_global_barrier();
    }
}
