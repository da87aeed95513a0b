/* A helper call inside the dimension of get_group_id(): a call with dimension 1 stays as written,
 * and the helper, which takes the context now, is left without it (clang: "too few arguments"). */
uint first(void)
{
    return get_group_id(0);
}

kernel void sizes(global uint *data)
{
    data[get_group_id(sizeof(first()) - 3)] = first(); // error: call to 'first' in the dimension
}
