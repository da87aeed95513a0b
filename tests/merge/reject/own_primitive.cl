void global_barrier(void)
{
    barrier(CLK_GLOBAL_MEM_FENCE);
}

kernel void shadowing(global uint *out)
{
    global_barrier();
    out[0] = 1;
}
