uint twice(uint x)
{
    return x + x;
}

kernel void dup_task(global uint *out)
{
    out[get_global_id(0)] = twice(4);
}
