uint twice(uint x)
{
    return 2 * x;
}

kernel void dup(global uint *out)
{
    out[get_global_id(0)] = twice(3);
}
