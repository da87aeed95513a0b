/* coop-chaos's cooperative kernel, in the language of Sorensen, Evrard and Donaldson,
 * "Cooperative Kernels" (FSE 2017), as coop-merge takes it: every round adds one to every
 * element of `data`, split over the groups there are now, and a resizing barrier ends the round
 * (groups may be killed or forked there). Whatever kills and forks happen, every element ends
 * equal to `count`. */
kernel void rounds(global uint *data, uint n, uint count)
{
    transmit uint round = 0;   /* a forked group resumes in the round after its fork */
    while (round < count) {
        uint m = shared_num_groups();   /* M read once for the whole group */
        for (uint i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n; i += m * get_local_size(0))
            data[i] += 1;
        round++;
        resizing_global_barrier();
    }
}
