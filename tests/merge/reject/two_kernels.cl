kernel void first(global uint *data)
{
    data[get_global_id(0)] = 1;
}

kernel void second(global uint *data)
{
    data[get_global_id(0)] = 2;
}
