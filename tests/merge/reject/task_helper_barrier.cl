void publish(global uint *out)
{
    out[get_global_id(0)] = 1;
    global_barrier();
}

kernel void publishes(global uint *out)
{
    publish(out);
}
