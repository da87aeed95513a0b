/* The vote's result is tested directly instead of assigned to a variable. */
kernel void vote(global uint *data, uint n)
{
    uint i = 0;
    while (global_barrier_any(i < n))
        i++;
    data[0] = i;
}
