kernel void spawns_unknown(global uint *out)
{
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = spawn_task("cube", 1, 2u);
}
