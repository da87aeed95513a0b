kernel void heavy(global float *out)
{
    transmit float history[80];
    history[0] = 1.0f;
    offer_fork();
    out[get_global_id(0)] = history[0];
}
