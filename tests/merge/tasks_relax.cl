/* Two tasks beside relax.cl: one that squares its global ids, one that goes through local
 * memory with a work-group barrier. */
kernel void square(global uint *out, uint offset)
{
    uint i = get_global_id(0);
    out[i] = i * i + offset;
}

kernel void blur(global float *smooth, float factor)
{
    local float tile[64];
    uint lid = get_local_id(0);
    tile[lid % 64] = (float)get_global_id(0) * factor;
    barrier(CLK_LOCAL_MEM_FENCE);
    smooth[get_global_id(0)] = tile[(lid + 1) % 64 % get_local_size(0)];
}
