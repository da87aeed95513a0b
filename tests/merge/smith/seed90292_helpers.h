/* smith seed 90292: helpers in an included header. */
uint lsum_1(local uint *s, uint v)
{
    s[get_local_id(0)] = v + 8u * (uint)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sum = 0;
    for (uint j = 0; j < get_local_size(0); j++)
        sum += s[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    return sum;
}
