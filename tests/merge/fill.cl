/* A task: each workgroup writes its id, scaled, and the argument the plan passes. */
kernel void fill(global uint *out, uint seed)
{
    uint g = get_group_id(0);
    out[g * get_local_size(0) + get_local_id(0)] = g * 7u + get_local_id(0) + seed;
}
