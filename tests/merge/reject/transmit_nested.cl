kernel void nested_transmit(global uint *data, uint rounds)
{
    for (uint r = 0; r < rounds; r++) {
        transmit uint seen = r;
        data[get_global_id(0)] += seen;
        resizing_global_barrier();
    }
}
