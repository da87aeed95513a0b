#define MY_GROUP get_group_id(0)

kernel void through_macro(global uint *data)
{
    data[MY_GROUP] = 1;
}
