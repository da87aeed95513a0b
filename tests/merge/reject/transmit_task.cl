kernel void task_with_state(global uint *out)
{
    transmit uint count = 0;
    out[get_global_id(0)] = count;
}
