kernel void inner(global uint *out)
{
    out[0] = 1;
}
