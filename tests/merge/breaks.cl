/* A loop that ends by break, before its resizing barrier: `while (1) { ...; if (done) break;
 * resizing_global_barrier(); }`. Every round adds one to every element; the group that owns
 * element 0 records how many rounds there were. */
kernel void breaks(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (1) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] += 1;
        round++;
        if (round == rounds)
            break;
        resizing_global_barrier();
    }
    if (get_global_id(0) == 0)
        data[n] = round;
}
