/* A for loop whose body ends, inside an if, with the only fork point: a forked group goes on with
 * the loop's increment. Element i is always updated by the group that owns it in the current
 * share-out, which changes only at the resizing barrier, so the result is the sequential one. */
kernel void sweep(global float *data, uint n, uint sweeps)
{
    transmit uint s;
    for (s = 0; s < sweeps; s++) {
        for (uint i = get_global_id(0); i < n; i += get_global_size(0))
            data[i] = data[i] * 0.5f + (float)s;
        if (s % 4 == 3) {
            global_barrier();
            resizing_global_barrier();
        }
    }
}
