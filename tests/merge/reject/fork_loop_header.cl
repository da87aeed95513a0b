kernel void header_variable(global uint *data, uint rounds)
{
    for (uint r = 0; r < rounds; r++) {
        data[get_global_id(0)] += 1;
        resizing_global_barrier();
    }
}
