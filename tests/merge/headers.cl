/* Rounds whose work distribution comes from helpers in an #included header. Round r updates
 * every element with mix(), so the result is known whatever kills and forks happen. */
#include "include/grid.h"

kernel void headers(global uint *data, uint n, uint rounds)
{
    transmit uint round = 0;
    while (round < rounds) {
        span s = my_span();
        for (uint i = s.first; i < n; i += s.stride)
            data[i] = mix(data[i], round);
        round++;
        resizing_global_barrier();
    }
}
