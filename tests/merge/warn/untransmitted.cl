/* A counter that a forked group needs but does not receive (the FSE'17 artifact's barrier example
 * without its transmit). */
kernel void counts(global uint *data, uint rounds)
{
    uint i = 0;
    while (1) {
        i++;
        resizing_global_barrier();
        if (i == rounds)
            break;
    }
    data[get_global_id(0)] = i;
}
