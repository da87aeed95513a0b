/* A cooperative kernel that runs another one's barriers by calling it: each kernel's barriers
 * are its own groups'. */
kernel void rounds(global uint *data, uint n, uint rounds);

kernel void caller(global uint *data, uint n)
{
    rounds(data, n, 1u);
    global_barrier();
}
