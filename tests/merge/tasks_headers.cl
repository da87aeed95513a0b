/* A task that uses the header headers.cl includes too. */
#include "include/grid.h"

kernel void stamp(global uint *out, uint seed)
{
    span s = my_span();
    out[s.first] = mix(seed, s.stride);
}
