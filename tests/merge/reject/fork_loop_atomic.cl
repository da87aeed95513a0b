/* libcoop's atomics (declared in the prelude) are side effects like OpenCL's own. */
kernel void claims(global uint *next, global uint *data, uint n)
{
    while (coop_fetch_add(next, 1u) < n) {
        data[get_group_id(0)] += 1;
        offer_fork();
    }
}
