/* smith seed 80155: helpers in an included header. */
uint rot_1(local uint *s, uint v)
{
    s[get_local_id(0)] = v * ((uint)get_local_id(0) + 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[(get_local_id(0) + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
