kernel void spawns_unnamed(global uint *out)
{
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = spawn_task(0, 1, 2u);
}
