uint depth(uint n);

uint climb(uint n)
{
    return n == 0 ? 0 : depth(n - 1) + 1;
}

uint depth(uint n)
{
    return climb(n);
}

kernel void recursive(global uint *data)
{
    data[get_global_id(0)] = depth(4);
}
