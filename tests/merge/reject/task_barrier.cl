kernel void waits(global uint *out)
{
    out[get_global_id(0)] = 1;
    global_barrier();
}
