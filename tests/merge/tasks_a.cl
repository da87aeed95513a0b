/* Two tasks, one with local memory, and a helper that asks for the group id. */
uint slot(uint stride)
{
    return get_group_id(0) * stride + get_local_id(0);
}

kernel void scale(global float *out, float factor)
{
    local float tile[64];
    uint lid = get_local_id(0);
    tile[lid % 64] = (float)slot(get_local_size(0)) * factor;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[slot(get_local_size(0))] = tile[lid % 64];
}

kernel void count(global uint *hits)
{
    if (get_local_id(0) == 0)
        atomic_inc(&hits[get_group_id(0)]);
}
