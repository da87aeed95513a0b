kernel void inner(global uint *out);

kernel void caller(global uint *out)
{
    inner(out);
}
