kernel void broken(global uint *data)
{
    data[get_global_id(0)] = undeclared_value;
}
