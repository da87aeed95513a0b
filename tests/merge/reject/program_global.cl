/* A program-scope variable outside the constant address space: OpenCL C 2.0 takes it, PoCL (OpenCL
 * C 3.0 without program-scope global variables) does not. */
const uint limit = 4;

kernel void constants(global uint *data)
{
    data[get_global_id(0)] = limit;
}
