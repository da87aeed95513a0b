/* A second cooperative kernel named as the first (tests/merge/rounds.cl): the host tells the
 * kernels apart by index, but the merged program by name. */
kernel void rounds(global uint *data, uint n)
{
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        data[i] = 1;
    global_barrier();
}
