/* smith seed 90237: helpers in an included header. */
uint share_h(local uint *s, uint v)
{
    if (get_local_id(0) == 0)
        s[0] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint r = s[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
