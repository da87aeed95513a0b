kernel void spawns_many(global uint *out)
{
    if (get_local_id(0) == 0)
        out[0] = spawn_task("count", 1, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u);
}
