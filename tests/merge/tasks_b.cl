/* A task in a second file: global ids and sizes are the task's own. */
kernel void stamp(global uint *out, uint seed)
{
    out[get_global_id(0)] = seed + (uint)get_global_size(0);
}
