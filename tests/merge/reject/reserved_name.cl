uint offset(uint ctx)
{
    return ctx + get_group_id(0);
}

kernel void reserved(global uint *data)
{
    data[get_global_id(0)] = offset(1);
}
